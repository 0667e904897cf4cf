// The inputs on which upstream's canonicalization crashes (an expand_shape
// of a cast with a static output_shape entry for a dynamic result
// dimension) go through gather-canonicalize, in both traversal orders: it
// refines those expand_shape types before the crashing pattern sees them.
// RUN: cat %S/upstream-expand-shape-crash.mlir %S/upstream-canonicalize-crash.mlir %s \
// RUN:   | gather-opt --pass-pipeline='builtin.module(gather-canonicalize{top-down=false})' \
// RUN:   | FileCheck %s
// RUN: cat %S/upstream-expand-shape-crash.mlir %S/upstream-canonicalize-crash.mlir %s \
// RUN:   | gather-opt --pass-pipeline='builtin.module(gather-canonicalize{top-down=true})' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @expand_shape_static_entry_of_cast
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3, 4]] output_shape [1, 1, 4, %{{.*}}, 1] : tensor<1x4x?xi32> into tensor<1x1x4x?x1xi32>
// CHECK-LABEL: func.func @fuzz
// CHECK-LABEL: func.func @loads_the_gather_dialect
func.func @loads_the_gather_dialect(%t: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %t[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}
