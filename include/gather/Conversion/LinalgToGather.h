//===- LinalgToGather.h - gather-like linalg.generic to gather ops -*- C++
//-*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Raises the gathers that frontends write as a linalg.generic reading a
// table with tensor.extract at positions computed from an index operand
// (torch-mlir's embedding, index_select and gather; StableHLO's gather
// lowering; take / take_along_axis) into gather ops, so that they get the
// checks, policies, vector lowering, tiling and fusion of the dialect.
// docs/Interop.md lists the recognized forms.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_LINALGTOGATHER_H
#define GATHER_CONVERSION_LINALGTOGATHER_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTLINALGTOGATHER
#include "gather/Conversion/Passes.h.inc"

struct LinalgToGatherOptions {
  /// A plain read whose index may be out of range is undefined behaviour in
  /// the source: raised to `out_of_bounds = error` (checked), or with this
  /// set to `unchecked` (as fast as the source, and as undefined).
  bool uncheckedPlainReads = false;
  /// Also raise embedding bags with offsets (populateSegmentSumPatterns).
  bool segmentSums = true;
  /// Their form: a loop over the bags of gathers and sums (the CPU's), or
  /// with this set, one gather of all the indices' rows and one loop nest
  /// over (bag, column) that sums each bag's range of them (the GPU's,
  /// whose lowering takes no gather inside a loop).
  bool segmentSumsOfGatheredRows = false;
};

/// Rewrites each gather-like linalg.generic into the gather op that
/// expresses it (block, elements, nd or multiaxis), with the destination the
/// generic had; a body that computes more than the gathered element becomes
/// the gather and an elementwise linalg.generic of the rest; with
/// `options.segmentSums`, the embedding bags of populateSegmentSumPatterns.
/// Other generics are left alone.
void populateLinalgToGatherPatterns(RewritePatternSet &patterns,
                                    const LinalgToGatherOptions &options = {});

/// Rewrites each embedding bag generic as torch-mlir writes it (a sum of the
/// table rows of each bag's range of indices, given by offsets, over loops
/// (bags, every index, row)) into an scf.forall over the bags, each a
/// gather.block of its range and a linalg.reduce into its row of the
/// generic's destination; with `options.segmentSumsOfGatheredRows`, into a
/// gather.block of all the indices and a loop nest over (bag, column) that
/// sums each bag's range of the rows. Part of
/// populateLinalgToGatherPatterns.
void populateSegmentSumPatterns(RewritePatternSet &patterns,
                                const LinalgToGatherOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_LINALGTOGATHER_H
