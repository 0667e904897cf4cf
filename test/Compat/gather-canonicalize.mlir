// RUN: gather-opt %s --gather-canonicalize | FileCheck %s

// gather-canonicalize refines tensor.expand_shape result types from static
// output_shape entries (lib/Compat/RefineExpandShapes.cpp): an upstream
// pattern crashes on the unrefined form.
// CHECK-LABEL: func.func @loads_the_gather_dialect
func.func @loads_the_gather_dialect(%t: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %t[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}

// The static entries become static dimensions; a cast restores the type.
// The group [2] becomes all static, so the source is cast to 5 there.
// CHECK-LABEL: func.func @static_entries_refine_the_type
// CHECK-SAME:    (%[[A:.*]]: tensor<?x?xf32>, %[[N:.*]]: index)
// CHECK:         %[[S:.*]] = tensor.cast %[[A]] : tensor<?x?xf32> to tensor<?x5xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1], [2]] output_shape [%[[N]], 2, 5] : tensor<?x5xf32> into tensor<?x2x5xf32>
// CHECK:         %[[C:.*]] = tensor.cast %[[E]] : tensor<?x2x5xf32> to tensor<?x?x?xf32>
// CHECK:         return %[[C]]
func.func @static_entries_refine_the_type(%a: tensor<?x?xf32>, %n: index) -> tensor<?x?x?xf32> {
  %e = tensor.expand_shape %a [[0, 1], [2]] output_shape [%n, 2, 5] : tensor<?x?xf32> into tensor<?x?x?xf32>
  return %e : tensor<?x?x?xf32>
}

// A group that becomes all static needs a static source dimension: the
// source is cast to the group's product.
// CHECK-LABEL: func.func @group_becomes_static
// CHECK-SAME:    (%[[A:.*]]: tensor<?xf32>)
// CHECK:         %[[S:.*]] = tensor.cast %[[A]] : tensor<?xf32> to tensor<6xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK:         tensor.cast %[[E]] : tensor<2x3xf32> to tensor<?x?xf32>
func.func @group_becomes_static(%a: tensor<?xf32>) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %a [[0, 1]] output_shape [2, 3] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// Dynamic entries for dynamic dimensions, static ones for static: nothing
// to refine, with one dynamic size per group or two.
// CHECK-LABEL: func.func @nothing_to_refine
// CHECK:         tensor.expand_shape %{{.*}} output_shape [%{{.*}}, 4, %{{.*}}] : tensor<?x?xf32> into tensor<?x4x?xf32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [%{{.*}}, %{{.*}}] : tensor<?xf32> into tensor<?x?xf32>
// CHECK-NOT:     tensor.cast
func.func @nothing_to_refine(%a: tensor<?x?xf32>, %b: tensor<?xf32>, %m: index, %n: index) -> (tensor<?x4x?xf32>, tensor<?x?xf32>) {
  %e = tensor.expand_shape %a [[0, 1], [2]] output_shape [%m, 4, %n] : tensor<?x?xf32> into tensor<?x4x?xf32>
  %f = tensor.expand_shape %b [[0, 1]] output_shape [%m, %n] : tensor<?xf32> into tensor<?x?xf32>
  return %e, %f : tensor<?x4x?xf32>, tensor<?x?xf32>
}

// A group whose product overflows 64 bits is left alone.
// CHECK-LABEL: func.func @group_size_overflows
// CHECK:         tensor.expand_shape %{{.*}} output_shape [4611686018427387904, 4] : tensor<?xf32> into tensor<?x?xf32>
// CHECK-NOT:     tensor.cast
func.func @group_size_overflows(%a: tensor<?xf32>) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %a [[0, 1]] output_shape [4611686018427387904, 4] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// A negative static entry (which the verifier accepts) is not a size: no
// tensor<-2x?xf32>.
// CHECK-LABEL: func.func @negative_entry_is_no_size
// CHECK:         tensor.expand_shape %{{.*}} output_shape [-2, %{{.*}}] : tensor<?xf32> into tensor<?x?xf32>
// CHECK-NOT:     tensor.cast
func.func @negative_entry_is_no_size(%a: tensor<?xf32>, %n: index) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %a [[0, 1]] output_shape [-2, %n] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
