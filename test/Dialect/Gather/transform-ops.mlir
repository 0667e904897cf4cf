// The transform dialect extension: each pattern set applied from a script.
// RUN: gather-opt %s --transform-interpreter --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @to_multiaxis
// CHECK:         gather.multiaxis
// CHECK-NOT:     = gather.block
func.func @to_multiaxis(%d: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.to_multiaxis
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A gather of a gather of constants folds away.
// CHECK-LABEL: func.func @canonicalization
// CHECK-NOT:     = gather.
// CHECK:         arith.constant dense<[3.000000e+00, 1.000000e+00]>
func.func @canonicalization() -> tensor<2xf32> {
  %d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = arith.constant dense<[2, 0]> : tensor<2xi64>
  %init = tensor.empty() : tensor<2xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<3xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The CPU lowering without vectorization: a scalar linalg.generic. The
// patterns stay inside their payload (the function): the run-time checks
// are ops there, nothing is declared in the module.
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @lower_to_linalg
// CHECK:         linalg.generic
// CHECK:         gather.check_indices %{{.*}} assume_invalid for "gather.elements"
// CHECK-NOT:     = gather.
func.func @lower_to_linalg(%d: tensor<5x3xf32>, %i: tensor<4x3xi32>) -> tensor<4x3xf32> {
  %init = tensor.empty() : tensor<4x3xf32>
  %0 = gather.elements %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<4x3xi32> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_linalg {vectorize = false, block_copy = false}
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The CPU lowering prefetches the embedding rows of a 150 MiB table; the
// bufferization dialect it creates them with is loaded by the extension.
// CHECK-LABEL: func.func @lower_to_linalg_prefetch
// CHECK:         bufferization.to_buffer
// CHECK:         scf.forall
// CHECK:           memref.prefetch
// CHECK-LABEL: func.func @lower_to_linalg_no_prefetch
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @lower_to_linalg_prefetch(%d: tensor<50000x768xf32>, %i: tensor<64xi64>) -> tensor<64x768xf32> {
  %init = tensor.empty() : tensor<64x768xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<50000x768xf32>, tensor<64xi64> into tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}
func.func @lower_to_linalg_no_prefetch(%d: tensor<50000x768xf32>, %i: tensor<64xi64>) -> tensor<64x768xf32> {
  %init = tensor.empty() : tensor<64x768xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<50000x768xf32>, tensor<64xi64> into tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "lower_to_linalg_prefetch"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_linalg
    } : !transform.any_op
    %g = transform.structured.match ops{["func.func"]} attributes {sym_name = "lower_to_linalg_no_prefetch"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %g {
      transform.apply_patterns.gather.lower_to_linalg {prefetch = false}
    } : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @lower_to_loops
// CHECK:         scf.for
// CHECK-NOT:     = gather.
func.func @lower_to_loops(%d: tensor<5x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.nd %d[%i] batch_dims = 0 out_of_bounds = fill into %init : tensor<5x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_loops
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Raising from a script: an embedding lookup whose indices the frontend
// wrapped (negative_indices = wrap) and one that reads them as they are;
// both read without a bound check, kept unchecked here by the option.
// CHECK-LABEL: func.func @from_linalg
// CHECK-SAME:    %[[T:[^:]*]]: tensor<100x8xf32>, %[[I:[^:]*]]: tensor<16xi64>
// CHECK:         %[[W:.*]] = gather.block %[[T]][%[[I]]] axis = 0 out_of_bounds = unchecked into %{{.*}} : tensor<100x8xf32>, tensor<16xi64> into tensor<16x8xf32>
// CHECK:         %[[P:.*]] = gather.block %[[T]][%[[I]]] axis = 0 negative_indices = out_of_bounds out_of_bounds = unchecked into %{{.*}} : tensor<100x8xf32>, tensor<16xi64> into tensor<16x8xf32>
// CHECK:         return %[[W]], %[[P]]
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @from_linalg(%t: tensor<100x8xf32>, %idx: tensor<16xi64>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %init = tensor.empty() : tensor<16x8xf32>
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %wrapped = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %neg = arith.cmpi slt, %x, %c0 : index
    %plus = arith.addi %x, %c100 : index
    %w = arith.select %neg, %plus, %x : index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%w, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  %plain = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %wrapped, %plain : tensor<16x8xf32>, tensor<16x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.from_linalg {unchecked_plain_reads = true}
    } : !transform.any_op
    transform.yield
  }
}

// -----

// An embedding bag with offsets from a script: raised by default, kept
// with segment_sums = false.
// CHECK-LABEL: func.func @bags_raised
// CHECK:         scf.forall
// CHECK:           gather.block
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @bags_kept
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bags_raised(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
func.func @bags_kept(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %raised = transform.structured.match ops{["func.func"]} attributes {sym_name = "bags_raised"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %raised {
      transform.apply_patterns.gather.from_linalg
    } : !transform.any_op
    %kept = transform.structured.match ops{["func.func"]} attributes {sym_name = "bags_kept"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %kept {
      transform.apply_patterns.gather.from_linalg {segment_sums = false}
    } : !transform.any_op
    transform.yield
  }
}
