// RUN: gather-opt %s --gather-refine-result-types | FileCheck %s

// Output shapes of every example in the specification documents. Each result type is written
// fully dynamic (the destination too); --gather-refine-result-types replaces it with the inferred
// type, which is what is checked.
// Generated from the specification tables; see docs/GatherDialect.md.

// proposal: multiaxis: input [4,2,1,2], indices [1,3,2,2], axes [1] -> [4,3,2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_broadcast
// CHECK:         gather.multiaxis {{.*}} : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi64> into tensor<4x3x2x2xf32>
func.func @multiaxis_proposal_broadcast(%data: tensor<4x2x1x2xf32>, %indices: tensor<1x3x2x2xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// proposal, reference code comment: [2,3,1], [1,1,4], axes [1] -> [2,1,4]
// CHECK-LABEL: func.func @multiaxis_proposal_comment_1d
// CHECK:         gather.multiaxis {{.*}} : tensor<2x3x1xf32>, tensor<1x1x4xi64> into tensor<2x1x4xf32>
func.func @multiaxis_proposal_comment_1d(%data: tensor<2x3x1xf32>, %indices: tensor<1x1x4xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<2x3x1xf32>, tensor<1x1x4xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal, reference code comment: [10,9,8], [1,5,6*2], axes [1,2] -> [10,5,6]
// CHECK-LABEL: func.func @multiaxis_proposal_comment_2d
// CHECK:         gather.multiaxis {{.*}} : tensor<10x9x8xf32>, tensor<1x5x12xi64> into tensor<10x5x6xf32>
func.func @multiaxis_proposal_comment_2d(%data: tensor<10x9x8xf32>, %indices: tensor<1x5x12xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1, 2] into %init : tensor<10x9x8xf32>, tensor<1x5x12xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherElements: [4,3], [2,3], axis 0 -> [2,3]
// CHECK-LABEL: func.func @elements_proposal_axis0
// CHECK:         gather.elements {{.*}} : tensor<4x3xf32>, tensor<2x3xi64> into tensor<2x3xf32>
func.func @elements_proposal_axis0(%data: tensor<4x3xf32>, %indices: tensor<2x3xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 0 into %init : tensor<4x3xf32>, tensor<2x3xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal: GatherElements: [4,3], [4,1], axis 1 -> [4,1]
// CHECK-LABEL: func.func @elements_proposal_axis1
// CHECK:         gather.elements {{.*}} : tensor<4x3xf32>, tensor<4x1xi64> into tensor<4x1xf32>
func.func @elements_proposal_axis1(%data: tensor<4x3xf32>, %indices: tensor<4x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 1 into %init : tensor<4x3xf32>, tensor<4x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal: GatherElements: [4,2,2], [1,2,2], axis 0 -> [1,2,2]
// CHECK-LABEL: func.func @elements_proposal_rank3
// CHECK:         gather.elements {{.*}} : tensor<4x2x2xf32>, tensor<1x2x2xi64> into tensor<1x2x2xf32>
func.func @elements_proposal_rank3(%data: tensor<4x2x2xf32>, %indices: tensor<1x2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 0 into %init : tensor<4x2x2xf32>, tensor<1x2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherElements as multiaxis: axes [0]
// CHECK-LABEL: func.func @multiaxis_proposal_elements_rank3
// CHECK:         gather.multiaxis {{.*}} : tensor<4x2x2xf32>, tensor<1x2x2xi64> into tensor<1x2x2xf32>
func.func @multiaxis_proposal_elements_rank3(%data: tensor<4x2x2xf32>, %indices: tensor<1x2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<4x2x2xf32>, tensor<1x2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: Gather: [4,3], [2], axis 0 -> [2,3]
// CHECK-LABEL: func.func @block_proposal_axis0
// CHECK:         gather.block {{.*}} : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
func.func @block_proposal_axis0(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<4x3xf32>, tensor<2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal, intermediate: [4,3], [2,1], axes [0] -> [2,3]
// CHECK-LABEL: func.func @multiaxis_proposal_block_axis0
// CHECK:         gather.multiaxis {{.*}} : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
func.func @multiaxis_proposal_block_axis0(%data: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<4x3xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal: Gather: [4,3], [5], axis 1 -> [4,5]
// CHECK-LABEL: func.func @block_proposal_axis1
// CHECK:         gather.block {{.*}} : tensor<4x3xf32>, tensor<5xi64> into tensor<4x5xf32>
func.func @block_proposal_axis1(%data: tensor<4x3xf32>, %indices: tensor<5xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<4x3xf32>, tensor<5xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal, intermediate: [4,3], [1,5], axes [1] -> [4,5]
// CHECK-LABEL: func.func @multiaxis_proposal_block_axis1
// CHECK:         gather.multiaxis {{.*}} : tensor<4x3xf32>, tensor<1x5xi64> into tensor<4x5xf32>
func.func @multiaxis_proposal_block_axis1(%data: tensor<4x3xf32>, %indices: tensor<1x5xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<4x3xf32>, tensor<1x5xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal: Gather: [4,3], [2,2], axis 1 -> [4,2,2]
// CHECK-LABEL: func.func @block_proposal_2d_indices
// CHECK:         gather.block {{.*}} : tensor<4x3xf32>, tensor<2x2xi64> into tensor<4x2x2xf32>
func.func @block_proposal_2d_indices(%data: tensor<4x3xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<4x3xf32>, tensor<2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal, intermediate: [4,1,3], [1,2,2], axes [2] -> [4,2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_block_2d_indices
// CHECK:         gather.multiaxis {{.*}} : tensor<4x1x3xf32>, tensor<1x2x2xi64> into tensor<4x2x2xf32>
func.func @multiaxis_proposal_block_2d_indices(%data: tensor<4x1x3xf32>, %indices: tensor<1x2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [2] into %init : tensor<4x1x3xf32>, tensor<1x2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: Gather: [2,2], scalar, axis 0 -> [2]
// CHECK-LABEL: func.func @block_proposal_scalar
// CHECK:         gather.block {{.*}} : tensor<2x2xf32>, tensor<i64> into tensor<2xf32>
func.func @block_proposal_scalar(%data: tensor<2x2xf32>, %indices: tensor<i64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2x2xf32>, tensor<i64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// proposal: Gather: [2,2], [2], axis 0 -> [2,2]
// CHECK-LABEL: func.func @block_proposal_vector
// CHECK:         gather.block {{.*}} : tensor<2x2xf32>, tensor<2xi64> into tensor<2x2xf32>
func.func @block_proposal_vector(%data: tensor<2x2xf32>, %indices: tensor<2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2x2xf32>, tensor<2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal, intermediate: [2,2], [2,1], axes [0] -> [2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_block_vector
// CHECK:         gather.multiaxis {{.*}} : tensor<2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
func.func @multiaxis_proposal_block_vector(%data: tensor<2x2xf32>, %indices: tensor<2x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<2x2xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal: Gather: [2,2], [2,2], axis 0 -> [2,2,2]
// CHECK-LABEL: func.func @block_proposal_matrix
// CHECK:         gather.block {{.*}} : tensor<2x2xf32>, tensor<2x2xi64> into tensor<2x2x2xf32>
func.func @block_proposal_matrix(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2x2xf32>, tensor<2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal, intermediate: [2,1,2], [2,2,1], axes [0] -> [2,2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_block_matrix
// CHECK:         gather.multiaxis {{.*}} : tensor<2x1x2xf32>, tensor<2x2x1xi64> into tensor<2x2x2xf32>
func.func @multiaxis_proposal_block_matrix(%data: tensor<2x1x2xf32>, %indices: tensor<2x2x1xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<2x1x2xf32>, tensor<2x2x1xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// table: (P,Q), (), axis 0 -> (Q)
// CHECK-LABEL: func.func @block_table_pq_scalar_axis0
// CHECK:         gather.block {{.*}} : tensor<2x3xf32>, tensor<i64> into tensor<3xf32>
func.func @block_table_pq_scalar_axis0(%data: tensor<2x3xf32>, %indices: tensor<i64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2x3xf32>, tensor<i64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// table reshaped: (P,Q) (1,1) -> (1,Q)
// CHECK-LABEL: func.func @multiaxis_table_pq_scalar_axis0
// CHECK:         gather.multiaxis {{.*}} : tensor<2x3xf32>, tensor<1x1xi64> into tensor<1x3xf32>
func.func @multiaxis_table_pq_scalar_axis0(%data: tensor<2x3xf32>, %indices: tensor<1x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<2x3xf32>, tensor<1x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// table: (P,Q,R), (), axis 1 -> (P,R)
// CHECK-LABEL: func.func @block_table_pqr_scalar_axis1
// CHECK:         gather.block {{.*}} : tensor<2x3x4xf32>, tensor<i64> into tensor<2x4xf32>
func.func @block_table_pqr_scalar_axis1(%data: tensor<2x3x4xf32>, %indices: tensor<i64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<2x3x4xf32>, tensor<i64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// table reshaped: (P,Q,R) (1,1,1) -> (P,1,R)
// CHECK-LABEL: func.func @multiaxis_table_pqr_scalar_axis1
// CHECK:         gather.multiaxis {{.*}} : tensor<2x3x4xf32>, tensor<1x1x1xi64> into tensor<2x1x4xf32>
func.func @multiaxis_table_pqr_scalar_axis1(%data: tensor<2x3x4xf32>, %indices: tensor<1x1x1xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<2x3x4xf32>, tensor<1x1x1xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// table: (P,Q,R), (S), axis 1 -> (P,S,R)
// CHECK-LABEL: func.func @block_table_pqr_s_axis1
// CHECK:         gather.block {{.*}} : tensor<2x3x4xf32>, tensor<5xi64> into tensor<2x5x4xf32>
func.func @block_table_pqr_s_axis1(%data: tensor<2x3x4xf32>, %indices: tensor<5xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<2x3x4xf32>, tensor<5xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// table reshaped: (P,Q,1,R) (1,1,S,1) -> (P,1,S,R)
// CHECK-LABEL: func.func @multiaxis_table_pqr_s_axis1
// CHECK:         gather.multiaxis {{.*}} : tensor<2x3x1x4xf32>, tensor<1x1x5x1xi64> into tensor<2x1x5x4xf32>
func.func @multiaxis_table_pqr_s_axis1(%data: tensor<2x3x1x4xf32>, %indices: tensor<1x1x5x1xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<2x3x1x4xf32>, tensor<1x1x5x1xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// table: (P,Q), (R,S), axis 0 -> (R,S,Q)
// CHECK-LABEL: func.func @block_table_pq_rs_axis0
// CHECK:         gather.block {{.*}} : tensor<2x3xf32>, tensor<4x5xi64> into tensor<4x5x3xf32>
func.func @block_table_pq_rs_axis0(%data: tensor<2x3xf32>, %indices: tensor<4x5xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2x3xf32>, tensor<4x5xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// table reshaped: (P,1,1,Q) (1,R,S,1) -> (1,R,S,Q)
// CHECK-LABEL: func.func @multiaxis_table_pq_rs_axis0
// CHECK:         gather.multiaxis {{.*}} : tensor<2x1x1x3xf32>, tensor<1x4x5x1xi64> into tensor<1x4x5x3xf32>
func.func @multiaxis_table_pq_rs_axis0(%data: tensor<2x1x1x3xf32>, %indices: tensor<1x4x5x1xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<2x1x1x3xf32>, tensor<1x4x5x1xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// table: (P,Q), (R,S), axis 1 -> (P,R,S)
// CHECK-LABEL: func.func @block_table_pq_rs_axis1
// CHECK:         gather.block {{.*}} : tensor<2x3xf32>, tensor<4x5xi64> into tensor<2x4x5xf32>
func.func @block_table_pq_rs_axis1(%data: tensor<2x3xf32>, %indices: tensor<4x5xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<2x3xf32>, tensor<4x5xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// table reshaped: (P,Q,1,1) (1,1,R,S) -> (P,1,R,S)
// CHECK-LABEL: func.func @multiaxis_table_pq_rs_axis1
// CHECK:         gather.multiaxis {{.*}} : tensor<2x3x1x1xf32>, tensor<1x1x4x5xi64> into tensor<2x1x4x5xf32>
func.func @multiaxis_table_pq_rs_axis1(%data: tensor<2x3x1x1xf32>, %indices: tensor<1x1x4x5xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<2x3x1x1xf32>, tensor<1x1x4x5xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// proposal: GatherND: [2,2,2], [2,2] -> [2,2]
// CHECK-LABEL: func.func @nd_proposal_pairs
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<2x2xf32>
func.func @nd_proposal_pairs(%data: tensor<2x2x2xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal, intermediate: [2,2,2], [1,2,1*2], axes [0,1] -> [1,2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_nd_pairs
// CHECK:         gather.multiaxis {{.*}} : tensor<2x2x2xf32>, tensor<1x2x2xi64> into tensor<1x2x2xf32>
func.func @multiaxis_proposal_nd_pairs(%data: tensor<2x2x2xf32>, %indices: tensor<1x2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0, 1] into %init : tensor<2x2x2xf32>, tensor<1x2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherND: [2,2,2], [3,1] -> [3,2,2]
// CHECK-LABEL: func.func @nd_proposal_blocks
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<3x1xi64> into tensor<3x2x2xf32>
func.func @nd_proposal_blocks(%data: tensor<2x2x2xf32>, %indices: tensor<3x1xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2x2xf32>, tensor<3x1xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal, intermediate: [2,2,2], [3,1,1], axes [0] -> [3,2,2]
// CHECK-LABEL: func.func @multiaxis_proposal_nd_blocks
// CHECK:         gather.multiaxis {{.*}} : tensor<2x2x2xf32>, tensor<3x1x1xi64> into tensor<3x2x2xf32>
func.func @multiaxis_proposal_nd_blocks(%data: tensor<2x2x2xf32>, %indices: tensor<3x1x1xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0] into %init : tensor<2x2x2xf32>, tensor<3x1x1xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherND: [2,2,2], [2,1], batch_dims 1 -> [2,2]
// CHECK-LABEL: func.func @nd_proposal_batch
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
func.func @nd_proposal_batch(%data: tensor<2x2x2xf32>, %indices: tensor<2x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// proposal, intermediate: [2,2,2], [2,1,1], axes [1] -> [2,1,2]
// CHECK-LABEL: func.func @multiaxis_proposal_nd_batch
// CHECK:         gather.multiaxis {{.*}} : tensor<2x2x2xf32>, tensor<2x1x1xi64> into tensor<2x1x2xf32>
func.func @multiaxis_proposal_nd_batch(%data: tensor<2x2x2xf32>, %indices: tensor<2x1x1xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [1] into %init : tensor<2x2x2xf32>, tensor<2x1x1xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherND: [2,2,2], [5,3] -> [5]
// CHECK-LABEL: func.func @nd_proposal_triples
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<5x3xi64> into tensor<5xf32>
func.func @nd_proposal_triples(%data: tensor<2x2x2xf32>, %indices: tensor<5x3xi64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2x2xf32>, tensor<5x3xi64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// proposal, intermediate: [2,2,2], [5,1,1*3], axes [0,1,2] -> [5,1,1]
// CHECK-LABEL: func.func @multiaxis_proposal_nd_triples
// CHECK:         gather.multiaxis {{.*}} : tensor<2x2x2xf32>, tensor<5x1x3xi64> into tensor<5x1x1xf32>
func.func @multiaxis_proposal_nd_triples(%data: tensor<2x2x2xf32>, %indices: tensor<5x1x3xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.multiaxis %data[%indices] axes = [0, 1, 2] into %init : tensor<2x2x2xf32>, tensor<5x1x3xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// proposal: GatherND: [1,3], [2,1], batch_dims 1 -> [2] (data batch dim 1 broadcasts)
// CHECK-LABEL: func.func @nd_proposal_batch_broadcast
// CHECK:         gather.nd {{.*}} : tensor<1x3xf32>, tensor<2x1xi64> into tensor<2xf32>
func.func @nd_proposal_batch_broadcast(%data: tensor<1x3xf32>, %indices: tensor<2x1xi64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init : tensor<1x3xf32>, tensor<2x1xi64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// proposal: numpy: gather_nd [4,3] with [[0,0],[1,1]] -> [2]
// CHECK-LABEL: func.func @nd_proposal_numpy
// CHECK:         gather.nd {{.*}} : tensor<4x3xf32>, tensor<2x2xi64> into tensor<2xf32>
func.func @nd_proposal_numpy(%data: tensor<4x3xf32>, %indices: tensor<2x2xi64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<4x3xf32>, tensor<2x2xi64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// proposal: numpy: gather_elements [4,3] with [2,2], axis 0 -> [2,2]
// CHECK-LABEL: func.func @elements_proposal_numpy
// CHECK:         gather.elements {{.*}} : tensor<4x3xf32>, tensor<2x2xi64> into tensor<2x2xf32>
func.func @elements_proposal_numpy(%data: tensor<4x3xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 0 into %init : tensor<4x3xf32>, tensor<2x2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX Gather: Gather axis 0: data [3,2], indices [2,2] -> [2,2,2]
// CHECK-LABEL: func.func @block_onnx_gather_axis0
// CHECK:         gather.block {{.*}} : tensor<3x2xf32>, tensor<2x2xi64> into tensor<2x2x2xf32>
func.func @block_onnx_gather_axis0(%data: tensor<3x2xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<3x2xf32>, tensor<2x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// ONNX Gather: Gather axis 1: data [3,3], indices [1,2] -> [3,1,2]
// CHECK-LABEL: func.func @block_onnx_gather_axis1
// CHECK:         gather.block {{.*}} : tensor<3x3xf32>, tensor<1x2xi64> into tensor<3x1x2xf32>
func.func @block_onnx_gather_axis1(%data: tensor<3x3xf32>, %indices: tensor<1x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<3x3xf32>, tensor<1x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// ONNX Gather: test_gather_0: [5,4,3,2], [3], axis 0 -> [3,4,3,2]
// CHECK-LABEL: func.func @block_onnx_gather_gather_0
// CHECK:         gather.block {{.*}} : tensor<5x4x3x2xf32>, tensor<3xi64> into tensor<3x4x3x2xf32>
func.func @block_onnx_gather_gather_0(%data: tensor<5x4x3x2xf32>, %indices: tensor<3xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<5x4x3x2xf32>, tensor<3xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// ONNX Gather: test_gather_1: [5,4,3,2], [3], axis 1 -> [5,3,3,2]
// CHECK-LABEL: func.func @block_onnx_gather_gather_1
// CHECK:         gather.block {{.*}} : tensor<5x4x3x2xf32>, tensor<3xi64> into tensor<5x3x3x2xf32>
func.func @block_onnx_gather_gather_1(%data: tensor<5x4x3x2xf32>, %indices: tensor<3xi64>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.block %data[%indices] axis = 1 into %init : tensor<5x4x3x2xf32>, tensor<3xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// ONNX Gather: test_gather_negative_indices: [10], [3], axis 0 -> [3]
// CHECK-LABEL: func.func @block_onnx_gather_negative_indices
// CHECK:         gather.block {{.*}} : tensor<10xf32>, tensor<3xi64> into tensor<3xf32>
func.func @block_onnx_gather_negative_indices(%data: tensor<10xf32>, %indices: tensor<3xi64>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<10xf32>, tensor<3xi64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// ONNX GatherElements: example 1: [2,2], [2,2], axis 1 -> [2,2]
// CHECK-LABEL: func.func @elements_onnx_gatherelements_example1
// CHECK:         gather.elements {{.*}} : tensor<2x2xf32>, tensor<2x2xi64> into tensor<2x2xf32>
func.func @elements_onnx_gatherelements_example1(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 1 into %init : tensor<2x2xf32>, tensor<2x2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX GatherElements: example 2: [3,3], [2,3], axis 0 -> [2,3]
// CHECK-LABEL: func.func @elements_onnx_gatherelements_example2
// CHECK:         gather.elements {{.*}} : tensor<3x3xf32>, tensor<2x3xi64> into tensor<2x3xf32>
func.func @elements_onnx_gatherelements_example2(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 0 into %init : tensor<3x3xf32>, tensor<2x3xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX GatherElements: negative indices: [3,3], [2,3], axis 0 -> [2,3]
// CHECK-LABEL: func.func @elements_onnx_gatherelements_negative
// CHECK:         gather.elements {{.*}} : tensor<3x3xf32>, tensor<2x3xi32> into tensor<2x3xf32>
func.func @elements_onnx_gatherelements_negative(%data: tensor<3x3xf32>, %indices: tensor<2x3xi32>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %data[%indices] axis = 0 into %init : tensor<3x3xf32>, tensor<2x3xi32> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX GatherND: example 1: [2,2], [2,2] -> [2]
// CHECK-LABEL: func.func @nd_onnx_gathernd_example1
// CHECK:         gather.nd {{.*}} : tensor<2x2xi32>, tensor<2x2xi64> into tensor<2xi32>
func.func @nd_onnx_gathernd_example1(%data: tensor<2x2xi32>, %indices: tensor<2x2xi64>, %init: tensor<?xi32>) -> tensor<?xi32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2xi32>, tensor<2x2xi64> into tensor<?xi32>
  return %0 : tensor<?xi32>
}

// ONNX GatherND: example 2: [2,2], [2,1] -> [2,2]
// CHECK-LABEL: func.func @nd_onnx_gathernd_example2
// CHECK:         gather.nd {{.*}} : tensor<2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
func.func @nd_onnx_gathernd_example2(%data: tensor<2x2xf32>, %indices: tensor<2x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX GatherND: example 3: [2,2,2], [2,2] -> [2,2]
// CHECK-LABEL: func.func @nd_onnx_gathernd_example3
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<2x2xf32>
func.func @nd_onnx_gathernd_example3(%data: tensor<2x2x2xf32>, %indices: tensor<2x2xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// ONNX GatherND: example 4: [2,2,2], [2,1,2] -> [2,1,2]
// CHECK-LABEL: func.func @nd_onnx_gathernd_example4
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<2x1x2xi64> into tensor<2x1x2xf32>
func.func @nd_onnx_gathernd_example4(%data: tensor<2x2x2xf32>, %indices: tensor<2x1x2xi64>, %init: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = gather.nd %data[%indices] into %init : tensor<2x2x2xf32>, tensor<2x1x2xi64> into tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// ONNX GatherND: example 5: [2,2,2], [2,1], batch_dims 1 -> [2,2]
// CHECK-LABEL: func.func @nd_onnx_gathernd_example5
// CHECK:         gather.nd {{.*}} : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
func.func @nd_onnx_gathernd_example5(%data: tensor<2x2x2xf32>, %indices: tensor<2x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
