// TilingInterface: tiling each op with upstream transform ops slices the
// operands along the dimensions the output follows and keeps the gathered
// ones whole.
// RUN: gather-opt %s --transform-interpreter --split-input-file --cse | FileCheck %s

// An embedding lookup tiled 4x64: the row slice of the table is whole along
// the gathered axis and follows the tile along the columns.
// CHECK-LABEL: func.func @tile_block
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<1000x256xf32>, %[[IDS:[^:]*]]: tensor<32xi64>
// CHECK:         scf.forall (%[[TI:.*]], %[[TJ:.*]]) in (8, 4) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK-DAG:       %[[I:.*]] = affine.apply #{{.*}}(%[[TI]])
// CHECK-DAG:       %[[J:.*]] = affine.apply #{{.*}}(%[[TJ]])
// CHECK-DAG:       %[[INIT:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]]] [4, 64] [1, 1]
// CHECK-DAG:       %[[ROWS:.*]] = tensor.extract_slice %[[TABLE]][0, %[[J]]] [1000, 64] [1, 1]
// CHECK-DAG:       %[[IDTILE:.*]] = tensor.extract_slice %[[IDS]][%[[I]]] [4] [1]
// The tile reports an invalid index in the whole indices (`error`).
// CHECK:           %[[TILE:.*]] = gather.block %[[ROWS]][%[[IDTILE]]] axis = 0 whole_indices(%[[IDS]] : tensor<32xi64>) into %[[INIT]] : tensor<1000x64xf32>, tensor<4xi64> into tensor<4x64xf32>
// CHECK:           tensor.parallel_insert_slice %[[TILE]] into %[[OUT]][%[[I]], %[[J]]] [4, 64] [1, 1]
func.func @tile_block(%table: tensor<1000x256xf32>, %ids: tensor<32xi64>) -> tensor<32x256xf32> {
  %init = tensor.empty() : tensor<32x256xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init : tensor<1000x256xf32>, tensor<32xi64> into tensor<32x256xf32>
  return %0 : tensor<32x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.block"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [4, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// gather.elements: the data follows the tile off the axis and stays whole
// along it; a tile size that does not divide (3 into 10) gives partial tiles.
// CHECK-LABEL: func.func @tile_elements
// CHECK-SAME:      %[[DATA:[^:]*]]: tensor<10x7xf32>, %[[IDX:[^:]*]]: tensor<10x5xi32>
// CHECK:         scf.forall (%[[T:.*]]) in (4)
// CHECK:           %[[I:.*]] = affine.apply #{{.*}}(%[[T]])
// CHECK:           %[[N:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK-DAG:       tensor.extract_slice %[[DATA]][%[[I]], 0] [%[[N]], 7] [1, 1]
// CHECK-DAG:       tensor.extract_slice %[[IDX]][%[[I]], 0] [%[[N]], 5] [1, 1]
// CHECK:           gather.elements {{.*}} axis = 1 out_of_bounds = fill into {{.*}} : tensor<?x7xf32>, tensor<?x5xi32> into tensor<?x5xf32>
func.func @tile_elements(%data: tensor<10x7xf32>, %idx: tensor<10x5xi32>) -> tensor<10x5xf32> {
  %init = tensor.empty() : tensor<10x5xf32>
  %0 = gather.elements %data[%idx] axis = 1 out_of_bounds = fill into %init : tensor<10x7xf32>, tensor<10x5xi32> into tensor<10x5xf32>
  return %0 : tensor<10x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// gather.nd with a batch dimension: the batch follows the tile in both
// operands, the coordinate dimension of the indices stays whole.
// CHECK-LABEL: func.func @tile_nd
// CHECK-SAME:      %[[DATA:[^:]*]]: tensor<8x5x6x16xf32>, %[[IDX:[^:]*]]: tensor<8x3x2xi64>
// CHECK:         scf.forall (%[[T:.*]]) in (4)
// CHECK:           %[[B:.*]] = affine.apply #{{.*}}(%[[T]])
// CHECK-DAG:       tensor.extract_slice %[[DATA]][%[[B]], 0, 0, 0] [2, 5, 6, 16] [1, 1, 1, 1]
// CHECK-DAG:       tensor.extract_slice %[[IDX]][%[[B]], 0, 0] [2, 3, 2] [1, 1, 1]
// CHECK:           gather.nd {{.*}} batch_dims = 1 whole_indices(%[[IDX]] : tensor<8x3x2xi64>) into {{.*}} : tensor<2x5x6x16xf32>, tensor<2x3x2xi64> into tensor<2x3x16xf32>
func.func @tile_nd(%data: tensor<8x5x6x16xf32>, %idx: tensor<8x3x2xi64>) -> tensor<8x3x16xf32> {
  %init = tensor.empty() : tensor<8x3x16xf32>
  %0 = gather.nd %data[%idx] batch_dims = 1 into %init : tensor<8x5x6x16xf32>, tensor<8x3x2xi64> into tensor<8x3x16xf32>
  return %0 : tensor<8x3x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// gather.multiaxis: the folded coordinate dimension is sliced in whole
// coordinates (2 values each), and a static broadcast dimension of the input
// stays whole.
// CHECK-LABEL: func.func @tile_multiaxis
// CHECK-SAME:      %[[IN:[^:]*]]: tensor<1x9x7xf32>, %[[IDX:[^:]*]]: tensor<6x1x8xi64>
// CHECK:         scf.forall (%[[TI:.*]], %[[TJ:.*]]) in (3, 2)
// CHECK-DAG:       %[[I:.*]] = affine.apply #[[TWICE:.*]](%[[TI]])
// CHECK-DAG:       %[[J:.*]] = affine.apply #[[TWICE]](%[[TJ]])
// CHECK-DAG:       %[[J2:.*]] = affine.apply #[[TWICE]](%[[J]])
// CHECK-DAG:       tensor.extract_slice %[[IN]][0, 0, 0] [1, 9, 7] [1, 1, 1]
// CHECK-DAG:       tensor.extract_slice %[[IDX]][%[[I]], 0, %[[J2]]] [2, 1, 4] [1, 1, 1]
// CHECK:           gather.multiaxis {{.*}} axes = [1, 2] out_of_bounds = clamp into {{.*}} : tensor<1x9x7xf32>, tensor<2x1x4xi64> into tensor<2x1x2xf32>
func.func @tile_multiaxis(%in: tensor<1x9x7xf32>, %idx: tensor<6x1x8xi64>) -> tensor<6x1x4xf32> {
  %init = tensor.empty() : tensor<6x1x4xf32>
  %0 = gather.multiaxis %in[%idx] axes = [1, 2] out_of_bounds = clamp into %init : tensor<1x9x7xf32>, tensor<6x1x8xi64> into tensor<6x1x4xf32>
  return %0 : tensor<6x1x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.multiaxis"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [2, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic sizes whose broadcast only the run time knows: each tile checks
// the whole op's shape conditions before it slices, and reads a dynamic
// broadcast dimension whole where its size is 1.
// CHECK-LABEL: func.func @tile_dynamic_broadcast
// CHECK:         scf.forall
// CHECK:           arith.andi
// CHECK-NEXT:      %[[OK:.*]] = arith.andi
// CHECK-NEXT:      scf.if %[[OK]] -> (tensor<?x?xf32>)
// CHECK:             arith.select
// CHECK:             gather.multiaxis
// CHECK:           } else {
// CHECK:             gather.check_shape %{{.*}}, shape_mismatch dim = 0 sizes(%{{.*}}, %{{.*}}) for "gather.multiaxis"
func.func @tile_dynamic_broadcast(%in: tensor<?x?xf32>, %idx: tensor<?x?xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %in[%idx] axes = [1] into %init : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.multiaxis"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [4, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Lowering to loops on buffers: the scalar implementation, one element per
// iteration, with the index policy of the lowerings.
// CHECK-LABEL: func.func @scalar_block
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[ID:.*]] = memref.load %{{.*}}[%[[I]]] : memref<4xi32>
// CHECK:             arith.minsi
// CHECK:             %[[V:.*]] = memref.load %{{.*}} : memref<10x3xf32>
// CHECK:             memref.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : memref<4x3xf32>
// CHECK:         return
func.func @scalar_block(%data: memref<10x3xf32>, %ids: memref<4xi32>, %out: memref<4x3xf32>) {
  gather.block %data[%ids] axis = 0 out_of_bounds = clamp into %out : memref<10x3xf32>, memref<4xi32> into memref<4x3xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.block"]} in %root : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.convert_to_loops %op : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A gather already in canonical form (a gather.nd's, its coordinates folded
// into the last indices dimension): the tiles' whole indices are the
// indices as written, found back through the reshape, so that a report
// names the gather.nd position.
// CHECK-LABEL: func.func @tile_canonical_nd
// CHECK-SAME:      %{{[^:]*}}: tensor<6x8xf32>, %[[ND:[^:]*]]: tensor<12x5x2xi64>
// CHECK:         %[[FOLDED:.*]] = tensor.collapse_shape %[[ND]]
// CHECK:         scf.forall
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %[[FOLDED]]
// CHECK:           gather.multiaxis %{{.*}}[%[[TILE]]] axes = [0, 1] whole_indices(%[[ND]] : tensor<12x5x2xi64>) into
func.func @tile_canonical_nd(%input: tensor<6x8xf32>, %nd: tensor<12x5x2xi64>) -> tensor<12x5xf32> {
  %indices = tensor.collapse_shape %nd [[0], [1, 2]] : tensor<12x5x2xi64> into tensor<12x10xi64>
  %init = tensor.empty() : tensor<12x5xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init {gather.origin = #gather.origin<"gather.nd", dims = [0, 1], indices = [12x5x2], indices_dims = [0, 1, 1]>} : tensor<6x8xf32>, tensor<12x10xi64> into tensor<12x5xf32>
  return %0 : tensor<12x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["gather.multiaxis"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
