// A block gather of 256-byte rows in tiles: the loop over a tile's 16
// blocks reaches LLVM IR with llvm.loop.unroll.disable, so that a 64-row
// gather is a loop of 16 block copies per tile, not 64 inline copies.
// RUN: gather-opt %s --gather-cpu-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK-LABEL: define {{.*}} @block_rows_of_256_bytes
// CHECK:         br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK:       ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// CHECK:       ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
func.func @block_rows_of_256_bytes(%d: tensor<1000x64xf32>, %i: tensor<64xi64>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x64xf32>, tensor<64xi64> into tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
