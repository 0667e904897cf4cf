//===- LoweringPlan.cpp - how one gather.multiaxis is lowered -------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoweringPlan.h"
#include "BlockCopy.h"
#include "IndexChecks.h"
#include "IndexTables.h"
#include "VectorRows.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

std::optional<uint64_t> lowering::staticTrailingBytes(RankedTensorType type,
                                                      int64_t start) {
  int64_t elementBytes = packedElementBytes(type.getElementType());
  if (!elementBytes)
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape().drop_front(start);
  if (ShapedType::isDynamicShape(shape))
    return std::nullopt;
  uint64_t bytes = elementBytes;
  for (int64_t size : shape)
    bytes = llvm::SaturatingMultiply<uint64_t>(bytes, size);
  return bytes;
}

std::optional<uint64_t> lowering::staticInputBytes(const LoweringState &s) {
  return staticTrailingBytes(cast<RankedTensorType>(s.op.getInput().getType()));
}

int64_t lowering::streamingStoreMinBytes(const LoweringState &s,
                                         RankedTensorType outputType) {
  int64_t elementBytes = packedElementBytes(outputType.getElementType());
  int64_t rowLength = outputType.getShape().back();
  int64_t minBytes = s.target.streamingStoreMinBytes();
  if (!elementBytes || minBytes < 1 ||
      (!ShapedType::isDynamic(rowLength) &&
       rowLength * elementBytes % s.target.cacheLineBytes != 0))
    return 0;
  // A dynamic size: checked at run time.
  std::optional<uint64_t> outputBytes = staticTrailingBytes(outputType);
  if (!outputBytes)
    return minBytes;
  uint64_t bytes = *outputBytes;
  if (bytes < static_cast<uint64_t>(minBytes))
    return 0;
  // Rows from a small input into an output the L3 holds stay in the caches
  // with it (CpuTarget::streamingInputMinBytes).
  std::optional<uint64_t> inputBytes = staticInputBytes(s);
  if (bytes < static_cast<uint64_t>(s.target.l3Bytes) && inputBytes &&
      *inputBytes < static_cast<uint64_t>(s.target.streamingInputMinBytes()))
    return 0;
  return minBytes;
}

void lowering::markStreamingStores(scf::ForallOp loop, int64_t minBytes,
                                   const LoweringState &s,
                                   RankedTensorType outputType) {
  if (minBytes < 1)
    return;
  MLIRContext *context = loop.getContext();
  auto *dialect = context->getLoadedDialect<GatherDialect>();
  auto i64 = IntegerType::get(context, 64);
  dialect->getStreamingStoresAttrHelper().setAttr(
      loop, IntegerAttr::get(i64, minBytes));
  // Rows of dynamic length: whole lines checked at run time.
  if (ShapedType::isDynamic(outputType.getShape().back()))
    dialect->getStreamingRowBytesAttrHelper().setAttr(
        loop, IntegerAttr::get(i64, s.target.cacheLineBytes));
}

LoweringPlan lowering::planLowering(const LoweringState &s,
                                    RankedTensorType outputType,
                                    const MultiaxisLoweringStrategy &strategy) {
  LoweringPlan plan;
  if (needsIndexCheck(s.op))
    plan.indexCheck = strategy.checkIndicesInLoops
                          ? LoweringPlan::IndexCheck::InLoops
                          : LoweringPlan::IndexCheck::BeforeLoops;
  // A stack slot per iteration of an enclosing loop would pile up; inside
  // a branch (the run-time versions of the lowering) it is one slot.
  for (Operation *parent = s.op->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp())
    plan.flagOnHeap |= isa<LoopLikeOpInterface>(parent);

  ArrayRef<int64_t> outputShape = outputType.getShape();
  int64_t blockStart =
      strategy.blockCopy ? contiguousBlockStart(s, outputShape) : s.rank;
  // An output with a static size 0 has no element: the plain loop nest
  // (slices would need offsets into empty dimensions, which
  // tensor.extract_slice rejects).
  bool staticallyEmpty = llvm::is_contained(outputShape, 0);
  // A block copy needs at least one loop dimension and one block dimension.
  bool useBlockCopy = !staticallyEmpty && blockStart > 0 && blockStart < s.rank;
  ArrayRef<int64_t> loopShape =
      useBlockCopy ? outputShape.take_front(blockStart) : outputShape;
  bool reused = shouldResolveIndices(s, loopShape);
  // Indices that many iterations reuse are resolved into a table of
  // coordinates first, where the lowering has vector forms at all (the
  // reference and device loops resolve in place: a table would be a second
  // loop nest of the same size); the vector rows resolve in registers.
  plan.coordinateTable = strategy.vectorize && reused;
  if (useBlockCopy) {
    plan.form = LoweringPlan::Form::BlockCopy;
    plan.blockStart = blockStart;
    return plan;
  }
  if (strategy.vectorize && !staticallyEmpty &&
      canVectorizeInnermost(s, outputType.getElementType())) {
    // Where interleaved coordinates are reused across many rows (the
    // broadcast dimensions of an NHWC lookup of (n, c) pairs), each tuple
    // is resolved once into a linear-offset table that the rows read
    // contiguously; a single innermost axis is resolved in registers.
    bool singleInnermostAxis =
        s.axes.size() == 1 && s.axes.front() == s.rank - 1;
    // A row reads its offsets along the table's last dimension, which must
    // then not be a broadcast at run time: a dynamic size there off the
    // axes could be 1 under a longer output row (found by the fuzzer: the
    // row read past its table).
    int64_t last = s.rank - 1;
    bool lastMayBroadcast =
        ShapedType::isDynamic(
            cast<RankedTensorType>(s.op.getIndices().getType())
                .getShape()
                .back()) &&
        !llvm::is_contained(s.axes, last);
    plan.form = LoweringPlan::Form::VectorRows;
    plan.offsetTable = reused && !singleInnermostAxis && !lastMayBroadcast;
    plan.coordinateTable = false;
    return plan;
  }
  plan.form = LoweringPlan::Form::ElementLoops;
  return plan;
}
