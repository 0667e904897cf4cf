//===- ElementBytes.h - the bytes of an element in memory -------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One definition of "the bytes an element takes in memory" for the code that
// computes with byte sizes (copies as memcpy, plans by block and row bytes,
// prefetch addresses): a width of 80 bits is not 10 bytes in memory (LLVM
// stores x86_fp80 in 16), so only the widths whose size is their bytes count.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_ELEMENTBYTES_H
#define GATHER_UTILS_ELEMENTBYTES_H

#include "mlir/IR/Types.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::gather {

/// Bytes per element in memory for integers and floats of 8, 16, 32, 64 or
/// 128 bits (their size is their width); 0 for every other type: i1 and
/// the other widths that are not whole bytes, and the ones whose size the
/// target's data layout pads (f80, i24, i80), which byte arithmetic must
/// leave to the upstream lowerings.
inline int64_t packedElementBytes(Type type) {
  if (!type.isIntOrFloat())
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 128 || !llvm::isPowerOf2_32(bits))
    return 0;
  return bits / 8;
}

} // namespace mlir::gather

#endif // GATHER_UTILS_ELEMENTBYTES_H
