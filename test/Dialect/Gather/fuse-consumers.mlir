// gather-fuse-consumers: the TOSA graph gather -> add -> tanh (after
// --convert-tosa-gather-to-gather and tosa-to-linalg) becomes one loop nest
// in which each tile gathers straight into the output tile and the fused
// consumer updates it in place.
// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(gather-fuse-consumers{tile-elements=512 reduction-tile-elements=512}))" --split-input-file | FileCheck %s

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @embedding_bias_tanh
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<1x1000x64xf32>, %[[IDS:[^:]*]]: tensor<1x256x1xi32>, %[[BIAS:[^:]*]]: tensor<1x1x64xf32>
// CHECK-NOT:     gather.check_
// CHECK:         %[[LOOP:.*]] = scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (1, 256) step (1, 8) shared_outs(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT:       tensor.extract_slice %{{.*}}[%[[I]], %[[J]], 0] [1, 8, 64] [1, 1, 1] : tensor<1x256x64xf32>
// CHECK-DAG:       %[[IDTILE:.*]] = tensor.extract_slice %[[IDS]][%[[I]], %[[J]], 0] [1, 8, 1] [1, 1, 1]
// CHECK-DAG:       %[[DEST:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]], 0] [1, 8, 64] [1, 1, 1]
// CHECK:           %[[G:.*]] = gather.multiaxis %{{.*}}[%[[IDTILE]]] axes = [1] negative_indices = out_of_bounds whole_indices(%[[IDS]] : tensor<1x256x1xi32>) into %[[DEST]]
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x64xf32>) outs(%[[G]] : tensor<1x8x64xf32>)
// CHECK:             arith.addf
// CHECK:             math.tanh
// CHECK:           tensor.parallel_insert_slice %[[Y]] into %[[ACC]][%[[I]], %[[J]], 0] [1, 8, 64] [1, 1, 1]
// CHECK:         return %[[LOOP]]
func.func @embedding_bias_tanh(%table: tensor<1x1000x64xf32>, %ids: tensor<1x256x1xi32>, %bias: tensor<1x1x64xf32>) -> tensor<1x256x64xf32> {
  %e0 = tensor.empty() : tensor<1x256x64xf32>
  %g = gather.multiaxis %table[%ids] axes = [1] negative_indices = out_of_bounds into %e0 : tensor<1x1000x64xf32>, tensor<1x256x1xi32> into tensor<1x256x64xf32>
  %e1 = tensor.empty() : tensor<1x256x64xf32>
  %a = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g, %bias : tensor<1x256x64xf32>, tensor<1x1x64xf32>) outs(%e1 : tensor<1x256x64xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x256x64xf32>
  %e2 = tensor.empty() : tensor<1x256x64xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x256x64xf32>) outs(%e2 : tensor<1x256x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<1x256x64xf32>
  return %t : tensor<1x256x64xf32>
}

// -----

// A gather with another user, or whose consumer is not elementwise, stays.
// CHECK-LABEL: func.func @not_fused_when_result_is_reused
// CHECK-NOT:     scf.forall
// CHECK:         gather.block
func.func @not_fused_when_result_is_reused(%d: tensor<100x8xf32>, %i: tensor<16xi64>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<100x8xf32>, tensor<16xi64> into tensor<16x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  return %g, %n : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// A consumer with an operand of static size 0 has no iteration either way:
// it stays unfused (its tile would be an extract_slice at offset 0 of an
// empty dimension, which MLIR 22's verifier rejects).
// CHECK-LABEL: func.func @not_fused_with_an_empty_operand
// CHECK-NOT:     scf.forall
// CHECK:         gather.block
// CHECK:         linalg.generic
func.func @not_fused_with_an_empty_operand(%d: tensor<100x?xf32>, %i: tensor<16xi64>, %bias: tensor<0xf32>) -> tensor<16x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %d, %c1 : tensor<100x?xf32>
  %e = tensor.empty(%n) : tensor<16x?xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<100x?xf32>, tensor<16xi64> into tensor<16x?xf32>
  %e2 = tensor.empty(%n) : tensor<16x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g, %bias : tensor<16x?xf32>, tensor<0xf32>) outs(%e2 : tensor<16x?xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x?xf32>
  return %r : tensor<16x?xf32>
}

// -----

// A consumer of two gathers: the first is fused into its tiles, the second
// stays whole and is read through slices (the consumer is tiled once; a
// second fusion into the replaced consumer crashed, found by the fuzzer).
// CHECK-LABEL: func.func @two_gathers_one_consumer
// CHECK-SAME:    %{{.*}}: tensor<8xi64>, %[[IDS2:.*]]: tensor<8xi64>)
// CHECK:         %[[H:.*]] = gather.block %{{.*}}[%[[IDS2]]] axis = 0
// CHECK:         scf.forall
// CHECK:           gather.block
// CHECK:           tensor.extract_slice %[[H]]
// CHECK:           linalg.generic
// CHECK:           arith.addf
// CHECK-NOT:     gather.block
func.func @two_gathers_one_consumer(%table: tensor<40x16xf32>, %ids: tensor<8xi64>, %ids2: tensor<8xi64>) -> tensor<8x16xf32> {
  %i = tensor.empty() : tensor<8x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %i2 = tensor.empty() : tensor<8x16xf32>
  %h = gather.block %table[%ids2] axis = 0 into %i2 : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %h : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Indices that a linalg.generic computes: the pass fuses only the gather,
// so the producer stays whole and the tiles' reports scan its result.
// CHECK-LABEL: func.func @computed_indices
// CHECK:         %[[SHIFTED:.*]] = linalg.generic
// CHECK:         scf.forall
// CHECK:           gather.block %{{.*}}[%{{.*}}] axis = 0 whole_indices(%[[SHIFTED]] : tensor<4096xi64>) into
func.func @computed_indices(%table: tensor<1000x64xf32>, %ids: tensor<4096xi64>) -> tensor<4096x64xf32> {
  %e = tensor.empty() : tensor<4096xi64>
  %shifted = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<4096xi64>) outs(%e : tensor<4096xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c1 = arith.constant 1 : i64
    %s = arith.addi %a, %c1 : i64
    linalg.yield %s : i64
  } -> tensor<4096xi64>
  %init = tensor.empty() : tensor<4096x64xf32>
  %g = gather.block %table[%shifted] axis = 0 into %init : tensor<1000x64xf32>, tensor<4096xi64> into tensor<4096x64xf32>
  %e2 = tensor.empty() : tensor<4096x64xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4096x64xf32>) outs(%e2 : tensor<4096x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4096x64xf32>
  return %t : tensor<4096x64xf32>
}

// -----

// An output of dynamic size runs no tile when it is empty, and so no
// tile's checks: before the loops, where it is empty, the shapes are
// checked and then (under `error`) the indices, as the unfused lowering
// checks them after its loops. (An init of sizes the indices and the
// input do not prove.)
// CHECK-LABEL: func.func @dynamic_output_checked_when_empty
// CHECK:         %[[EMPTY:.*]] = arith.ori
// CHECK:         scf.if %[[EMPTY]] {
// CHECK:           scf.if
// CHECK:             gather.check_indices %{{.*}} sizes(%{{.*}}) dims = [0] shape(%{{.*}}) for "gather.block"
// CHECK:           } else {
// CHECK:             gather.check_shape
// CHECK:         scf.forall
func.func @dynamic_output_checked_when_empty(%d: tensor<100x?xf32>, %i: tensor<?xi64>, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<100x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Under `clamp` no index traps: where the output is empty only the shapes
// are checked. A static output that is not empty needs neither
// (@embedding_bias_tanh above).
// CHECK-LABEL: func.func @dynamic_clamp_output_shapes_checked_when_empty
// CHECK:         scf.if
// CHECK-NOT:       gather.check_indices
// CHECK:           gather.check_shape
// CHECK:         scf.forall
func.func @dynamic_clamp_output_shapes_checked_when_empty(%d: tensor<100x?xf32>, %i: tensor<?xi64>, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %g = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %e : tensor<100x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// An embedding bag: the sum of each bag's 8 gathered rows (linalg.reduce
// over the bag dimension). The reduction's parallel loop over bags is
// tiled (4 bags: 4 x 8 x 16 = 512 gathered elements a tile), then each
// tile into a loop over its bags (the parallel loops first) and each bag
// into steps of one row (the reduction loop), into which the gather is
// fused: a gather of one index (a slice of the whole indices) into a row of
// its own. The reduction's init, a linalg.fill, is fused into each bag
// (never into the reduction loop, which would refill the sums at each
// step), then folded away: the bag's sum starts as zeros in registers,
// is carried through the row loop as a vector (no tile-sized buffer, no
// read and write of the sum per row) and written once over the unfilled
// output row.
// CHECK-LABEL: func.func @embedding_bag_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<1000x16xf32>, %[[IDS:[^:]*]]: tensor<64x8xi64>
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<1x16xf32>
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<64x16xf32>
// CHECK:         %[[LOOP:.*]] = scf.forall (%[[B:.*]]) = (0) to (64) step (4) shared_outs(%[[ACC:.*]] = %[[EMPTY]])
// CHECK-NOT:       gather.block
// CHECK-NOT:       linalg.fill
// CHECK:           %[[IDTILE:.*]] = tensor.extract_slice %[[IDS]][%[[B]], 0] [4, 8] [1, 1]
// CHECK:           %[[OUTTILE:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0] [4, 16] [1, 1]
// CHECK-NOT:       linalg.fill
// CHECK:           %[[SUMS:.*]] = scf.for %[[I:.*]] = {{.*}} iter_args(%[[BAGS:.*]] = %[[OUTTILE]])
// CHECK:             %[[BAGIDS:.*]] = tensor.extract_slice %[[IDTILE]][%[[I]], 0] [1, 8] [1, 1]
// CHECK:             %[[SUMROW:.*]] = tensor.extract_slice %[[BAGS]][%[[I]], 0] [1, 16] [1, 1]
// CHECK-NOT:         vector.transfer_read
// CHECK:             %[[ROWS:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[SUM:.*]] = %[[ZEROS]]) -> (vector<1x16xf32>)
// CHECK:               %[[OWN:.*]] = tensor.empty() : tensor<1x1x16xf32>
// CHECK:               %[[ID:.*]] = tensor.extract_slice %[[BAGIDS]][0, %[[J]]] [1, 1] [1, 1]
// CHECK:               %[[G:.*]] = gather.block %{{.*}}[%[[ID]]] axis = 0 whole_indices(%[[IDS]] : tensor<64x8xi64>) into %[[OWN]]
// CHECK:               %[[V:.*]] = vector.transfer_read %[[G]]{{.*}} : tensor<1x1x16xf32>, vector<1x1x16xf32>
// CHECK:               %[[NEXT:.*]] = vector.multi_reduction <add>, %[[V]], %[[SUM]] [1] : vector<1x1x16xf32> to vector<1x16xf32>
// CHECK:               scf.yield %[[NEXT]]
// CHECK:             %[[ROW:.*]] = vector.transfer_write %[[ROWS]], %[[SUMROW]]
// CHECK:             tensor.insert_slice %[[ROW]] into %[[BAGS]][%[[I]], 0] [1, 16]
// CHECK-NOT:       linalg.reduce
// CHECK:           tensor.parallel_insert_slice %[[SUMS]] into %[[ACC]][%[[B]], 0] [4, 16] [1, 1]
// CHECK:         return %[[LOOP]]
func.func @embedding_bag_sum(%table: tensor<1000x16xf32>, %ids: tensor<64x8xi64>) -> tensor<64x16xf32> {
  %e = tensor.empty() : tensor<64x8x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<64x8xi64> into tensor<64x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.reduce ins(%g : tensor<64x8x16xf32>) outs(%f : tensor<64x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64x16xf32>
}

// -----

// A maximum over each gathered row (its innermost dimension, a
// linalg.generic with the reduction loop last): tiles of 16 rows (32 would
// hold the 512 elements aimed at, but make 8 tiles; the count is made a
// multiple of 16), each row gathered in its step and its maximum a vector
// reduction.
// CHECK-LABEL: func.func @row_maxima
// CHECK:         scf.forall (%{{.*}}) = (0) to (256) step (16)
// CHECK:           scf.for
// CHECK:             %[[OWN:.*]] = tensor.empty() : tensor<1x16xf32>
// CHECK:             gather.block {{.*}} into %[[OWN]]
// CHECK:             vector.multi_reduction <maximumf>, %{{.*}}, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK-NOT:       linalg.generic
func.func @row_maxima(%table: tensor<1000x16xf32>, %ids: tensor<256xi64>, %init: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<256xi64> into tensor<256x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<256x16xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%x: f32, %m: f32):
    %y = arith.maximumf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// Bags of a dynamic count and length: the bag loop tiled by
// wanted = max(1, 512 / max(length * 16, 1)) bags, then into as many tiles
// as the next multiple of 16 of ceil(bags / wanted) (at most one a bag),
// of equal sizes, computed at run time. The
// gather's init is made of the indices' sizes, so no run-time shape check
// guards the tile's gather (the init's sizes are the indices'), and the
// gather fuses into the steps as with static sizes: the bag loop's bound is
// the tile's size, the row loop's a bag's, and no gather of the tile's
// block is left.
// CHECK-LABEL: func.func @dynamic_bags_sum
// CHECK:         %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[BLOCK:.*]] = arith.muli %[[C16]], %{{.*}} : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[NONZERO:.*]] = arith.maxui %[[BLOCK]], %[[C1]] : index
// CHECK:         %[[C512:.*]] = arith.constant 512 : index
// CHECK:         %[[QUOTIENT:.*]] = arith.divui %[[C512]], %[[NONZERO]] : index
// CHECK:         %[[WANTED:.*]] = arith.maxui %[[QUOTIENT]], %{{.*}} : index
// CHECK:         %[[COUNT:.*]] = arith.ceildivui %[[BAGS:.*]], %[[WANTED]] : index
// CHECK:         %[[C16B:.*]] = arith.constant 16 : index
// CHECK:         %[[SIXTEENTHS:.*]] = arith.ceildivui %[[COUNT]], %[[C16B]] : index
// CHECK:         %[[ROUNDED:.*]] = arith.muli %[[SIXTEENTHS]], %{{.*}} : index
// CHECK:         %[[TILES:.*]] = arith.minui %[[ROUNDED]], %[[BAGS]] : index
// CHECK:         %[[SOME:.*]] = arith.maxui %[[TILES]], %{{.*}} : index
// CHECK:         %[[EQUAL:.*]] = arith.ceildivui %[[BAGS]], %[[SOME]] : index
// CHECK:         %[[STEP:.*]] = arith.maxui %[[EQUAL]], %{{.*}} : index
// CHECK:         scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (%[[STEP]])
// CHECK-NOT:       scf.if
// CHECK:           %[[OWN:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?x16xf32>
// CHECK-NOT:       gather.block
// CHECK:           %[[TILEBAGS:.*]] = tensor.dim %[[OWN]], %{{.*}} : tensor<?x?x16xf32>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[TILEBAGS]]
// CHECK:             %[[BAG:.*]] = tensor.empty(%{{.*}}) : tensor<1x?x16xf32>
// CHECK:             %[[LENGTH:.*]] = tensor.dim %[[BAG]], %{{.*}} : tensor<1x?x16xf32>
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[LENGTH]] {{.*}} -> (vector<1x16xf32>)
// CHECK:               gather.block {{.*}} : tensor<1000x16xf32>, tensor<1x1xi64> into tensor<1x1x16xf32>
// CHECK:               vector.multi_reduction <add>
func.func @dynamic_bags_sum(%table: tensor<1000x16xf32>, %ids: tensor<?x?xi64>, %init: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nb = tensor.dim %ids, %c0 : tensor<?x?xi64>
  %nl = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %e = tensor.empty(%nb, %nl) : tensor<?x?x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<?x?xi64> into tensor<?x?x16xf32>
  %r = linalg.reduce ins(%g : tensor<?x?x16xf32>) outs(%init : tensor<?x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?x16xf32>
}

// -----

// The same bags into a gather init of other sizes: the tile's gather stays
// behind its run-time size check and writes a tile-sized tensor of its own
// (which the check's other branch yields too), of which each bag reads its
// slice and each step its row.
// CHECK-LABEL: func.func @dynamic_bags_checked_init_sum
// CHECK:         scf.forall
// CHECK:           %[[OWN:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?x16xf32>
// CHECK:           %[[TILE:.*]] = scf.if
// CHECK:             gather.block {{.*}} into %[[OWN]]
// CHECK:           } else {
// CHECK:             gather.check_shape {{.*}} init_size_mismatch
// CHECK:             scf.yield %[[OWN]]
// CHECK:           scf.for
// CHECK:             %[[BAG:.*]] = tensor.extract_slice %[[TILE]]
// CHECK:             scf.for
// CHECK:               tensor.extract_slice %[[BAG]]
// CHECK:               vector.multi_reduction <add>
func.func @dynamic_bags_checked_init_sum(%table: tensor<1000x16xf32>, %ids: tensor<?x?xi64>, %init: tensor<?x16xf32>, %nb: index, %nl: index) -> tensor<?x16xf32> {
  %e = tensor.empty(%nb, %nl) : tensor<?x?x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<?x?xi64> into tensor<?x?x16xf32>
  %r = linalg.reduce ins(%g : tensor<?x?x16xf32>) outs(%init : tensor<?x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?x16xf32>
}

// -----

// A sum of every gathered element into one value: no parallel loop is left
// to tile (one tile would gather everything), and the innermost loop is a
// reduction, so nothing is fused.
// CHECK-LABEL: func.func @total_not_fused
// CHECK-NOT:     scf.forall
// CHECK:         gather.block
// CHECK:         linalg.reduce
func.func @total_not_fused(%table: tensor<1000x16xf32>, %ids: tensor<64xi64>, %init: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<64x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<64xi64> into tensor<64x16xf32>
  %r = linalg.reduce ins(%g : tensor<64x16xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// A reduction that reads the gathered value through a transposed map (the
// column sums of the gathered rows, written with the columns as the outer
// loop) is not taken: a tile of its loops is no block of the gather's
// output.
// CHECK-LABEL: func.func @transposed_read_not_fused
// CHECK-NOT:     scf.forall
// CHECK:         gather.block
// CHECK:         linalg.generic
func.func @transposed_read_not_fused(%table: tensor<1000x16xf32>, %ids: tensor<64xi64>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<64x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<64xi64> into tensor<64x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<64x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// One bag's sum in a loop over bags of their own lengths (what
// convert-linalg-to-gather makes of an embedding bag with offsets): no
// parallel loop is left to tile but the row, so the reduction runs in steps
// over the bag's rows, each gathering one row (its index a slice of the
// bag's, reported in the whole indices) and adding it into the row of sums
// carried in a vector. An empty bag (no rows, no indices) checks no index;
// were the rows empty with indices left, the whole indices would be.
// CHECK-LABEL: func.func @bag_in_a_loop_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<1000x16xf32>, %[[IDS:[^:]*]]: tensor<64xi64>
// CHECK:         scf.forall
// CHECK:           %[[BAG:.*]] = tensor.extract_slice %[[IDS]][%{{.*}}] [%{{.*}}] [1]
// CHECK:           scf.if
// CHECK:             %[[NONE:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK:             scf.if %[[NONE]] {
// CHECK-NEXT:        } else {
// CHECK:               gather.check_indices
// CHECK:           %[[ROW:.*]] = vector.transfer_read
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %[[ROW]]) -> (vector<16xf32>)
// CHECK:             %[[ONE:.*]] = tensor.extract_slice %[[BAG]][%[[J]]] [1] [1]
// CHECK:             %[[G:.*]] = gather.block %{{.*}}[%[[ONE]]] axis = 0 whole_indices(%[[IDS]] : tensor<64xi64>)
// CHECK-SAME:          tensor<1xi64> into tensor<1x16xf32>
// CHECK:             %[[V:.*]] = vector.transfer_read %[[G]]
// CHECK:             vector.multi_reduction <add>, %[[V]], %[[SUM]] [0] : vector<1x16xf32> to vector<16xf32>
// CHECK-NOT:       linalg.reduce
// CHECK:           scf.forall.in_parallel
func.func @bag_in_a_loop_sum(%table: tensor<1000x16xf32>, %ids: tensor<64xi64>, %starts: tensor<8xindex>, %lengths: tensor<8xindex>, %init: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = scf.forall (%b) in (8) shared_outs(%out = %init) -> tensor<8x16xf32> {
    %start = tensor.extract %starts[%b] : tensor<8xindex>
    %len = tensor.extract %lengths[%b] : tensor<8xindex>
    %bag = tensor.extract_slice %ids[%start] [%len] [1] : tensor<64xi64> to tensor<?xi64>
    %e = tensor.empty(%len) : tensor<?x16xf32>
    %g = gather.block %table[%bag] axis = 0 whole_indices(%ids : tensor<64xi64>) into %e : tensor<1000x16xf32>, tensor<?xi64> into tensor<?x16xf32>
    %row = tensor.extract_slice %out[%b, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
    %s = linalg.reduce ins(%g : tensor<?x16xf32>) outs(%row : tensor<16xf32>) dimensions = [0]
      (%x: f32, %acc: f32) {
        %t = arith.addf %x, %acc : f32
        linalg.yield %t : f32
      }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%b, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}

// -----

// The same bag with its sums filled in the loop (convert-linalg-to-gather's
// form where every row is a bag): the sums start as the fill's value in
// registers, and the write of the bag's sums goes over the unfilled row. No
// fill is left.
// CHECK-LABEL: func.func @filled_bag_in_a_loop_sum
// CHECK-DAG:     %[[HALVES:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK:         scf.forall (%[[B:.*]]) in (8) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK-NOT:       linalg.fill
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[OUT]][%[[B]], 0] [1, 16] [1, 1]
// CHECK-NOT:       linalg.fill
// CHECK-NOT:       vector.transfer_read %[[ROW]]
// CHECK:           %[[SUMS:.*]] = scf.for {{.*}} iter_args(%[[SUM:.*]] = %[[HALVES]]) -> (vector<16xf32>)
// CHECK:             vector.multi_reduction <add>, %{{.*}}, %[[SUM]] [0]
// CHECK:           vector.transfer_write %[[SUMS]], %[[ROW]][%{{.*}}] {in_bounds = [true]}
// CHECK-NOT:       linalg.fill
// CHECK:           scf.forall.in_parallel
func.func @filled_bag_in_a_loop_sum(%table: tensor<1000x16xf32>, %ids: tensor<64xi64>, %starts: tensor<8xindex>, %lengths: tensor<8xindex>, %init: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %half = arith.constant 0.5 : f32
  %r = scf.forall (%b) in (8) shared_outs(%out = %init) -> tensor<8x16xf32> {
    %start = tensor.extract %starts[%b] : tensor<8xindex>
    %len = tensor.extract %lengths[%b] : tensor<8xindex>
    %bag = tensor.extract_slice %ids[%start] [%len] [1] : tensor<64xi64> to tensor<?xi64>
    %e = tensor.empty(%len) : tensor<?x16xf32>
    %g = gather.block %table[%bag] axis = 0 whole_indices(%ids : tensor<64xi64>) into %e : tensor<1000x16xf32>, tensor<?xi64> into tensor<?x16xf32>
    %row = tensor.extract_slice %out[%b, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
    %filled = linalg.fill ins(%half : f32) outs(%row : tensor<16xf32>) -> tensor<16xf32>
    %s = linalg.reduce ins(%g : tensor<?x16xf32>) outs(%filled : tensor<16xf32>) dimensions = [0]
      (%x: f32, %acc: f32) {
        %t = arith.addf %x, %acc : f32
        linalg.yield %t : f32
      }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%b, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}

// -----

// 96 bags whose tiles would hold 16 bags (512 elements of 2 rows of 16
// floats each): 6 tiles, which 4 threads would share 2, 2, 1 and 1. The
// count is made the next multiple of 16 and the tiles equal: 16 tiles of 6.
// CHECK-LABEL: func.func @bags_in_tiles_of_equal_shares
// CHECK:         scf.forall (%{{.*}}) = (0) to (96) step (6)
func.func @bags_in_tiles_of_equal_shares(%table: tensor<1000x16xf32>, %ids: tensor<96x2xi64>, %init: tensor<96x16xf32>) -> tensor<96x16xf32> {
  %e = tensor.empty() : tensor<96x2x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %e : tensor<1000x16xf32>, tensor<96x2xi64> into tensor<96x2x16xf32>
  %r = linalg.reduce ins(%g : tensor<96x2x16xf32>) outs(%init : tensor<96x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<96x16xf32>
}
