//===- IndexPolicy.cpp - out-of-range index policy of gather ops ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/IndexPolicy.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::gather;

std::optional<int64_t> IndexPolicy::resolve(int64_t value, int64_t size,
                                            bool &isFill) const {
  isFill = false;
  if (value < 0 && wrapsNegative() && value >= -size)
    value += size;
  if (value >= 0 && value < size)
    return value;
  switch (outOfBounds) {
  case OutOfBoundsMode::clamp:
    if (size > 0)
      return std::clamp<int64_t>(value, 0, size - 1);
    return std::nullopt;
  case OutOfBoundsMode::fill:
    isFill = true;
    return 0;
  case OutOfBoundsMode::error:
  case OutOfBoundsMode::unchecked:
    return std::nullopt;
  }
  return std::nullopt;
}

/// An index constant shaped like `like` (index, or a vector of index).
static Value indexConstantLike(OpBuilder &b, Location loc, Type like,
                               int64_t value) {
  if (auto vecType = dyn_cast<VectorType>(like))
    return arith::ConstantOp::create(
        b, loc, vecType,
        DenseElementsAttr::get(vecType, b.getIndexAttr(value)));
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value mlir::gather::buildWrapNegative(OpBuilder &b, Location loc,
                                      IndexPolicy policy, Value index,
                                      Value size) {
  if (!policy.wrapsNegative())
    return index;
  Value zero = indexConstantLike(b, loc, index.getType(), 0);
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, isNegative, wrapped, index);
}

Value mlir::gather::buildIsValidIndex(OpBuilder &b, Location loc,
                                      IndexPolicy policy, Value index,
                                      Value size) {
  // One unsigned compare covers both index < 0 and index >= size.
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                               buildWrapNegative(b, loc, policy, index, size),
                               size);
}

ResolvedIndexValue mlir::gather::buildResolvedIndex(OpBuilder &b, Location loc,
                                                    IndexPolicy policy,
                                                    Value index, Value size,
                                                    bool readIsMasked) {
  Type type = index.getType();
  ResolvedIndexValue result{buildWrapNegative(b, loc, policy, index, size),
                            nullptr};
  Value zero = indexConstantLike(b, loc, type, 0);
  if (policy.outOfBounds == OutOfBoundsMode::clamp) {
    Value last =
        arith::SubIOp::create(b, loc, size, indexConstantLike(b, loc, type, 1));
    result.index = arith::MinSIOp::create(b, loc, result.index, last);
    result.index = arith::MaxSIOp::create(b, loc, result.index, zero);
  } else if (policy.outOfBounds == OutOfBoundsMode::fill ||
             policy.outOfBounds == OutOfBoundsMode::error) {
    result.valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         result.index, size);
    if (!readIsMasked)
      result.index =
          arith::SelectOp::create(b, loc, result.valid, result.index, zero);
  }
  return result;
}

/// Whether a static size (0: not static) is a power of two whose ranges
/// (twice the size, moved up by it) stay clear of the sign bit.
static bool isPowerOfTwoSize(int64_t size) {
  return size > 0 && size <= (int64_t(1) << 61) && llvm::isPowerOf2_64(size);
}

Value mlir::gather::buildAddressIndex(OpBuilder &b, Location loc,
                                      IndexPolicy policy, Value index,
                                      Value size, int64_t staticSize) {
  if (isPowerOfTwoSize(staticSize))
    return arith::AndIOp::create(
        b, loc, index,
        indexConstantLike(b, loc, index.getType(), staticSize - 1));
  IndexPolicy clamp = policy;
  clamp.outOfBounds = OutOfBoundsMode::clamp;
  return buildResolvedIndex(b, loc, clamp, index, size).index;
}

std::optional<PowerOfTwoTuples>
mlir::gather::buildPowerOfTwoTuples(OpBuilder &b, Location loc,
                                    IndexPolicy policy, ValueRange raw,
                                    ArrayRef<int64_t> sizes) {
  bool checks = policy.outOfBounds == OutOfBoundsMode::error;
  if ((!checks && policy.outOfBounds != OutOfBoundsMode::unchecked) ||
      raw.empty() || raw.size() != sizes.size() ||
      !llvm::all_of(sizes, isPowerOfTwoSize))
    return std::nullopt;
  PowerOfTwoTuples result;
  Value outside;
  for (auto [value, size] : llvm::zip_equal(raw, sizes)) {
    Type type = value.getType();
    result.coords.push_back(arith::AndIOp::create(
        b, loc, value, indexConstantLike(b, loc, type, size - 1)));
    if (!checks)
      continue;
    // Valid: [-size, size) with the wrap, else [0, size).
    Value shifted = value;
    int64_t range = size;
    if (policy.wrapsNegative()) {
      shifted = arith::AddIOp::create(b, loc, value,
                                      indexConstantLike(b, loc, type, size));
      range = 2 * size;
    }
    Value high = arith::AndIOp::create(
        b, loc, shifted, indexConstantLike(b, loc, type, ~(range - 1)));
    outside = outside ? arith::OrIOp::create(b, loc, outside, high).getResult()
                      : high;
    Value valid = buildIsValidIndex(b, loc, policy, value,
                                    indexConstantLike(b, loc, type, size));
    result.valid =
        result.valid
            ? arith::AndIOp::create(b, loc, result.valid, valid).getResult()
            : valid;
  }
  if (outside) {
    if (isa<VectorType>(outside.getType()))
      outside = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                            outside);
    result.anyInvalid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, outside,
                              indexConstantLike(b, loc, outside.getType(), 0));
  }
  return result;
}
