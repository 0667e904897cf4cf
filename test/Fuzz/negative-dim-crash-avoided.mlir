// A dim op with a negative constant index gets a diagnostic from both
// pipelines (gather-check-input) instead of the upstream crash of
// upstream-negative-dim-crash.mlir. The tensor form crashed the GPU
// pipeline too, once bufferized.
// RUN: not gather-opt %S/upstream-negative-dim-crash.mlir --gather-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=MEMREF
// RUN: not gather-opt %S/upstream-negative-dim-crash.mlir --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s --check-prefix=MEMREF
// MEMREF: upstream-negative-dim-crash.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'memref.dim' op index -1 is out of range [0, 2) for the source's dimensions
// MEMREF-NOT: PLEASE submit a bug report
// RUN: not gather-opt %s --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: not gather-opt %s --gather-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: negative-dim-crash-avoided.mlir:[[@LINE+4]]:8: error: 'tensor.dim' op index -2 is out of range [0, 2) for the source's dimensions
// TENSOR-NOT: PLEASE submit a bug report
func.func @tensor_dim_of_negative_index(%t: tensor<?x4xf32>) -> index {
  %c = arith.constant -2 : index
  %d = tensor.dim %t, %c : tensor<?x4xf32>
  return %d : index
}
