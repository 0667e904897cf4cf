// The CPU pipeline raises an embedding bag with offsets (torch-mlir's
// aten.embedding_bag, mode sum) into a loop over the bags whose steps each
// gather one row and add it into the bag's sums, kept in vector registers
// (the row's 64 floats as 16-lane vectors), with the index check and its
// report before the row's loads (reported in place). The GPU pipeline, whose
// lowering takes no gather inside a loop, gathers the rows of all the
// indices in one kernel (the error flag raised there) and sums each bag's
// range of them in another, one thread per (bag, column); the host reads
// the flag after them and reports an invalid index.
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=znver4 parallel fuse-consumers" | FileCheck %s --check-prefix=CPU
// RUN: gather-opt %s --gather-gpu-pipeline | FileCheck %s --check-prefix=GPU

// CPU-LABEL: llvm.func @embedding_bag_sum(
// CPU:         omp.parallel
// CPU:         omp.wsloop
// CPU:         llvm.call @__gather_index_report_{{[0-9a-f]+}}
// CPU:         llvm.load {{.*}} -> vector<16xf32>
// CPU:         llvm.fadd {{.*}} : vector<64xf32>
// CPU-NOT:     llvm.call @__gather_index_check

// GPU-LABEL:   llvm.func @embedding_bag_sum(
// GPU:         gpu.launch_func {{.*}} @embedding_bag_sum_kernel::
// GPU:         llvm.call @mgpuMemset32
// GPU:         gpu.launch_func {{.*}} @embedding_bag_sum_kernel_0::
// GPU:         gpu.launch_func {{.*}} @embedding_bag_sum_kernel_1::
// GPU-NOT:     gpu.launch_func
// GPU:         llvm.call @mgpuMemcpy
// GPU:         llvm.call @__gather_index_report
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_sum(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
