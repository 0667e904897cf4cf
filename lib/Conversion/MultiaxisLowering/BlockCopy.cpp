//===- BlockCopy.cpp - trailing blocks copied whole -----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A trailing block of output dimensions that is taken from the input whole
// (an embedding row, the trailing dimensions of a block gather) is copied
// with one slice per coordinate of the other dimensions, never element by
// element: rows of a line or more with vector loads and stores (rows of a
// dynamic length too, where their bytes are within the same bounds at run
// time), other blocks with a memcpy after bufferization. Small blocks
// (GatherND's 16-byte rows) cost less to copy than to address: their index
// tuples are read and resolved a tile at a time (CpuTarget::tileBlocks: 8
// with AVX-512, 4 with AVX2) with vector arithmetic into one offset per
// block, and the policy's check becomes one reduction per tile.
//
//===----------------------------------------------------------------------===//

#include "BlockCopy.h"
#include "LoopOrder.h"
#include "LoweringPlan.h"
#include "Prefetch.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <tuple>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// First output dimension of the trailing block that is copied from the
/// input whole: every later dimension is not an axis, the indices do not
/// vary along it (logical size 1), and the input has the output's size
/// there. For an embedding lookup [n, d] <- table[v, d] this is d.
int64_t lowering::contiguousBlockStart(const LoweringState &s,
                                       ArrayRef<int64_t> outputShape) {
  int64_t start = s.rank;
  for (int64_t d = s.rank - 1; d >= 0; --d) {
    // Where the indices have size 1 along a non-axis dimension, the output
    // has the input's size there (static or not): the dimension is copied.
    bool indicesConstant = s.indicesUnitStatic[d] == std::optional<bool>(true);
    if (llvm::is_contained(s.axes, d) || !indicesConstant)
      break;
    start = d;
  }
  return start;
}

/// `block` (a tensor or a vector) where `valid`, else zeros (a `fill` miss):
/// a select against a zero constant, or, for a block of dynamic size, an
/// scf.if whose other branch fills a new block with zeros (built on a miss
/// only).
static Value selectBlockOrZeros(OpBuilder &b, Location loc, Value valid,
                                Value block) {
  auto blockType = cast<ShapedType>(block.getType());
  if (!blockType.hasStaticShape()) {
    auto tensorType = cast<RankedTensorType>(blockType);
    return scf::IfOp::create(
               b, loc, valid,
               [&](OpBuilder &tb, Location tl) {
                 scf::YieldOp::create(tb, tl, block);
               },
               [&](OpBuilder &eb, Location el) {
                 SmallVector<Value> sizes;
                 for (int64_t d = 0; d < tensorType.getRank(); ++d)
                   if (tensorType.isDynamicDim(d))
                     sizes.push_back(tensor::DimOp::create(eb, el, block, d));
                 Value empty = tensor::EmptyOp::create(
                     eb, el, tensorType.getShape(), tensorType.getElementType(),
                     sizes);
                 Value zero = arith::ConstantOp::create(
                     eb, el, eb.getZeroAttr(tensorType.getElementType()));
                 scf::YieldOp::create(
                     eb, el,
                     linalg::FillOp::create(eb, el, zero, empty).getResult(0));
               })
        .getResult(0);
  }
  Value zeros = arith::ConstantOp::create(
      b, loc, blockType,
      DenseElementsAttr::get(blockType,
                             b.getZeroAttr(blockType.getElementType())));
  return arith::SelectOp::create(b, loc, valid, block, zeros);
}

/// Where the block of the loop iteration at `loopCoords` (the dimensions
/// before the block) starts in the input, the index policy applied.
static InputCoords resolveBlockStart(OpBuilder &b, Location loc,
                                     const LoweringState &s,
                                     ValueRange loopCoords) {
  SmallVector<Value> coords(loopCoords);
  for (int64_t d = loopCoords.size(); d < s.rank; ++d)
    coords.push_back(constIndex(b, loc, 0));
  return computeInputCoords(b, loc, s, coords);
}

/// The block's validity from resolveBlockStart under its policy
/// (raiseInvalidReads): under `error` an invalid index is reported (null
/// returned); under `fill` it is returned, to select the block or zeros.
static Value reportOrFillValidity(OpBuilder &b, Location loc,
                                  const LoweringState &s, Value valid) {
  return raiseInvalidReads(b, loc, s.policy, valid,
                           [&](OpBuilder &rb, Location rl, Value invalid) {
                             reportIfAnyInvalid(rb, rl, s, invalid);
                           });
}

/// The input's block at `start` (resolved by resolveBlockStart) as one
/// slice.
static Value sliceBlock(OpBuilder &b, Location loc, const LoweringState &s,
                        ArrayRef<Value> start, RankedTensorType blockType,
                        ArrayRef<OpFoldResult> blockSizes) {
  SmallVector<OpFoldResult> ones(s.rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> inputOffsets(start.begin(), start.end());
  return tensor::ExtractSliceOp::create(b, loc, blockType, s.op.getInput(),
                                        inputOffsets, blockSizes, ones);
}

/// Whether the output streams (`streamingMin`, streamingStoreMinBytes) from
/// an input of CpuTarget::streamingInputMinBytes or more (or of dynamic
/// size): rows read from memory, where vector rows beat memcpy up to twice
/// the L1d (CpuTarget::vectorCopyMaxBytes). From inputs of 3-13 MB (a 32
/// MiB L3) into outputs of 19-32 MB memcpy ran 1.03-1.46x faster instead:
/// its cached stores kept the whole working set in the L3 from call to
/// call.
static bool streamsFromMemory(const LoweringState &s, int64_t streamingMin) {
  if (streamingMin <= 0)
    return false;
  std::optional<uint64_t> bytes = staticInputBytes(s);
  return !bytes ||
         *bytes >= static_cast<uint64_t>(s.target.streamingInputMinBytes());
}

/// Whether the rows of a block (its last dimension) may be copied with
/// vector registers: static rows of byte-sized elements that hold
/// vectorRowMinBytes or more, read with unit stride.
static bool rowsInRegisters(const LoweringState &s) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t elementBytes = packedElementBytes(inputType.getElementType());
  int64_t rowLength = inputType.getShape().back();
  if (!elementBytes || ShapedType::isDynamic(rowLength) ||
      rowLength * elementBytes < s.target.vectorRowMinBytes())
    return false;
  return slicesAllowed(s.op.getInput(), keepsUnitStrideRows);
}

/// The rows of a block (its static dimensions from `blockStart` to the
/// last), saturating.
static int64_t rowsPerBlock(RankedTensorType inputType, int64_t blockStart) {
  int64_t rows = 1;
  for (int64_t d = blockStart; d + 1 < inputType.getRank(); ++d)
    if (llvm::MulOverflow(rows, inputType.getDimSize(d), rows))
      return std::numeric_limits<int64_t>::max();
  return rows;
}

/// The row lengths in bytes, [first, second), whose blocks of `rows` rows
/// are copied row by row a vector register at a time: rows of
/// vectorRowMinBytes (a line) or more in blocks under vectorCopyMaxBytes (a
/// page, more where `fromMemory`: streamsFromMemory). The block's bound is put
/// on the row (the bound divided by the rows, rounded up), where it cannot
/// overflow; a block of no rows has none. Static rows
/// (copiesRowsWithVectors) and rows of a dynamic length (at run time,
/// copyBlockRows) take this one rule.
static std::pair<int64_t, int64_t>
vectorRowBytes(const CpuTarget &target, int64_t rows, bool fromMemory) {
  int64_t end =
      rows == 0 ? std::numeric_limits<int64_t>::max()
                : llvm::divideCeil(target.vectorCopyMaxBytes(fromMemory), rows);
  return {target.vectorRowMinBytes(), end};
}

/// Whether the block is copied row by row with vector loads and stores: a
/// static block of byte-sized elements whose row length is in
/// vectorRowBytes, read with unit stride.
static bool copiesRowsWithVectors(const LoweringState &s, int64_t blockStart,
                                  bool fromMemory) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t elementBytes = packedElementBytes(inputType.getElementType());
  if (blockStart >= s.rank || !elementBytes ||
      ShapedType::isDynamicShape(inputType.getShape().drop_front(blockStart)))
    return false;
  int64_t rowBytes;
  if (llvm::MulOverflow(inputType.getShape().back(), elementBytes, rowBytes))
    return false;
  auto [first, end] =
      vectorRowBytes(s.target, rowsPerBlock(inputType, blockStart), fromMemory);
  return rowBytes >= first && rowBytes < end &&
         slicesAllowed(s.op.getInput(), keepsUnitStrideRows);
}

/// Whether the block's rows have a dynamic length, its other sizes being
/// static, with byte-sized elements read with unit stride: copyBlockRows
/// then decides at run time, by the same byte bounds, between vector rows
/// and one slice.
static bool copiesDynamicRows(const LoweringState &s, int64_t blockStart) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  ArrayRef<int64_t> shape = inputType.getShape();
  if (blockStart >= s.rank || !ShapedType::isDynamic(shape.back()) ||
      ShapedType::isDynamicShape(
          shape.slice(blockStart, s.rank - 1 - blockStart)) ||
      !packedElementBytes(inputType.getElementType()))
    return false;
  return slicesAllowed(s.op.getInput(), keepsUnitStrideRows);
}

/// `index` + `k`, folded where `index` is a constant.
static Value plusConstant(OpBuilder &b, Location loc, Value index, int64_t k) {
  if (k == 0)
    return index;
  if (std::optional<int64_t> c = getConstantIntValue(index))
    return constIndex(b, loc, *c + k);
  return arith::AddIOp::create(b, loc, index, constIndex(b, loc, k));
}

/// Copies the static box `shape` (the last shape.size() dimensions) of
/// `input` at `from` into `target` at `to`, a vector register at a time:
/// all reads, then all writes, each in address order. One vector of several
/// registers left the order to LLVM's scheduler, which wrote the lines out
/// of order: W1 13-20% slower on a Zen 1 (docs/Lowering.md, block copy).
/// Under `fill`, `fillValid` selects the values or zeros. With `rolled`,
/// each row's whole registers are copied by a loop of one read and one
/// write (marked gather.rolled_loop), still in address order: the code of
/// a copy stays a few instructions where many gathers each copy small
/// blocks (1000 distinct 64x64 gathers: 35% more LLVM instructions and
/// 20% more compile time in gather-run unrolled).
/// With `rolled`, boxes of more rows than this copy them in a loop.
constexpr int64_t kMaxRolledRowLoops = 8;

static Value copyInRegisters(OpBuilder &b, Location loc, const LoweringState &s,
                             Value input, SmallVector<Value> from, Value target,
                             SmallVector<Value> to, ArrayRef<int64_t> shape,
                             Value fillValid, bool rolled = false) {
  Type elementType = cast<ShapedType>(input.getType()).getElementType();
  int64_t lanesPerRegister =
      s.target.registerLanes(elementType.getIntOrFloatBitWidth());
  // The box is the last dimensions of both sides, which may differ in rank
  // (a collapsed input, an output tile with unit dimensions).
  int64_t fromFirst = from.size() - shape.size();
  int64_t toFirst = to.size() - shape.size();
  SmallVector<Value> fromStart(from), toStart(to);
  SmallVector<std::pair<Value, SmallVector<Value>>> pieces; // values, `to`
  int64_t rows = 1;
  for (int64_t size : shape.drop_back())
    rows *= size;
  if (rolled && rows > kMaxRolledRowLoops &&
      shape.back() / lanesPerRegister > 1) {
    // One loop over the rows, each copied as below: a chain of a loop per
    // row made one-shot-bufferize's buffer type queries exponential in the
    // chain's length (37 rows of a fuzzed description's 5 KiB blocks did
    // not compile in minutes).
    auto loop = scf::ForOp::create(
        b, loc, constIndex(b, loc, 0), constIndex(b, loc, rows),
        constIndex(b, loc, 1), ValueRange{target},
        [&](OpBuilder &lb, Location ll, Value row, ValueRange iterArgs) {
          SmallVector<Value> rowFrom(from), rowTo(to);
          Value rest = row;
          for (int64_t d = shape.size() - 2; d >= 0; --d) {
            // (The outermost coordinate is what is left: below its size.)
            Value size = constIndex(lb, ll, shape[d]);
            Value coord =
                d == 0 ? rest : arith::RemUIOp::create(lb, ll, rest, size);
            rowFrom[fromFirst + d] =
                arith::AddIOp::create(lb, ll, from[fromFirst + d], coord);
            rowTo[toFirst + d] =
                arith::AddIOp::create(lb, ll, to[toFirst + d], coord);
            if (d > 0)
              rest = arith::DivUIOp::create(lb, ll, rest, size);
          }
          scf::YieldOp::create(
              lb, ll,
              copyInRegisters(lb, ll, s, input, rowFrom, iterArgs[0], rowTo,
                              shape.take_back(), fillValid, rolled));
        });
    b.getContext()
        ->getLoadedDialect<GatherDialect>()
        ->getRolledLoopAttrHelper()
        .setAttr(loop, b.getUnitAttr());
    return loop.getResult(0);
  }
  Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  for (int64_t row = 0; row < rows; ++row) {
    // The row's coordinates in the box, last dimension first.
    int64_t rest = row;
    for (int64_t d = shape.size() - 2; d >= 0; --d) {
      from[fromFirst + d] =
          plusConstant(b, loc, fromStart[fromFirst + d], rest % shape[d]);
      to[toFirst + d] =
          plusConstant(b, loc, toStart[toFirst + d], rest % shape[d]);
      rest /= shape[d];
    }
    int64_t start = 0;
    int64_t wholeRegisters = shape.back() / lanesPerRegister;
    if (rolled && wholeRegisters > 1) {
      // Flush the pieces before (reads then writes), then the loop.
      for (auto &[values, at] : pieces)
        target = vector::TransferWriteOp::create(b, loc, values, target, at,
                                                 ArrayRef<bool>{true})
                     .getResult();
      pieces.clear();
      auto loop = scf::ForOp::create(
          b, loc, constIndex(b, loc, 0), constIndex(b, loc, wholeRegisters),
          constIndex(b, loc, 1), ValueRange{target},
          [&](OpBuilder &lb, Location ll, Value r, ValueRange iterArgs) {
            Value offset = arith::MulIOp::create(
                lb, ll, r, constIndex(lb, ll, lanesPerRegister));
            SmallVector<Value> rFrom(from), rTo(to);
            rFrom.back() =
                arith::AddIOp::create(lb, ll, fromStart.back(), offset);
            rTo.back() = arith::AddIOp::create(lb, ll, toStart.back(), offset);
            Value values = vector::TransferReadOp::create(
                lb, ll, VectorType::get({lanesPerRegister}, elementType), input,
                rFrom, padding, ArrayRef<bool>{true});
            if (fillValid)
              values = selectBlockOrZeros(lb, ll, fillValid, values);
            scf::YieldOp::create(
                lb, ll,
                vector::TransferWriteOp::create(lb, ll, values, iterArgs[0],
                                                rTo, ArrayRef<bool>{true})
                    .getResult());
          });
      b.getContext()
          ->getLoadedDialect<GatherDialect>()
          ->getRolledLoopAttrHelper()
          .setAttr(loop, b.getUnitAttr());
      target = loop.getResult(0);
      start = wholeRegisters * lanesPerRegister;
    }
    for (; start < shape.back(); start += lanesPerRegister) {
      int64_t lanes = std::min(lanesPerRegister, shape.back() - start);
      from.back() = plusConstant(b, loc, fromStart.back(), start);
      to.back() = plusConstant(b, loc, toStart.back(), start);
      Value values = vector::TransferReadOp::create(
          b, loc, VectorType::get({lanes}, elementType), input, from, padding,
          ArrayRef<bool>{true});
      if (fillValid)
        values = selectBlockOrZeros(b, loc, fillValid, values);
      pieces.push_back({values, to});
    }
  }
  for (auto &[values, at] : pieces)
    target = vector::TransferWriteOp::create(b, loc, values, target, at,
                                             ArrayRef<bool>{true})
                 .getResult();
  return target;
}

/// The block that the loop iteration at `loopCoords` copies, written into
/// `into` (the output's slice of the block's shape, with leading 1s) row
/// by row with vector loads and stores of copyChunkBytes, the index
/// policy applied as policyBlock does. Returns the updated slice. Rows of
/// dynamic length (copiesDynamicRows) take their whole registers in a loop
/// and the rest as one masked register, where the rows and the block are
/// within the bounds copiesRowsWithVectors sets static ones at run time;
/// else the block is one slice (a memcpy): as a memcpy per row (and not
/// streamed), W1, W2, W7 and W1f16 with every size dynamic took 1.44-1.58x
/// their static time on a Zen 1 (bench/dynamic_shapes.py).
static Value copyBlockRows(OpBuilder &b, Location loc, const LoweringState &s,
                           ValueRange loopCoords, Value into,
                           int64_t blockStart, bool fromMemory) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  Type elementType = inputType.getElementType();
  int64_t rank = s.rank;
  InputCoords at = resolveBlockStart(b, loc, s, loopCoords);
  Value fillValid = reportOrFillValidity(b, loc, s, at.valid);

  int64_t rowLength = inputType.getShape().back();
  int64_t lanes = s.target.registerLanes(elementType.getIntOrFloatBitWidth());
  int64_t chunk = std::max<int64_t>(1, s.target.copyChunkBytes() * 8 /
                                           elementType.getIntOrFloatBitWidth());
  // One chunk of `length` elements at `offset` of the row whose block
  // coordinates (before the last) are `rowCoords`.
  auto rowStart = [&](OpBuilder &cb, Location cl, ArrayRef<Value> rowCoords,
                      Value offset, SmallVector<Value> &from,
                      SmallVector<Value> &to) {
    from.assign(at.coords.begin(), at.coords.begin() + blockStart);
    to.assign(blockStart, constIndex(cb, cl, 0));
    from.append(rowCoords.begin(), rowCoords.end());
    to.append(rowCoords.begin(), rowCoords.end());
    from.push_back(offset);
    to.push_back(offset);
  };
  auto copyChunk = [&](OpBuilder &cb, Location cl, ArrayRef<Value> rowCoords,
                       Value offset, int64_t length, Value target) -> Value {
    SmallVector<Value> from, to;
    rowStart(cb, cl, rowCoords, offset, from, to);
    return copyInRegisters(cb, cl, s, s.op.getInput(), from, target, to,
                           {length}, fillValid);
  };
  // Chunks of `length` from `begin` to `end` in a loop.
  auto copyChunks = [&](OpBuilder &cb, Location cl, ArrayRef<Value> rowCoords,
                        Value begin, Value end, int64_t length,
                        Value target) -> Value {
    return scf::ForOp::create(
               cb, cl, begin, end, constIndex(cb, cl, length),
               ValueRange{target},
               [&](OpBuilder &lb, Location ll, Value offset,
                   ValueRange iterArgs) {
                 scf::YieldOp::create(
                     lb, ll,
                     copyChunk(lb, ll, rowCoords, offset, length, iterArgs[0]));
               })
        .getResult(0);
  };
  // The row at `rowCoords`: its full chunks, then the rest. Several full
  // chunks go in a loop (LLVM unrolls it or not): written out, a row of
  // 128 registers (4 KiB under AVX2) chained 128 writes on one tensor, and
  // bufferization's analysis of that chain took 3.0 s for W1's 96 (0.2 s
  // for 48), most of a compilation.
  auto copyRow = [&](OpBuilder &rb, Location rl, ArrayRef<Value> rowCoords,
                     Value target) -> Value {
    int64_t fullChunks = rowLength / chunk;
    if (fullChunks == 1) {
      target =
          copyChunk(rb, rl, rowCoords, constIndex(rb, rl, 0), chunk, target);
    } else if (fullChunks > 1) {
      target =
          copyChunks(rb, rl, rowCoords, constIndex(rb, rl, 0),
                     constIndex(rb, rl, fullChunks * chunk), chunk, target);
    }
    if (int64_t rest = rowLength % chunk)
      target = copyChunk(rb, rl, rowCoords,
                         constIndex(rb, rl, fullChunks * chunk), rest, target);
    return target;
  };
  // A row of dynamic length: whole registers in a loop, then the rest as
  // one masked register. One register an
  // iteration keeps the stores in address order without the chunks'
  // eight: the code of a dynamic gather stays small.
  auto copyDynamicRow = [&](OpBuilder &rb, Location rl,
                            ArrayRef<Value> rowCoords, Value target) -> Value {
    Value length = tensor::DimOp::create(rb, rl, s.op.getInput(), rank - 1);
    Value step = constIndex(rb, rl, lanes);
    Value registersEnd = wholeStepsEnd(rb, rl, length, step);
    target = copyChunks(rb, rl, rowCoords, constIndex(rb, rl, 0), registersEnd,
                        lanes, target);
    Value rest = arith::SubIOp::create(rb, rl, length, registersEnd);
    Value anyRest = arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::ne,
                                          rest, constIndex(rb, rl, 0));
    auto restOp = scf::IfOp::create(
        rb, rl, anyRest,
        [&](OpBuilder &tb, Location tl) {
          SmallVector<Value> from, to;
          rowStart(tb, tl, rowCoords, registersEnd, from, to);
          auto vectorType = VectorType::get({lanes}, elementType);
          Value mask = vector::CreateMaskOp::create(
              tb, tl, VectorType::get({lanes}, tb.getI1Type()),
              ValueRange{rest});
          Value padding =
              arith::ConstantOp::create(tb, tl, tb.getZeroAttr(elementType));
          auto read = vector::TransferReadOp::create(
              tb, tl, vectorType, s.op.getInput(), from, padding,
              ArrayRef<bool>{true});
          read.getMaskMutable().assign(mask);
          Value values = read.getResult();
          if (fillValid)
            values = selectBlockOrZeros(tb, tl, fillValid, values);
          auto write = vector::TransferWriteOp::create(
              tb, tl, values, target, to, ArrayRef<bool>{true});
          write.getMaskMutable().assign(mask);
          scf::YieldOp::create(tb, tl, write.getResult());
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(eb, el, target);
        });
    return restOp.getResult(0);
  };
  // One loop per block dimension before the last (none for a row).
  auto copyRows = [&](OpBuilder &nb, Location nl, Value target) -> Value {
    SmallVector<Value> lower, upper, steps;
    for (int64_t d = blockStart; d < rank - 1; ++d) {
      lower.push_back(constIndex(nb, nl, 0));
      upper.push_back(constIndex(nb, nl, inputType.getDimSize(d)));
      steps.push_back(constIndex(nb, nl, 1));
    }
    return scf::buildLoopNest(
               nb, nl, lower, upper, steps, ValueRange{target},
               [&](OpBuilder &lb, Location ll, ValueRange rowCoords,
                   ValueRange iterArgs) -> scf::ValueVector {
                 SmallVector<Value> coords(rowCoords);
                 if (ShapedType::isDynamic(rowLength))
                   return {copyDynamicRow(lb, ll, coords, iterArgs[0])};
                 return {copyRow(lb, ll, coords, iterArgs[0])};
               })
        .results.front();
  };
  if (!ShapedType::isDynamic(rowLength))
    return copyRows(b, loc, into);

  // The rule of copiesRowsWithVectors, at run time (the compares built in
  // this order, the IR's).
  auto [first, end] =
      vectorRowBytes(s.target, rowsPerBlock(inputType, blockStart), fromMemory);
  Value length = tensor::DimOp::create(b, loc, s.op.getInput(), rank - 1);
  Value rowBytes = arith::MulIOp::create(
      b, loc, length, constIndex(b, loc, packedElementBytes(elementType)));
  Value longRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         rowBytes, constIndex(b, loc, first));
  Value smallBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           rowBytes, constIndex(b, loc, end));
  Value inRegisters = arith::AndIOp::create(b, loc, longRows, smallBlock);
  auto intoType = cast<RankedTensorType>(into.getType());
  return buildVersions(
      b, loc, inRegisters,
      [&](OpBuilder &tb, Location tl) { return copyRows(tb, tl, into); },
      [&](OpBuilder &eb, Location el) -> Value {
        SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(eb, el, into);
        Value block = sliceBlock(eb, el, s, at.coords, intoType, sizes);
        if (fillValid)
          block = selectBlockOrZeros(eb, el, fillValid, block);
        SmallVector<OpFoldResult> zeros(rank, eb.getIndexAttr(0));
        SmallVector<OpFoldResult> ones(rank, eb.getIndexAttr(1));
        return tensor::InsertSliceOp::create(eb, el, block, into, zeros, sizes,
                                             ones)
            .getResult();
      });
}

/// The loop dimension along which the blocks are copied in tiles with
/// their index tuples resolved as vectors, or nullopt: the innermost loop
/// dimension (the one the prefetch plan runs ahead along), with later loop
/// dimensions of size 1 in the indices too, so that the tuples of
/// consecutive blocks are consecutive; small static blocks; indices read
/// in place (not a resolved table) that are not statically broadcast along
/// that dimension, and contiguous (the tuples of a tile are read as one
/// vector from the indices collapsed to 1-D, which a strided slice could
/// not be without a copy); an input that is contiguous too (its blocks are
/// addressed by one linear offset in the input collapsed before the
/// block).
static std::optional<int64_t> tileDimension(const LoweringState &s,
                                            int64_t blockStart,
                                            ArrayRef<int64_t> outputShape,
                                            int64_t tileBlocks) {
  // (A tile of one block: no tiles.)
  if (blockStart < 1 || s.resolved || s.axes.empty() || tileBlocks < 2)
    return std::nullopt;
  std::optional<int64_t> tileDim =
      innermostLoopDimension(outputShape, blockStart);
  if (!tileDim || s.indicesUnitStatic[*tileDim] == std::optional<bool>(true))
    return std::nullopt;
  for (int64_t d = *tileDim + 1; d < blockStart; ++d)
    if (s.indicesUnitStatic[d] != std::optional<bool>(true))
      return std::nullopt;
  // Too few blocks for one full tile.
  if (!ShapedType::isDynamic(outputShape[*tileDim]) &&
      outputShape[*tileDim] < tileBlocks)
    return std::nullopt;
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  auto indicesType = cast<RankedTensorType>(s.op.getIndices().getType());
  if (!inputType.getElementType().isIntOrFloat() ||
      !indicesType.getElementType().isSignlessIntOrIndex())
    return std::nullopt;
  std::optional<uint64_t> blockBytes =
      staticTrailingBytes(inputType, blockStart);
  // Beyond a few lines the copy itself dominates.
  if (!blockBytes || *blockBytes == 0 ||
      *blockBytes > static_cast<uint64_t>(s.target.smallBlockBytes()))
    return std::nullopt;
  // An empty input has no block to read (and its collapse, a static 0 in a
  // group with a dynamic size, would not bufferize).
  if (llvm::is_contained(inputType.getShape(), 0))
    return std::nullopt;
  auto noSlice = [](tensor::ExtractSliceOp) { return false; };
  if (!slicesAllowed(s.op.getIndices(), noSlice) ||
      !slicesAllowed(s.op.getInput(), noSlice))
    return std::nullopt;
  return tileDim;
}

BlockCopyPlan lowering::planBlockCopy(const LoweringState &s,
                                      RankedTensorType outputType,
                                      int64_t blockStart, bool prefetch,
                                      bool vectorRows) {
  BlockCopyPlan plan;
  plan.blockStart = blockStart;
  plan.prefetch = prefetch;
  plan.tileBlocks = s.target.tileBlocks();
  ArrayRef<int64_t> outputShape = outputType.getShape();
  if (std::optional<int64_t> tileDim =
          tileDimension(s, blockStart, outputShape, plan.tileBlocks)) {
    plan.copy = BlockCopyPlan::Copy::Tiles;
    plan.tileDim = *tileDim;
    // Every tile is full where the extent is a static multiple of the tile
    // and the indices are no run-time broadcast along it: no partial-tile
    // path then (half of the code of a small gather).
    int64_t extent = outputShape[*tileDim];
    plan.alwaysFullTiles = !ShapedType::isDynamic(extent) &&
                           extent % plan.tileBlocks == 0 &&
                           !s.indicesUnit[*tileDim];
    // LLVM would unroll the lane loop fully, and a short tile loop around
    // it too: 64 inline block copies for a 64-row gather. Where a block is
    // two or more vector copies the rotation and the branch cost little
    // (W7, 256-byte rows: 0-8%, bench/README.md; at 32 bytes the rolled
    // loop was 1.4-1.8x slower), so only smaller blocks are left to LLVM's
    // unrolling (gather-rolled-loops).
    auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
    plan.rolledLaneLoop =
        staticTrailingBytes(inputType, blockStart).value_or(0) >=
        static_cast<uint64_t>(s.target.rolledLaneLoopBytes());
    // Rows of a cache line or more in registers, in address order: as a
    // slice, LLVM's inline memcpy stored W7's 256-byte blocks from the
    // last line back (W7 1.05-1.27x faster in order on a Zen 1).
    plan.tileRowsInRegisters = vectorRows && rowsInRegisters(s);
    if (plan.tileRowsInRegisters)
      plan.streamingStoreMinBytes = streamingStoreMinBytes(s, outputType);
    return plan;
  }
  plan.dynamicRows = vectorRows && copiesDynamicRows(s, blockStart);
  // Whether vector rows would stream, and from memory, decides how long
  // they may be.
  int64_t streamingMin = streamingStoreMinBytes(s, outputType);
  bool fromMemory = streamsFromMemory(s, streamingMin);
  plan.copy = vectorRows && (copiesRowsWithVectors(s, blockStart, fromMemory) ||
                             plan.dynamicRows)
                  ? BlockCopyPlan::Copy::VectorRows
                  : BlockCopyPlan::Copy::Slice;
  if (plan.copy == BlockCopyPlan::Copy::VectorRows) {
    plan.streamingStoreMinBytes = streamingMin;
    plan.streamedFromMemory = fromMemory;
  }
  return plan;
}

/// The block that the loop iteration at `loopCoords` (the dimensions
/// before the block) copies, the index policy applied: an invalid index
/// reported under `error`, a zero block under `fill` (a select, not an
/// scf.if: the copy stays one straight-line body).
static Value policyBlock(OpBuilder &b, Location loc, const LoweringState &s,
                         ValueRange loopCoords, RankedTensorType blockType,
                         ArrayRef<OpFoldResult> blockSizes) {
  InputCoords at = resolveBlockStart(b, loc, s, loopCoords);
  Value block = sliceBlock(b, loc, s, at.coords, blockType, blockSizes);
  if (Value fillValid = reportOrFillValidity(b, loc, s, at.valid))
    block = selectBlockOrZeros(b, loc, fillValid, block);
  return block;
}

/// The index tuples of `tile` consecutive blocks, read as one vector
/// at `first` of the indices collapsed to 1-D, resolved under `policy`: per
/// axis a vector of input coordinates, the lanes' validity (null where the
/// policy has no check) and, where one test answers for the tile
/// (buildPowerOfTwoTuples), whether any lane is invalid. With `keepInvalid`
/// an invalid lane's coordinate is never read: the caller reports it first.
/// With `forAddress` the coordinates are addresses in the input, not the
/// policy's answer (buildAddressIndex), and there is no validity.
struct TileTuples {
  SmallVector<Value> coords;
  Value valid;
  Value anyInvalid;
};
static TileTuples resolveTileTuples(OpBuilder &b, Location loc,
                                    const LoweringState &s, IndexPolicy policy,
                                    Value flatIndices, Value first,
                                    int64_t tile, bool keepInvalid = false,
                                    bool forAddress = false) {
  int64_t k = s.coordinateSize;
  Type indexElementType =
      cast<RankedTensorType>(flatIndices.getType()).getElementType();
  auto rawType = VectorType::get({tile * k}, indexElementType);
  Value raw = vector::TransferReadOp::create(
      b, loc, rawType, flatIndices, ValueRange{first},
      arith::ConstantOp::create(b, loc, b.getZeroAttr(indexElementType)),
      ArrayRef<bool>{true});
  auto indexVecType = VectorType::get({tile}, b.getIndexType());
  SmallVector<Value> components;
  SmallVector<int64_t> staticSizes;
  for (auto [c, axis] : llvm::enumerate(s.axes)) {
    Value component = raw;
    if (k > 1) {
      SmallVector<int64_t> lanes;
      for (int64_t t = 0; t < tile; ++t)
        lanes.push_back(t * k + static_cast<int64_t>(c));
      component = vector::ShuffleOp::create(b, loc, raw, raw, lanes);
    }
    if (!indexElementType.isIndex())
      component = arith::IndexCastOp::create(b, loc, indexVecType, component);
    components.push_back(component);
    staticSizes.push_back(
        getConstantIntValue(s.inputSize[axis]).value_or(int64_t(0)));
  }
  bool invalidNeverRead =
      policy.outOfBounds == OutOfBoundsMode::unchecked ||
      (policy.outOfBounds == OutOfBoundsMode::error && keepInvalid);
  if (!forAddress && invalidNeverRead)
    if (std::optional<PowerOfTwoTuples> tuples =
            buildPowerOfTwoTuples(b, loc, policy, components, staticSizes))
      return {tuples->coords, tuples->valid, tuples->anyInvalid};
  TileTuples result;
  for (auto [c, axis] : llvm::enumerate(s.axes)) {
    Value size =
        vector::BroadcastOp::create(b, loc, indexVecType, s.inputSize[axis]);
    if (forAddress) {
      result.coords.push_back(buildAddressIndex(b, loc, policy, components[c],
                                                size, staticSizes[c]));
      continue;
    }
    ResolvedIndexValue resolved =
        buildResolvedIndex(b, loc, policy, components[c], size, keepInvalid);
    result.coords.push_back(resolved.index);
    result.valid = andValues(b, loc, result.valid, resolved.valid);
  }
  return result;
}

namespace {
/// Emits the block copy in tiles of plan.tileBlocks along the innermost loop
/// dimension (BlockCopyPlan::Copy::Tiles). A full tile reads its k * tile
/// index values with one vector read, applies the policy to its tuples at
/// once and reports a bad index with one reduction; the blocks are then
/// copied one by one in a loop over the lanes. A partial tile (the end of a
/// row, or indices that are a run-time broadcast along the dimension)
/// copies block by block as the untiled form does.
class TileEmitter {
public:
  TileEmitter(const LoweringState &s, const BlockCopyPlan &plan,
              ArrayRef<OpFoldResult> upperBounds,
              const std::optional<BlockPrefetch> &prefetch)
      : s(s), plan(plan), upperBounds(upperBounds), prefetch(prefetch),
        rank(s.rank), tileDim(plan.tileDim), blockStart(plan.blockStart) {}

  Value emit(OpBuilder &b, Location loc, Value init);

private:
  /// `block` into the tile at position `positionInTile`.
  Value insertBlock(OpBuilder &cb, Location cl, Value block, Value into,
                    Value positionInTile) const {
    SmallVector<OpFoldResult> to(rank, cb.getIndexAttr(0));
    to[tileDim] = positionInTile;
    return tensor::InsertSliceOp::create(cb, cl, block, into, to, blockSizes,
                                         ones);
  }

  /// The loop coordinates of block `t` of the tile.
  SmallVector<Value> blockIvs(OpBuilder &cb, Location cl, Value t) const {
    SmallVector<Value> at(ivs);
    at[tileDim] = arith::AddIOp::create(cb, cl, tileStart, t);
    return at;
  }

  Value fullTile(OpBuilder &tb, Location tl) const;
  Value partialTile(OpBuilder &eb, Location el) const;

  const LoweringState &s;
  const BlockCopyPlan &plan;
  ArrayRef<OpFoldResult> upperBounds;
  const std::optional<BlockPrefetch> &prefetch;
  int64_t rank, tileDim, blockStart;

  /// The lanes' blocks as offsets in `blocksInput`, from their input
  /// coordinates (`axisCoords` per axis, the tile's blocks at `tileFirst`
  /// of the tile dimension).
  Value blockOffsets(OpBuilder &cb, Location cl, ArrayRef<Value> axisCoords,
                     Value tileFirst) const;

  // Before the loop over the tiles.
  Value extent, flatIndices;
  SmallVector<Value> indicesStrides;
  /// The input with its dimensions before the block collapsed into one
  /// (blocks, then the block's dimensions), the strides of those
  /// dimensions in it, and the prefetch plan reading it.
  Value blocksInput;
  SmallVector<Value> blockStrides;
  std::optional<BlockPrefetch> blocksPrefetch;
  std::optional<IndexPrefetch> indexPrefetch;
  // Per tile.
  SmallVector<Value> ivs;
  Value tileStart, tileLength, tileOut, zeroIndex;
  SmallVector<OpFoldResult> blockSizes, ones;
  RankedTensorType blockType;
};
} // namespace

Value TileEmitter::blockOffsets(OpBuilder &cb, Location cl,
                                ArrayRef<Value> axisCoords,
                                Value tileFirst) const {
  const int64_t tile = plan.tileBlocks;
  auto vecType = VectorType::get({tile}, cb.getIndexType());
  auto splat = [&](Value v) {
    return vector::BroadcastOp::create(cb, cl, vecType, v).getResult();
  };
  // The dimensions that are not axes: the same for every lane but along
  // the tile dimension, whose lanes are consecutive output positions.
  Value base = zeroIndex;
  Value lanes;
  for (int64_t d = 0; d < blockStart; ++d) {
    if (llvm::is_contained(s.axes, d))
      continue;
    if (s.inputUnitStatic[d] == std::optional<bool>(true))
      continue;
    if (d != tileDim) {
      Value coord =
          broadcastCoord(cb, cl, ivs[d], s.inputUnitStatic[d], s.inputUnit[d]);
      base = arith::AddIOp::create(
          cb, cl, base, arith::MulIOp::create(cb, cl, coord, blockStrides[d]));
      continue;
    }
    Value positions = arith::AddIOp::create(
        cb, cl, splat(tileFirst),
        vector::StepOp::create(cb, cl, vecType).getResult());
    if (!s.inputUnitStatic[d])
      positions = arith::SelectOp::create(cb, cl, s.inputUnit[d],
                                          splat(zeroIndex), positions);
    lanes = arith::MulIOp::create(cb, cl, positions, splat(blockStrides[d]));
  }
  Value offsets = splat(base);
  if (lanes)
    offsets = arith::AddIOp::create(cb, cl, offsets, lanes);
  for (auto [c, axis] : llvm::enumerate(s.axes))
    offsets =
        arith::AddIOp::create(cb, cl, offsets,
                              arith::MulIOp::create(cb, cl, axisCoords[c],
                                                    splat(blockStrides[axis])));
  return offsets;
}

Value TileEmitter::fullTile(OpBuilder &tb, Location tl) const {
  const int64_t tile = plan.tileBlocks;
  // The tile's tuples: k * tile consecutive index values.
  Value rowFirst = zeroIndex;
  for (int64_t d = 0; d < tileDim; ++d) {
    Value pos = broadcastCoord(tb, tl, ivs[d], s.indicesUnitStatic[d],
                               s.indicesUnit[d]);
    rowFirst = arith::AddIOp::create(
        tb, tl, rowFirst,
        arith::MulIOp::create(tb, tl, pos, indicesStrides[d]));
  }
  auto firstOf = [&](Value start) -> Value {
    return arith::AddIOp::create(
        tb, tl, rowFirst,
        arith::MulIOp::create(tb, tl, start, indicesStrides[tileDim]));
  };
  Value first = firstOf(tileStart);
  // One check per tile; the blocks read through index 0 meanwhile. Under
  // `error` the bad lanes do so only on the branch that reports them: the
  // valid tiles' path selects no coordinate (without mask registers a
  // compare and an AND per coordinate).
  bool reportsTile =
      s.policy.outOfBounds == OutOfBoundsMode::error && s.checksInLoops();
  TileTuples tuples = resolveTileTuples(tb, tl, s, s.policy, flatIndices, first,
                                        tile, reportsTile);
  SmallVector<Value> axisCoords = tuples.coords;
  Value valid = tuples.valid;
  Value anyInvalid;
  // Where one test answers for the tile (axes of static power-of-two
  // sizes), no reduction of the lanes' validity.
  Value outside = tuples.anyInvalid;
  Value fillValid = raiseInvalidReads(
      tb, tl, s.policy, valid,
      [&](OpBuilder &rb, Location rl, Value invalidLanes) {
        anyInvalid = outside
                         ? outside
                         : vector::ReductionOp::create(
                               rb, rl, vector::CombiningKind::OR, invalidLanes)
                               .getResult();
        if (!reportsTile)
          reportIfAnyInvalid(rb, rl, s, anyInvalid);
      });
  if (reportsTile && anyInvalid) {
    auto branch = scf::IfOp::create(
        tb, tl, anyInvalid,
        [&](OpBuilder &rb, Location rl) {
          reportInvalidIndex(rb, rl, s);
          SmallVector<Value> safe;
          for (Value coord : axisCoords) {
            Value zero = arith::ConstantOp::create(
                rb, rl, coord.getType(), rb.getZeroAttr(coord.getType()));
            safe.push_back(arith::SelectOp::create(rb, rl, valid, coord, zero));
          }
          scf::YieldOp::create(rb, rl, safe);
        },
        [&](OpBuilder &rb, Location rl) {
          scf::YieldOp::create(rb, rl, axisCoords);
        });
    axisCoords = llvm::to_vector_of<Value>(branch.getResults());
  }
  // The prefetch of the tile `distance` blocks ahead (the last full tile of
  // the row at the end), its tuples resolved as vectors into addresses in
  // the input, not the policy's answer (buildAddressIndex: one AND for an
  // axis of a power-of-two size, else wrapped and clamped). The prefetch plan
  // runs ahead along the tile dimension: both are the innermost loop dimension.
  SmallVector<Value> aheadCoords;
  Value aheadStart;
  if (prefetch) {
    aheadStart = arith::MinUIOp::create(
        tb, tl,
        arith::AddIOp::create(tb, tl, tileStart,
                              constIndex(tb, tl, prefetch->distance)),
        arith::SubIOp::create(tb, tl, extent, constIndex(tb, tl, tile)));
    aheadCoords = resolveTileTuples(tb, tl, s, s.policy, flatIndices,
                                    firstOf(aheadStart), tile,
                                    /*keepInvalid=*/false, /*forAddress=*/true)
                      .coords;
    // The index values that read will take `distance` blocks later: the
    // stream of indices runs as far ahead of its reads as the blocks do.
    if (indexPrefetch)
      emitIndexStreamPrefetch(
          tb, tl, *indexPrefetch,
          firstOf(arith::MinUIOp::create(
              tb, tl,
              arith::AddIOp::create(tb, tl, aheadStart,
                                    constIndex(tb, tl, prefetch->distance)),
              arith::SubIOp::create(tb, tl, extent,
                                    constIndex(tb, tl, tile)))));
  }
  // Each block's coordinates become one offset in the vectors: a lane then
  // takes one value out of them, where a coordinate each took one and
  // scalar arithmetic on it (docs/Lowering.md: W4 1.04-1.05x faster on a
  // Zen 2).
  SmallVector<Value> laneVectors{blockOffsets(tb, tl, axisCoords, tileStart)};
  if (prefetch)
    laneVectors.push_back(blockOffsets(tb, tl, aheadCoords, aheadStart));
  // A loop over the lanes, not a copy of the body per lane: every copy grows
  // each later pass and LLVM's work (a function of many gathers compiled 4x
  // slower unrolled). The lane vectors are rotated by one lane per
  // iteration and lane 0 read: a static extract and one shuffle, where a
  // dynamic extract goes through memory (2x slower on 16-byte blocks).
  bool selectsLanes = static_cast<bool>(fillValid);
  if (selectsLanes)
    laneVectors.push_back(fillValid);
  SmallVector<int64_t> rotateByOne;
  for (int64_t t = 1; t <= tile; ++t)
    rotateByOne.push_back(t % tile);
  SmallVector<Value> loopInits{tileOut};
  loopInits.append(laneVectors);
  // Where a lane's block starts in blocksInput: its offset, then the
  // block's first element.
  auto blockStartAt = [&](Value offset) {
    SmallVector<Value> at{offset};
    at.append(rank - blockStart, zeroIndex);
    return at;
  };
  auto lanes = scf::ForOp::create(
      tb, tl, zeroIndex, constIndex(tb, tl, tile), constIndex(tb, tl, 1),
      loopInits, [&](OpBuilder &lb, Location ll, Value t, ValueRange iterArgs) {
        SmallVector<Value> lane, rotated;
        for (Value v : iterArgs.drop_front()) {
          lane.push_back(vector::ExtractOp::create(lb, ll, v, 0));
          rotated.push_back(
              vector::ShuffleOp::create(lb, ll, v, v, rotateByOne));
        }
        if (prefetch)
          emitBlockPrefetchAt(lb, ll, *blocksPrefetch, blockStartAt(lane[1]));
        SmallVector<Value> from = blockStartAt(lane[0]);
        Value laneValid = selectsLanes ? lane.back() : Value();
        Value copied;
        if (plan.tileRowsInRegisters) {
          SmallVector<Value> to(rank, zeroIndex);
          to[tileDim] = t;
          copied = copyInRegisters(
              lb, ll, s, blocksInput, from, iterArgs[0], to,
              blockType.getShape().drop_front(blockStart), laneValid,
              /*rolled=*/true);
        } else {
          // One block of blocksInput, its leading 1 dropped.
          auto sliceType =
              RankedTensorType::get(blockType.getShape().drop_front(blockStart),
                                    blockType.getElementType());
          SmallVector<OpFoldResult> sizes{lb.getIndexAttr(1)};
          sizes.append(blockSizes.begin() + blockStart, blockSizes.end());
          SmallVector<OpFoldResult> strides(sizes.size(), lb.getIndexAttr(1));
          Value block = tensor::ExtractSliceOp::create(
              lb, ll, sliceType, blocksInput, getAsOpFoldResult(from), sizes,
              strides);
          if (laneValid)
            block = selectBlockOrZeros(lb, ll, laneValid, block);
          copied = insertBlock(lb, ll, block, iterArgs[0], t);
        }
        SmallVector<Value> yielded{copied};
        yielded.append(rotated);
        scf::YieldOp::create(lb, ll, yielded);
      });
  if (plan.rolledLaneLoop)
    tb.getContext()
        ->getLoadedDialect<GatherDialect>()
        ->getRolledLoopAttrHelper()
        .setAttr(lanes, tb.getUnitAttr());
  return lanes.getResult(0);
}

Value TileEmitter::partialTile(OpBuilder &eb, Location el) const {
  auto loop = scf::ForOp::create(
      eb, el, zeroIndex, tileLength, constIndex(eb, el, 1), ValueRange{tileOut},
      [&](OpBuilder &lb, Location ll, Value t, ValueRange iterArgs) {
        SmallVector<Value> at = blockIvs(lb, ll, t);
        if (prefetch)
          emitBlockPrefetch(lb, ll, s, *prefetch, at, upperBounds, blockStart);
        Value block = policyBlock(lb, ll, s, at, blockType, blockSizes);
        scf::YieldOp::create(lb, ll,
                             insertBlock(lb, ll, block, iterArgs[0], t));
      });
  return loop.getResult(0);
}

Value TileEmitter::emit(OpBuilder &b, Location loc, Value init) {
  MultiaxisOp op = s.op;
  auto outputType = cast<RankedTensorType>(init.getType());
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  Type elementType = outputType.getElementType();
  const int64_t tile = plan.tileBlocks;

  extent = getValueOrCreateConstantIndexOp(b, loc, upperBounds[tileDim]);
  SmallVector<OpFoldResult> tileBounds(upperBounds);
  tileBounds[tileDim] =
      arith::CeilDivUIOp::create(b, loc, extent, constIndex(b, loc, tile))
          .getResult();

  // The indices as one dimension, and the strides of its dimensions there
  // (the dimensions after the tile dimension are 1 but the last, k).
  flatIndices = collapseToOneDimension(b, loc, op.getIndices());
  SmallVector<Value> indicesSizes;
  for (int64_t d = 0; d < rank; ++d)
    indicesSizes.push_back(tensor::DimOp::create(b, loc, op.getIndices(), d));
  indicesStrides = rowMajorStrides(b, loc, indicesSizes);
  // The input as blocks (its dimensions before the block in one), and the
  // row-major strides of those dimensions in blocks.
  SmallVector<ReassociationIndices> groups(1);
  for (int64_t d = 0; d < blockStart; ++d)
    groups[0].push_back(d);
  for (int64_t d = blockStart; d < rank; ++d)
    groups.push_back({d});
  blocksInput = tensor::CollapseShapeOp::create(b, loc, op.getInput(), groups);
  blockStrides = rowMajorStrides(
      b, loc, ArrayRef<Value>(s.inputSize).take_front(blockStart));
  if (prefetch) {
    blocksPrefetch = prefetchReading(b, loc, *prefetch, blocksInput);
    indexPrefetch = planIndexPrefetch(b, loc, s, flatIndices, tile);
  }

  auto forall =
      scf::ForallOp::create(b, loc, tileBounds, ValueRange{init}, std::nullopt);
  markStreamingStores(forall, plan.streamingStoreMinBytes, s,
                      cast<RankedTensorType>(init.getType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  ivs = forall.getInductionVars();
  tileStart =
      arith::MulIOp::create(b, loc, ivs[tileDim], constIndex(b, loc, tile));
  tileLength = plan.alwaysFullTiles
                   ? constIndex(b, loc, tile)
                   : arith::MinUIOp::create(
                         b, loc, constIndex(b, loc, tile),
                         arith::SubIOp::create(b, loc, extent, tileStart))
                         .getResult();

  // This tile of the output: [outer coordinates, tile, block].
  SmallVector<OpFoldResult> tileOffsets(ivs.begin(), ivs.end());
  tileOffsets[tileDim] = tileStart;
  SmallVector<OpFoldResult> tileSizes(blockStart, b.getIndexAttr(1));
  tileSizes[tileDim] = tileLength;
  blockSizes.assign(blockStart, b.getIndexAttr(1));
  SmallVector<int64_t> blockShape(blockStart, 1);
  for (int64_t d = blockStart; d < rank; ++d) {
    tileOffsets.push_back(b.getIndexAttr(0));
    tileSizes.push_back(b.getIndexAttr(inputType.getDimSize(d)));
    blockSizes.push_back(b.getIndexAttr(inputType.getDimSize(d)));
    blockShape.push_back(inputType.getDimSize(d));
  }
  ones.assign(rank, b.getIndexAttr(1));
  Value sharedOut = forall.getRegionIterArgs()[0];
  tileOut = tensor::ExtractSliceOp::create(b, loc, sharedOut, tileOffsets,
                                           tileSizes, ones);
  blockType = RankedTensorType::get(blockShape, elementType);
  zeroIndex = constIndex(b, loc, 0);

  Value tileResult;
  if (plan.alwaysFullTiles) {
    tileResult = fullTile(b, loc);
  } else {
    Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       tileLength, constIndex(b, loc, tile));
    if (s.indicesUnit[tileDim])
      full = arith::AndIOp::create(b, loc, full,
                                   notValue(b, loc, s.indicesUnit[tileDim]));
    tileResult = scf::IfOp::create(
                     b, loc, full,
                     [&](OpBuilder &tb, Location tl) {
                       scf::YieldOp::create(tb, tl, fullTile(tb, tl));
                     },
                     [&](OpBuilder &eb, Location el) {
                       scf::YieldOp::create(eb, el, partialTile(eb, el));
                     })
                     .getResult(0);
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, tileResult, sharedOut,
                                        tileOffsets, tileSizes, ones);
  return forall.getResult(0);
}

/// The structure-aware form: a parallel loop over the outer output
/// dimensions; each iteration computes one input coordinate and copies the
/// contiguous trailing block whole: row by row with vector loads and stores
/// or with one slice (a memcpy after bufferization), never element by
/// element; or, for small blocks, in tiles (TileEmitter).
Value lowering::buildBlockCopy(OpBuilder &b, Location loc,
                               const LoweringState &s, Value init,
                               const BlockCopyPlan &plan) {
  auto outputType = cast<RankedTensorType>(init.getType());
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t rank = s.rank;
  int64_t blockStart = plan.blockStart;
  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < blockStart; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  std::optional<BlockPrefetch> prefetch =
      plan.prefetch ? planBlockPrefetch(b, loc, s, init, blockStart)
                    : std::nullopt;
  if (plan.copy == BlockCopyPlan::Copy::Tiles)
    return TileEmitter(s, plan, upperBounds, prefetch).emit(b, loc, init);
  auto forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                      std::nullopt);
  markStreamingStores(forall, plan.streamingStoreMinBytes, s,
                      cast<RankedTensorType>(init.getType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  if (prefetch)
    emitBlockPrefetch(b, loc, s, *prefetch, forall.getInductionVars(),
                      upperBounds, blockStart);
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes(blockStart, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape(blockStart, 1);
  for (int64_t d = blockStart; d < rank; ++d) {
    sizes.push_back(tensor::getMixedSize(b, loc, s.op.getInput(), d));
    sliceShape.push_back(inputType.getDimSize(d));
  }
  SmallVector<OpFoldResult> outputOffsets =
      getAsOpFoldResult(forall.getInductionVars());
  for (int64_t d = blockStart; d < rank; ++d)
    outputOffsets.push_back(b.getIndexAttr(0));
  Value block;
  if (plan.copy == BlockCopyPlan::Copy::VectorRows) {
    Value target = tensor::ExtractSliceOp::create(
        b, loc, forall.getRegionIterArgs()[0], outputOffsets, sizes, ones);
    block = copyBlockRows(b, loc, s, forall.getInductionVars(), target,
                          blockStart, plan.streamedFromMemory);
  } else {
    block = policyBlock(
        b, loc, s, forall.getInductionVars(),
        RankedTensorType::get(sliceShape, outputType.getElementType()), sizes);
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, block, forall.getRegionIterArgs()[0], outputOffsets, sizes, ones);
  return forall.getResult(0);
}
