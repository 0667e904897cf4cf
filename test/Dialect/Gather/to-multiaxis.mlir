// RUN: gather-opt %s --gather-to-multiaxis | FileCheck %s

// The rewrites alone (no folding): the Gather Multiaxis proposal's gatherBlocks table, its
// gatherSingleAxisElements and gatherNdBlocks, with exactly the reshaped
// shapes those functions compute. P, Q, R, S = 2, 3, 4, 5.

// Table: (P, Q), indices (), axis 0 -> (P, Q) (1, 1) (1, Q), output (Q).
// CHECK-LABEL: func.func @block_table_pq_scalar_axis0
// CHECK-SAME:    %[[D:[^:]*]]: tensor<2x3xf32>, %[[I:[^:]*]]: tensor<i64>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[I]] [] output_shape [1, 1] : tensor<i64> into tensor<1x1xi64>
// CHECK:         %[[G:.*]] = gather.multiaxis %[[D]][%[[IE]]] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [], indices_dims = []>} : tensor<2x3xf32>, tensor<1x1xi64> into tensor<1x3xf32>
// CHECK:         %[[O:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK:         return %[[O]]
func.func @block_table_pq_scalar_axis0(%d: tensor<2x3xf32>, %i: tensor<i64>) -> tensor<3xf32> {
  %init_0 = tensor.empty() : tensor<3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2x3xf32>, tensor<i64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Table: (P, Q, R), (), axis 1 -> (P, Q, R) (1, 1, 1) (P, 1, R), output (P, R).
// CHECK-LABEL: func.func @block_table_pqr_scalar_axis1
// CHECK:         tensor.expand_shape %{{.*}} [] output_shape [1, 1, 1] : tensor<i64> into tensor<1x1x1xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [1], indices = [], indices_dims = []>} : tensor<2x3x4xf32>, tensor<1x1x1xi64> into tensor<2x1x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x1x4xf32> into tensor<2x4xf32>
func.func @block_table_pqr_scalar_axis1(%d: tensor<2x3x4xf32>, %i: tensor<i64>) -> tensor<2x4xf32> {
  %init_0 = tensor.empty() : tensor<2x4xf32>
  %0 = gather.block %d[%i] axis = 1 into %init_0 : tensor<2x3x4xf32>, tensor<i64> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Table: (P, Q, R), (S), axis 1 -> (P, Q, 1, R) (1, 1, S, 1) (P, 1, S, R), output (P, S, R).
// CHECK-LABEL: func.func @block_table_pqr_s_axis1
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [2, 3, 1, 4] : tensor<2x3x4xf32> into tensor<2x3x1x4xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2, 3]] output_shape [1, 1, 5, 1] : tensor<5xi64> into tensor<1x1x5x1xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [1], indices = [5], indices_dims = [2]>} : tensor<2x3x1x4xf32>, tensor<1x1x5x1xi64> into tensor<2x1x5x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3]] : tensor<2x1x5x4xf32> into tensor<2x5x4xf32>
func.func @block_table_pqr_s_axis1(%d: tensor<2x3x4xf32>, %i: tensor<5xi64>) -> tensor<2x5x4xf32> {
  %init_0 = tensor.empty() : tensor<2x5x4xf32>
  %0 = gather.block %d[%i] axis = 1 into %init_0 : tensor<2x3x4xf32>, tensor<5xi64> into tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// Table: (P, Q), (R, S), axis 0 -> (P, 1, 1, Q) (1, R, S, 1) (1, R, S, Q), output (R, S, Q).
// CHECK-LABEL: func.func @block_table_pq_rs_axis0
// CHECK:         tensor.expand_shape %{{.*}} output_shape [2, 1, 1, 3] : tensor<2x3xf32> into tensor<2x1x1x3xf32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [1, 4, 5, 1] : tensor<4x5xi32> into tensor<1x4x5x1xi32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [4x5], indices_dims = [1, 2]>} : tensor<2x1x1x3xf32>, tensor<1x4x5x1xi32> into tensor<1x4x5x3xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3]] : tensor<1x4x5x3xf32> into tensor<4x5x3xf32>
func.func @block_table_pq_rs_axis0(%d: tensor<2x3xf32>, %i: tensor<4x5xi32>) -> tensor<4x5x3xf32> {
  %init_0 = tensor.empty() : tensor<4x5x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<2x3xf32>, tensor<4x5xi32> into tensor<4x5x3xf32>
  return %0 : tensor<4x5x3xf32>
}

// Table: (P, Q), (R, S), axis 1 -> (P, Q, 1, 1) (1, 1, R, S) (P, 1, R, S), output (P, R, S).
// CHECK-LABEL: func.func @block_table_pq_rs_axis1
// CHECK:         tensor.expand_shape %{{.*}} output_shape [2, 3, 1, 1] : tensor<2x3xf32> into tensor<2x3x1x1xf32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [1, 1, 4, 5] : tensor<4x5xi32> into tensor<1x1x4x5xi32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [1], indices = [4x5], indices_dims = [2, 3]>} : tensor<2x3x1x1xf32>, tensor<1x1x4x5xi32> into tensor<2x1x4x5xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3]] : tensor<2x1x4x5xf32> into tensor<2x4x5xf32>
func.func @block_table_pq_rs_axis1(%d: tensor<2x3xf32>, %i: tensor<4x5xi32>) -> tensor<2x4x5xf32> {
  %init_0 = tensor.empty() : tensor<2x4x5xf32>
  %0 = gather.block %d[%i] axis = 1 into %init_0 : tensor<2x3xf32>, tensor<4x5xi32> into tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// Negative axis and policies carry over.
// CHECK-LABEL: func.func @block_negative_axis_and_policy
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] negative_indices = out_of_bounds out_of_bounds = clamp into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [1], indices = [7], indices_dims = [2]>} : tensor<2x3x1xf32>, tensor<1x1x7xi64> into tensor<2x1x7xf32>
func.func @block_negative_axis_and_policy(%d: tensor<2x3xf32>, %i: tensor<7xi64>) -> tensor<2x7xf32> {
  %init_0 = tensor.empty() : tensor<2x7xf32>
  %0 = gather.block %d[%i] axis = -1 negative_indices = out_of_bounds out_of_bounds = clamp into %init_0 : tensor<2x3xf32>, tensor<7xi64> into tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// Dynamic sizes: the reshapes take their dynamic forms.
// CHECK-LABEL: func.func @block_dynamic
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x768xf32>, %[[I:[^:]*]]: tensor<?xi64>
// CHECK-DAG:     %[[DIM:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<?x768xf32>
// CHECK-DAG:     %[[DE:.*]] = tensor.expand_shape %[[D]] {{\[}}[0, 1], [2]] output_shape [%[[DIM]], 1, 768] : tensor<?x768xf32> into tensor<?x1x768xf32>
// CHECK-DAG:     %[[IDIM:.*]] = tensor.dim %[[I]], %{{.*}} : tensor<?xi64>
// CHECK-DAG:     %[[IE:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1, 2]] output_shape [1, %[[IDIM]], 1] : tensor<?xi64> into tensor<1x?x1xi64>
// CHECK:         %[[G:.*]] = gather.multiaxis %[[DE]][%[[IE]]] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [?], indices_dims = [1]>} : tensor<?x1x768xf32>, tensor<1x?x1xi64> into tensor<1x?x768xf32>
// CHECK:         tensor.collapse_shape %[[G]] {{\[}}[0, 1], [2]] : tensor<1x?x768xf32> into tensor<?x768xf32>
func.func @block_dynamic(%d: tensor<?x768xf32>, %i: tensor<?xi64>, %init_0: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<?x768xf32>, tensor<?xi64> into tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}

// A destination typed more dynamically than inferred keeps its type: the
// multiaxis destination is the init, expanded.
// CHECK-LABEL: func.func @block_relaxed_result
// CHECK-SAME:    %[[INIT:[^:]*]]: tensor<?x?xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0, 1], [2]] output_shape [1, %{{.*}}, %{{.*}}] : tensor<?x?xf32> into tensor<1x?x?xf32>
// CHECK:         %[[G:.*]] = gather.multiaxis {{.*}} into %[[E]] {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [5], indices_dims = [1]>} : tensor<4x1x3xf32>, tensor<1x5x1xi64> into tensor<1x?x?xf32>
// CHECK:         tensor.collapse_shape %[[G]] {{\[}}[0, 1], [2]] : tensor<1x?x?xf32> into tensor<?x?xf32>
func.func @block_relaxed_result(%d: tensor<4x3xf32>, %i: tensor<5xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<5xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// gather.elements: wrap the axis; slice data where indices may be smaller.
//===----------------------------------------------------------------------===//

// The Gather Multiaxis proposal examples: sizes equal off the axis, no slice.
// CHECK-LABEL: func.func @elements_proposal
// CHECK-NOT:     tensor.extract_slice
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.elements", dims = [0], indices = [2x3], indices_dims = [0, 1]>} : tensor<4x3xi32>, tensor<2x3xi64> into tensor<2x3xi32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.elements", dims = [1], indices = [4x1], indices_dims = [0, 1]>} : tensor<4x3xi32>, tensor<4x1xi64> into tensor<4x1xi32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.elements", dims = [0], indices = [1x2x2], indices_dims = [0, 1, 2]>} : tensor<4x2x2xi32>, tensor<1x2x2xi64> into tensor<1x2x2xi32>
func.func @elements_proposal(%a: tensor<4x3xi32>, %i0: tensor<2x3xi64>, %i1: tensor<4x1xi64>, %b: tensor<4x2x2xi32>, %i2: tensor<1x2x2xi64>) -> (tensor<2x3xi32>, tensor<4x1xi32>, tensor<1x2x2xi32>) {
  %init_0 = tensor.empty() : tensor<2x3xi32>
  %0 = gather.elements %a[%i0] axis = 0 into %init_0 : tensor<4x3xi32>, tensor<2x3xi64> into tensor<2x3xi32>
  %init_1 = tensor.empty() : tensor<4x1xi32>
  %1 = gather.elements %a[%i1] axis = -1 into %init_1 : tensor<4x3xi32>, tensor<4x1xi64> into tensor<4x1xi32>
  %init_2 = tensor.empty() : tensor<1x2x2xi32>
  %2 = gather.elements %b[%i2] axis = 0 into %init_2 : tensor<4x2x2xi32>, tensor<1x2x2xi64> into tensor<1x2x2xi32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<4x1xi32>, tensor<1x2x2xi32>
}

// An off-axis indices size 1 against data size 3 is not a broadcast in
// GatherElements: the data is cut to [4, 1] first.
// CHECK-LABEL: func.func @elements_smaller_index_dim
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x3xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][0, 0] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4x1xf32>
// CHECK:         gather.multiaxis %[[S]][%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.elements", dims = [0], indices = [4x1], indices_dims = [0, 1]>} : tensor<4x1xf32>, tensor<4x1xi64> into tensor<4x1xf32>
func.func @elements_smaller_index_dim(%d: tensor<4x3xf32>, %i: tensor<4x1xi64>) -> tensor<4x1xf32> {
  %init_0 = tensor.empty() : tensor<4x1xf32>
  %0 = gather.elements %d[%i] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<4x1xi64> into tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// A dynamic size outside the axis may hide indices larger than the data,
// which only a run-time check can reject: the lowerings do that, the
// canonical rewrite leaves the op alone.
// CHECK-LABEL: func.func @elements_dynamic
// CHECK:         gather.elements
// CHECK-NOT:     gather.multiaxis
func.func @elements_dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %d[%i] axis = 1 into %init_0 : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Only the axis is dynamic: the other sizes are proven, so it rewrites.
// CHECK-LABEL: func.func @elements_dynamic_axis_only
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x?xf32>, %[[I:[^:]*]]: tensor<4x?xi64>
// CHECK:         gather.multiaxis %[[D]][%[[I]]] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.elements", dims = [1], indices = [4x?], indices_dims = [0, 1]>} : tensor<4x?xf32>, tensor<4x?xi64> into tensor<4x?xf32>
func.func @elements_dynamic_axis_only(%d: tensor<4x?xf32>, %i: tensor<4x?xi64>, %init_0: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = gather.elements %d[%i] axis = 1 into %init_0 : tensor<4x?xf32>, tensor<4x?xi64> into tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

//===----------------------------------------------------------------------===//
// gather.nd (gatherNdBlocks)
//===----------------------------------------------------------------------===//

// The Gather Multiaxis proposal: data [2,2,2], indices [3,1] -> [2,2,2] [3,1,1] axes [0] -> [3,2,2].
// CHECK-LABEL: func.func @nd_proposal_blocks
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [3, 1, 1] : tensor<3x1xi64> into tensor<3x1x1xi64>
// CHECK:         %[[G:.*]] = gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [0], indices = [3x1], indices_dims = [0, 2]>} : tensor<2x2x2xf32>, tensor<3x1x1xi64> into tensor<3x2x2xf32>
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[G]]
func.func @nd_proposal_blocks(%d: tensor<2x2x2xf32>, %i: tensor<3x1xi64>) -> tensor<3x2x2xf32> {
  %init_0 = tensor.empty() : tensor<3x2x2xf32>
  %0 = gather.nd %d[%i] into %init_0 : tensor<2x2x2xf32>, tensor<3x1xi64> into tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}

// The Gather Multiaxis proposal batch_dims 1: [2,2,2] [2,1] -> [2,2,2] [2,1,1] axes [1] -> [2,1,2] -> [2,2].
// CHECK-LABEL: func.func @nd_proposal_batch
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [1], indices = [2x1], indices_dims = [0, 2]>} : tensor<2x2x2xf32>, tensor<2x1x1xi64> into tensor<2x1x2xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x1x2xf32> into tensor<2x2xf32>
func.func @nd_proposal_batch(%d: tensor<2x2x2xf32>, %i: tensor<2x1xi64>) -> tensor<2x2xf32> {
  %init_0 = tensor.empty() : tensor<2x2xf32>
  %0 = gather.nd %d[%i] batch_dims = 1 into %init_0 : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// The Gather Multiaxis proposal triples: [2,2,2] [5,3] -> [2,2,2] [5,1,1*3] axes [0,1,2] -> [5,1,1] -> [5].
// CHECK-LABEL: func.func @nd_proposal_triples
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0, 1, 2] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [0, 1, 2], indices = [5x3], indices_dims = [0, 2]>} : tensor<2x2x2xf32>, tensor<5x1x3xi64> into tensor<5x1x1xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : tensor<5x1x1xf32> into tensor<5xf32>
func.func @nd_proposal_triples(%d: tensor<2x2x2xf32>, %i: tensor<5x3xi64>) -> tensor<5xf32> {
  %init_0 = tensor.empty() : tensor<5xf32>
  %0 = gather.nd %d[%i] into %init_0 : tensor<2x2x2xf32>, tensor<5x3xi64> into tensor<5xf32>
  return %0 : tensor<5xf32>
}

// The Gather Multiaxis proposal pairs: gatherNdBlocks gives [2,2,2] [2,1,1*2] axes [0,1] ->
// [2,1,2]. (The specification's worked example lists indices [1,2,1*2] instead: the
// index dimension aligned right. Both encode the same gather.)
// CHECK-LABEL: func.func @nd_proposal_pairs
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0, 1] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [0, 1], indices = [2x2], indices_dims = [0, 2]>} : tensor<2x2x2xf32>, tensor<2x1x2xi64> into tensor<2x1x2xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x1x2xf32> into tensor<2x2xf32>
func.func @nd_proposal_pairs(%d: tensor<2x2x2xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %init_0 = tensor.empty() : tensor<2x2xf32>
  %0 = gather.nd %d[%i] into %init_0 : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// The Gather Multiaxis proposal: a data batch dimension of 1 broadcasts: [1,3] [2,1] -> [2,1] -> [2].
// CHECK-LABEL: func.func @nd_proposal_batch_broadcast
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [1], indices = [2x1], indices_dims = [0, 1]>} : tensor<1x3xf32>, tensor<2x1xi64> into tensor<2x1xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x1xf32> into tensor<2xf32>
func.func @nd_proposal_batch_broadcast(%d: tensor<1x3xf32>, %i: tensor<2x1xi64>) -> tensor<2xf32> {
  %init_0 = tensor.empty() : tensor<2xf32>
  %0 = gather.nd %d[%i] batch_dims = 1 into %init_0 : tensor<1x3xf32>, tensor<2x1xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}

// More index dimensions than indexed data dimensions and no trailing data
// dimension: no room for a unit dimension, so the coordinate dimension folds
// into the last index dimension (indices [3,4,1] -> [3,4]).
// CHECK-LABEL: func.func @nd_coordinates_folded_into_index_dim
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [5, 1] : tensor<5xf32> into tensor<5x1xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<3x4x1xi64> into tensor<3x4xi64>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [0], indices = [3x4x1], indices_dims = [0, 1, 1]>} : tensor<5x1xf32>, tensor<3x4xi64> into tensor<3x4xf32>
func.func @nd_coordinates_folded_into_index_dim(%d: tensor<5xf32>, %i: tensor<3x4x1xi64>) -> tensor<3x4xf32> {
  %init_0 = tensor.empty() : tensor<3x4xf32>
  %0 = gather.nd %d[%i] into %init_0 : tensor<5xf32>, tensor<3x4x1xi64> into tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @nd_dynamic
// CHECK:         %[[G:.*]] = gather.multiaxis %{{.*}}[%{{.*}}] axes = [1, 2] out_of_bounds = fill into %{{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [1, 2], indices = [?x?x2], indices_dims = [0, 1, 2]>} : tensor<?x?x?xf32>, tensor<?x?x2xi64> into tensor<?x?x1xf32>
// CHECK:         tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2]] : tensor<?x?x1xf32> into tensor<?x?xf32>
func.func @nd_dynamic(%d: tensor<?x?x?xf32>, %i: tensor<?x?x2xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %d[%i] batch_dims = 1 out_of_bounds = fill into %init_0 : tensor<?x?x?xf32>, tensor<?x?x2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// gather.multiaxis is left alone.
// CHECK-LABEL: func.func @multiaxis_untouched
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    gather.multiaxis
// CHECK-NEXT:    return
func.func @multiaxis_untouched(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
