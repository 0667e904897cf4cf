// RUN: gather-opt %s --convert-gather-to-gpu --canonicalize --cse --split-input-file | FileCheck %s

// The GPU lowering shares the CPU's element computation: one parallel
// linalg.generic over the output (one thread per element once mapped), the
// negative wrap in its body. Under `error` the indices are in device memory:
// a kernel over the indices raises a device flag, the host copies it back
// and decides before the gather runs.
// CHECK-LABEL: func.func @error_check
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x8xf32>, %[[I:[^:]*]]: tensor<5xi64>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[FLAG:.*]] = memref.alloc() : memref<1xi32>
// CHECK:         gpu.memset %[[FLAG]], %[[ZERO]]
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK:           arith.cmpi uge
// CHECK:           memref.store %[[ONE]], %[[FLAG]]
// CHECK:           gpu.terminator
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<1xi32>
// CHECK:         gpu.memcpy %[[HOST]], %[[FLAG]]
// CHECK:         %[[RAISED:.*]] = memref.load %[[HOST]]
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[RAISED]], %[[ZERO]]
// CHECK:         scf.if %[[OK]]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:             tensor.extract %[[D]]
// CHECK:         } else {
// CHECK:           func.call @__gather_runtime_error
// CHECK-NOT:     gather.
func.func @error_check(%d: tensor<?x8xf32>, %i: tensor<5xi64>) -> tensor<5x8xf32> {
  %init_0 = tensor.empty() : tensor<5x8xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<?x8xf32>, tensor<5xi64> into tensor<5x8xf32>
  return %0 : tensor<5x8xf32>
}

// -----

// clamp needs no check and no device flag: the policy is min/max in the
// body, the same arithmetic as on the CPU; no block copy or vector rows.
// CHECK-LABEL: func.func @clamp_two_axes
// CHECK-NOT:     gpu.memset
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK-NOT:     vector.
// CHECK-NOT:     gather.
func.func @clamp_two_axes(%input: tensor<4x6x8xf32>, %indices: tensor<3x1x4xi32>) -> tensor<3x6x2xf32> {
  %init_0 = tensor.empty() : tensor<3x6x2xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 2] out_of_bounds = clamp into %init_0 : tensor<4x6x8xf32>, tensor<3x1x4xi32> into tensor<3x6x2xf32>
  return %0 : tensor<3x6x2xf32>
}

// -----

// A rank-0 result is computed as one element of a 1-D tensor, so that it
// runs on the device too.
// CHECK-LABEL: func.func @rank0_result
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1xf32>)
// CHECK:         tensor.collapse_shape %[[G]] [] : tensor<1xf32> into tensor<f32>
func.func @rank0_result(%d: tensor<4xf32>, %i: tensor<i64>) -> tensor<f32> {
  %init_0 = tensor.empty() : tensor<f32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = fill into %init_0 : tensor<4xf32>, tensor<i64> into tensor<f32>
  return %0 : tensor<f32>
}
