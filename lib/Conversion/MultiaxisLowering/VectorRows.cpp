//===- VectorRows.cpp - element gathers vectorized along rows -------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Genuine element gathers (no trailing block to copy) run one output row per
// scf.forall iteration, V lanes at a time: index values read contiguously or
// gathered along the indices row, the policy in vector arithmetic, and the
// elements fetched with one vector.gather. Rows whose offsets come from a
// table resolved before the loops load one element per iteration instead.
//
//===----------------------------------------------------------------------===//

#include "VectorRows.h"
#include "IndexTables.h"
#include "LoopOrder.h"
#include "LoweringPlan.h"
#include "Prefetch.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// Element gathers whose innermost output dimension is not a copied block
/// are vectorized along that dimension. i1 has no byte-addressed vector
/// form; other integers and floats do.
bool lowering::canVectorizeInnermost(const LoweringState &s, Type elementType) {
  if (s.rank < 2 || s.axes.empty() || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() < 8)
    return false;
  // An empty input has nothing to gather (and cannot be collapsed with a
  // dynamic size).
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  if (llvm::is_contained(inputType.getShape(), 0))
    return false;
  // A slice of a larger tensor (gather.elements with smaller indices, with
  // dynamic sizes always) bufferizes to a strided view. The gather along
  // input rows (a single axis, the innermost) addresses such a view where
  // the rows keep a unit stride: slices of unit innermost stride that keep
  // the rank. The linear-offset forms collapse the input to one dimension,
  // which a strided view cannot be without a copy.
  int64_t last = s.rank - 1;
  bool alongRows = s.indicesUnitStatic[last] != std::optional<bool>(true) &&
                   s.axes.size() == 1 && s.axes.front() == last;
  return slicesAllowed(s.op.getInput(), [&](tensor::ExtractSliceOp slice) {
    return alongRows && keepsUnitStrideRows(slice);
  });
}

/// A row whose elements' offsets come from the offset table: one scalar
/// load per element. On the CPU measured (AMD Zen 4) this beats the gather
/// instruction by 20% (bench/README.md, W5), and the backend may still
/// vectorize the loop where its cost model prefers gathers. Each element
/// is stored on its own, or with `registerLanes` (plan.offsetRowLanes)
/// collected a register at a time and written as one, which the
/// streaming-stores pass can make non-temporal. With `gathers`
/// (plan.gatherOffsetRows) each register is instead one gather at its
/// offsets, read from the table as one vector.
static Value buildOffsetTableRow(OpBuilder &b, Location loc,
                                 const LoweringState &s, Value row,
                                 Value rowLength, Value offsetTable,
                                 Value flatInput, ArrayRef<Value> indicesPos,
                                 Value rowBase, bool indicesVary,
                                 const std::optional<TablePrefetch> &prefetch,
                                 int64_t registerLanes, bool gathers) {
  int64_t last = s.rank - 1;
  Value zero = constIndex(b, loc, 0);
  // Each element also prefetches the one at its offset a few iterations
  // ahead: a row's reads are scattered over the input, out of the hardware
  // prefetchers' sight (W5 of bench/run.py: bench/README.md).
  Value aheadBase;
  if (prefetch)
    aheadBase = emitTablePrefetchBase(b, loc, *prefetch, rowBase);
  // Every element of the row at the same offset (the indices broadcast).
  Value sharedOffset;
  if (!indicesVary)
    sharedOffset = tensor::ExtractOp::create(b, loc, offsetTable, indicesPos);
  Type elementType = cast<RankedTensorType>(row.getType()).getElementType();
  // The element at `j` of the row.
  auto elementAt = [&](OpBuilder &lb, Location ll, Value j) -> Value {
    Value offset = sharedOffset;
    if (!offset) {
      SmallVector<Value> at(indicesPos);
      at.back() = j;
      offset = tensor::ExtractOp::create(lb, ll, offsetTable, at);
    }
    // The table holds -1 for a `fill` miss (and reported `error` misses
    // itself): read element 0, keep zero.
    Value hit;
    if (fillsInvalid(s))
      std::tie(offset, hit) = readFillTableEntry(lb, ll, offset);
    Value tableOffset = offset;
    offset = arith::AddIOp::create(lb, ll, tableOffset, rowBase);
    // The innermost dimension as a non-axis: the element's own coordinate,
    // unless the input broadcasts it.
    Value own;
    if (!llvm::is_contained(s.axes, last) &&
        s.inputUnitStatic[last] != std::optional<bool>(true)) {
      own = j;
      if (s.inputUnit[last])
        own = arith::SelectOp::create(lb, ll, s.inputUnit[last], zero, j);
      offset = arith::AddIOp::create(lb, ll, offset, own);
    }
    if (prefetch) {
      Value ahead = arith::AddIOp::create(lb, ll, tableOffset, aheadBase);
      if (own)
        ahead = arith::AddIOp::create(lb, ll, ahead, own);
      emitTablePrefetch(lb, ll, *prefetch, ahead);
    }
    Value element = tensor::ExtractOp::create(lb, ll, flatInput, offset);
    if (hit)
      element = arith::SelectOp::create(
          lb, ll, hit, element,
          arith::ConstantOp::create(lb, ll, lb.getZeroAttr(elementType)));
    return element;
  };
  // One element per iteration from `begin` to `end`, a scalar store each.
  auto elementLoop = [&](Value begin, Value end, Value into) -> Value {
    return scf::ForOp::create(
               b, loc, begin, end, constIndex(b, loc, 1), ValueRange{into},
               [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
                 SmallVector<Value> at(last, zero);
                 at.push_back(j);
                 scf::YieldOp::create(
                     lb, ll,
                     tensor::InsertOp::create(lb, ll, elementAt(lb, ll, j),
                                              iterArgs[0], at)
                         .getResult());
               })
        .getResult(0);
  };
  if (!registerLanes)
    return elementLoop(zero, rowLength, row);
  // A register of elements per iteration, written at a multiple of its
  // lanes (the streaming-stores pass reads the induction variable as one),
  // up to the row's last whole register; the rest (of a row of a dynamic
  // length) an element at a time.
  Value step = constIndex(b, loc, registerLanes);
  int64_t length = cast<RankedTensorType>(row.getType()).getShape().back();
  Value registersEnd =
      !ShapedType::isDynamic(length) && length % registerLanes == 0
          ? rowLength
          : wholeStepsEnd(b, loc, rowLength, step);
  auto vectorType = VectorType::get({registerLanes}, elementType);
  // The register at `r` from its elements' scalar loads.
  auto collectedRegister = [&](OpBuilder &lb, Location ll, Value r) -> Value {
    SmallVector<Value> elements;
    for (int64_t l = 0; l < registerLanes; ++l)
      elements.push_back(elementAt(
          lb, ll,
          l == 0 ? r
                 : arith::AddIOp::create(lb, ll, r, constIndex(lb, ll, l))
                       .getResult()));
    return vector::FromElementsOp::create(lb, ll, vectorType, elements);
  };
  // The register at `r` as one vector.gather at its offsets, read from the
  // table as a vector (only where every lane has an offset of its own and
  // no coordinate of its own: planVectorRows).
  auto gatheredRegister = [&](OpBuilder &lb, Location ll, Value r) -> Value {
    auto offsetsType = VectorType::get({registerLanes}, lb.getIndexType());
    SmallVector<Value> at(indicesPos);
    at.back() = r;
    Value offsets = vector::TransferReadOp::create(
        lb, ll, offsetsType, offsetTable, at, zero, ArrayRef<bool>{true});
    // As elementAt: a `fill` miss reads element 0 and keeps zero.
    Value hit;
    if (fillsInvalid(s))
      std::tie(offsets, hit) = readFillTableEntry(lb, ll, offsets);
    offsets = arith::AddIOp::create(
        lb, ll, offsets,
        vector::BroadcastOp::create(lb, ll, offsetsType, rowBase));
    auto maskType = VectorType::get({registerLanes}, lb.getI1Type());
    Value allLanes = arith::ConstantOp::create(
        lb, ll, maskType, DenseElementsAttr::get(maskType, true));
    Value zeroValues = arith::ConstantOp::create(lb, ll, vectorType,
                                                 lb.getZeroAttr(vectorType));
    Value values = vector::GatherOp::create(lb, ll, vectorType, flatInput,
                                            ValueRange{zero}, offsets, allLanes,
                                            zeroValues, nullptr);
    if (hit)
      values = arith::SelectOp::create(lb, ll, hit, values, zeroValues);
    return values;
  };
  Value written =
      scf::ForOp::create(
          b, loc, zero, registersEnd, step, ValueRange{row},
          [&](OpBuilder &lb, Location ll, Value r, ValueRange iterArgs) {
            Value values = gathers ? gatheredRegister(lb, ll, r)
                                   : collectedRegister(lb, ll, r);
            SmallVector<Value> at(last, zero);
            at.push_back(r);
            scf::YieldOp::create(
                lb, ll,
                vector::TransferWriteOp::create(lb, ll, values, iterArgs[0], at,
                                                ArrayRef<bool>{true})
                    .getResult());
          })
          .getResult(0);
  if (registersEnd == rowLength)
    return written;
  return elementLoop(registersEnd, rowLength, written);
}

/// The tile of offset-table rows along the innermost loop dimension that
/// moves along the input, where the indices broadcast along it and index
/// rows loop inside it (an NHWC lookup of (n, c) pairs: pixels, then index
/// rows): each index row then writes a run of the tile's output rows
/// instead of one row per pixel, while the tile's pixels stay in cache
/// for the next index row. A pixel counts its reads a line each, at most
/// the lines of the input slice they range over (axesFootprintBytes: W5x64's
/// 1024 reads a pixel fall in 128 lines). The tile is the largest divisor
/// of the dimension (static sizes) within the budget
/// (CpuTarget::offsetTileFootprintBytes, larger on some CPUs for pixels
/// whose lines are read few times), none below 2 and at most 4096; along a
/// dynamic size, the budget's count with a partial last tile. The best
/// tile differs by CPU (docs/Lowering.md, loop order): 8 on a Zen 3 and on
/// an Intel AVX-512 server core, 28-56 for W5 on a Zen 1 and a Zen 2.
static void planOffsetTableTile(const LoweringState &s,
                                RankedTensorType outputType,
                                VectorRowsPlan &plan) {
  std::optional<InputLoop> loop = innermostInputLoop(s, plan.order, outputType);
  if (!loop || !loop->innerLoops ||
      s.indicesUnitStatic[loop->dim] != std::optional<bool>(true))
    return;
  int64_t pixelBytes;
  if (llvm::MulOverflow(loop->reads, s.target.cacheLineBytes, pixelBytes))
    pixelBytes = std::numeric_limits<int64_t>::max(); // (bounded by the slice)
  std::optional<int64_t> slice = axesFootprintBytes(
      s, cast<RankedTensorType>(s.op.getInput().getType()).getElementType());
  // Whether a pixel reads each line of its slice few times (a slice of
  // unknown size counts as many reads).
  bool fewReads = false;
  if (slice && *slice > 0) {
    pixelBytes = std::min(pixelBytes, *slice);
    int64_t lines = std::max<int64_t>(1, *slice / s.target.cacheLineBytes);
    fewReads = loop->reads / CpuTarget::kOffsetTileFewReadsPerLine < lines;
    plan.manyReadsPerLine =
        loop->reads / CpuTarget::kOffsetTablePrefetchMaxReadsPerLine >= lines;
  }
  int64_t pixels = s.target.offsetTileFootprintBytes(fewReads) / pixelBytes;
  int64_t size = outputType.getDimSize(loop->dim);
  // At most kMaxTileRows, which bounds the search for a divisor (a DLTI L2
  // may be a TiB): tiles gain little past a few dozen pixels.
  constexpr int64_t kMaxTileRows = 4096;
  if (ShapedType::isDynamic(size)) {
    int64_t rows = std::min(pixels, kMaxTileRows);
    if (rows < 2)
      return;
    plan.tileDim = loop->dim;
    plan.tileRows = rows;
    plan.partialTiles = true;
    return;
  }
  int64_t rows = std::min({pixels, size, kMaxTileRows});
  while (rows > 1 && size % rows != 0)
    --rows;
  if (rows < 2)
    return;
  plan.tileDim = loop->dim;
  plan.tileRows = rows;
}

/// Elements per chunk of offsets resolved before its reads, or 0: where
/// the rows' reads range over more than the L2 (offsetChunkMinReadBytes;
/// a dynamic input counts as more, a dynamic input row, where only the
/// innermost coordinate varies, as less), each read misses it, and in steps
/// that also read, resolve and check the indices the reorder window holds few
/// reads at a time. W8's loop in C on a Zen 1 with a 512 KiB L2
/// (bench/offset_chunks.cpp, checked): a row's offsets first, then its
/// loads, 0.75-0.89x as fast as one loop up to 256 KiB tables, at par from
/// 512 KiB to 2 MiB, 1.5-2.35x at 4 MiB (docs/Lowering.md). Under `fill`
/// the verdicts go beside the offsets (chunkedSteps).
static int64_t planOffsetChunk(const LoweringState &s, Type elementType,
                               const VectorRowsPlan &plan, bool prefetch) {
  if (!prefetch || plan.offsetTable || !plan.indicesVary)
    return 0;
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(s.op.getInput().getType()).getShape();
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  bool large = false;
  if (plan.onlyInnermostVaries) {
    // Along input rows the reads stay in one row, which a dynamic size is
    // taken to keep in the L2 (torch.gather's rows: W3's are 16 KiB).
    int64_t row = shape.back();
    if (ShapedType::isDynamic(row))
      return 0;
    large = llvm::MulOverflow(bytes, row, bytes);
  } else {
    for (int64_t size : shape)
      if (ShapedType::isDynamic(size) ||
          llvm::MulOverflow(bytes, size, bytes)) {
        large = true;
        break;
      }
  }
  if (!large && bytes < s.target.offsetChunkMinReadBytes())
    return 0;
  // Offsets are 64-bit: whole vector steps of them.
  int64_t steps = s.target.offsetChunkBytes() / (8 * plan.lanes);
  return std::max<int64_t>(1, steps) * plan.lanes;
}

VectorRowsPlan lowering::planVectorRows(const LoweringState &s,
                                        RankedTensorType outputType,
                                        bool offsetTable, bool prefetch) {
  VectorRowsPlan plan;
  int64_t last = s.rank - 1;
  Type elementType = outputType.getElementType();
  plan.lanes = s.target.vectorRowLanes(elementType.getIntOrFloatBitWidth());
  plan.indicesVary = s.indicesUnitStatic[last] != std::optional<bool>(true);
  bool innermostIsAxis = llvm::is_contained(s.axes, last);
  plan.onlyInnermostVaries =
      plan.indicesVary && s.axes.size() == 1 && innermostIsAxis;
  // Along the input row the lanes' elements are one vector.gather from the
  // row: no offsets, so no offset table.
  plan.offsetTable = offsetTable && !plan.onlyInnermostVaries;
  plan.order = outerLoopOrder(s, last, elementType);
  // Rows read along the innermost input dimension fetch the next row
  // meanwhile (the row after in the output's order).
  plan.prefetchNextRow = prefetch && plan.onlyInnermostVaries &&
                         llvm::equal(plan.order, llvm::seq<int64_t>(last));
  // Rows that read their index values contiguously (no offset table) in
  // the output's order fetch the next indices row meanwhile: W3 and W8 of
  // bench/run.py ran 5-10% faster with them (docs/Lowering.md, "Prefetched
  // index rows").
  plan.prefetchIndexRows = prefetch && plan.indicesVary && !plan.offsetTable &&
                           llvm::equal(plan.order, llvm::seq<int64_t>(last));
  if (plan.offsetTable)
    planOffsetTableTile(s, outputType, plan);
  OffsetTablePrefetch tablePrefetch = s.target.prefetchOffsetTables;
  plan.prefetchTable =
      prefetch && plan.offsetTable &&
      (tablePrefetch == OffsetTablePrefetch::EveryRow ||
       (tablePrefetch == OffsetTablePrefetch::FewReadsPerLine &&
        !plan.manyReadsPerLine));
  plan.reports = s.checksInLoops() && !fillsInvalid(s);
  plan.masksInvalid = fillsInvalid(s) || plan.reports;
  plan.streamingStoreMinBytes = streamingStoreMinBytes(s, outputType);
  // Only whole registers can stream, so offset-table rows build them where
  // the output may stream (a dynamic row length: where it is whole lines at
  // run time). Without streaming, W5 and W5x64 of bench/run.py ran
  // 0.96-0.98x as fast built from scalars as with a store per element;
  // streamed, W5x64 1.15x as fast (Zen 1).
  int64_t rowLength = outputType.getShape().back();
  unsigned elementBits =
      8 * static_cast<unsigned>(packedElementBytes(elementType));
  // The lanes of a register of these elements where the row holds whole
  // registers (or is of dynamic length: a scalar rest), else 0.
  auto wholeRegisterLanes = [&]() -> int64_t {
    int64_t lanes = s.target.registerLanes(elementBits);
    return lanes > 1 &&
                   (ShapedType::isDynamic(rowLength) || rowLength % lanes == 0)
               ? lanes
               : 0;
  };
  if (plan.offsetTable && plan.streamingStoreMinBytes)
    plan.offsetRowLanes = wholeRegisterLanes();
  // Where the target's gathers beat scalar loads (CpuTarget's
  // gatherOffsetRows), rows that do not stream take a gather a register:
  // each lane needs its own offset and no coordinate of its own (the
  // innermost dimension an axis), and an element of 32 or 64 bits, the
  // widths x86's gathers load. Streamed rows keep their scalar loads: W5x64
  // (12.8 MB, streamed on an Intel AVX-512 server core) ran 0.86-0.96x as
  // fast with gathers (docs/Lowering.md, "Gathered offset-table rows").
  if (plan.offsetTable && s.target.gatherOffsetRows && !plan.prefetchTable &&
      !plan.streamingStoreMinBytes && plan.indicesVary && innermostIsAxis &&
      (elementBits == 32 || elementBits == 64)) {
    plan.offsetRowLanes = wholeRegisterLanes();
    plan.gatherOffsetRows = plan.offsetRowLanes != 0;
  }
  // Rows that neither stream nor gather, on targets whose scalar stores
  // cost more than collecting a register (CpuTarget's collectOffsetRows):
  // the same scalar loads, a register's worth stored at once. Elements of
  // 32 and 64 bits, as measured (narrower ones would collect 32 or 64
  // loads a register).
  if (plan.offsetTable && s.target.collectOffsetRows && !plan.offsetRowLanes &&
      (elementBits == 32 || elementBits == 64)) {
    plan.offsetRowLanes = wholeRegisterLanes();
    plan.collectOffsetRows = plan.offsetRowLanes != 0;
  }
  plan.offsetChunk = planOffsetChunk(s, elementType, plan, prefetch);
  return plan;
}

namespace {
/// Emits the rows of one vector-rows gather: what is shared by the steps
/// of a row, computed once per row, and the steps.
class RowEmitter {
public:
  RowEmitter(const LoweringState &s, const VectorRowsPlan &plan,
             RankedTensorType outputType, OpBuilder &b)
      : s(s), plan(plan), rank(s.rank), last(s.rank - 1), k(s.coordinateSize),
        elementType(outputType.getElementType()),
        indexElementType(cast<RankedTensorType>(s.op.getIndices().getType())
                             .getElementType()),
        indexVecType(VectorType::get({plan.lanes}, b.getIndexType())),
        rawVecType(VectorType::get({plan.lanes}, indexElementType)),
        valueVecType(VectorType::get({plan.lanes}, elementType)),
        maskType(VectorType::get({plan.lanes}, b.getI1Type())),
        validByteType(VectorType::get({plan.lanes}, b.getI8Type())),
        badLanesType(s.target.maskRegisters
                         ? maskType
                         : VectorType::get({plan.lanes}, b.getI64Type())) {
    planOredChecks();
  }

  Value splat(OpBuilder &b, Location loc, Value scalar) const {
    return vector::BroadcastOp::create(b, loc, indexVecType, scalar);
  }

  /// The constants and positions the steps of a row share.
  void prepareSteps(OpBuilder &b, Location loc) {
    laneIds = vector::StepOp::create(b, loc, indexVecType);
    if (!tupleOrder.empty())
      orderedLaneIds = arith::ConstantOp::create(
          b, loc, indexVecType,
          DenseElementsAttr::get(
              indexVecType,
              llvm::map_to_vector(tupleOrder, [&](int64_t t) -> Attribute {
                return b.getIndexAttr(t);
              })));
    passThrough = arith::ConstantOp::create(
        b, loc, valueVecType,
        DenseElementsAttr::get(valueVecType, b.getZeroAttr(elementType)));
    rawPad = arith::ConstantOp::create(b, loc, indexElementType,
                                       b.getZeroAttr(indexElementType));
    minorMap = AffineMapAttr::get(
        AffineMap::getMinorIdentityMap(rank, 1, b.getContext()));
    notInBounds = b.getBoolArrayAttr({false});
    inBounds = b.getBoolArrayAttr({true});
    allLanes = arith::ConstantOp::create(
        b, loc, maskType,
        DenseElementsAttr::get(maskType, b.getBoolAttr(true)));
  }

  /// A step's index values as `readSteps` reads them, where the indices
  /// row may have one tuple at run time (its size is dynamic): then
  /// `readFirst` repeats that tuple in every lane.
  Value
  readOrBroadcast(OpBuilder &rb, Location rl,
                  function_ref<Value(OpBuilder &, Location)> readSteps,
                  function_ref<Value(OpBuilder &, Location)> readFirst) const {
    if (s.indicesUnitStatic[last])
      return readSteps(rb, rl);
    return scf::IfOp::create(
               rb, rl, s.indicesUnit[last],
               [&](OpBuilder &tb, Location tl) {
                 scf::YieldOp::create(tb, tl, readFirst(tb, tl));
               },
               [&](OpBuilder &eb, Location el) {
                 scf::YieldOp::create(eb, el, readSteps(eb, el));
               })
        .getResult(0);
  }

  /// Interleaved coordinates (k > 1): the step's k * lanes index values at
  /// `j` in one contiguous read, each coordinate later taken out with a
  /// shuffle (lane l of coordinate c is value l * k + c). A vector.gather
  /// per coordinate read them element by element.
  Value readInterleaved(OpBuilder &lb, Location ll, Value j, Value remaining,
                        ArrayAttr transferBounds) const {
    int64_t lanes = plan.lanes;
    auto wideType = VectorType::get({lanes * k}, indexElementType);
    auto readSteps = [&](OpBuilder &rb, Location rl) -> Value {
      SmallVector<Value> at = indicesPos;
      at.back() = arith::MulIOp::create(rb, rl, j, constIndex(rb, rl, k));
      Value wideMask;
      if (remaining)
        wideMask = vector::CreateMaskOp::create(
            rb, rl, VectorType::get({lanes * k}, rb.getI1Type()),
            ValueRange{arith::MulIOp::create(rb, rl, remaining,
                                             constIndex(rb, rl, k))});
      return vector::TransferReadOp::create(rb, rl, wideType, s.op.getIndices(),
                                            at, minorMap, rawPad, wideMask,
                                            transferBounds);
    };
    auto readTuple = [&](OpBuilder &tb, Location tl) -> Value {
      SmallVector<Value> at = indicesPos;
      at.back() = constIndex(tb, tl, 0);
      Value tuple = vector::TransferReadOp::create(
          tb, tl, VectorType::get({k}, indexElementType), s.op.getIndices(), at,
          minorMap, rawPad, Value(), inBounds);
      SmallVector<int64_t> repeated;
      for (int64_t l = 0; l < lanes * k; ++l)
        repeated.push_back(l % k);
      return vector::ShuffleOp::create(tb, tl, tuple, tuple, repeated);
    };
    return readOrBroadcast(lb, ll, readSteps, readTuple);
  }

  /// The raw index values of component `c` for the step's lanes at `j`;
  /// `inTupleOrder`: lane l takes tuple tupleOrder[l] of the step.
  Value readComponent(OpBuilder &lb, Location ll, int64_t c, Value j,
                      Value mask, Value interleaved, ArrayAttr transferBounds,
                      bool inTupleOrder) const {
    if (!plan.indicesVary) {
      // Every lane reads the same index value.
      SmallVector<Value> at = indicesPos;
      at.back() = constIndex(lb, ll, c);
      Value scalar = tensor::ExtractOp::create(lb, ll, s.op.getIndices(), at);
      return vector::BroadcastOp::create(lb, ll, rawVecType, scalar);
    }
    if (k == 1) {
      // Contiguous index values.
      auto readRow = [&](OpBuilder &rb, Location rl) -> Value {
        SmallVector<Value> at = indicesPos;
        at.back() = j;
        return vector::TransferReadOp::create(rb, rl, rawVecType,
                                              s.op.getIndices(), at, minorMap,
                                              rawPad, mask, transferBounds);
      };
      auto readFirst = [&](OpBuilder &tb, Location tl) -> Value {
        SmallVector<Value> at = indicesPos;
        at.back() = constIndex(tb, tl, 0);
        Value scalar = tensor::ExtractOp::create(tb, tl, s.op.getIndices(), at);
        return vector::BroadcastOp::create(tb, tl, rawVecType, scalar);
      };
      return readOrBroadcast(lb, ll, readRow, readFirst);
    }
    SmallVector<int64_t> coordinateLanes;
    for (int64_t l = 0; l < plan.lanes; ++l)
      coordinateLanes.push_back((inTupleOrder ? tupleOrder[l] : l) * k + c);
    return vector::ShuffleOp::create(lb, ll, interleaved, interleaved,
                                     coordinateLanes);
  }

  /// The linear offset of each lane's input element in the flat input.
  Value laneOffsets(OpBuilder &lb, Location ll, ArrayRef<Value> axisCoords,
                    Value laneCoords) const {
    Value offsets = zeroVec;
    for (int64_t d = 0; d < rank; ++d) {
      Value coord;
      auto axisIt = llvm::find(s.axes, d);
      if (axisIt != s.axes.end()) {
        coord = axisCoords[axisIt - s.axes.begin()];
      } else if (d == last) {
        coord =
            s.inputUnitStatic[d] == std::optional<bool>(true) ? zeroVec
            : s.inputUnit[d]
                ? arith::SelectOp::create(lb, ll,
                                          vector::BroadcastOp::create(
                                              lb, ll, maskType, s.inputUnit[d]),
                                          zeroVec, laneCoords)
                      .getResult()
                : laneCoords;
      } else {
        coord = splat(lb, ll, inputPos[d]);
      }
      Value term =
          arith::MulIOp::create(lb, ll, coord, splat(lb, ll, inputStrides[d]));
      offsets = arith::AddIOp::create(lb, ll, offsets, term);
    }
    return offsets;
  }

  /// What a step reads: where its lanes' elements are, and what the gather
  /// and the write of them take.
  struct StepOffsets {
    Value gatherAt, gatherMask, mask;
    ArrayAttr transferBounds;
    bool selectsInvalid = false;
    /// The bad (or valid) lanes so far, under a check.
    Value badLanes;
  };

  /// The first half of a step at `j`: the lanes' index values read,
  /// resolved, checked (into `badLanes`) and turned into the offsets the
  /// gather reads. `full` when all the lanes are in the row (no mask, reads
  /// and writes in bounds), else masked to the row's end.
  /// `loadsGuarded`: under a check, the loads of these offsets run only if
  /// every lane so far is valid, so an invalid lane's offset stays as it is.
  /// `inTupleOrder` (a full step, with tupleOrder): lane l resolves the
  /// step's tuple tupleOrder[l].
  /// `ored` (guarded loads, with oredBits): the chunk's ORed coordinates,
  /// updated in place of the step's compares.
  StepOffsets resolveStep(OpBuilder &lb, Location ll, Value j, Value badLanes,
                          bool full, bool loadsGuarded = false,
                          bool inTupleOrder = false,
                          Value *ored = nullptr) const {
    // The largest `j` can be: a full step's lanes are all in the row.
    std::optional<int64_t> maxStep;
    if (staticRowLength)
      maxStep = std::max<int64_t>(0, full ? *staticRowLength - plan.lanes
                                          : *staticRowLength - 1);
    if (rowPrefetch)
      emitRowPrefetch(lb, ll, s, *rowPrefetch, inputPos, ivs[last - 1], j,
                      maxStep);
    if (indexRowPrefetch)
      emitIndexRowPrefetch(lb, ll, s, *indexRowPrefetch, indicesPos,
                           ivs[last - 1], j, maxStep);
    // `mask` is null for a full step (the transfers take none);
    // `laneMask` is what the gathers take.
    Value mask, laneMask = allLanes, remaining;
    if (!full) {
      remaining = arith::SubIOp::create(lb, ll, rowLength, j);
      mask =
          vector::CreateMaskOp::create(lb, ll, maskType, ValueRange{remaining});
      laneMask = mask;
    }
    ArrayAttr transferBounds = full ? inBounds : notInBounds;
    // Output coordinates of the lanes along the row.
    Value laneCoords = arith::AddIOp::create(
        lb, ll, inTupleOrder ? orderedLaneIds : laneIds, splat(lb, ll, j));
    Value interleaved;
    if (plan.indicesVary && k > 1)
      interleaved = readInterleaved(lb, ll, j, remaining, transferBounds);
    Value gatherMask = laneMask;
    // The step's valid lanes as 64-bit lanes (checks without mask
    // registers).
    Value validLanes;
    SmallVector<Value> axisCoords(s.axes.size());
    for (auto [c, axis] : llvm::enumerate(s.axes)) {
      Value raw = readComponent(lb, ll, c, j, mask, interleaved, transferBounds,
                                inTupleOrder);
      Value index = indexElementType.isIndex()
                        ? raw
                        : arith::IndexCastOp::create(lb, ll, indexVecType, raw)
                              .getResult();
      // Lanes with an invalid index are masked off the gather (they read
      // offset 0, and take the zero pass-through under `fill`), so their
      // index needs no select and one compare per coordinate serves the
      // read and the check.
      ResolvedIndexValue resolved = buildResolvedIndex(
          lb, ll, s.policy, index, splat(lb, ll, s.inputSize[axis]),
          /*readIsMasked=*/plan.masksInvalid);
      // A full step's coordinate on an axis of a static power-of-two size
      // (bitsOfAxis) is not compared either: its lanes read coord &
      // (size - 1), in bounds, and the valid lanes carried lose every bit
      // where coord >> bits is not 0 (an AND NOT).
      bool shifted = !ored && full && resolved.valid && bitsOfAxis[c];
      if (shifted) {
        Value high = arith::ShRUIOp::create(
            lb, ll, resolved.index,
            splat(lb, ll, constIndex(lb, ll, *bitsOfAxis[c])));
        Value wide = arith::IndexCastOp::create(lb, ll, badLanesType, high);
        badLanes = arith::AndIOp::create(
            lb, ll, badLanes,
            arith::XOrIOp::create(lb, ll, wide, noBadLanes(lb, ll)));
        axisCoords[c] = arith::AndIOp::create(
            lb, ll, resolved.index,
            splat(lb, ll,
                  constIndex(lb, ll, (int64_t(1) << *bitsOfAxis[c]) - 1)));
        continue;
      }
      if (resolved.valid && plan.masksInvalid)
        gatherMask = arith::AndIOp::create(lb, ll, gatherMask, resolved.valid);
      // Without mask registers the compares' 64-bit lanes are ANDed into
      // the step's valid lanes: one AND per register and coordinate, where
      // the i1 vectors ANDed, inverted and widened were packed to 16-bit
      // lanes and back in every step.
      if (ored && resolved.valid) {
        Value coord = resolved.index;
        if (oredShifts[c])
          coord = arith::ShRUIOp::create(
              lb, ll, coord, splat(lb, ll, constIndex(lb, ll, oredShifts[c])));
        *ored = arith::OrIOp::create(lb, ll, *ored, coord);
      } else if (plan.reports && resolved.valid && carriesValid()) {
        Value valid = resolved.valid;
        if (mask)
          valid = arith::OrIOp::create(
              lb, ll, valid, arith::XOrIOp::create(lb, ll, mask, allLanes));
        Value wide = arith::ExtSIOp::create(lb, ll, badLanesType, valid);
        validLanes =
            validLanes ? arith::AndIOp::create(lb, ll, validLanes, wide) : wide;
      }
      axisCoords[c] = resolved.index;
    }
    if (validLanes)
      badLanes = arith::AndIOp::create(lb, ll, badLanes, validLanes);
    // In mask registers the bad lanes are the row's lanes the checks took
    // off the gather.
    if (plan.reports && !carriesValid() && gatherMask != laneMask) {
      Value bad = arith::XOrIOp::create(lb, ll, gatherMask, laneMask);
      badLanes = arith::OrIOp::create(lb, ll, badLanes, bad);
    }
    // Lanes off the mask (past the row's end, or with an invalid index)
    // read offset 0 of the row or the input instead, so that the gather
    // itself takes no mask: LLVM turns a masked gather into a test and a
    // branch per lane wherever the target has no gather instruction it
    // deems fast (AVX2 on AMD, SSE). Lanes with an invalid index then take
    // the pass-through by a select; those past the row's end are not
    // written. Under `error` no select: a bad lane keeps what offset 0
    // holds, since no output is returned after an error (one blend fewer
    // per step, with the accumulation below what made W8's checks cheap).
    bool maskedLanes = gatherMask != allLanes;
    bool selectsInvalid = gatherMask != laneMask && !plan.reports;
    Value gatherAt = plan.onlyInnermostVaries
                         ? axisCoords.front()
                         : laneOffsets(lb, ll, axisCoords, laneCoords);
    // A full step's invalid lanes read offset 0 by an AND with the valid
    // lanes already made for the check: the select of the i1 mask made
    // LLVM compare them once more (W8: 6 instructions a step). Guarded
    // loads need neither.
    bool guarded = full && loadsGuarded && plan.reports;
    if (maskedLanes && !guarded) {
      if (full && validLanes)
        gatherAt = arith::AndIOp::create(
            lb, ll, gatherAt,
            arith::IndexCastOp::create(lb, ll, indexVecType, validLanes));
      else
        gatherAt =
            arith::SelectOp::create(lb, ll, gatherMask, gatherAt, zeroVec);
    }
    return {gatherAt,       gatherMask,     mask,
            transferBounds, selectsInvalid, badLanes};
  }

  /// The second half of a step at `j`: the elements at `o.gatherAt`
  /// gathered and written into `row`.
  Value gatherAndWrite(OpBuilder &lb, Location ll, Value j, Value row,
                       const StepOffsets &o) const {
    Value base = plan.onlyInnermostVaries ? s.op.getInput() : flatInput;
    SmallVector<Value> basePos = plan.onlyInnermostVaries
                                     ? SmallVector<Value>(inputPos)
                                     : SmallVector<Value>{zeroIndex};
    // Offset 0 exists: the loops run only where no axis is empty
    // (buildNonEmptyAxesCheck), or under `unchecked`, where an empty axis
    // makes the row's own lanes read out of bounds already.
    Value values =
        vector::GatherOp::create(lb, ll, valueVecType, base, basePos,
                                 o.gatherAt, allLanes, passThrough, nullptr);
    if (o.selectsInvalid)
      values =
          arith::SelectOp::create(lb, ll, o.gatherMask, values, passThrough);
    SmallVector<Value> writeAt(last, zeroIndex);
    writeAt.push_back(j);
    return vector::TransferWriteOp::create(lb, ll, values, row, writeAt,
                                           minorMap, o.mask, o.transferBounds)
        .getResult();
  }

  /// One vector step at `j`, both halves. Yields the updated row (and the
  /// bad lanes so far, under a check).
  SmallVector<Value> step(OpBuilder &lb, Location ll, Value j,
                          ValueRange iterArgs, bool full) const {
    StepOffsets o =
        resolveStep(lb, ll, j, plan.reports ? iterArgs[1] : Value(), full);
    SmallVector<Value> yields = {gatherAndWrite(lb, ll, j, iterArgs[0], o)};
    if (plan.reports)
      yields.push_back(o.badLanes);
    return yields;
  }

  /// The full steps in [0, `fullEnd`) a chunk of plan.offsetChunk elements
  /// at a time: the chunk's offsets resolved into `chunkOffsets` first,
  /// then its elements gathered in a loop that does nothing else, so that
  /// more of its reads are in flight at once (each misses the L2 there).
  /// Under `fill` (`chunkValid`, else null) each slot's verdict goes beside
  /// its offset, a byte a lane, and the loads' lanes take the pass-through
  /// where it is 0.
  SmallVector<Value> chunkedSteps(OpBuilder &b, Location loc, Value fullEnd,
                                  ValueRange inits, Value chunkOffsets,
                                  Value chunkValid) const {
    Value lanesValue = constIndex(b, loc, plan.lanes);
    Value chunk = constIndex(b, loc, plan.offsetChunk);
    return scf::ForOp::create(
               b, loc, zeroIndex, fullEnd, chunk, inits,
               [&](OpBuilder &cb, Location cl, Value c0, ValueRange chunkArgs) {
                 Value cEnd = arith::MinUIOp::create(
                     cb, cl, arith::AddIOp::create(cb, cl, c0, chunk), fullEnd);
                 // The chunk's offsets, carrying the row's checked lanes
                 // under a check.
                 SmallVector<Value> carried;
                 if (plan.reports)
                   carried.push_back(chunkArgs[1]);
                 bool ors = plan.reports && oredBits.has_value();
                 if (ors)
                   carried.push_back(zeroVec);
                 auto resolved = scf::ForOp::create(
                     cb, cl, c0, cEnd, lanesValue, carried,
                     [&](OpBuilder &lb, Location ll, Value j,
                         ValueRange iterArgs) {
                       Value ored = ors ? iterArgs[1] : Value();
                       StepOffsets o = resolveStep(
                           lb, ll, j, plan.reports ? iterArgs[0] : Value(),
                           /*full=*/true, /*loadsGuarded=*/true,
                           !tupleOrder.empty(), ors ? &ored : nullptr);
                       Value slot = arith::SubIOp::create(lb, ll, j, c0);
                       vector::StoreOp::create(lb, ll, o.gatherAt, chunkOffsets,
                                               ValueRange{slot});
                       if (chunkValid)
                         vector::StoreOp::create(
                             lb, ll,
                             arith::ExtUIOp::create(lb, ll, validByteType,
                                                    o.gatherMask),
                             chunkValid, ValueRange{slot});
                       SmallVector<Value> yields;
                       if (plan.reports)
                         yields.push_back(o.badLanes);
                       if (ors)
                         yields.push_back(ored);
                       scf::YieldOp::create(lb, ll, yields);
                     });
                 Value badLanes =
                     plan.reports ? resolved.getResult(0) : Value();
                 // The ORed coordinates against the smallest axis's size
                 // once a chunk; where one is out, no lane counts as valid.
                 if (ors) {
                   Value ored = vector::ReductionOp::create(
                       cb, cl, vector::CombiningKind::OR,
                       resolved.getResult(1));
                   Value out = arith::CmpIOp::create(
                       cb, cl, arith::CmpIPredicate::uge, ored,
                       constIndex(cb, cl, int64_t(1) << *oredBits));
                   Value none = arith::ConstantOp::create(
                       cb, cl, badLanesType,
                       DenseElementsAttr::get(
                           badLanesType,
                           cb.getIntegerAttr(badLanesType.getElementType(),
                                             0)));
                   badLanes =
                       arith::SelectOp::create(cb, cl, out, none, badLanes);
                 }
                 auto loads = [&](OpBuilder &lb, Location ll) {
                   return scf::ForOp::create(
                              lb, ll, c0, cEnd, lanesValue,
                              ValueRange{chunkArgs[0]},
                              [&](OpBuilder &sb, Location sl, Value j,
                                  ValueRange iterArgs) {
                                scf::YieldOp::create(
                                    sb, sl,
                                    loadChunkStep(sb, sl, j, c0, iterArgs[0],
                                                  chunkOffsets, chunkValid));
                              })
                       .getResult(0);
                 };
                 // Under a check the chunk's loads run only while every
                 // lane is valid (no output is returned after an error):
                 // one test a chunk instead of an AND of each step's
                 // offsets with its valid lanes.
                 Value updated =
                     plan.reports
                         ? scf::IfOp::create(
                               cb, cl, anyBad(cb, cl, badLanes),
                               [&](OpBuilder &tb, Location tl) {
                                 scf::YieldOp::create(tb, tl, chunkArgs[0]);
                               },
                               [&](OpBuilder &eb, Location el) {
                                 scf::YieldOp::create(eb, el, loads(eb, el));
                               })
                               .getResult(0)
                         : loads(cb, cl);
                 SmallVector<Value> yields = {updated};
                 if (plan.reports)
                   yields.push_back(badLanes);
                 scf::YieldOp::create(cb, cl, yields);
               })
        .getResults();
  }

  /// Where the row carries valid lanes (no mask registers) and every
  /// gathered axis has a static power-of-two size, a chunk's steps check
  /// without compares: they OR the coordinates (a wrapped negative one is
  /// huge as unsigned), each shifted right by its axis's bits over the
  /// smallest axis's, and the chunk compares the OR with that size once.
  /// AVX2 has no unsigned 64-bit compare: each was an XOR and a vpcmpgtq,
  /// which Intel's cores run on one port (W8 on an Emerald Rapids VM with
  /// `--target x86-64-v3`, docs/Lowering.md).
  /// Outside chunks the same holds per axis (bitsOfAxis): a full step
  /// reads coord & (size - 1) and ANDs NOT (coord >> bits) into the valid
  /// lanes carried (W3 with AVX2).
  void planOredChecks() {
    bitsOfAxis.assign(s.axes.size(), std::nullopt);
    if (!plan.reports || !carriesValid())
      return;
    SmallVector<int64_t> bits;
    for (auto [c, axis] : llvm::enumerate(s.axes)) {
      std::optional<int64_t> size = getConstantIntValue(s.inputSize[axis]);
      if (size && *size > 0 && llvm::isPowerOf2_64(*size))
        bitsOfAxis[c] = llvm::Log2_64(*size);
    }
    for (std::optional<int64_t> b : bitsOfAxis) {
      if (!b)
        return;
      bits.push_back(*b);
    }
    if (bits.empty() || !plan.offsetChunk)
      return;
    oredBits = *llvm::min_element(bits);
    for (int64_t b : bits)
      oredShifts.push_back(b - *oredBits);
  }

  /// Whether the row carries valid lanes (64-bit, ANDed) rather than bad
  /// ones (i1, ORed): see badLanesType.
  bool carriesValid() const { return badLanesType != maskType; }

  /// What the row carries before its first step: no lane bad.
  Value noBadLanes(OpBuilder &b, Location loc) const {
    Type element = badLanesType.getElementType();
    return arith::ConstantOp::create(
        b, loc, badLanesType,
        DenseElementsAttr::get(badLanesType, carriesValid()
                                                 ? b.getIntegerAttr(element, -1)
                                                 : b.getZeroAttr(element)));
  }

  /// Whether the checked lanes carried along a row hold an invalid one.
  Value anyBad(OpBuilder &b, Location loc, Value badLanes) const {
    bool carriesValid = this->carriesValid();
    Value reduced = vector::ReductionOp::create(
        b, loc,
        carriesValid ? vector::CombiningKind::AND : vector::CombiningKind::OR,
        badLanes);
    if (!carriesValid)
      return reduced;
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, reduced,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(-1)));
  }

  /// A step of a chunk's loads: each lane's offset loaded and its element
  /// with it, scalars. A vector of offsets would be loaded, then each lane
  /// taken out of it for its address (two more instructions a lane). With
  /// `chunkValid`, the step's verdicts as one vector, in lane order: the
  /// lanes of an invalid index take the pass-through (they read offset 0).
  Value loadChunkStep(OpBuilder &lb, Location ll, Value j, Value c0, Value row,
                      Value chunkOffsets, Value chunkValid) const {
    Value first = arith::SubIOp::create(lb, ll, j, c0);
    Value base = plan.onlyInnermostVaries ? s.op.getInput() : flatInput;
    SmallVector<Value> at = plan.onlyInnermostVaries
                                ? SmallVector<Value>(inputPos)
                                : SmallVector<Value>{zeroIndex};
    SmallVector<Value> elements;
    // Lane l's offset is in the slot that resolved tuple l.
    SmallVector<int64_t> slotOf(plan.lanes);
    for (int64_t l = 0; l < plan.lanes; ++l)
      slotOf[tupleOrder.empty() ? l : tupleOrder[l]] = l;
    for (int64_t l = 0; l < plan.lanes; ++l) {
      Value slot = slotOf[l] == 0
                       ? first
                       : arith::AddIOp::create(lb, ll, first,
                                               constIndex(lb, ll, slotOf[l]))
                             .getResult();
      at.back() = memref::LoadOp::create(lb, ll, chunkOffsets, slot);
      elements.push_back(tensor::ExtractOp::create(lb, ll, base, at));
    }
    Value values =
        vector::FromElementsOp::create(lb, ll, valueVecType, elements);
    if (chunkValid) {
      Value valid = vector::LoadOp::create(lb, ll, validByteType, chunkValid,
                                           ValueRange{first});
      if (!tupleOrder.empty())
        valid = vector::ShuffleOp::create(lb, ll, valid, valid, slotOf);
      Value zero = arith::ConstantOp::create(
          lb, ll, validByteType,
          DenseElementsAttr::get(validByteType, lb.getI8IntegerAttr(0)));
      values = arith::SelectOp::create(
          lb, ll,
          arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::ne, valid, zero),
          values, passThrough);
    }
    SmallVector<Value> writeAt(last, zeroIndex);
    writeAt.push_back(j);
    return vector::TransferWriteOp::create(lb, ll, values, row, writeAt,
                                           minorMap, Value(), inBounds)
        .getResult();
  }

  const LoweringState &s;
  const VectorRowsPlan &plan;
  int64_t rank, last, k;
  Type elementType, indexElementType;
  VectorType indexVecType, rawVecType, valueVecType, maskType;
  /// A step's lane verdicts in memory, a byte a lane (chunks under `fill`).
  VectorType validByteType;
  /// What is carried along a row under a check: in mask registers the bad
  /// lanes (i1, OR-accumulated); else the valid lanes as the index
  /// compares' 64-bit lanes (all ones: valid so far), AND-accumulated so
  /// that no step packs, inverts or widens a mask (W8 of bench/run.py with
  /// AVX2: 71 instructions a step of 8 lanes, then 66 with 64-bit bad
  /// lanes; 56 unchecked).
  VectorType badLanesType;
  /// planOredChecks: the smallest axis's bits, and each axis's shift; each
  /// axis's bits where its size is a static power of two.
  std::optional<int64_t> oredBits;
  SmallVector<int64_t> oredShifts;
  SmallVector<std::optional<int64_t>> bitsOfAxis;

  // Before the loops.
  Value flatInput;
  SmallVector<Value> inputStrides;
  std::optional<RowPrefetch> rowPrefetch;
  std::optional<IndexPrefetch> indexRowPrefetch;
  // Per row.
  SmallVector<Value> ivs, indicesPos, inputPos;
  Value rowLength, zeroIndex, zeroVec;
  /// The output row's length where static.
  std::optional<int64_t> staticRowLength;
  // Per row, shared by its steps.
  Value laneIds, orderedLaneIds, passThrough, rawPad, allLanes;
  /// With chunks of pairs of 64-bit coordinates: the order in which a full
  /// step resolves its tuples, lane l the tuple tupleOrder[l], so that
  /// taking each coordinate out of the interleaved values is one unpack
  /// per register pair (AVX2: vpunpcklqdq, where the order of the row took
  /// a vpermq more, 3 micro-ops on a Zen 1). The chunk's loads read the
  /// slots back in the row's order. Empty: the row's order.
  SmallVector<int64_t> tupleOrder;
  AffineMapAttr minorMap;
  ArrayAttr notInBounds, inBounds;
};
} // namespace

/// One output row per iteration of an scf.forall over the outer dimensions;
/// along the row, V lanes at a time: index values are read with one masked
/// vector.transfer_read where they are contiguous (one axis) or a
/// vector.gather along the indices row (k interleaved coordinates), resolved
/// with vector arithmetic, and the elements fetched with one vector.gather:
/// along the input row when only the innermost input coordinate varies per
/// lane, else from the input collapsed to 1-D with linear offsets.
Value lowering::buildVectorRows(OpBuilder &b, Location loc,
                                const LoweringState &s, Value init,
                                const VectorRowsPlan &plan) {
  MultiaxisOp op = s.op;
  int64_t rank = s.rank;
  int64_t last = rank - 1;
  auto outputType = cast<RankedTensorType>(init.getType());
  RowEmitter rows(s, plan, outputType, b);
  // Pairs of 64-bit coordinates in chunks: a register of E 64-bit lanes,
  // unpacked from a pair of registers, holds tuple m of the pair's first
  // half and tuple E/2 + m of its second in each 128-bit lane m. Only for
  // registers of whole 128-bit lanes: with an odd E (a described width of
  // 192 bits) the order repeated tuples and dropped others (the fuzzer's
  // multiaxis pairs read lanes 2 and 5 of every 6 from the wrong pair).
  int64_t pairLanes = s.target.vectorBits / 64;
  if (plan.offsetChunk && plan.indicesVary && s.coordinateSize == 2 &&
      (rows.indexElementType.isIndex() ||
       rows.indexElementType.isInteger(64)) &&
      pairLanes >= 2 && pairLanes % 2 == 0 && plan.lanes % pairLanes == 0)
    for (int64_t l = 0; l < plan.lanes; ++l) {
      int64_t q = l % pairLanes;
      rows.tupleOrder.push_back(l - q + (q % 2) * (pairLanes / 2) + q / 2);
    }

  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < last; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  // Linear offsets need the input as one dimension; collapse_shape is free
  // on the contiguous buffers gathers read (bufferization copies otherwise).
  rows.inputStrides.resize(rank);
  if (!plan.onlyInnermostVaries) {
    rows.flatInput = collapseToOneDimension(b, loc, op.getInput());
    rows.inputStrides = rowMajorStrides(b, loc, s.inputSize);
  }
  // Indices reused by many rows: resolve each coordinate tuple once, into
  // its linear offset; the rows then read offsets contiguously.
  Value offsetTable;
  if (plan.offsetTable)
    offsetTable = buildAxisOffsetTable(b, loc, s, rows.inputStrides);
  if (plan.prefetchNextRow)
    rows.rowPrefetch = planRowPrefetch(b, loc, s, init, plan.lanes);
  // Under Zen 4's level 2 the index lines on top of the next input row's
  // made W3 of bench/run.py 4-22% slower than the row's alone (1.22x at
  // one thread), while W8, whose rows prefetch no input row, ran 1.49x
  // faster with them (docs/Lowering.md, "Prefetched index rows").
  if (plan.prefetchIndexRows &&
      !(rows.rowPrefetch &&
        s.target.prefetchIndexStreams == IndexStreamPrefetch::L2))
    rows.indexRowPrefetch = planIndexRowPrefetch(b, loc, s, plan.lanes);
  std::optional<TablePrefetch> tablePrefetch;
  if (plan.prefetchTable)
    tablePrefetch =
        planTablePrefetch(b, loc, s, rows.flatInput, plan.order, outputType);
  bool tiled = offsetTable && plan.tileRows > 1;
  SmallVector<OpFoldResult> loopBounds;
  Value tileRowsValue = constIndex(b, loc, plan.tileRows);
  for (int64_t d : plan.order) {
    if (!tiled || d != plan.tileDim)
      loopBounds.push_back(upperBounds[d]);
    else if (!plan.partialTiles)
      loopBounds.push_back(
          b.getIndexAttr(outputType.getDimSize(d) / plan.tileRows));
    else
      loopBounds.push_back(
          arith::CeilDivUIOp::create(
              b, loc, getValueOrCreateConstantIndexOp(b, loc, upperBounds[d]),
              tileRowsValue)
              .getResult());
  }
  auto forall =
      scf::ForallOp::create(b, loc, loopBounds, ValueRange{init}, std::nullopt);
  markStreamingStores(forall, plan.streamingStoreMinBytes, s,
                      cast<RankedTensorType>(init.getType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  // Indexed by output dimension (a tile's first position along tileDim).
  rows.ivs.resize(last);
  for (auto [loop, d] : llvm::enumerate(plan.order))
    rows.ivs[d] = forall.getInductionVars()[loop];
  if (tiled)
    rows.ivs[plan.tileDim] = arith::MulIOp::create(
        b, loc, rows.ivs[plan.tileDim], constIndex(b, loc, plan.tileRows));
  rows.rowLength = tensor::DimOp::create(b, loc, init, last);
  if (int64_t length = cast<RankedTensorType>(init.getType()).getDimSize(last);
      !ShapedType::isDynamic(length))
    rows.staticRowLength = length;
  SmallVector<OpFoldResult> rowOffsets(rows.ivs.begin(), rows.ivs.end());
  rowOffsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> rowSizes(last, b.getIndexAttr(1));
  rowSizes.push_back(tensor::getMixedSize(b, loc, init, last));
  // A tile's rows: tileRows, or up to the end along a dynamic size.
  Value tileCount = tileRowsValue;
  if (tiled && plan.partialTiles) {
    Value size =
        getValueOrCreateConstantIndexOp(b, loc, upperBounds[plan.tileDim]);
    tileCount = arith::MinUIOp::create(
        b, loc, tileRowsValue,
        arith::SubIOp::create(b, loc, size, rows.ivs[plan.tileDim]));
  }
  if (tiled)
    rowSizes[plan.tileDim] = plan.partialTiles
                                 ? OpFoldResult(tileCount)
                                 : OpFoldResult(b.getIndexAttr(plan.tileRows));
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  Value sharedOut = forall.getRegionIterArgs()[0];
  Value row = tensor::ExtractSliceOp::create(b, loc, sharedOut, rowOffsets,
                                             rowSizes, ones);

  rows.zeroIndex = constIndex(b, loc, 0);
  for (int64_t d = 0; d < last; ++d) {
    rows.indicesPos.push_back(broadcastCoord(
        b, loc, rows.ivs[d], s.indicesUnitStatic[d], s.indicesUnit[d]));
    rows.inputPos.push_back(broadcastCoord(
        b, loc, rows.ivs[d], s.inputUnitStatic[d], s.inputUnit[d]));
  }
  rows.indicesPos.push_back(rows.zeroIndex);
  rows.inputPos.push_back(rows.zeroIndex);
  rows.zeroVec = arith::ConstantOp::create(
      b, loc, rows.indexVecType,
      DenseElementsAttr::get(rows.indexVecType, b.getIndexAttr(0)));
  if (offsetTable) {
    // The row's offset from the dimensions that are not axes and not the
    // innermost one, once per row.
    Value rowBase = rows.zeroIndex;
    for (int64_t d = 0; d < last; ++d) {
      if (llvm::is_contained(s.axes, d))
        continue;
      rowBase =
          arith::AddIOp::create(b, loc, rowBase,
                                arith::MulIOp::create(b, loc, rows.inputPos[d],
                                                      rows.inputStrides[d]));
    }
    Value rowResult;
    if (!tiled) {
      rowResult = buildOffsetTableRow(
          b, loc, s, row, rows.rowLength, offsetTable, rows.flatInput,
          rows.indicesPos, rowBase, plan.indicesVary, tablePrefetch,
          plan.offsetRowLanes, plan.gatherOffsetRows);
    } else {
      // The tile's rows one after another, each at its own row base (the
      // indices broadcast along the tile: one table row serves them all).
      int64_t t = plan.tileDim;
      SmallVector<OpFoldResult> oneRow(last, b.getIndexAttr(1));
      oneRow.push_back(rowSizes.back());
      rowResult =
          scf::ForOp::create(
              b, loc, rows.zeroIndex, tileCount, constIndex(b, loc, 1),
              ValueRange{row},
              [&](OpBuilder &lb, Location ll, Value x, ValueRange iterArgs) {
                SmallVector<OpFoldResult> at(rank, lb.getIndexAttr(0));
                at[t] = x;
                Value sub = tensor::ExtractSliceOp::create(lb, ll, iterArgs[0],
                                                           at, oneRow, ones);
                Value base = arith::AddIOp::create(
                    lb, ll, rowBase,
                    arith::MulIOp::create(lb, ll, x, rows.inputStrides[t]));
                Value result = buildOffsetTableRow(
                    lb, ll, s, sub, rows.rowLength, offsetTable, rows.flatInput,
                    rows.indicesPos, base, plan.indicesVary, tablePrefetch,
                    plan.offsetRowLanes, plan.gatherOffsetRows);
                scf::YieldOp::create(
                    lb, ll,
                    tensor::InsertSliceOp::create(lb, ll, result, iterArgs[0],
                                                  at, oneRow, ones)
                        .getResult());
              })
              .getResult(0);
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, rowResult, sharedOut,
                                          rowOffsets, rowSizes, ones);
    return forall.getResult(0);
  }
  rows.prepareSteps(b, loc);

  // Under a check in the loops, the lanes that read an invalid index are
  // accumulated along the row and reported once after it.
  SmallVector<Value> loopInits = {row};
  if (plan.reports)
    loopInits.push_back(rows.noBadLanes(b, loc));
  // Full steps without masks, then the row's rest as one masked step: with
  // a dynamic row length a mask in every step kept the loop from being the
  // static one (W3 with a dynamic row length: 5.5 -> 1.9 ms on 2 threads).
  Value lanesValue = constIndex(b, loc, plan.lanes);
  Value fullEnd = wholeStepsEnd(b, loc, rows.rowLength, lanesValue);
  SmallVector<Value> results;
  if (plan.offsetChunk) {
    // One buffer per row for the chunks' offsets, on the stack (the
    // parallel loop's body is an alloca scope).
    Value chunkOffsets = memref::AllocaOp::create(
        b, loc, MemRefType::get({plan.offsetChunk}, b.getIndexType()));
    // Under `fill` the verdicts too: an invalid lane's zero is decided
    // where its element is loaded.
    Value chunkValid;
    if (fillsInvalid(s))
      chunkValid = memref::AllocaOp::create(
          b, loc, MemRefType::get({plan.offsetChunk}, b.getI8Type()));
    results =
        rows.chunkedSteps(b, loc, fullEnd, loopInits, chunkOffsets, chunkValid);
  } else {
    results =
        scf::ForOp::create(
            b, loc, rows.zeroIndex, fullEnd, lanesValue, loopInits,
            [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
              scf::YieldOp::create(lb, ll,
                                   rows.step(lb, ll, j, iterArgs, true));
            })
            .getResults();
  }
  std::optional<int64_t> staticRowLength = getConstantIntValue(rowSizes.back());
  if (!staticRowLength || *staticRowLength % plan.lanes != 0) {
    Value hasRest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          fullEnd, rows.rowLength);
    SmallVector<Value> fullResults = results;
    results = scf::IfOp::create(
                  b, loc, hasRest,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(
                        tb, tl, rows.step(tb, tl, fullEnd, fullResults, false));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, fullResults);
                  })
                  ->getResults();
  }
  if (plan.reports) {
    reportIfAnyInvalid(b, loc, s, rows.anyBad(b, loc, results[1]));
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, results[0], sharedOut,
                                        rowOffsets, rowSizes, ones);
  return forall.getResult(0);
}
