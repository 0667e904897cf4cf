// Fusion with upstream drivers, both ways: a gather fused as a producer into
// the tiled loop of its elementwise consumer, and an elementwise producer of
// the indices fused into the tiled gather.
// RUN: gather-opt %s --transform-interpreter --split-input-file --cse | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// fuse_into_containing_op: the consumer (bias add) is tiled, the gather
// computes only the consumer's tile inside the loop; no full-size gather
// result is left.
// CHECK-LABEL: func.func @gather_into_consumer_loop
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<1000x256xf32>, %[[IDS:[^:]*]]: tensor<32xi64>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (4, 2) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           affine.apply
// CHECK-NEXT:      %[[J:.*]] = affine.apply
// CHECK:           %[[DEST:.*]] = tensor.extract_slice %[[OUT]]
// CHECK:           %[[ROWS:.*]] = tensor.extract_slice %[[TABLE]][0, %[[J]]] [1000, 128] [1, 1]
// CHECK:           %[[G:.*]] = gather.block %[[ROWS]]{{.*}} into %[[DEST]] : tensor<1000x128xf32>, tensor<8xi64> into tensor<8x128xf32>
// CHECK:           linalg.generic {{.*}} ins(%[[G]], {{.*}} : tensor<8x128xf32>, tensor<128xf32>) outs(%[[DEST]] : tensor<8x128xf32>)
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     = gather.block
func.func @gather_into_consumer_loop(%table: tensor<1000x256xf32>, %ids: tensor<32xi64>, %bias: tensor<256xf32>) -> tensor<32x256xf32> {
  %empty = tensor.empty() : tensor<32x256xf32>
  %rows = gather.block %table[%ids] axis = 0 into %empty : tensor<1000x256xf32>, tensor<32xi64> into tensor<32x256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rows, %bias : tensor<32x256xf32>, tensor<256xf32>) outs(%empty : tensor<32x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x256xf32>
  return %sum : tensor<32x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %gather = transform.structured.match ops{["gather.block"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %add tile_sizes [8, 128] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %gather into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// structured.fuse (tile and fuse): tanh(elements(...)) tiled 2x3 with the
// gather fused as a producer through generateResultTileValue.
// CHECK-LABEL: func.func @tile_and_fuse_elements
// CHECK-NOT:     = gather.elements
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             gather.elements {{.*}} : tensor<2x9xf32>, tensor<2x3xi32> into tensor<2x3xf32>
// CHECK:             linalg.generic
// CHECK:               math.tanh
// CHECK-NOT:     = gather.elements
func.func @tile_and_fuse_elements(%data: tensor<6x9xf32>, %idx: tensor<6x6xi32>) -> tensor<6x6xf32> {
  %empty = tensor.empty() : tensor<6x6xf32>
  %g = gather.elements %data[%idx] axis = 1 out_of_bounds = clamp into %empty : tensor<6x9xf32>, tensor<6x6xi32> into tensor<6x6xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<6x6xf32>) outs(%empty : tensor<6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.tanh %a : f32
    linalg.yield %y : f32
  } -> tensor<6x6xf32>
  return %t : tensor<6x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tanh = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fused, %l0, %l1 = transform.structured.fuse %tanh tile_sizes [2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_dce to %f : !transform.any_op
    transform.yield
  }
}

// -----

#id1 = affine_map<(d0) -> (d0)>

// An elementwise producer of the indices (ids + offset) fused into the tiled
// gather: each tile computes only the index values it reads. Indices that
// an op with a TilingInterface computes give the tile no whole_indices
// (else the report's use would keep the whole producer in the loop), so
// such a tile reports an invalid index at its position in its own slice.
// CHECK-LABEL: func.func @indices_producer_into_gather_loop
// CHECK-SAME:      %{{[^:]*}}: tensor<1000x64xf32>, %[[IDS:[^:]*]]: tensor<32xi64>
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[T:.*]]) in (4)
// CHECK:           %[[I:.*]] = affine.apply #{{.*}}(%[[T]])
// CHECK:           %[[IDTILE:.*]] = tensor.extract_slice %[[IDS]][%[[I]]] [8] [1]
// CHECK:           %[[SHIFTED:.*]] = linalg.generic {{.*}} ins(%[[IDTILE]] : tensor<8xi64>)
// CHECK:             arith.addi
// CHECK-NOT:       linalg.generic
// CHECK:           gather.block %{{.*}}[%[[SHIFTED]]] axis = 0 into {{.*}} : tensor<1000x64xf32>, tensor<8xi64> into tensor<8x64xf32>
func.func @indices_producer_into_gather_loop(%table: tensor<1000x64xf32>, %ids: tensor<32xi64>, %offset: i64) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32xi64>
  %shifted = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<32xi64>) outs(%e : tensor<32xi64>) {
  ^bb0(%a: i64, %o: i64):
    %s = arith.addi %a, %offset : i64
    linalg.yield %s : i64
  } -> tensor<32xi64>
  %init = tensor.empty() : tensor<32x64xf32>
  %rows = gather.block %table[%shifted] axis = 0 into %init : tensor<1000x64xf32>, tensor<32xi64> into tensor<32x64xf32>
  return %rows : tensor<32x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %gather = transform.structured.match ops{["gather.block"]} in %root : (!transform.any_op) -> !transform.any_op
    %add = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %gather tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %new_loop = transform.structured.fuse_into_containing_op %add into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
