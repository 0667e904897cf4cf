// RUN: gather-opt %s --canonicalize --split-input-file | FileCheck %s

// Canonical form: ONNX-style gathers become gather.multiaxis; unit
// dimensions that only carry the ONNX layout are merged, which gives the
// Gather Multiaxis proposal's worked "intermediate processing values".

// Proposal: data [4,3], indices [2], axis 0 -> input [4,3], indices [2,1], axes [0], output [2,3].
// CHECK-LABEL: func.func @block_proposal_axis0
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x3xf32>, %[[I:[^:]*]]: tensor<2xi64>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
// CHECK:         %[[G:.*]] = gather.multiaxis %[[D]][%[[IE]]] axes = [0] into %{{.*}} : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
// CHECK-NEXT:    return %[[G]]
func.func @block_proposal_axis0(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Proposal: data [4,3], indices [5], axis 1 -> [4,3] [1,5] axes [1] -> [4,5].
// CHECK-LABEL: func.func @block_proposal_axis1
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} : tensor<4x3xf32>, tensor<1x5xi64> into tensor<4x5xf32>
// CHECK-NEXT:    return
func.func @block_proposal_axis1(%d: tensor<4x3xf32>, %i: tensor<5xi64>) -> tensor<4x5xf32> {
  %init_0 = tensor.empty() : tensor<4x5xf32>
  %0 = gather.block %d[%i] axis = 1 into %init_0 : tensor<4x3xf32>, tensor<5xi64> into tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Proposal: data [2,2], indices [2], axis 0 -> [2,2] [2,1] axes [0] -> [2,2].
// CHECK-LABEL: func.func @block_proposal_vector
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} : tensor<2x2xi32>, tensor<2x1xi64> into tensor<2x2xi32>
func.func @block_proposal_vector(%d: tensor<2x2xi32>, %i: tensor<2xi64>) -> tensor<2x2xi32> {
  %init_0 = tensor.empty() : tensor<2x2xi32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2x2xi32>, tensor<2xi64> into tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Proposal: data [2,2], indices [2,2], axis 0 -> [2,1,2] [2,2,1] axes [0] -> [2,2,2].
// CHECK-LABEL: func.func @block_proposal_matrix
// CHECK:         tensor.expand_shape %{{.*}} output_shape [2, 1, 2] : tensor<2x2xi32> into tensor<2x1x2xi32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [2, 2, 1] : tensor<2x2xi64> into tensor<2x2x1xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} : tensor<2x1x2xi32>, tensor<2x2x1xi64> into tensor<2x2x2xi32>
// CHECK-NEXT:    return
func.func @block_proposal_matrix(%d: tensor<2x2xi32>, %i: tensor<2x2xi64>) -> tensor<2x2x2xi32> {
  %init_0 = tensor.empty() : tensor<2x2x2xi32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2x2xi32>, tensor<2x2xi64> into tensor<2x2x2xi32>
  return %0 : tensor<2x2x2xi32>
}

// -----

// Proposal: data [4,3], indices [2,2], axis 1. The specification's worked example lists
// [4,1,3] [1,2,2] axes [2] (unit filler before the axis); gatherBlocks and
// our merge put it after: [4,3,1] [1,2,2] axes [1]. Same gather, same output.
// CHECK-LABEL: func.func @block_proposal_2d_indices
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} : tensor<4x3x1xf32>, tensor<1x2x2xi64> into tensor<4x2x2xf32>
// CHECK-NEXT:    return
func.func @block_proposal_2d_indices(%d: tensor<4x3xf32>, %i: tensor<2x2xi64>) -> tensor<4x2x2xf32> {
  %init_0 = tensor.empty() : tensor<4x2x2xf32>
  %0 = gather.block %d[%i] axis = 1 into %init_0 : tensor<4x3xf32>, tensor<2x2xi64> into tensor<4x2x2xf32>
  return %0 : tensor<4x2x2xf32>
}

// -----

// Proposal: GatherND [2,2,2] [3,1] -> [2,2,2] [3,1,1] axes [0] -> [3,2,2]; and
// GatherElements wraps the axis.
// CHECK-LABEL: func.func @nd_and_elements
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} : tensor<2x2x2xf32>, tensor<3x1x1xi64> into tensor<3x2x2xf32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} : tensor<4x3xf32>, tensor<4x1xi64> into tensor<4x1xf32>
// CHECK-NOT:     gather.nd
// CHECK-NOT:     gather.elements
func.func @nd_and_elements(%d: tensor<2x2x2xf32>, %i: tensor<3x1xi64>, %e: tensor<4x3xf32>, %ei: tensor<4x1xi64>) -> (tensor<3x2x2xf32>, tensor<4x1xf32>) {
  %init_0 = tensor.empty() : tensor<3x2x2xf32>
  %0 = gather.nd %d[%i] into %init_0 : tensor<2x2x2xf32>, tensor<3x1xi64> into tensor<3x2x2xf32>
  %init_1 = tensor.empty() : tensor<4x1xf32>
  %1 = gather.elements %e[%ei] axis = 1 into %init_1 : tensor<4x3xf32>, tensor<4x1xi64> into tensor<4x1xf32>
  return %0, %1 : tensor<3x2x2xf32>, tensor<4x1xf32>
}

// -----

// Dynamic sizes survive canonicalization.
// CHECK-LABEL: func.func @block_dynamic
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} : tensor<?x768xf32>, tensor<?x1xi64> into tensor<?x768xf32>
func.func @block_dynamic(%d: tensor<?x768xf32>, %i: tensor<?xi64>, %init_0: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<?x768xf32>, tensor<?xi64> into tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}

// -----

// The result type is tightened to the inferred one: a tensor.empty
// destination is made anew with it.
// CHECK-LABEL: func.func @refine_result_type
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[G:.*]] = gather.multiaxis {{.*}} into %[[E]] : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
// CHECK:         %[[C:.*]] = tensor.cast %[[G]] : tensor<2x3xf32> to tensor<?x?xf32>
// CHECK:         return %[[C]]
func.func @refine_result_type(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %m: index, %n: index) -> tensor<?x?xf32> {
  %init_0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Negative-index wrap dropped when indices cannot be negative
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @drop_wrap_zero_extended
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] negative_indices = out_of_bounds into %{{.*}} :
func.func @drop_wrap_zero_extended(%d: tensor<4x3xf32>, %narrow: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %i = arith.extui %narrow : tensor<2x1xi32> to tensor<2x1xi64>
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @keep_wrap_sign_extended
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} :
func.func @keep_wrap_sign_extended(%d: tensor<4x3xf32>, %narrow: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %i = arith.extsi %narrow : tensor<2x1xi32> to tensor<2x1xi64>
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constant non-negative indices on a dynamic input (so no constant fold).
// CHECK-LABEL: func.func @drop_wrap_constant
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] negative_indices = out_of_bounds into %{{.*}} :
func.func @drop_wrap_constant(%d: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<?x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @keep_wrap_negative_constant
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} :
func.func @keep_wrap_negative_constant(%d: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0], [-1]]> : tensor<2x1xi64>
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<?x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Folds
//===----------------------------------------------------------------------===//

// Constant folding honours the policy: clamp and fill.
// CHECK-LABEL: func.func @fold_constant_clamp_and_fill
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant dense<[40, 10, 10]> : tensor<3xi32>
// CHECK-DAG:     %[[FILL:.*]] = arith.constant dense<[0, 40, 0]> : tensor<3xi32>
// CHECK-NOT:     gather.
// CHECK:         return %[[CLAMP]], %[[FILL]]
func.func @fold_constant_clamp_and_fill() -> (tensor<3xi32>, tensor<3xi32>) {
  %d = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %i = arith.constant dense<[9, -9, 0]> : tensor<3xi64>
  %j = arith.constant dense<[9, -1, 4]> : tensor<3xi64>
  %init_0 = tensor.empty() : tensor<3xi32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %init_0 : tensor<4xi32>, tensor<3xi64> into tensor<3xi32>
  %init_1 = tensor.empty() : tensor<3xi32>
  %1 = gather.block %d[%j] axis = 0 out_of_bounds = fill into %init_1 : tensor<4xi32>, tensor<3xi64> into tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}

// -----

// An out-of-range index under `unchecked` has no defined value: not folded.
// CHECK-LABEL: func.func @no_fold_unchecked_out_of_range
// CHECK:         gather.multiaxis
func.func @no_fold_unchecked_out_of_range() -> tensor<3xi32> {
  %d = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %i = arith.constant dense<[9, 1, 0]> : tensor<3xi64>
  %init_0 = tensor.empty() : tensor<3xi32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = unchecked into %init_0 : tensor<4xi32>, tensor<3xi64> into tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Negative indices treated as out of bounds, filled with zero.
// CHECK-LABEL: func.func @fold_negative_out_of_bounds_fill
// CHECK:         %[[R:.*]] = arith.constant dense<{{\[}}[0, 0], [3, 4]]> : tensor<2x2xi32>
// CHECK:         return %[[R]]
func.func @fold_negative_out_of_bounds_fill() -> tensor<2x2xi32> {
  %d = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i = arith.constant dense<[-1, 1]> : tensor<2xi32>
  %init_0 = tensor.empty() : tensor<2x2xi32>
  %0 = gather.block %d[%i] axis = 0 negative_indices = out_of_bounds out_of_bounds = fill into %init_0 : tensor<2x2xi32>, tensor<2xi32> into tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// A splat input folds to a splat of the output shape when no index can
// trap (clamp), but not under `error` with unknown indices.
// CHECK-LABEL: func.func @fold_splat
// CHECK-DAG:     %[[S:.*]] = arith.constant dense<7.000000e+00> : tensor<5x3xf32>
// CHECK-DAG:     %[[G:.*]] = gather.multiaxis
// CHECK:         return %[[S]], %[[G]]
func.func @fold_splat(%i: tensor<5xi64>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %d = arith.constant dense<7.0> : tensor<4x3xf32>
  %init_0 = tensor.empty() : tensor<5x3xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %init_0 : tensor<4x3xf32>, tensor<5xi64> into tensor<5x3xf32>
  %init_1 = tensor.empty() : tensor<5x3xf32>
  %1 = gather.block %d[%i] axis = 0 into %init_1 : tensor<4x3xf32>, tensor<5xi64> into tensor<5x3xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<5x3xf32>
}

// -----

// Indices 0..n-1 over the whole axis copy the input.
// CHECK-LABEL: func.func @fold_iota
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x?xf32>
// CHECK-NOT:     gather.
// CHECK:         return %[[D]], %[[D]]
func.func @fold_iota(%d: tensor<4x?xf32>, %init_0: tensor<4x?xf32>, %init_1: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>) {
  %i = arith.constant dense<[[0], [1], [2], [3]]> : tensor<4x1xi64>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<4x?xf32>, tensor<4x1xi64> into tensor<4x?xf32>
  // The same through gather.block: canonicalization merges its unit axis.
  %j = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %1 = gather.block %d[%j] axis = 0 into %init_1 : tensor<4x?xf32>, tensor<4xi32> into tensor<4x?xf32>
  return %0, %1 : tensor<4x?xf32>, tensor<4x?xf32>
}

// -----

// A single constant coordinate selects a slice.
// CHECK-LABEL: func.func @single_coordinate_to_slice
// CHECK-SAME:    %[[D:[^:]*]]: tensor<5x?x7xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][3, 0, 6] [1, %{{.*}}, 1] [1, 1, 1] : tensor<5x?x7xf32> to tensor<1x?x1xf32>
// CHECK-NOT:     gather.
// CHECK:         return %[[S]]
func.func @single_coordinate_to_slice(%d: tensor<5x?x7xf32>, %init_0: tensor<1x?x1xf32>) -> tensor<1x?x1xf32> {
  // axes [2, 0]: coordinate (x = -1 -> 6, n = 3).
  %i = arith.constant dense<[[[-1, 3]]]> : tensor<1x1x2xi64>
  %0 = gather.multiaxis %d[%i] axes = [2, 0] into %init_0 : tensor<5x?x7xf32>, tensor<1x1x2xi64> into tensor<1x?x1xf32>
  return %0 : tensor<1x?x1xf32>
}

// -----

// ONNX Gather with a scalar constant index becomes a slice and a reshape.
// CHECK-LABEL: func.func @block_scalar_constant_to_slice
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x?xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][2, 0] [1, %{{.*}}] [1, 1] : tensor<4x?xf32> to tensor<1x?xf32>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<1x?xf32> into tensor<?xf32>
// CHECK-NOT:     gather.
// CHECK:         return %[[R]]
func.func @block_scalar_constant_to_slice(%d: tensor<4x?xf32>, %init_0: tensor<?xf32>) -> tensor<?xf32> {
  %i = arith.constant dense<2> : tensor<i64>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x?xf32>, tensor<i64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Empty axes: a pure broadcast becomes linalg.broadcast ...
// CHECK-LABEL: func.func @empty_axes_to_broadcast
// CHECK-SAME:    %[[D:[^:]*]]: tensor<1x3xf32>
// CHECK-DAG:     %[[C:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0, 1]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-DAG:     %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:         %[[B:.*]] = linalg.broadcast ins(%[[C]] : tensor<3xf32>) outs(%[[E]] : tensor<4x3xf32>) dimensions = [0]
// CHECK-NOT:     gather.
// CHECK:         return %[[B]]
func.func @empty_axes_to_broadcast(%d: tensor<1x3xf32>, %i: tensor<4x1xi64>) -> tensor<4x3xf32> {
  %init_0 = tensor.empty() : tensor<4x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [] into %init_0 : tensor<1x3xf32>, tensor<4x1xi64> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The kept size is dynamic on the input and 5 on the init: only a run-time
// check can tell that the input has 5 rows (an input of 1 row would be
// read past its end by a broadcast cast to 5), so the gather stays for the
// lowering, which checks it. The init, an argument, keeps its type (the
// lowering checks its dynamic size too).
// CHECK-LABEL: func.func @empty_axes_to_broadcast_mixed_static
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x1xi32>, %[[I:[^:]*]]: tensor<1x2xi16>, %[[INIT:[^:]*]]: tensor<5x?xi32>
// CHECK:         gather.multiaxis %[[D]][%[[I]]] axes = [] into %[[INIT]] : tensor<?x1xi32>, tensor<1x2xi16> into tensor<5x?xi32>
// CHECK-NOT:     linalg.broadcast
func.func @empty_axes_to_broadcast_mixed_static(%d: tensor<?x1xi32>, %i: tensor<1x2xi16>, %init: tensor<5x?xi32>) -> tensor<5x?xi32> {
  %0 = gather.multiaxis %d[%i] axes = [] into %init : tensor<?x1xi32>, tensor<1x2xi16> into tensor<5x?xi32>
  return %0 : tensor<5x?xi32>
}

// -----

// ... or, with nothing to broadcast, the input itself.
// CHECK-LABEL: func.func @empty_axes_identity
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x?xf32>
// CHECK-NEXT:    return %[[D]]
func.func @empty_axes_identity(%d: tensor<4x?xf32>, %i: tensor<1x1xi64>, %init_0: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = gather.multiaxis %d[%i] axes = [] into %init_0 : tensor<4x?xf32>, tensor<1x1xi64> into tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// A dynamic input size against dynamic indices: whether it broadcasts is
// decided at run time, so the op stays for the lowering.
// CHECK-LABEL: func.func @empty_axes_dynamic_broadcast_kept
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = []
func.func @empty_axes_dynamic_broadcast_kept(%d: tensor<?x3xf32>, %i: tensor<?x1xi64>, %init_0: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = gather.multiaxis %d[%i] axes = [] into %init_0 : tensor<?x3xf32>, tensor<?x1xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Constant folding stops at 65536 output elements (here 70000): the gather
// stays, so big constants are not materialized at compile time.
// CHECK-LABEL: func.func @no_fold_above_size_limit
// CHECK:         gather.multiaxis
func.func @no_fold_above_size_limit() -> tensor<70000xi32> {
  %d = arith.constant dense<[1, 2]> : tensor<2xi32>
  %i = arith.constant dense<1> : tensor<70000xi64>
  %init_0 = tensor.empty() : tensor<70000xi32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2xi32>, tensor<70000xi64> into tensor<70000xi32>
  return %0 : tensor<70000xi32>
}

// -----

// Below the limit the same gather folds.
// CHECK-LABEL: func.func @fold_below_size_limit
// CHECK:         arith.constant dense<2> : tensor<60000xi32>
// CHECK-NOT:     gather.
func.func @fold_below_size_limit() -> tensor<60000xi32> {
  %d = arith.constant dense<[1, 2]> : tensor<2xi32>
  %i = arith.constant dense<1> : tensor<60000xi64>
  %init_0 = tensor.empty() : tensor<60000xi32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2xi32>, tensor<60000xi64> into tensor<60000xi32>
  return %0 : tensor<60000xi32>
}

// -----

// Unit dimensions that carry nothing (input 1, logical indices 1, not an
// axis) are dropped; the output is expanded back.
// CHECK-LABEL: func.func @drop_inert_unit_dims
// CHECK-SAME:    %[[D:[^:]*]]: tensor<1x5x1x7xf32>, %[[I:[^:]*]]: tensor<1x3x1x2xi64>
// CHECK-DAG:     %[[DC:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0, 1, 2], [3]] : tensor<1x5x1x7xf32> into tensor<5x7xf32>
// CHECK-DAG:     %[[IC:.*]] = tensor.collapse_shape %[[I]] {{\[}}[0, 1, 2], [3]] : tensor<1x3x1x2xi64> into tensor<3x2xi64>
// CHECK:         %[[G:.*]] = gather.multiaxis %[[DC]][%[[IC]]] axes = [0, 1] into %{{.*}} : tensor<5x7xf32>, tensor<3x2xi64> into tensor<3x1xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[G]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 1, 1] : tensor<3x1xf32> into tensor<1x3x1x1xf32>
// CHECK:         return %[[E]]
func.func @drop_inert_unit_dims(%d: tensor<1x5x1x7xf32>, %i: tensor<1x3x1x2xi64>) -> tensor<1x3x1x1xf32> {
  %init_0 = tensor.empty() : tensor<1x3x1x1xf32>
  %0 = gather.multiaxis %d[%i] axes = [1, 3] into %init_0 : tensor<1x5x1x7xf32>, tensor<1x3x1x2xi64> into tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// The inert dimension is the last one (input 1, logical indices 2/2 = 1):
// the coordinate pairs move into the new last dimension ([3, 2, 2] ->
// [3, 4]). The axis before it has logical size 2, so no merge applies.
// CHECK-LABEL: func.func @drop_inert_last_dim
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<5x4x1xf32> into tensor<5x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<3x2x2xi64> into tensor<3x4xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0, 1] into %{{.*}} : tensor<5x4xf32>, tensor<3x4xi64> into tensor<3x2xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [3, 2, 1] : tensor<3x2xf32> into tensor<3x2x1xf32>
func.func @drop_inert_last_dim(%d: tensor<5x4x1xf32>, %i: tensor<3x2x2xi64>) -> tensor<3x2x1xf32> {
  %init_0 = tensor.empty() : tensor<3x2x1xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 1] into %init_0 : tensor<5x4x1xf32>, tensor<3x2x2xi64> into tensor<3x2x1xf32>
  return %0 : tensor<3x2x1xf32>
}

// -----

// The canonical form records the op as written, which its run-time errors
// name: dimensions merged by the simplifications are followed (the indices
// [2] end up in dimension 0 of the multiaxis indices [2, 1]).
// CHECK-LABEL: func.func @origin_after_merge
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [2], indices_dims = [0]>} : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
func.func @origin_after_merge(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A multiaxis gather as written gets an origin (its own name) when a unit
// dimension is dropped, so that positions stay those of its indices.
// CHECK-LABEL: func.func @origin_of_multiaxis_as_written
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.multiaxis", dims = [0], indices = [5x1x1], indices_dims = [0, 0, 1]>} : tensor<8x4xf32>, tensor<5x1xi64> into tensor<5x4xf32>
func.func @origin_of_multiaxis_as_written(%d: tensor<8x1x4xf32>, %i: tensor<5x1x1xi64>) -> tensor<5x1x4xf32> {
  %e = tensor.empty() : tensor<5x1x4xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %e : tensor<8x1x4xf32>, tensor<5x1x1xi64> into tensor<5x1x4xf32>
  return %0 : tensor<5x1x4xf32>
}

// -----

// A shape check whose condition holds is no check; one that may fail stays.
// CHECK-LABEL: func.func @check_shape_holds
// CHECK-SAME:    %[[OK:[^:]*]]: i1
// CHECK-NEXT:    gather.check_shape %[[OK]], shape_mismatch dim = 1
// CHECK-NEXT:    return
func.func @check_shape_holds(%ok: i1, %a: index) {
  %true = arith.constant true
  gather.check_shape %true, shape_mismatch dim = 0 sizes(%a, %a) for "gather.block"
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %a) for "gather.block"
  return
}

// -----

// A destination with contents (an argument) keeps its dynamic size:
// casting it under a run-time check whose other branch yields a new tensor
// made a copy of the whole output where it was the caller's buffer, so
// canonicalization leaves its check to the lowering, which writes it in
// place (gather-refine-result-types still casts it:
// refine-result-types.mlir).
// CHECK-LABEL: func.func @refine_dynamic_destination
// CHECK-SAME:    %[[E:[^:]*]]: tensor<?x3xf32>
// CHECK-NOT:     scf.if
// CHECK-NOT:     tensor.cast
// CHECK:         gather.multiaxis {{.*}} into %[[E]] {{.*}}: tensor<4x3xf32>, tensor<2x1xi64> into tensor<?x3xf32>
func.func @refine_dynamic_destination(%d: tensor<4x3xf32>, %i: tensor<2xi64>, %e: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----

// A tile's whole indices stay as they are through the rewrite to multiaxis
// form: the report scans them as written.
// CHECK-LABEL: func.func @tile_to_multiaxis_keeps_whole_indices
// CHECK-SAME:    %{{[^:]*}}: tensor<4x3xf32>, %{{[^:]*}}: tensor<2xi64>, %[[WHOLE:[^:]*]]: tensor<8xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] whole_indices(%[[WHOLE]] : tensor<8xi64>) into
func.func @tile_to_multiaxis_keeps_whole_indices(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %whole: tensor<8xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %data[%indices] axis = 0 whole_indices(%whole : tensor<8xi64>) into %init : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
