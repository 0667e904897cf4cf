// Found by the fuzzer (scripts/fuzz.sh --seed 9191, a mutation of
// Compat/gather-canonicalize.mlir): MLIR 22's verifier reads reassociation
// indices as unsigned 32-bit positions, so [[4294967296, 1]] passes for
// [[0, 1]]. The gather dialect's expand_shape refinement indexed the shape
// with 4294967296 and segfaulted --canonicalize, the tensor conversion
// and both pipelines. The rewrites now leave such ops alone
// (gather/Utils/Reassociation.h), and the pipelines reject them
// (gather-check-input), as upstream's passes would index with them too.
// (memref reshapes are safe: their verifier checks contiguity.)
// RUN: gather-opt %s --canonicalize | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-tensor=assume-in-bounds=true | FileCheck %s
// RUN: not gather-opt %s --gather-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not gather-opt %s --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s --check-prefix=PIPELINE
// The collapse_shape on which upstream's bufferization crashes
// (upstream-bufferize-reassociation-crash.mlir) gets the same diagnostic.
// RUN: not gather-opt %S/upstream-bufferize-reassociation-crash.mlir --gather-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=COLLAPSE
// RUN: not gather-opt %S/upstream-bufferize-reassociation-crash.mlir --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s --check-prefix=COLLAPSE
// COLLAPSE:      error: 'tensor.collapse_shape' op reassociation index at position 2 must be 2 (the indices run from 0 to 2 in order)
// COLLAPSE-NOT:  PLEASE submit a bug report
// A negative index (upstream-bufferize-negative-reassociation-crash.mlir):
// RUN: not gather-opt %S/upstream-bufferize-negative-reassociation-crash.mlir --gather-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not gather-opt %S/upstream-bufferize-negative-reassociation-crash.mlir --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE:      error: 'tensor.collapse_shape' op reassociation index at position 0 must be 0 (the indices run from 0 to 2 in order)
// NEGATIVE-NOT:  PLEASE submit a bug report

// CHECK-LABEL: func.func @loads_the_gather_dialect
func.func @loads_the_gather_dialect(%t: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %t[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @expand_index_past_32_bits
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}4294967296, 1]] output_shape [4611686018427387904, 4] : tensor<?xf32> into tensor<?x?xf32>
// PIPELINE:      error: 'tensor.expand_shape' op reassociation index at position 0 must be 0
// PIPELINE-NOT:  PLEASE submit a bug report
func.func @expand_index_past_32_bits(%a: tensor<?xf32>) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %a [[4294967296, 1]] output_shape [4611686018427387904, 4] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
