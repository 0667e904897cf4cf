//===- BufferizableOpInterfaceImpl.cpp - one-shot-bufferize of gathers ----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A gather op on tensors bufferizes to the same op on buffers: it reads its
// source and indices and writes its init buffer in place, and the result is
// that buffer. The init's contents are never read (every output element is
// written), so bufferization need not copy them when it allocates.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::gather;

namespace {

template <typename OpTy>
struct GatherBufferizationModel
    : public DstBufferizableOpInterfaceExternalModel<
          GatherBufferizationModel<OpTy>, OpTy> {
  /// The source and the indices are read; the init is only written.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto gatherOp = cast<OpTy>(op);
    if (!gatherOp.hasPureTensorSemantics())
      return op->emitOpError("expected tensor operands to bufferize");
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    mlir::clone(rewriter, op, /*newResultTypes=*/{}, buffers);
    replaceOpWithBufferizedValues(rewriter, op, buffers.back());
    return success();
  }
};

} // namespace

void mlir::gather::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, GatherDialect *) {
    ctx->loadDialect<bufferization::BufferizationDialect,
                     memref::MemRefDialect>();
    MultiaxisOp::attachInterface<GatherBufferizationModel<MultiaxisOp>>(*ctx);
    BlockOp::attachInterface<GatherBufferizationModel<BlockOp>>(*ctx);
    ElementsOp::attachInterface<GatherBufferizationModel<ElementsOp>>(*ctx);
    NdOp::attachInterface<GatherBufferizationModel<NdOp>>(*ctx);
  });
}
