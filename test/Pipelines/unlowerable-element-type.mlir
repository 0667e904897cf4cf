// Both pipelines reject an element type that LLVM has no type for
// (gather-check-input runs first) instead of leaving unconverted ops (CPU)
// or failing on a kernel without naming the type (GPU).
// RUN: not gather-opt %s --gather-cpu-pipeline 2>&1 | FileCheck %s
// RUN: not gather-opt %s --gather-gpu-pipeline 2>&1 | FileCheck %s
// RUN: not gather-opt %s --gather-cpu-pipeline 2>&1 | grep error: | count 3

// CHECK-DAG: error: 'func.func' op argument #0 has element type 'tf32', which has no LLVM type: the pipelines cannot lower it
// CHECK-DAG: error: 'gather.elements' op result #0 has element type 'tf32'
// CHECK-DAG: error: 'tensor.empty' op result #0
func.func @main(%x: tensor<4x3xtf32>, %i: tensor<2x3xi32>, %init: tensor<2x3xf32>) -> tensor<2x3xtf32> {
  %e = tensor.empty() : tensor<2x3xtf32>
  %r = gather.elements %x[%i] axis = 0 into %e : tensor<4x3xtf32>, tensor<2x3xi32> into tensor<2x3xtf32>
  return %r : tensor<2x3xtf32>
}
