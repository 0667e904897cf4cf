// Found by the fuzzer (seed 1): an output of static size 0 whose
// destination is an argument of a dynamic size. Unrefined, the rewrite to
// gather.multiaxis collapsed the destination's dynamic size with the 0, and
// one-shot-bufferize typed that collapse 4x0 (the verifier wants 4x?):
// "collapsed dim (1) must be dynamic if and only if reassociation group is
// dynamic". Canonicalization refines such a destination (it holds nothing
// to copy), so both pipelines lower it.
// RUN: gather-opt %s --gather-cpu-pipeline | FileCheck %s
// RUN: gather-opt %s --gather-gpu-pipeline=format=isa | FileCheck %s
// RUN: gather-opt %s --canonicalize | FileCheck %s --check-prefix=REFINED
// CHECK-LABEL: llvm.func @zero_size_output
// CHECK-NOT:   gather.
// REFINED-LABEL: func.func @zero_size_output
// REFINED:       gather.multiaxis {{.*}} : tensor<?x1xf32>, tensor<4x?xindex> into tensor<4x0xf32>
func.func @zero_size_output(%data: tensor<?x1xf32>, %indices: tensor<4x1x?x2xindex>, %init: tensor<4x?x0xf32>) -> tensor<4x?x0xf32> {
  %0 = gather.nd %data[%indices] batch_dims = 0 out_of_bounds = fill into %init : tensor<?x1xf32>, tensor<4x1x?x2xindex> into tensor<4x?x0xf32>
  return %0 : tensor<4x?x0xf32>
}
