// RUN: gather-opt %s --canonicalize | FileCheck %s

// Static output_shape entries that are no sizes: the refinement of
// canonicalize-expand-shape.mlir leaves them alone. Apart from that file
// because upstream's expand-strided-metadata crashes on them in every
// pipeline, so the fuzzer leaves this one out of its corpus
// (known_upstream_crash in utils/gather_fuzz.py).
// CHECK-LABEL: func.func @loads_the_gather_dialect
func.func @loads_the_gather_dialect(%t: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %t[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
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
