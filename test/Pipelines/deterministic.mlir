// The pipelines' output is the same on every run. One-shot
// bufferization alone made the globals of the tensor constants (here the
// eight tables) in an order that changed from run to run, and so their
// names; gather-constant-globals makes them in IR order first.
// RUN: gather-opt %s --gather-cpu-pipeline -o %t.1
// RUN: gather-opt %s --gather-cpu-pipeline -o %t.2
// RUN: gather-opt %s --gather-cpu-pipeline -o %t.3
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.3
// RUN: FileCheck %s --input-file=%t.1
// The GPU pipeline too (upstream recorded compile times in its objects).
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" -o %t.gpu.1
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" -o %t.gpu.2
// RUN: cmp %t.gpu.1 %t.gpu.2
// Nothing is looked up on the host: the default output format is PTX
// whether or not ptxas is installed (here it is put out of reach).
// RUN: env PATH=/nonexistent CUDA_HOME=/nonexistent gather-opt %s --gather-gpu-pipeline="chip=sm_90" -o %t.gpu.default
// RUN: cmp %t.gpu.1 %t.gpu.default

// CHECK: llvm.mlir.global private constant @__constant_4xf32(dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_0(dense<[4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_1(dense<[8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_2(dense<[1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_3(dense<[1.600000e+01, 1.700000e+01, 1.800000e+01, 1.900000e+01]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_4(dense<[2.000000e+01, 2.100000e+01, 2.200000e+01, 2.300000e+01]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_5(dense<[2.400000e+01, 2.500000e+01, 2.600000e+01, 2.700000e+01]> : tensor<4xf32>)
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_6(dense<[2.800000e+01, 2.900000e+01, 3.000000e+01, 3.100000e+01]> : tensor<4xf32>)

func.func @table0(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table1(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table2(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[8.0, 9.0, 10.0, 11.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table3(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[12.0, 13.0, 14.0, 15.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table4(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[16.0, 17.0, 18.0, 19.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table5(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[20.0, 21.0, 22.0, 23.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table6(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[24.0, 25.0, 26.0, 27.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @table7(%indices: tensor<3xi64>) -> tensor<3xf32> {
  %table = arith.constant dense<[28.0, 29.0, 30.0, 31.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = gather.block %table[%indices] axis = 0 into %init : tensor<4xf32>, tensor<3xi64> into tensor<3xf32>
  return %0 : tensor<3xf32>
}
