// An init made of a tensor.dim of a constant dimension out of range (a
// fuzzer mutation of a valid program): the lowering decides whether the
// init's size needs a run-time check from what the size is made of, and
// must not look past that dimension. Through ValueBoundsOpInterface
// (upstream's tensor.dim model) this crashed every lowering (seed 7001).
// The size stays checked at run time, as one of an unranked tensor does.
// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-scf | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-gpu | FileCheck %s
// CHECK-LABEL: func.func @init_of_out_of_range_dim
// CHECK:         gather.check_shape {{.*}} init_size_mismatch dim = 0
func.func @init_of_out_of_range_dim(%data: tensor<?x?xf32>, %indices: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 9223372036854775807 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %indices, %c0 : tensor<?xi64>
  %m = tensor.dim %data, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// The same with the size a tensor.dim of an unranked tensor.
// CHECK-LABEL: func.func @init_of_unranked_dim
// CHECK:         gather.check_shape {{.*}} init_size_mismatch dim = 0
func.func @init_of_unranked_dim(%data: tensor<?x?xf32>, %indices: tensor<?xi64>, %u: tensor<*xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %u, %c0 : tensor<*xi64>
  %m = tensor.dim %data, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
