//===- HalfFloatMoves.cpp - 16-bit floats moved as integers ---------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERHALFFLOATMOVES
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// The integer type that carries `type`'s bits where `type` is f16, bf16 or
/// a vector of them; else null.
Type bitsTypeFor(Type type) {
  auto isHalf = [](Type t) { return isa<Float16Type, BFloat16Type>(t); };
  if (isHalf(type))
    return IntegerType::get(type.getContext(), 16);
  if (auto vector = dyn_cast<VectorType>(type);
      vector && isHalf(vector.getElementType()))
    return vector.clone(IntegerType::get(type.getContext(), 16));
  return nullptr;
}

/// `value` as `type` through llvm.bitcast, taking the operand of a bitcast
/// that came from `type` instead of adding the pair.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (auto cast = value.getDefiningOp<LLVM::BitcastOp>();
      cast && cast.getArg().getType() == type)
    return cast.getArg();
  // A constant (a gather's pass-through) as its integer constant.
  if (auto constant = value.getDefiningOp<LLVM::ConstantOp>();
      constant && isa<IntegerType>(getElementTypeOrSelf(type))) {
    Attribute bits;
    if (auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue()))
      bits = dense.bitcast(getElementTypeOrSelf(type));
    else if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
      bits = IntegerAttr::get(type, scalar.getValue().bitcastToAPInt());
    if (bits)
      return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(bits));
  }
  return LLVM::BitcastOp::create(b, loc, type, value);
}

/// Replaces `op`'s operands `positions` by their bits and, where
/// `resultToo`, retypes its one result to bits in place, its users getting
/// the old type back through a bitcast.
void moveAsBits(Operation *op, ArrayRef<unsigned> positions, bool resultToo) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (unsigned position : positions) {
    Value operand = op->getOperand(position);
    if (Type bits = bitsTypeFor(operand.getType()))
      op->setOperand(position, castTo(b, loc, operand, bits));
  }
  if (!resultToo)
    return;
  Value result = op->getResult(0);
  Type originalType = result.getType();
  Type bits = bitsTypeFor(originalType);
  if (!bits)
    return;
  result.setType(bits);
  b.setInsertionPointAfter(op);
  auto back = LLVM::BitcastOp::create(b, loc, originalType, result);
  result.replaceAllUsesExcept(back, back);
}

struct GatherHalfFloatMovesPass
    : gather::impl::GatherHalfFloatMovesBase<GatherHalfFloatMovesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> moves;
    getOperation()->walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MaskedLoadOp,
              LLVM::MaskedStoreOp, LLVM::masked_gather, LLVM::masked_scatter,
              LLVM::ExtractElementOp, LLVM::InsertElementOp,
              LLVM::ShuffleVectorOp, LLVM::SelectOp>(op))
        moves.push_back(op);
    });
    for (Operation *op : moves) {
      llvm::TypeSwitch<Operation *>(op)
          .Case([](LLVM::LoadOp load) {
            if (load.getOrdering() == LLVM::AtomicOrdering::not_atomic)
              moveAsBits(load, {}, true);
          })
          .Case([](LLVM::StoreOp store) {
            if (store.getOrdering() == LLVM::AtomicOrdering::not_atomic)
              moveAsBits(store, {0}, false);
          })
          // Operands: pointer, mask, pass-through.
          .Case([](LLVM::MaskedLoadOp load) { moveAsBits(load, {2}, true); })
          // Operands: value, pointer, mask.
          .Case(
              [](LLVM::MaskedStoreOp store) { moveAsBits(store, {0}, false); })
          // Operands: pointers, mask, pass-through.
          .Case(
              [](LLVM::masked_gather gather) { moveAsBits(gather, {2}, true); })
          // Operands: value, pointers, mask.
          .Case([](LLVM::masked_scatter scatter) {
            moveAsBits(scatter, {0}, false);
          })
          .Case([](LLVM::ExtractElementOp extract) {
            moveAsBits(extract, {0}, true);
          })
          .Case([](LLVM::InsertElementOp insert) {
            moveAsBits(insert, {0, 1}, true);
          })
          .Case([](LLVM::ShuffleVectorOp shuffle) {
            moveAsBits(shuffle, {0, 1}, true);
          })
          .Case(
              [](LLVM::SelectOp select) { moveAsBits(select, {1, 2}, true); });
    }
    // The bitcasts and constants that only moves used: a gather's value now
    // goes from its load to its store as integers.
    bool erased = true;
    while (erased) {
      erased = false;
      getOperation()->walk([&](Operation *op) {
        if (!isa<LLVM::BitcastOp, LLVM::ConstantOp>(op) || !op->use_empty())
          return;
        if (llvm::any_of(op->getOperandTypes(), bitsTypeFor) ||
            bitsTypeFor(op->getResult(0).getType())) {
          op->erase();
          erased = true;
        }
      });
    }
  }
};
} // namespace
