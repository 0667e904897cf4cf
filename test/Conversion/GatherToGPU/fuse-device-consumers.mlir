// RUN: gather-opt %s --split-input-file --gather-canonicalize --convert-gather-to-gpu \
// RUN:   --gather-fuse-device-consumers | FileCheck %s

// An embedding lookup, a bias and tanh under `error`: one loop, which reads
// the bias and raises the error flag; the host reads the flag after it.
// CHECK-LABEL: func.func @block_bias_tanh
// CHECK:         gpu.memset
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<16xf32>)
// CHECK:           tensor.extract
// CHECK:           memref.store
// CHECK:           arith.addf
// CHECK:           math.tanh
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy
// CHECK:         gather.check_indices
// CHECK:         return %[[FUSED]]
func.func @block_bias_tanh(%table: tensor<40x16xf32>, %ids: tensor<8xi64>, %bias: tensor<16xf32>) -> tensor<8x16xf32> {
  %i = tensor.empty() : tensor<8x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A chain of two consumers (one changes the element type): one loop.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<8x16xf16>)
// CHECK:           tensor.extract
// CHECK:           arith.mulf
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[FUSED]]
func.func @chain(%table: tensor<40x16xf32>, %ids: tensor<8xi64>) -> tensor<8x16xf16> {
  %i = tensor.empty() : tensor<8x16xf32>
  %g = gather.block %table[%ids] axis = 0 out_of_bounds = clamp into %i : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf16>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf16>) {
  ^bb0(%a: f32, %o: f16):
    %s = arith.truncf %a : f32 to f16
    linalg.yield %s : f16
  } -> tensor<8x16xf16>
  return %z : tensor<8x16xf16>
}

// -----

// gather.nd's lowering drops the coordinate dimension with a
// collapse_shape: the gather's loop drops its loop of one iteration, the
// consumer reads it directly and fuses.
// CHECK-LABEL: func.func @nd_through_collapse
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<6x3xf32>)
// CHECK:           memref.store
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[FUSED]]
func.func @nd_through_collapse(%data: tensor<5x4x3xf32>, %idx: tensor<6x2xi64>) -> tensor<6x3xf32> {
  %i = tensor.empty() : tensor<6x3xf32>
  %g = gather.nd %data[%idx] batch_dims = 0 into %i : tensor<5x4x3xf32>, tensor<6x2xi64> into tensor<6x3xf32>
  %e = tensor.empty() : tensor<6x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<6x3xf32>) outs(%e : tensor<6x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<6x3xf32>
  return %y : tensor<6x3xf32>
}

// -----

// Not fused: the consumer reads the gather transposed.
// CHECK-LABEL: func.func @transposed_read
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK:         gpu.memcpy
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[G]] :
func.func @transposed_read(%table: tensor<40x8xf32>, %ids: tensor<8xi64>) -> tensor<8x8xf32> {
  %i = tensor.empty() : tensor<8x8xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x8xf32>, tensor<8xi64> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// Not fused: the gather's result is also returned.
// CHECK-LABEL: func.func @two_uses
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[G]] :
// CHECK:         return %[[G]], %[[Y]]
func.func @two_uses(%table: tensor<40x16xf32>, %ids: tensor<8xi64>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %i = tensor.empty() : tensor<8x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %g, %y : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A consumer of two gathers: the first is not fused, since the second
// gather's loop (which raises its own flag) would have to stay between it
// and the code that reads the first flag; the second is.
// CHECK-LABEL: func.func @two_gathers
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK-NOT:       arith.addf
// CHECK:         gpu.memcpy
// CHECK:         gpu.memset
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[G]] :
// CHECK:           memref.store
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[FUSED]]
func.func @two_gathers(%table: tensor<40x16xf32>, %ids: tensor<8xi64>, %ids2: tensor<8xi64>) -> tensor<8x16xf32> {
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

// An embedding bag's sum (linalg.reduce over the rows): generalized, then
// fused with the gather, whose read of the indices becomes an input of
// the loop at (bag, row, 0), so that the fused reduction still has an
// operand spanning its reduction loop. No gathered intermediate; the host
// reads the error flag after the fused loop.
// CHECK-DAG:   #[[$IDS_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG:   #[[$SUMS_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @bag_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<40x16xf32>, %[[IDS:[^:]*]]: tensor<8x3xi64>
// CHECK:         gpu.memset
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IDS_MAP]], #[[$SUMS_MAP]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%{{.*}} : tensor<8x3x1xi64>) outs(%[[FILL]] : tensor<8x16xf32>)
// CHECK:         ^bb0(%[[INDEX:.*]]: i64, %[[SUM:.*]]: f32):
// CHECK:           arith.index_cast %[[INDEX]]
// CHECK:           %[[ROW:.*]] = tensor.extract
// CHECK:           memref.store
// CHECK:           arith.addf %[[ROW]], %[[SUM]] : f32
// CHECK-NOT:     tensor<8x3x16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy
// CHECK:         gather.check_indices
// CHECK:         return %[[FUSED]]
func.func @bag_sum(%table: tensor<40x16xf32>, %ids: tensor<8x3xi64>) -> tensor<8x16xf32> {
  %i = tensor.empty() : tensor<8x3x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8x3xi64> into tensor<8x3x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.reduce ins(%g : tensor<8x3x16xf32>) outs(%f : tensor<8x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8x16xf32>
}

// -----

// A reduction of a gather with another use: no fusion, and the
// linalg.reduce stays as written.
// CHECK-LABEL: func.func @reduction_of_a_gather_used_twice
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         linalg.reduce ins(%[[G]]
// CHECK:         return
func.func @reduction_of_a_gather_used_twice(%table: tensor<40x16xf32>, %ids: tensor<8x3xi64>) -> (tensor<8x16xf32>, tensor<8x3x16xf32>) {
  %i = tensor.empty() : tensor<8x3x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8x3xi64> into tensor<8x3x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.reduce ins(%g : tensor<8x3x16xf32>) outs(%f : tensor<8x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r, %g : tensor<8x16xf32>, tensor<8x3x16xf32>
}

// -----

// A sum over a dimension that only the gather's output spans (the row's):
// fused, no operand would give that loop its length. The gather stays a
// loop of its own, its read of the indices as it was.
// CHECK-LABEL: func.func @sum_over_the_row_not_fused
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      outs(%{{.*}} : tensor<8x3x16xf32>)
// CHECK:           tensor.extract %{{.*}} : tensor<8x3x1xi64>
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         return
func.func @sum_over_the_row_not_fused(%table: tensor<40x16xf32>, %ids: tensor<8x3xi64>) -> tensor<8x3xf32> {
  %i = tensor.empty() : tensor<8x3x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8x3xi64> into tensor<8x3x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
  %r = linalg.reduce ins(%g : tensor<8x3x16xf32>) outs(%f : tensor<8x3xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8x3xf32>
}

// -----

// Bags of one row: the gather's lowering drops the bags' unit dimension and
// the sum reads it through an expand_shape; the sum runs without its loop
// of one iteration (one addition to the fill, all-parallel) and fuses. The
// host reads the error flag after the fused loop.
// CHECK-LABEL: func.func @bag_of_one_row_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<40x16xf32>, %[[IDS:[^:]*]]: tensor<8x1xi64>
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      outs(%[[FILL]] : tensor<8x16xf32>)
// CHECK:           tensor.extract %[[IDS]]
// CHECK:           %[[ROW:.*]] = tensor.extract %[[TABLE]]
// CHECK:           memref.store
// CHECK:           arith.addf %[[ROW]], %{{.*}} : f32
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK:         gather.check_indices
// CHECK:         return %[[FUSED]]
func.func @bag_of_one_row_sum(%table: tensor<40x16xf32>, %ids: tensor<8x1xi64>) -> tensor<8x16xf32> {
  %i = tensor.empty() : tensor<8x1x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8x1xi64> into tensor<8x1x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.reduce ins(%g : tensor<8x1x16xf32>) outs(%f : tensor<8x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8x16xf32>
}

// -----

// Rows of one element: the sums run on (bag, row) without the unit loop,
// their fill collapsed; the fused loop reads the indices as its input.
// CHECK-DAG:   #[[$IDS_MAP:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$SUMS_MAP:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bag_of_one_element_rows_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<40x1xf32>, %[[IDS:[^:]*]]: tensor<8x3xi64>
// CHECK:         %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<8x1xf32>
// CHECK:         %[[SUMS:.*]] = tensor.collapse_shape %[[FILL]] {{\[}}[0, 1]] : tensor<8x1xf32> into tensor<8xf32>
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IDS_MAP]], #[[$SUMS_MAP]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[IDS]] : tensor<8x3xi64>) outs(%[[SUMS]] : tensor<8xf32>)
// CHECK:           %[[ROW:.*]] = tensor.extract %[[TABLE]]
// CHECK:           arith.addf %[[ROW]], %{{.*}} : f32
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK:         %[[RESULT:.*]] = tensor.expand_shape %[[FUSED]] {{\[}}[0, 1]] output_shape [8, 1]
// CHECK:         return %[[RESULT]]
func.func @bag_of_one_element_rows_sum(%table: tensor<40x1xf32>, %ids: tensor<8x3xi64>) -> tensor<8x1xf32> {
  %i = tensor.empty() : tensor<8x3x1xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x1xf32>, tensor<8x3xi64> into tensor<8x3x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x1xf32>) -> tensor<8x1xf32>
  %r = linalg.reduce ins(%g : tensor<8x3x1xf32>) outs(%f : tensor<8x1xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8x1xf32>
}

// -----

// An element gather whose loop keeps its unit dimension (no reshape
// between): no index read spans that loop, so the gather drops it first (in
// its own place: the read of its error flag stays after the fused loop),
// then the sum.
// CHECK-LABEL: func.func @elements_rows_of_one_sum
// CHECK-SAME:      %[[DATA:[^:]*]]: tensor<8x6xf32>, %[[IDS:[^:]*]]: tensor<8x1xi64>
// CHECK-NOT:     gpu.memcpy
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-SAME:      outs(%[[FILL]] : tensor<8xf32>)
// CHECK:           %[[ROW:.*]] = linalg.index 0
// CHECK:           tensor.extract %[[IDS]][%{{.*}}, %{{.*}}] : tensor<8x1xi64>
// CHECK:           %[[X:.*]] = tensor.extract %[[DATA]]
// CHECK:           memref.store
// CHECK:           arith.addf %[[X]], %{{.*}} : f32
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK:         gather.check_indices
// CHECK:         return %[[FUSED]]
func.func @elements_rows_of_one_sum(%data: tensor<8x6xf32>, %ids: tensor<8x1xi64>) -> tensor<8xf32> {
  %i = tensor.empty() : tensor<8x1xf32>
  %g = gather.elements %data[%ids] axis = 1 into %i : tensor<8x6xf32>, tensor<8x1xi64> into tensor<8x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%g : tensor<8x1xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// -----

// Run-time sizes: the gather's loop sits in the branch of its shape check.
// The bias add goes into both branches: fused with the gather's loop in the
// first, applied to the zero output in the other; the host reads the error
// flag after the branch.
// CHECK-LABEL: func.func @dynamic_bias
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<?x16xf32>, %[[IDS:[^:]*]]: tensor<?xi64>, %[[BIAS:[^:]*]]: tensor<16xf32>
// CHECK:         gpu.memset
// CHECK:         %[[RESULT:.*]] = scf.if %{{.*}} -> (tensor<?x16xf32>) {
// CHECK:           %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[BIAS]] : tensor<16xf32>)
// CHECK:             tensor.extract %[[TABLE]]
// CHECK:             memref.store
// CHECK:             arith.addf
// CHECK:           scf.yield %[[FUSED]]
// CHECK:         } else {
// CHECK:           gather.check_shape
// CHECK:           %[[ZERO:.*]] = linalg.fill
// CHECK:           %[[BIASED:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[ZERO]], %[[BIAS]] : tensor<?x16xf32>, tensor<16xf32>)
// CHECK:           scf.yield %[[BIASED]]
// CHECK:         }
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[RESULT]]
func.func @dynamic_bias(%table: tensor<?x16xf32>, %ids: tensor<?xi64>, %bias: tensor<16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %i = tensor.empty(%n) : tensor<?x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<?x16xf32>, tensor<?xi64> into tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %bias : tensor<?x16xf32>, tensor<16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A bag of run-time sizes: its sums' sizes read from the gather's result
// (read from its destination instead), the fill moved before the branch,
// and the reduction fused in the first branch. The gather reads its
// indices at `select(size == 1, 0, i)` (a dimension that could broadcast);
// spanning the loop, that is i, so the indices become the fused loop's
// input.
// CHECK-DAG:   #[[$IDS_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG:   #[[$SUMS_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @dynamic_bag_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: tensor<?x16xf32>, %[[IDS:[^:]*]]: tensor<?x?xi64>
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[RESULT:.*]] = scf.if %{{.*}} -> (tensor<?x16xf32>) {
// CHECK:           %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[$IDS_MAP]], #[[$SUMS_MAP]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        ins(%{{.*}} : tensor<?x?x1xi64>) outs(%[[FILL]] : tensor<?x16xf32>)
// CHECK:             tensor.extract
// CHECK:             memref.store
// CHECK:             arith.addf
// CHECK:           scf.yield %[[FUSED]]
// CHECK:         } else {
// CHECK:           linalg.fill
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%[[FILL]] : tensor<?x16xf32>)
// CHECK:         }
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK:         return %[[RESULT]]
func.func @dynamic_bag_sum(%table: tensor<?x16xf32>, %ids: tensor<?x?xi64>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %ids, %c0 : tensor<?x?xi64>
  %l = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %i = tensor.empty(%b, %l) : tensor<?x?x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<?x16xf32>, tensor<?x?xi64> into tensor<?x?x16xf32>
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %g, %c0 : tensor<?x?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = linalg.reduce ins(%g : tensor<?x?x16xf32>) outs(%f : tensor<?x16xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?x16xf32>
}

// -----

// Not moved into the branch: the gather of run-time sizes is also a
// result (the consumer stays after the branch, in a loop of its own).
// CHECK-LABEL: func.func @dynamic_gather_used_twice
// CHECK:         %[[GATHERED:.*]] = scf.if %{{.*}} -> (tensor<?x16xf32>) {
// CHECK:           linalg.generic
// CHECK:         } else {
// CHECK:           linalg.fill
// CHECK-NOT:       linalg.generic
// CHECK:         }
// CHECK:         gpu.memcpy {{.*}} {gather.error_flag}
// CHECK:         %[[BIASED:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[GATHERED]], %{{.*}} : tensor<?x16xf32>, tensor<16xf32>)
// CHECK:         return %[[BIASED]], %[[GATHERED]]
func.func @dynamic_gather_used_twice(%table: tensor<?x16xf32>, %ids: tensor<?xi64>, %bias: tensor<16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %i = tensor.empty(%n) : tensor<?x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<?x16xf32>, tensor<?xi64> into tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %bias : tensor<?x16xf32>, tensor<16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  return %r, %g : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// Run-time sizes and a dimension of 1: the reduction reads the gather through
// an expand_shape whose sizes are read after the branch; those sizes move
// before it with the fill, the reshape goes into both branches, and the
// gather fuses into its reduction in the first.
// CHECK-LABEL: func.func @dynamic_sizes_of_the_reshape_after_the_branch
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         scf.if %{{.*}} -> (tensor<?x1xf32>) {
// CHECK:           %[[SUMS:.*]] = tensor.collapse_shape %[[FILL]]
// CHECK:           %[[FUSED:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK-SAME:        outs(%[[SUMS]] : tensor<?xf32>)
// CHECK:             tensor.extract
// CHECK:             arith.maximumf
// CHECK:           tensor.expand_shape %[[FUSED]]
// CHECK:         } else {
// CHECK:           linalg.fill
// CHECK:           tensor.expand_shape
// CHECK:           linalg.generic
// CHECK:         }
// CHECK-NOT:     linalg.generic
func.func @dynamic_sizes_of_the_reshape_after_the_branch(%data: tensor<?x2x1xf32>, %ids: tensor<?x?x1xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n0 = tensor.dim %ids, %c0 : tensor<?x?x1xi64>
  %n1 = tensor.dim %ids, %c1 : tensor<?x?x1xi64>
  %i = tensor.empty(%n0, %n1, %c1) : tensor<?x?x?xf32>
  %g = gather.elements %data[%ids] axis = 1 out_of_bounds = fill into %i : tensor<?x2x1xf32>, tensor<?x?x1xi64> into tensor<?x?x?xf32>
  %s1 = tensor.dim %g, %c1 : tensor<?x?x?xf32>
  %s2 = tensor.dim %g, %c2 : tensor<?x?x?xf32>
  %e = tensor.empty(%s1, %s2) : tensor<?x?xf32>
  %low = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.reduce ins(%g : tensor<?x?x?xf32>) outs(%f : tensor<?x?xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %y = arith.maximumf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %r : tensor<?x?xf32>
}
