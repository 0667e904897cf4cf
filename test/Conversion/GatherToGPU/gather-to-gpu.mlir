// RUN: gather-opt %s --convert-gather-to-gpu --canonicalize --cse --split-input-file | FileCheck %s

// The GPU lowering shares the CPU's element computation: one parallel
// linalg.generic over the output (one thread per element once mapped), the
// negative wrap in its body. Under `error` the gather's own loop checks the
// index it reads: it reads through index 0 and raises a device flag; the
// host copies the flag back after the loop and reports. Only where no loop
// reads the indices (here: an empty data axis) they are copied to the host
// and a gather.check_indices scans them, reporting an invalid one. The
// checks are host code, like the CPU's.
// CHECK-LABEL: func.func @error_check
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x8xf32>, %[[I:[^:]*]]: tensor<5xi64>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[FLAG:.*]] = memref.alloc() : memref<i32>
// CHECK:         gpu.memset %[[FLAG]], %[[ZERO]]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[WRAPPED:.*]], %[[DIM:.*]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[WRAPPED]], %{{.*}} : index
// CHECK:           %[[E:.*]] = tensor.extract %[[D]][%[[SAFE]], %{{.*}}]
// CHECK:           %[[BAD:.*]] = arith.cmpi uge, %[[WRAPPED]], %[[DIM]] : index
// CHECK:           scf.if %[[BAD]] {
// CHECK-NEXT:        memref.store %[[ONE]], %[[FLAG]][] : memref<i32>
// CHECK:           linalg.yield %[[E]]
// CHECK:         %[[EMPTY:.*]] = arith.cmpi eq, %[[DIM]], %{{.*}} : index
// CHECK:         scf.if %[[EMPTY]] {
// CHECK-NOT:       gpu.launch
// CHECK:           gpu.memcpy
// CHECK:           gather.check_indices %{{.*}} sizes(%{{.*}}) dims = [0] shape(%{{.*}}) for "gather.block"
// CHECK-NOT:       memref.store %{{.*}}, %[[FLAG]]
// CHECK:         }
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<i32>
// CHECK:         gpu.memcpy %[[HOST]], %[[FLAG]]
// CHECK:         %[[RAISED:.*]] = memref.load %[[HOST]][]
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[RAISED]], %[[ZERO]]
// CHECK:         scf.if %[[FAILED]] {
// The report copies the indices (of the multiaxis form: 5x1) to the host
// and checks them there, naming the position in the indices as written (5).
// CHECK:           %[[DEVIDX:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<5x1xi64> to memref<5x1xi64>
// CHECK:           %[[HOSTIDX:.*]] = memref.alloc() : memref<5x1xi64>
// CHECK:           gpu.memcpy %[[HOSTIDX]], %[[DEVIDX]]
// CHECK:           %[[ANY:.*]] = memref.cast %[[HOSTIDX]] : memref<5x1xi64> to memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK:           gather.check_indices %[[ANY]] sizes(%[[DIM]]) dims = [0] shape(%{{.*}}) assume_invalid for "gather.block"
// CHECK-NOT:     = gather.
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
