// Both pipelines raise gather-like generics first: the embedding lookup a
// frontend wrote as a linalg.generic gets the gather op's run-time index
// check (a plain read is raised to out_of_bounds = error) and, on the CPU,
// its fast form (the indices checked 8 at a time, rows copied a vector
// register at a time); with
// raise-linalg=false it stays upstream's scalar loop without a check.
// RUN: gather-opt %s --gather-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: gather-opt %s --gather-cpu-pipeline=raise-linalg=false | FileCheck %s --check-prefix=NORAISE
// RUN: gather-opt %s --gather-gpu-pipeline | FileCheck %s --check-prefix=GPU
// RUN: gather-opt %s --gather-gpu-pipeline=raise-linalg=false | FileCheck %s --check-prefix=NORAISE

// CPU-LABEL: llvm.func @embedding
// CPU:         llvm.load {{.*}} -> vector<8xi64>
// CPU:         llvm.intr.vector.reduce.or
// CPU:         llvm.load {{.*}} -> vector<16xf32>
// CPU:         llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// CPU:         llvm.call @__gather_index_report_{{[0-9a-f]+}}

// NORAISE-NOT: __gather_index_report
// NORAISE-NOT: vector<16xf32>

// GPU-LABEL:   llvm.func @embedding
// GPU:         gpu.launch_func
// GPU:         llvm.call @__gather_index_report_{{[0-9a-f]+}}
// GPU:         gpu.binary @embedding_kernel
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @embedding(%t: tensor<1000x64xf32>, %idx: tensor<256xi64>) -> tensor<256x64xf32> {
  %init = tensor.empty() : tensor<256x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<256xi64>) outs(%init : tensor<256x64xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<1000x64xf32>
    linalg.yield %v : f32
  } -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
