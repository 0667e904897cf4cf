//===- CopiesToMemcpy.cpp - memref.copy without memrefCopy ----------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCOPIESTOMEMCPY
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// Whether upstream's lowering copies `type` with one llvm.intr.memcpy.
static bool upstreamUsesMemcpy(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

/// Bytes per element in memory (i1 takes a byte), or 0 for a type this
/// pass leaves alone (f80 and other padded widths: upstream's copy sizes
/// them by the data layout).
static int64_t elementBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  return gather::packedElementBytes(type);
}

/// An innermost stride of 1 or known at run time only (a view that is the
/// result of an scf.if over differently laid out buffers).
static bool innermostStrideMayBeUnit(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1 || ShapedType::isDynamic(strides.back());
}

/// How a copy is rewritten: left to upstream (which copies identity and
/// static contiguous layouts with one memcpy, and device memory in its
/// own way), with memcpys where both innermost strides may be 1, or
/// element by element. Upstream would call `memrefCopy` for the last two,
/// a function only MLIR's C runner utils define: compiled code that called
/// it would need that library beside the gather run-time wherever it runs.
enum class CopyForm { Upstream, Memcpy, Elements };

static CopyForm formOf(memref::CopyOp copy) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!source || !target || source.getMemorySpace() ||
      target.getMemorySpace() ||
      (upstreamUsesMemcpy(source) && upstreamUsesMemcpy(target)))
    return CopyForm::Upstream;
  // The memcpys copy rows: rank 0 has none.
  if (source.getRank() == 0 || !elementBytes(source.getElementType()) ||
      !innermostStrideMayBeUnit(source) || !innermostStrideMayBeUnit(target))
    return CopyForm::Elements;
  return CopyForm::Memcpy;
}

/// The copy as loops of loads and stores over every dimension.
static void emitElementLoops(OpBuilder &b, Location loc, Value source,
                             Value target) {
  int64_t rank = cast<MemRefType>(source.getType()).getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(memref::DimOp::create(b, loc, source, d));
  SmallVector<Value> lows(rank, zero), steps(rank, one);
  scf::buildLoopNest(b, loc, lows, sizes, steps,
                     [&](OpBuilder &lb, Location ll, ValueRange ivs) {
                       Value value =
                           memref::LoadOp::create(lb, ll, source, ivs);
                       memref::StoreOp::create(lb, ll, value, target, ivs);
                     });
}

/// The address of element `offset` (in elements) of `memref`'s buffer.
static Value elementAddress(OpBuilder &b, Location loc, Value memref,
                            Value offset, int64_t bytes) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value byteOffset = arith::MulIOp::create(
      b, loc, offset, arith::ConstantIndexOp::create(b, loc, bytes));
  Value address = arith::AddIOp::create(b, loc, base, byteOffset);
  Value asI64 =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult();
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), asI64);
}

static void emitMemcpy(OpBuilder &b, Location loc, Value target,
                       Value targetOffset, Value source, Value sourceOffset,
                       Value elements, int64_t bytes) {
  Value length = arith::MulIOp::create(
      b, loc, elements, arith::ConstantIndexOp::create(b, loc, bytes));
  Value lengthI64 =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), length).getResult();
  Value to = elementAddress(b, loc, target, targetOffset, bytes);
  Value from = elementAddress(b, loc, source, sourceOffset, bytes);
  LLVM::MemcpyOp::create(b, loc, to, from, lengthI64, /*isVolatile=*/false);
}

/// i1 "the view is row-major contiguous": each stride is the product of
/// the sizes inside it, except where the size is 1 (any stride).
static Value isContiguous(OpBuilder &b, Location loc, ValueRange sizes,
                          ValueRange strides) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value expected = sizes.back();
  Value all;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d) {
    Value unit =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, sizes[d], one);
    Value dense = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        strides[d], expected);
    Value holds = arith::OrIOp::create(b, loc, unit, dense);
    all = all ? arith::AndIOp::create(b, loc, all, holds).getResult() : holds;
    if (d > 0)
      expected = arith::MulIOp::create(b, loc, expected, sizes[d]);
  }
  return all;
}

/// One memcpy when both views are contiguous, else one per innermost row;
/// where an innermost stride is known at run time only, the memcpys are
/// taken when it is 1, else the elements are copied one by one.
static void rewriteCopy(memref::CopyOp copy) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSource(), target = copy.getTarget();
  auto type = cast<MemRefType>(source.getType());
  int64_t rank = type.getRank();
  int64_t bytes = elementBytes(type.getElementType());
  bool unitRows = type.isLastDimUnitStride() &&
                  cast<MemRefType>(target.getType()).isLastDimUnitStride();
  auto sourceMeta = memref::ExtractStridedMetadataOp::create(b, loc, source);
  auto targetMeta = memref::ExtractStridedMetadataOp::create(b, loc, target);
  SmallVector<Value> sizes(sourceMeta.getSizes());
  if (rank == 1 && unitRows) {
    emitMemcpy(b, loc, target, targetMeta.getOffset(), source,
               sourceMeta.getOffset(), sizes[0], bytes);
    copy->erase();
    return;
  }
  Value contiguous;
  if (rank > 1) {
    Value sourceContiguous =
        isContiguous(b, loc, sizes, sourceMeta.getStrides());
    Value targetContiguous =
        isContiguous(b, loc, sizes, targetMeta.getStrides());
    contiguous =
        arith::AndIOp::create(b, loc, sourceContiguous, targetContiguous);
  }
  if (!unitRows) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value unitSource = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, sourceMeta.getStrides().back(), one);
    Value unitTarget = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, targetMeta.getStrides().back(), one);
    Value unit = arith::AndIOp::create(b, loc, unitSource, unitTarget);
    contiguous =
        contiguous ? arith::AndIOp::create(b, loc, contiguous, unit).getResult()
                   : unit;
  }
  scf::IfOp::create(
      b, loc, contiguous,
      [&](OpBuilder &tb, Location tl) {
        Value count = sizes[0];
        for (int64_t d = 1; d < rank; ++d)
          count = arith::MulIOp::create(tb, tl, count, sizes[d]);
        emitMemcpy(tb, tl, target, targetMeta.getOffset(), source,
                   sourceMeta.getOffset(), count, bytes);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        if (!unitRows) {
          emitElementLoops(eb, el, source, target);
          scf::YieldOp::create(eb, el);
          return;
        }
        Value zero = arith::ConstantIndexOp::create(eb, el, 0);
        Value one = arith::ConstantIndexOp::create(eb, el, 1);
        SmallVector<Value> lows(rank - 1, zero), steps(rank - 1, one);
        scf::buildLoopNest(
            eb, el, lows, ArrayRef<Value>(sizes).drop_back(), steps,
            [&](OpBuilder &lb, Location ll, ValueRange ivs) {
              Value sourceOffset = sourceMeta.getOffset();
              Value targetOffset = targetMeta.getOffset();
              for (auto [d, iv] : llvm::enumerate(ivs)) {
                sourceOffset = arith::AddIOp::create(
                    lb, ll, sourceOffset,
                    arith::MulIOp::create(lb, ll, iv,
                                          sourceMeta.getStrides()[d]));
                targetOffset = arith::AddIOp::create(
                    lb, ll, targetOffset,
                    arith::MulIOp::create(lb, ll, iv,
                                          targetMeta.getStrides()[d]));
              }
              emitMemcpy(lb, ll, target, targetOffset, source, sourceOffset,
                         sizes.back(), bytes);
            });
        scf::YieldOp::create(eb, el);
      });
  copy->erase();
}

namespace {
struct GatherCopiesToMemcpyPass
    : gather::impl::GatherCopiesToMemcpyBase<GatherCopiesToMemcpyPass> {
  void runOnOperation() override {
    SmallVector<std::pair<memref::CopyOp, CopyForm>> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      CopyForm form = formOf(copy);
      if (form != CopyForm::Upstream)
        copies.emplace_back(copy, form);
    });
    for (auto [copy, form] : copies) {
      if (form == CopyForm::Memcpy) {
        rewriteCopy(copy);
        continue;
      }
      OpBuilder b(copy);
      emitElementLoops(b, copy.getLoc(), copy.getSource(), copy.getTarget());
      copy->erase();
    }
  }
};
} // namespace
