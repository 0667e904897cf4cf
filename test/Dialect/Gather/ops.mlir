// RUN: gather-opt %s | gather-opt | FileCheck %s
// RUN: gather-opt %s --mlir-print-op-generic | gather-opt | FileCheck %s
// RUN: gather-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @multiaxis_static
// CHECK-SAME:    %[[IN:[^:]*]]: tensor<4x2x1x2xf32>, %[[IDX:[^:]*]]: tensor<1x3x2x2xi32>
// CHECK:         gather.multiaxis %[[IN]][%[[IDX]]] axes = [1] into %{{.*}} : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi32> into tensor<4x3x2x2xf32>
// GENERIC-LABEL: sym_name = "multiaxis_static"
// GENERIC:       "gather.multiaxis"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 1>, negative_indices = #gather<negative_indices wrap>, out_of_bounds = #gather<out_of_bounds error>}>
func.func @multiaxis_static(%input: tensor<4x2x1x2xf32>, %indices: tensor<1x3x2x2xi32>) -> tensor<4x3x2x2xf32> {
  %init_0 = tensor.empty() : tensor<4x3x2x2xf32>
  %0 = gather.multiaxis %input[%indices] axes = [1] into %init_0 : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi32> into tensor<4x3x2x2xf32>
  return %0 : tensor<4x3x2x2xf32>
}

// Two axes in reverse order, coordinates folded into the last dimension.
// CHECK-LABEL: func.func @multiaxis_two_axes_any_order
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [3, 0] into %{{.*}} : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
func.func @multiaxis_two_axes_any_order(%input: tensor<32x56x56x64xf32>, %indices: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %init_0 = tensor.empty() : tensor<8x56x56x16xf32>
  %0 = gather.multiaxis %input[%indices] axes = [3, 0] into %init_0 : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %0 : tensor<8x56x56x16xf32>
}

// Empty axes: a pure broadcast.
// CHECK-LABEL: func.func @multiaxis_no_axes
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [] into %{{.*}} : tensor<1x3xf32>, tensor<4x1xindex> into tensor<4x3xf32>
func.func @multiaxis_no_axes(%input: tensor<1x3xf32>, %indices: tensor<4x1xindex>) -> tensor<4x3xf32> {
  %init_0 = tensor.empty() : tensor<4x3xf32>
  %0 = gather.multiaxis %input[%indices] axes = [] into %init_0 : tensor<1x3xf32>, tensor<4x1xindex> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Rank 0 is allowed with no axes.
// CHECK-LABEL: func.func @multiaxis_rank_zero
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [] into %{{.*}} : tensor<f32>, tensor<i8> into tensor<f32>
func.func @multiaxis_rank_zero(%input: tensor<f32>, %indices: tensor<i8>) -> tensor<f32> {
  %init_0 = tensor.empty() : tensor<f32>
  %0 = gather.multiaxis %input[%indices] axes = [] into %init_0 : tensor<f32>, tensor<i8> into tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @multiaxis_dynamic
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0, 1] into %{{.*}} : tensor<?x?x?xf16>, tensor<?x?x?xi64> into tensor<?x?x?xf16>
func.func @multiaxis_dynamic(%input: tensor<?x?x?xf16>, %indices: tensor<?x?x?xi64>, %init_0: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init_0 : tensor<?x?x?xf16>, tensor<?x?x?xi64> into tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}

// A written result type may be more dynamic than the inferred one.
// CHECK-LABEL: func.func @multiaxis_relaxed_result
// CHECK:         -> tensor<?x3xf32>
func.func @multiaxis_relaxed_result(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// Every policy value round-trips; defaults are not printed.
// CHECK-LABEL: func.func @policies
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} :
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] out_of_bounds = clamp into %{{.*}} :
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] out_of_bounds = fill into %{{.*}} :
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] out_of_bounds = unchecked into %{{.*}} :
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] negative_indices = out_of_bounds into %{{.*}} :
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 0 negative_indices = out_of_bounds out_of_bounds = fill into %{{.*}} :
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = 0 out_of_bounds = clamp into %{{.*}} :
// CHECK:         gather.nd %{{.*}}[%{{.*}}] negative_indices = out_of_bounds out_of_bounds = unchecked into %{{.*}} :
func.func @policies(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>) {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0] negative_indices = wrap out_of_bounds = error into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  %init_1 = tensor.empty() : tensor<2x3xf32>
  %1 = gather.multiaxis %input[%indices] axes = [0] out_of_bounds = clamp into %init_1 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  %init_2 = tensor.empty() : tensor<2x3xf32>
  %2 = gather.multiaxis %input[%indices] axes = [0] out_of_bounds = fill into %init_2 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  %init_3 = tensor.empty() : tensor<2x3xf32>
  %3 = gather.multiaxis %input[%indices] axes = [0] out_of_bounds = unchecked into %init_3 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  %init_4 = tensor.empty() : tensor<2x3xf32>
  %4 = gather.multiaxis %input[%indices] axes = [0] negative_indices = out_of_bounds into %init_4 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  %init_5 = tensor.empty() : tensor<2x1x3xf32>
  %5 = gather.block %input[%indices] axis = 0 negative_indices = out_of_bounds out_of_bounds = fill into %init_5 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x1x3xf32>
  %init_6 = tensor.empty() : tensor<2x1xf32>
  %6 = gather.elements %input[%indices] axis = 0 out_of_bounds = clamp into %init_6 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x1xf32>
  %init_7 = tensor.empty() : tensor<2x3xf32>
  %7 = gather.nd %input[%indices] negative_indices = out_of_bounds out_of_bounds = unchecked into %init_7 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return
}

// Constant out-of-range indices are fine under every policy but `error`.
// CHECK-LABEL: func.func @constant_out_of_range_under_clamp
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 0 out_of_bounds = clamp
func.func @constant_out_of_range_under_clamp(%data: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %indices = arith.constant dense<[7, -9]> : tensor<2xi64>
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %data[%indices] axis = 0 out_of_bounds = clamp into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @block_forms
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 1 into %{{.*}} : tensor<4x3xf32>, tensor<i32> into tensor<4xf32>
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = -1 into %{{.*}} : tensor<4x3xf32>, tensor<2x2xi32> into tensor<4x2x2xf32>
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 0 into %{{.*}} : tensor<?x768xbf16>, tensor<?xi64> into tensor<?x768xbf16>
func.func @block_forms(%data: tensor<4x3xf32>, %scalar: tensor<i32>, %idx: tensor<2x2xi32>, %table: tensor<?x768xbf16>, %ids: tensor<?xi64>, %init_2: tensor<?x768xbf16>) {
  %init_0 = tensor.empty() : tensor<4xf32>
  %0 = gather.block %data[%scalar] axis = 1 into %init_0 : tensor<4x3xf32>, tensor<i32> into tensor<4xf32>
  %init_1 = tensor.empty() : tensor<4x2x2xf32>
  %1 = gather.block %data[%idx] axis = -1 into %init_1 : tensor<4x3xf32>, tensor<2x2xi32> into tensor<4x2x2xf32>
  %2 = gather.block %table[%ids] axis = 0 into %init_2 : tensor<?x768xbf16>, tensor<?xi64> into tensor<?x768xbf16>
  return
}

// CHECK-LABEL: func.func @elements_forms
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = -1 into %{{.*}} : tensor<4x3xi1>, tensor<2x5xi16> into tensor<2x5xi1>
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = 0 into %{{.*}} : tensor<?x?xf64>, tensor<?x2xindex> into tensor<?x2xf64>
func.func @elements_forms(%data: tensor<4x3xi1>, %idx: tensor<2x5xi16>, %dyn: tensor<?x?xf64>, %didx: tensor<?x2xindex>, %init_1: tensor<?x2xf64>) {
  // Smaller index dimensions off the axis are accepted (torch.gather).
  %init_0 = tensor.empty() : tensor<2x5xi1>
  %0 = gather.elements %data[%idx] axis = -1 into %init_0 : tensor<4x3xi1>, tensor<2x5xi16> into tensor<2x5xi1>
  %1 = gather.elements %dyn[%didx] axis = 0 into %init_1 : tensor<?x?xf64>, tensor<?x2xindex> into tensor<?x2xf64>
  return
}

// CHECK-LABEL: func.func @nd_forms
// CHECK:         gather.nd %{{.*}}[%{{.*}}] into %{{.*}} : tensor<2x2xi32>, tensor<2x2xi64> into tensor<2xi32>
// CHECK:         gather.nd %{{.*}}[%{{.*}}] batch_dims = 1 into %{{.*}} : tensor<1x3xf32>, tensor<2x1xi64> into tensor<2xf32>
// CHECK:         gather.nd %{{.*}}[%{{.*}}] batch_dims = 1 into %{{.*}} : tensor<?x?x?xf32>, tensor<?x?x2xi64> into tensor<?x?xf32>
func.func @nd_forms(%a: tensor<2x2xi32>, %ai: tensor<2x2xi64>, %b: tensor<1x3xf32>, %bi: tensor<2x1xi64>, %c: tensor<?x?x?xf32>, %ci: tensor<?x?x2xi64>, %init_2: tensor<?x?xf32>) {
  %init_0 = tensor.empty() : tensor<2xi32>
  %0 = gather.nd %a[%ai] into %init_0 : tensor<2x2xi32>, tensor<2x2xi64> into tensor<2xi32>
  // Data batch dimension 1 broadcasts (the Gather Multiaxis proposal).
  %init_1 = tensor.empty() : tensor<2xf32>
  %1 = gather.nd %b[%bi] batch_dims = 1 into %init_1 : tensor<1x3xf32>, tensor<2x1xi64> into tensor<2xf32>
  %2 = gather.nd %c[%ci] batch_dims = 1 into %init_2 : tensor<?x?x?xf32>, tensor<?x?x2xi64> into tensor<?x?xf32>
  return
}

// Run-time checks, as the lowerings emit them (and the origin a rewrite
// records) round-trip.
// CHECK-LABEL: func.func @checks
// CHECK-SAME:    %[[OK:[^:]*]]: i1, %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[I:[^:]*]]: memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK:         gather.check_shape %[[OK]], shape_mismatch dim = 1 sizes(%[[A]], %[[B]]) for "gather.block"
// CHECK:         gather.check_shape %[[OK]], indices_not_whole_coordinates dim = 0 sizes(%[[A]], %[[B]]) for "gather.multiaxis"
// CHECK:         gather.check_indices %[[I]] sizes(%[[A]], %[[B]]) dims = [0, 2] shape(%[[A]]) for "gather.nd" : memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK:         gather.check_indices %[[I]] sizes(%[[A]]) dims = [1] shape(%[[A]], %[[B]]) negative_indices = out_of_bounds assume_invalid for "gather.multiaxis" : memref<?x?xi64, strided<[?, ?], offset: ?>>
// GENERIC-LABEL: sym_name = "checks"
// GENERIC:       "gather.check_shape"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 1 : i64, kind = 2 : i64, op_name = "gather.block"}>
// GENERIC:       "gather.check_indices"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 0, 2>, negative_indices = #gather<negative_indices wrap>, op_name = "gather.nd", operandSegmentSizes = array<i32: 1, 2, 1>}>
func.func @checks(%ok: i1, %a: index, %b: index, %i: memref<?x?xi64, strided<[?, ?], offset: ?>>) {
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %b) for "gather.block"
  gather.check_shape %ok, indices_not_whole_coordinates dim = 0 sizes(%a, %b) for "gather.multiaxis"
  gather.check_indices %i sizes(%a, %b) dims = [0, 2] shape(%a) for "gather.nd" : memref<?x?xi64, strided<[?, ?], offset: ?>>
  gather.check_indices %i sizes(%a) dims = [1] shape(%a, %b) negative_indices = out_of_bounds assume_invalid for "gather.multiaxis" : memref<?x?xi64, strided<[?, ?], offset: ?>>
  return
}

// CHECK-LABEL: func.func @origin
// CHECK:         gather.multiaxis {{.*}} {gather.origin = #gather.origin<"gather.nd", dims = [0, 1], indices = [?x5x2], indices_dims = [0, 1, 1]>}
// CHECK:         gather.multiaxis {{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [], indices_dims = []>}
func.func @origin(%input: tensor<6x8xf32>, %indices: tensor<?x10xi64>, %init: tensor<?x5xf32>, %j: tensor<1x1xi64>, %init2: tensor<1x8xf32>, %t: tensor<4x8xf32>) -> (tensor<?x5xf32>, tensor<1x8xf32>) {
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init {gather.origin = #gather.origin<"gather.nd", dims = [0, 1], indices = [?x5x2], indices_dims = [0, 1, 1]>} : tensor<6x8xf32>, tensor<?x10xi64> into tensor<?x5xf32>
  %1 = gather.multiaxis %t[%j] axes = [0] into %init2 {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [], indices_dims = []>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0, %1 : tensor<?x5xf32>, tensor<1x8xf32>
}

// A tile of a larger gather names that gather's indices for its reports
// (on tensors and on buffers).
// CHECK-LABEL: func.func @whole_indices
// CHECK-SAME:    %{{[^:]*}}: tensor<4x3xf32>, %{{[^:]*}}: tensor<2xi64>, %[[WHOLE:[^:]*]]: tensor<8xi64>
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 0 whole_indices(%[[WHOLE]] : tensor<8xi64>) into %{{.*}} : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] whole_indices(%{{.*}} : memref<8x1xi64>) into %{{.*}} : memref<4x3xf32>, memref<2x1xi64> into memref<2x3xf32>
// GENERIC-LABEL: sym_name = "whole_indices"
// GENERIC:       "gather.block"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{axis = 0 : i64
// GENERIC:       "gather.multiaxis"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 0>
func.func @whole_indices(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %whole: tensor<8xi64>, %md: memref<4x3xf32>, %mi: memref<2x1xi64>, %mw: memref<8x1xi64>, %out: memref<2x3xf32>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %data[%indices] axis = 0 out_of_bounds = error whole_indices(%whole : tensor<8xi64>) into %init : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  gather.multiaxis %md[%mi] axes = [0] whole_indices(%mw : memref<8x1xi64>) into %out : memref<4x3xf32>, memref<2x1xi64> into memref<2x3xf32>
  return %0 : tensor<2x3xf32>
}
