//===- IndexPolicy.h - out-of-range index policy of gather ops --*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one definition of what `negative_indices` and `out_of_bounds` mean:
// on constant index values (the verifier, the folds) and as IR on `index`
// values or vectors of them (the CPU and GPU lowerings), and which policies
// may trap or read out of bounds (speculation, folds). The run-time error
// kinds a failed check reports are in RuntimeErrorKind.h.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_INDEXPOLICY_H
#define GATHER_DIALECT_GATHER_IR_INDEXPOLICY_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>
#include <utility>

namespace mlir::gather {

/// How a gather treats an index value `i` along a dimension of size `s`:
/// `0 <= i < s` is valid; with `negative_indices = wrap` an `i` in `[-s, 0)`
/// first becomes `i + s`. Any other value follows `out_of_bounds`: `error`
/// stops the program, `clamp` reads the nearest valid element, `fill`
/// produces zero and `unchecked` is undefined behaviour.
struct IndexPolicy {
  NegativeIndexMode negative = NegativeIndexMode::wrap;
  OutOfBoundsMode outOfBounds = OutOfBoundsMode::error;

  bool wrapsNegative() const { return negative == NegativeIndexMode::wrap; }

  /// A bad index stops the program (`error`): the op has an observable
  /// effect and may not be hoisted or folded on a bad constant index.
  bool canTrap() const { return outOfBounds == OutOfBoundsMode::error; }
  /// A bad index is undefined behaviour (`unchecked`): the op may read out
  /// of bounds, so it must not be executed where its guard would skip it.
  bool mayReadOutOfBounds() const {
    return outOfBounds == OutOfBoundsMode::unchecked;
  }
  /// Every index value has a defined, safe result (`clamp`, `fill`).
  bool isSpeculatable() const { return !canTrap() && !mayReadOutOfBounds(); }
  Speculation::Speculatability getSpeculatability() const {
    return isSpeculatable() ? Speculation::Speculatable
                            : Speculation::NotSpeculatable;
  }

  /// The valid index values for a dimension of size `size`, as an inclusive
  /// range `[first, last]` (empty, first > last, when size is 0).
  std::pair<int64_t, int64_t> validRange(int64_t size) const {
    return {wrapsNegative() ? -size : 0, size - 1};
  }
  bool isValid(int64_t value, int64_t size) const {
    auto [first, last] = validRange(size);
    return value >= first && value <= last;
  }

  /// The element an index value reads along a dimension of size `size`.
  /// nullopt when the value has no compile-time result (out of range under
  /// `error` or `unchecked`); `isFill` is set for a `fill` miss, whose
  /// result is zero (the returned position is 0 then).
  std::optional<int64_t> resolve(int64_t value, int64_t size,
                                 bool &isFill) const;
};

//===----------------------------------------------------------------------===//
// The policy as IR, on `index` values or `vector<N x index>` values (with a
// `size` of the same type): the lowerings use nothing else.
//===----------------------------------------------------------------------===//

/// `index + size` where the policy wraps and `index` is negative.
Value buildWrapNegative(OpBuilder &b, Location loc, IndexPolicy policy,
                        Value index, Value size);

/// i1 (or vector of i1) "the index value is valid" (after wrapping).
Value buildIsValidIndex(OpBuilder &b, Location loc, IndexPolicy policy,
                        Value index, Value size);

/// An index after the policy. `index` is what to read with: wrapped, and
/// clamped under `clamp`; under `fill` and `error` an invalid index becomes
/// 0, so that reading with it stays in bounds, and `valid` is the i1 "was in
/// bounds": `fill` then selects zero for the element, `error` reports the
/// index (a lowering that checked the indices before its loops applies the
/// policy with `unchecked` in them). Under `unchecked` the index is only
/// wrapped and `valid` is null. With `readIsMasked` (the read takes `valid`
/// as its mask, like a vector.gather: an invalid lane reads nothing) an
/// invalid index is left as it is, which saves a select per coordinate.
struct ResolvedIndexValue {
  Value index;
  Value valid;
};
ResolvedIndexValue buildResolvedIndex(OpBuilder &b, Location loc,
                                      IndexPolicy policy, Value index,
                                      Value size, bool readIsMasked = false);

/// An index to form an address with (a prefetch), not the policy's answer:
/// within [0, size) for any value, and the policy's coordinate for every
/// valid one. Where `staticSize` (0: not static) is a power of two, the
/// value's low bits: one AND, a negative value's being its wrapped
/// coordinate; otherwise the value wrapped and clamped.
Value buildAddressIndex(OpBuilder &b, Location loc, IndexPolicy policy,
                        Value index, Value size, int64_t staticSize);

/// The policy on vectors of raw index values (`raw`, one per axis) along
/// axes of static power-of-two sizes (`sizes`, 0: not static), where an
/// invalid lane's
/// coordinate is never read: `unchecked`, or `error` whose caller reports
/// before any read (buildResolvedIndex's `readIsMasked`). Each coordinate
/// is its value's low bits, one AND (a valid negative value's are its
/// wrapped coordinate). Under `error`, `anyInvalid` is the i1 "some lane of
/// some axis is invalid": a value is valid iff, moved up by the size where
/// negative values wrap, it has no bit at or above the valid range's
/// length, so the answer is one OR of the masked values and one test
/// against zero (x86 with AVX2: one vptest, where wrapping and `ult` take
/// a shift, an AND, an add, a sign flip and a compare per vector); `valid`
/// is the lanes' validity as buildResolvedIndex gives it (the reporting
/// branch's). nullopt for other policies, or where a size is not a power
/// of two.
struct PowerOfTwoTuples {
  SmallVector<Value> coords;
  Value valid;
  Value anyInvalid;
};
std::optional<PowerOfTwoTuples>
buildPowerOfTwoTuples(OpBuilder &b, Location loc, IndexPolicy policy,
                      ValueRange raw, ArrayRef<int64_t> sizes);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_INDEXPOLICY_H
