// RUN: gather-opt %s --gather-outline-duplicates --split-input-file | FileCheck %s

// Three identical gathers (kind, attributes, types, file) become calls of
// one private function, which takes each call's line and column last; the
// function is kept out of line (noinline) so that LLVM compiles it once. A
// cast of a whole tensor is a whole tensor.
// CHECK-LABEL: func.func @three_copies
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x8xf32>, %[[I:[^:]*]]: tensor<4xi64>)
// CHECK:         %[[E0:.*]] = tensor.empty()
// CHECK:         %[[G0:.*]] = call @__gather_block(%[[X]], %[[I]], %[[E0]], %c3_i64, %c7_i64)
// CHECK:         %[[E1:.*]] = tensor.empty()
// CHECK:         %[[C0:.*]] = tensor.cast %[[G0]]
// CHECK:         %[[G1:.*]] = call @__gather_block(%[[C0]], %[[I]], %[[E1]], %c4_i64, %c7_i64_{{[0-9]+}})
// CHECK:         %[[G2:.*]] = call @__gather_block(%{{.*}}, %[[I]], %{{.*}}, %c5_i64, %c7_i64_{{[0-9]+}})
// CHECK:         return %[[G2]]
// CHECK:       func.func private @__gather_block(%[[A:[^:]*]]: tensor<?x8xf32>, %[[B:[^:]*]]: tensor<4xi64>, %[[D:[^:]*]]: tensor<4x8xf32>, %{{.*}}: i64, %{{.*}}: i64) -> tensor<4x8xf32>
// CHECK-SAME:    attributes {gather.site_arguments, passthrough = ["noinline"]}
// CHECK-NEXT:    %[[R:.*]] = gather.block %[[A]][%[[B]]] axis = 0 out_of_bounds = clamp into %[[D]]
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:   gather.block
func.func @three_copies(%x: tensor<?x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %0 = gather.block %x[%i] axis = 0 out_of_bounds = clamp into %e0 : tensor<?x8xf32>, tensor<4xi64> into tensor<4x8xf32> loc("m.mlir":3:7)
  %e1 = tensor.empty() : tensor<4x8xf32>
  %c = tensor.cast %0 : tensor<4x8xf32> to tensor<?x8xf32>
  %1 = gather.block %c[%i] axis = 0 out_of_bounds = clamp into %e1 : tensor<?x8xf32>, tensor<4xi64> into tensor<4x8xf32> loc("m.mlir":4:7)
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = tensor.cast %1 : tensor<4x8xf32> to tensor<?x8xf32>
  %2 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %e2 : tensor<?x8xf32>, tensor<4xi64> into tensor<4x8xf32> loc("m.mlir":5:7)
  return %2 : tensor<4x8xf32>
}

// -----

// One function per group, across functions: the policy (an attribute) and
// the file of the location tell groups apart, and a gather without a copy
// stays where it is.
// CHECK-LABEL: func.func @groups_a
// CHECK:         call @__gather_elements(
// CHECK:         call @__gather_elements_0(
// CHECK:         gather.elements {{.*}} out_of_bounds = fill
// CHECK:         gather.elements
// CHECK-NOT:       out_of_bounds
// CHECK-SAME:      into
// CHECK-LABEL: func.func @groups_b
// CHECK:         call @__gather_elements(
// CHECK:         call @__gather_elements_0(
// CHECK-LABEL: func.func private @__gather_elements(
// CHECK-NEXT:    gather.elements
// CHECK-NOT:       out_of_bounds
// CHECK-SAME:      into
// CHECK-LABEL: func.func private @__gather_elements_0(
// CHECK-NEXT:    gather.elements {{.*}} out_of_bounds = clamp
func.func @groups_a(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %e: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = gather.elements %x[%i] axis = 1 into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("m.mlir":1:1)
  %1 = gather.elements %x[%i] axis = 1 out_of_bounds = clamp into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("m.mlir":2:1)
  %2 = gather.elements %x[%i] axis = 1 out_of_bounds = fill into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("m.mlir":3:1)
  %3 = gather.elements %x[%i] axis = 1 into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("other.mlir":4:1)
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @groups_b(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %e: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = gather.elements %x[%i] axis = 1 into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("m.mlir":9:1)
  %1 = gather.elements %x[%i] axis = 1 out_of_bounds = clamp into %e : tensor<4x8xf32>, tensor<4x8xi32> into tensor<4x8xf32> loc("m.mlir":10:1)
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// What stays: constant indices (checked and folded at compile time), a
// slice operand (a function argument would copy it: the pipelines
// bufferize function boundaries with identity layouts), and a result
// inserted into a larger tensor (computed in place there).
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     call
// CHECK-COUNT-6: gather.nd
// CHECK-NOT:     call
// CHECK-NOT:   @__gather_nd
func.func @kept(%x: tensor<6x5xf32>, %i: tensor<3x1xi64>, %big: tensor<9x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<9x5xf32>) {
  %e = tensor.empty() : tensor<3x5xf32>
  %k = arith.constant dense<[[0], [5], [2]]> : tensor<3x1xi64>
  %0 = gather.nd %x[%k] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %1 = gather.nd %x[%k] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %s = tensor.extract_slice %big[0, 0] [6, 5] [1, 1] : tensor<9x5xf32> to tensor<6x5xf32>
  %2 = gather.nd %s[%i] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %3 = gather.nd %s[%i] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %4 = gather.nd %x[%i] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %5 = gather.nd %x[%i] batch_dims = 0 into %e : tensor<6x5xf32>, tensor<3x1xi64> into tensor<3x5xf32>
  %6 = tensor.insert_slice %4 into %big[0, 0] [3, 5] [1, 1] : tensor<3x5xf32> into tensor<9x5xf32>
  %7 = tensor.insert_slice %5 into %6[3, 0] [3, 5] [1, 1] : tensor<3x5xf32> into tensor<9x5xf32>
  return %0, %1, %2, %3, %7 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<9x5xf32>
}

// -----

// A name already taken: the symbol table gives the function another.
// CHECK-LABEL: func.func @taken
// CHECK:         call @__gather_multiaxis_0(
// CHECK:         call @__gather_multiaxis_0(
// CHECK:       func.func private @__gather_multiaxis_0(
func.func private @__gather_multiaxis()
func.func @taken(%x: tensor<4x8xf32>, %i: tensor<1x2xi64>, %e: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = gather.multiaxis %x[%i] axes = [1] into %e : tensor<4x8xf32>, tensor<1x2xi64> into tensor<4x2xf32>
  %1 = gather.multiaxis %x[%i] axes = [1] into %e : tensor<4x8xf32>, tensor<1x2xi64> into tensor<4x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<4x2xf32>
}
