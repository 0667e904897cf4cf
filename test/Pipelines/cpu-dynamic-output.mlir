// With dynamic sizes, run-time checks guard the gather's loops: an scf.if
// whose branches both yield the output buffer allocated before it. The CPU
// pipeline returns that buffer itself; it used to return a copy (the
// deallocation pass could not prove the if's result owned and cloned it:
// an allocation and a copy of the whole output on every call).
// The buffers after the deallocation passes:
// RUN: gather-opt %s --gather-cpu-pipeline --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @dynamic_elements
// CHECK:         %[[OUT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1024xf32>
// CHECK-NOT:     memref.copy %[[OUT]]
// CHECK-NOT:     memref.alloc(%{{.*}}) : memref<?x1024xf32>
// CHECK:         return %[[OUT]] : memref<?x1024xf32>
func.func @dynamic_elements(%d: tensor<?x4096xf32>, %i: tensor<?x1024xi64>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?x1024xi64>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<?x4096xf32>, tensor<?x1024xi64> into tensor<?x1024xf32>
  return %r : tensor<?x1024xf32>
}

// CHECK-LABEL: func.func @dynamic_block
// CHECK:         %[[OUT:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK-NOT:     memref.copy %[[OUT]]
// CHECK-NOT:     memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK:         return %[[OUT]] : memref<?x?xf32>
func.func @dynamic_block(%d: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c0 : tensor<?xi32>
  %m = tensor.dim %d, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<?x?xf32>, tensor<?xi32> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
