// Memory effects and speculation (docs/GatherDialect.md): on tensors an
// unused gather is dead whatever its policy; only the policies that never
// trap are hoisted out of loops; on buffers the op writes memory and stays.
// RUN: gather-opt %s --canonicalize --split-input-file | FileCheck %s --check-prefix=DCE
// RUN: gather-opt %s --loop-invariant-code-motion --split-input-file | FileCheck %s --check-prefix=LICM

// DCE-LABEL: func.func @unused_gather_is_erased
// DCE-NOT:     gather.
// DCE:         return
func.func @unused_gather_is_erased(%d: tensor<5x3xf32>, %i: tensor<2xi64>, %init: tensor<2x3xf32>) {
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  %1 = gather.block %d[%i] axis = 0 out_of_bounds = unchecked into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return
}

// -----

// DCE-LABEL: func.func @buffer_gather_stays
// DCE:         gather.block
func.func @buffer_gather_stays(%d: memref<5x3xf32>, %i: memref<2xi64>, %out: memref<2x3xf32>) {
  gather.block %d[%i] axis = 0 into %out : memref<5x3xf32>, memref<2xi64> into memref<2x3xf32>
  return
}

// -----

// LICM-LABEL: func.func @hoist_only_non_trapping
// LICM:         %[[CLAMPED:.*]] = gather.block {{.*}} out_of_bounds = clamp
// LICM:         %[[FILLED:.*]] = gather.block {{.*}} out_of_bounds = fill
// LICM:         scf.for
// LICM:           gather.block {{.*}} axis = 0 into
// LICM:           gather.block {{.*}} out_of_bounds = unchecked
// LICM:           scf.yield
func.func @hoist_only_non_trapping(%d: tensor<5x3xf32>, %i: tensor<2xi64>, %init: tensor<2x3xf32>, %n: index) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<2x3xf32> {
    %a = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
    %b = gather.block %d[%i] axis = 0 out_of_bounds = fill into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
    %c = gather.block %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
    %e = gather.block %d[%i] axis = 0 out_of_bounds = unchecked into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
    %s1 = arith.addf %a, %b : tensor<2x3xf32>
    %s2 = arith.addf %c, %e : tensor<2x3xf32>
    %s = arith.addf %s1, %s2 : tensor<2x3xf32>
    scf.yield %s : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
