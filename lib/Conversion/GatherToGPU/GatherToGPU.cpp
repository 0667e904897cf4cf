//===- GatherToGPU.cpp - gather ops to device loops -----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU lowering reuses the one implementation of gather semantics
// (MultiaxisLowering): the element computation, the index policies and the
// run-time checks are the CPU's. Only two things differ:
//  - the loop form is the scalar linalg.generic (one thread per output
//    element once gather-map-to-gpu has mapped it), without the CPU's block
//    copies and vector rows;
//  - under `out_of_bounds = error` the gather's own kernel checks the index
//    values it reads (reading through a safe index) and raises a flag in
//    device memory, which the host copies back after the kernel and decides
//    on; indices that no kernel reads (an empty output) are checked by a
//    kernel over the indices that raises such a flag. When a flag is
//    raised, the host copies the indices back and finds the first invalid
//    one for the report, as the CPU does (the in-bounds path pays nothing).
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"
#include "MapToGPU.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOGPU
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// The linalg.generic loop form; a rank-0 output is computed as one element
/// of a 1-D tensor so that it, too, runs on the device.
static Value buildDeviceLoopNest(OpBuilder &b, Location loc, Value init,
                                 ElementFn element) {
  auto type = cast<RankedTensorType>(init.getType());
  if (type.getRank() > 0)
    return buildGenericLoopNest(b, loc, init, element);
  Value one = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{1},
                                      type.getElementType());
  Value filled = buildGenericLoopNest(
      b, loc, one, [&](OpBuilder &nb, Location nloc, ValueRange) {
        return element(nb, nloc, ValueRange{});
      });
  return tensor::CollapseShapeOp::create(b, loc, type, filled,
                                         ArrayRef<ReassociationIndices>{});
}

static constexpr int64_t kCheckThreadsPerBlock = 256;

/// A device flag that kernels raise for an invalid index: an i32 (gpu.memset
/// clears 32-bit words), zeroed on the stream before the kernels. A plain
/// alloc: buffer deallocation frees it, and gather-map-to-gpu moves it to
/// the device.
static Value buildDeviceErrorFlag(OpBuilder &b, Location loc, bool) {
  Value flag =
      memref::AllocOp::create(b, loc, MemRefType::get({}, b.getI32Type()));
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  gpu::MemsetOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, flag,
                        zero);
  return flag;
}

/// Copies the flag to the host after the kernels that raise it: i1 "raised".
static Value readDeviceErrorFlag(OpBuilder &b, Location loc, Value flag) {
  auto type = cast<MemRefType>(flag.getType());
  Value hostFlag = memref::AllocaOp::create(b, loc, type);
  auto copy = gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                                    hostFlag, flag);
  b.getContext()
      ->getLoadedDialect<GatherDialect>()
      ->getErrorFlagAttrHelper()
      .setAttr(copy, b.getUnitAttr());
  Value raised = memref::LoadOp::create(b, loc, hostFlag, ValueRange{});
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, raised,
      arith::ConstantIntOp::create(b, loc, type.getElementType(), 0));
}

/// "Every index is valid" for indices in device memory: an scf.parallel
/// over the indices (one device thread each after gather-map-to-gpu) stores
/// 1 into a device flag for an invalid value, and the host reads the flag
/// back. All writers store the same value, so the race is benign.
static Value buildDeviceAllOf(OpBuilder &b, Location loc, Value indices,
                              IndexCheckFn isValid) {
  auto tensorType = cast<RankedTensorType>(indices.getType());
  int64_t rank = tensorType.getRank();
  auto bufferType =
      MemRefType::get(tensorType.getShape(), tensorType.getElementType());
  Value buffer = bufferization::ToBufferOp::create(b, loc, bufferType, indices,
                                                   b.getUnitAttr());
  Value flag = buildDeviceErrorFlag(b, loc, /*insideLoop=*/false);
  Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(memref::DimOp::create(b, loc, buffer, d));
  // Mapped to a kernel right away: later canonicalization would fold a
  // one-iteration loop back into host code that reads device memory.
  scf::ParallelOp check = buildParallelOverShape(
      b, loc, sizes, [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
        Value value = memref::LoadOp::create(nb, nloc, buffer, ivs);
        Value lastPos = rank == 0 ? c0 : ivs.back();
        Value valid = isValid(nb, nloc, value, lastPos);
        Value invalid = arith::XOrIOp::create(
            nb, nloc, valid,
            arith::ConstantIntOp::create(nb, nloc, nb.getI1Type(), 1));
        scf::IfOp::create(nb, nloc, invalid, [&](OpBuilder &tb, Location tl) {
          memref::StoreOp::create(tb, tl, one, flag, ValueRange{});
          scf::YieldOp::create(tb, tl);
        });
      });
  // Through a rewriter that keeps `b`'s listener (a pattern driver).
  IRRewriter rewriter(b);
  (void)mapParallelLoopToGPU(rewriter, check, kCheckThreadsPerBlock);
  Value raised = readDeviceErrorFlag(b, loc, flag);
  return arith::XOrIOp::create(
      b, loc, raised, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
}

/// The indices in a host buffer, for the report's scan on the failing path:
/// a gpu.memcpy from their device buffer. The host buffer is a plain alloc
/// (the indices can be large for the stack) that only the copy and host
/// loads use, which gather-map-to-gpu keeps on the host; buffer deallocation
/// frees it.
static Value copyIndicesToHost(OpBuilder &b, Location loc, Value indices) {
  auto tensorType = cast<RankedTensorType>(indices.getType());
  auto bufferType =
      MemRefType::get(tensorType.getShape(), tensorType.getElementType());
  Value device = bufferization::ToBufferOp::create(b, loc, bufferType, indices,
                                                   b.getUnitAttr());
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < tensorType.getRank(); ++d)
    if (tensorType.isDynamicDim(d))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, device, d));
  Value host = memref::AllocOp::create(b, loc, bufferType, dynamicSizes);
  gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, host,
                        device);
  return host;
}

void mlir::gather::populateGatherToGPUPatterns(RewritePatternSet &patterns) {
  MultiaxisLoweringStrategy strategy;
  strategy.buildLoops = buildDeviceLoopNest;
  strategy.buildAllOf = buildDeviceAllOf;
  strategy.checkIndicesInLoops = true;
  strategy.buildErrorFlag = buildDeviceErrorFlag;
  strategy.readErrorFlag = readDeviceErrorFlag;
  // The indices are in device memory: the report of an invalid one scans a
  // host copy.
  strategy.indicesToHost = copyIndicesToHost;
  populateMultiaxisLoweringPatterns(patterns, strategy);
}

namespace {
struct ConvertGatherToGPUPass
    : gather::impl::ConvertGatherToGPUBase<ConvertGatherToGPUPass> {
  void runOnOperation() override {
    // Kernels are made from loops on tensors that the GPU pipeline then
    // bufferizes into device memory; a gather already on host buffers has
    // no such path.
    WalkResult onBuffers = getOperation()->walk([](GatherOpInterface op) {
      if (!isa<MemRefType>(op.getInit().getType()))
        return WalkResult::advance();
      op->emitOpError("on buffers cannot be lowered to GPU kernels: lower "
                      "gathers on tensors, before bufferization");
      return WalkResult::interrupt();
    });
    if (onBuffers.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateGatherToGPUPatterns(patterns);
    if (failed(
            applyGatherLoweringPatterns(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
