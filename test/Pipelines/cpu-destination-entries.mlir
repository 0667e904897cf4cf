// With destination-entries=true the CPU pipeline also compiles
// `<f>__into`, which writes the result into the caller's buffer: after
// gather-fuse-consumers has fused the gather into its elementwise consumer
// (a new tensor.empty for the fused loop's output), empty-tensor elimination
// before bufferization makes the caller's buffer that output. No buffer of
// the result's size is allocated and nothing is copied into the caller's
// buffer. The plain function allocates its result and calls `__into` on it
// (one compiled body, not two).
// The buffers after the deallocation passes:
// RUN: gather-opt %s --gather-cpu-pipeline=destination-entries=true --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @fused(
// CHECK-NEXT:    %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x64xf32>
// CHECK-NEXT:    call @fused__into(%{{.*}}, %{{.*}}, %{{.*}}, %[[ALLOC]])
// CHECK-NEXT:    return %[[ALLOC]]
// CHECK-LABEL: func.func @fused__into(
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<32x64xf32>) {
// CHECK-NOT:     memref.alloc() {alignment = 64 : i64} : memref<32x64xf32>
// CHECK:         scf.forall
// CHECK:           math.tanh
// CHECK-NOT:     memref.alloc() {alignment = 64 : i64} : memref<32x64xf32>
// CHECK-NOT:     memref.copy %{{.*}}, %[[OUT]] :
// CHECK:         return{{$}}
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (0, d1)>
func.func @fused(%t: tensor<100x64xf32>, %i: tensor<32xi64>, %b: tensor<1x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %g = gather.block %t[%i] axis = 0 out_of_bounds = unchecked into %e : tensor<100x64xf32>, tensor<32xi64> into tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %y = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]} ins(%g, %b : tensor<32x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<32x64xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %r = math.tanh %s : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}

// Dynamic sizes, the run-time checks of the gather's lowering guarding its
// loops: the caller's buffer is the gather's destination from the start,
// so no branch of the checks allocates one. `__shape` is a function of the
// arguments' sizes alone.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x64xf32>
// CHECK-NEXT:    call @dynamic_rows__into(%{{.*}}, %{{.*}}, %[[ALLOC]])
// CHECK-NEXT:    return %[[ALLOC]]
// CHECK-LABEL: func.func @dynamic_rows__into(
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x64xf32>) {
// CHECK-NOT:     memref.alloc({{.*}}) {alignment = 64 : i64} : memref<?x64xf32>
// CHECK-NOT:     memref.copy %{{.*}}, %[[OUT]] :
// CHECK:         return{{$}}
// CHECK-LABEL: func.func @dynamic_rows__shape(
// CHECK-SAME:    %{{[^:]*}}: memref<?x64xf32>, %[[IDS:[^:]*]]: memref<?xi64>) -> memref<1xindex>
// CHECK:         memref.dim %[[IDS]]
// CHECK-NOT:     scf.
// CHECK:         return
func.func @dynamic_rows(%t: tensor<?x64xf32>, %i: tensor<?xi64>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %g = gather.block %t[%i] axis = 0 out_of_bounds = unchecked into %e : tensor<?x64xf32>, tensor<?xi64> into tensor<?x64xf32>
  return %g : tensor<?x64xf32>
}

// A size of the result that the data fix (the batch, 4) while the written
// type leaves it dynamic: the caller's buffer keeps its type and is written
// in place. Cast to the static size under a run-time check whose other
// branch allocated a new buffer, it was not: the result was computed into
// that branch's buffer, then copied twice (W4 with dynamic indices, 2x
// slower; test/Dialect/Gather/canonicalize.mlir @refine_dynamic_destination).
// CHECK-LABEL: func.func @nd_dynamic_indices__into(
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?x4xf32>) {
// CHECK-NOT:     memref.alloc({{.*}}) {alignment = 64 : i64} : memref<4x?x
// CHECK-NOT:     memref.copy %{{.*}}, %[[OUT]] :
// CHECK-NOT:     memref.copy %{{.*}}, %{{.*}} : memref<4x?x1x4xf32{{.*}}> to memref<4x?x1x4xf32>
// CHECK:         return{{$}}
func.func @nd_dynamic_indices(%t: tensor<4x8x8x4xf32>, %i: tensor<?x?x2xi64>) -> tensor<?x?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %i, %c0 : tensor<?x?x2xi64>
  %n = tensor.dim %i, %c1 : tensor<?x?x2xi64>
  %e = tensor.empty(%b, %n) : tensor<?x?x4xf32>
  %g = gather.nd %t[%i] batch_dims = 1 into %e : tensor<4x8x8x4xf32>, tensor<?x?x2xi64> into tensor<?x?x4xf32>
  return %g : tensor<?x?x4xf32>
}
