// A gather whose reduction consumer the CPU pipeline fuses
// (gather-fuse-consumers): neither the whole intermediate nor a tile's
// block is allocated, only a row on the stack in each step that adds it
// (promote-buffers-to-stack), while the bag's sum is carried through the
// row loop as a vector; each step prefetches the row its index 16
// positions further on in the whole indices names (read as one row: the
// function's argument is contiguous). The sums are vector
// adds, and a reduction over a row becomes one vector.reduction
// (lower-vector-multi-reduction, before convert-vector-to-llvm, which
// takes no vector.multi_reduction).
// The buffers, after bufferization:
// RUN: gather-opt %s --gather-cpu-pipeline --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUF
// The LLVM dialect at the end:
// RUN: gather-opt %s --gather-cpu-pipeline | FileCheck %s

// No fill: each bag's sums start as zeros in registers and are stored
// once, over the unfilled output.
// BUF-LABEL: func.func @bag_sums
// BUF-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<1x128xf32>
// BUF-NOT:     memref<2048x32x128xf32>
// BUF-NOT:     memref<16x32x128xf32>
// BUF-NOT:     linalg.fill
// BUF:         scf.for {{.*}} iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<1x128xf32>)
// BUF:           memref.alloca() {{.*}} : memref<1x1x128xf32>
// BUF:           %[[FLAT:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<2048x32xi64> into memref<65536xi64>
// BUF:           memref.load %[[FLAT]][
// BUF:           memref.prefetch %{{.*}}[%{{.*}}, %c0]
// One parallel region: no fill of the sums, in a region of its own before
// the loop or in the tiles. Every stack buffer at the start of the threads'
// region, none in the loops: vector-to-scf's (the steps' transfers of
// several dimensions) and the row's (each iteration of the loops would
// otherwise grow the stack where LLVM does not promote them, at opt level
// 0). No error flag: a step reports an invalid index where it finds it.
// CHECK-LABEL: llvm.func @bag_sums
// CHECK:         omp.parallel
// CHECK-NOT:     omp.parallel
// CHECK:           llvm.alloca {{.*}} x !llvm.array<1 x array<1 x vector<128xf32>>>
// CHECK:           llvm.alloca {{.*}} x f32 {alignment = 64 : i64}
// CHECK:           omp.wsloop
// CHECK-NOT:       llvm.alloca
// CHECK:           llvm.fadd %{{.*}}, %{{.*}} : vector<128xf32>
// CHECK-NOT:       llvm.alloca
// CHECK:         llvm.return
func.func @bag_sums(%t: tensor<200000x128xf32>, %i: tensor<2048x32xi64>) -> tensor<2048x128xf32> {
  %e = tensor.empty() : tensor<2048x32x128xf32>
  %g = gather.block %t[%i] axis = 0 into %e : tensor<200000x128xf32>, tensor<2048x32xi64> into tensor<2048x32x128xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<2048x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %r = linalg.reduce ins(%g : tensor<2048x32x128xf32>) outs(%f : tensor<2048x128xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<2048x128xf32>
}

// BUF-LABEL: func.func @row_maxima
// BUF-NOT:     memref<4096x64xf32>
// CHECK-LABEL: llvm.func @row_maxima
// CHECK:         llvm.intr.vector.reduce.fmaximum(%{{.*}}) : (vector<64xf32>) -> f32
// CHECK-NOT:     vector.multi_reduction
func.func @row_maxima(%t: tensor<100000x64xf32>, %i: tensor<4096xi64>, %init: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096x64xf32>
  %g = gather.block %t[%i] axis = 0 into %e : tensor<100000x64xf32>, tensor<4096xi64> into tensor<4096x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<4096x64xf32>) outs(%init : tensor<4096xf32>) {
  ^bb0(%x: f32, %m: f32):
    %y = arith.maximumf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}

// The same bag as torch-mlir writes an embedding and a sum: a gather-like
// linalg.generic (raised into gather.block first, convert-linalg-to-gather)
// and a reduction generic, fused alike.
// BUF-LABEL: func.func @raised_bag_sums
// BUF-NOT:     memref<2048x32x128xf32>
// BUF-NOT:     memref<16x32x128xf32>
// BUF:         scf.for {{.*}} -> (vector<1x128xf32>)
// BUF:           memref.alloca() {{.*}} : memref<1x1x128xf32>
// BUF:           %[[FLAT:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<2048x32xi64> into memref<65536xi64>
// BUF:           memref.load %[[FLAT]][
// BUF:           memref.prefetch %{{.*}}[%{{.*}}, %c0]
// CHECK-LABEL: llvm.func @raised_bag_sums
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} : vector<128xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#sums = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @raised_bag_sums(%table: tensor<200000x128xf32>, %ids: tensor<2048x32xi64>) -> tensor<2048x128xf32> {
  %e = tensor.empty() : tensor<2048x32x128xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2048x32xi64>) outs(%e : tensor<2048x32x128xf32>) {
  ^bb0(%i: i64, %o: f32):
    %k = arith.index_cast %i : i64 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%k, %c] : tensor<200000x128xf32>
    linalg.yield %v : f32
  } -> tensor<2048x32x128xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<2048x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %r = linalg.generic {indexing_maps = [#id3, #sums], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g : tensor<2048x32x128xf32>) outs(%f : tensor<2048x128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048x128xf32>
  return %r : tensor<2048x128xf32>
}
