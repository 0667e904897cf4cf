// An upstream MLIR 22.1.8 crash the fuzzer met (a mutation wrote a negative
// constant as the index of a dim op; the GPU pipeline segfaulted). With the
// GPU dialect loaded, its canonicalization of memref.dim (SimplifyDimOfAllocOp)
// asks the type whether dimension -1 is dynamic, which reads outside the
// shape: llvm/llvm-project#205073, fixed for LLVM 23 by #205338. Debian's own
// mlir-opt crashes on it; the gpu.wait only loads the GPU dialect. Both
// pipelines reject such dims before they canonicalize (gather-check-input,
// negative-dim-crash-avoided.mlir). Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --canonicalize -o /dev/null
func.func @memref_dim_of_negative_index(%m: memref<?x4xf32>) -> index {
  %c = arith.constant -1 : index
  %d = memref.dim %m, %c : memref<?x4xf32>
  return %d : index
}

func.func @loads_the_gpu_dialect() {
  gpu.wait
  return
}
