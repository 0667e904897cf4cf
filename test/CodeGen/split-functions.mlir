// RUN: gather-opt %s --gather-split-functions=max-ops=4 --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-split-functions --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: not gather-opt %s --gather-split-functions=max-ops=0 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gather-opt %s --gather-split-functions=max-tensors=0 2>&1 | FileCheck %s --check-prefix=BAD-TENSORS
// RUN: gather-opt %s --gather-split-functions=max-tensors=2 --split-input-file | FileCheck %s --check-prefix=TENSORS

// A chain of six operations in pieces of at most four: the original
// function calls the pieces in order; each piece takes the values it reads
// from outside and returns those read after it; the constant is cloned into
// the piece that uses it, not passed.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:      (%[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32) -> f32
// CHECK-NOT:     arith.constant
// CHECK:         %[[P0:.*]]:2 = call @chain_part0(%[[A]], %[[B]]) : (f32, f32) -> (f32, f32)
// CHECK:         %[[P1:.*]] = call @chain_part1(%[[P0]]#1, %[[P0]]#0) : (f32, f32) -> f32
// CHECK:         return %[[P1]] : f32
// CHECK:       func.func private @chain_part0(%[[X:.*]]: f32, %[[Y:.*]]: f32) -> (f32, f32) attributes {passthrough = ["noinline"]}
// CHECK:         %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         %[[S0:.*]] = arith.addf %[[X]], %[[Y]]
// CHECK:         %[[S1:.*]] = arith.mulf %[[S0]], %[[C]]
// CHECK:         %[[S2:.*]] = arith.addf %[[S1]], %[[Y]]
// CHECK:         %[[S3:.*]] = arith.mulf %[[S2]], %[[C]]
// CHECK:         return %[[S1]], %[[S3]]
// CHECK:       func.func private @chain_part1(%[[U:.*]]: f32, %[[V:.*]]: f32) -> f32
// CHECK:         %[[S4:.*]] = arith.addf %[[U]], %[[V]]
// CHECK:         %[[S5:.*]] = arith.mulf %[[S4]], %[[U]]
// CHECK:         return %[[S5]]
// SMALL-LABEL: func.func @chain
// SMALL-NOT:     call
// BAD: error: gather-split-functions: max-ops and max-tensors must be positive, got 0 and 64
// BAD-TENSORS: error: gather-split-functions: max-ops and max-tensors must be positive, got 4000 and 0
func.func @chain(%a: f32, %b: f32) -> f32 {
  %c2 = arith.constant 2.0 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.mulf %0, %c2 : f32
  %2 = arith.addf %1, %b : f32
  %3 = arith.mulf %2, %c2 : f32
  %4 = arith.addf %3, %1 : f32
  %5 = arith.mulf %4, %3 : f32
  return %5 : f32
}

// -----

// A stack allocation stays in the piece of all its uses: the cut after
// four operations would separate the alloca from its load, so the piece
// grows until the load.
// CHECK-LABEL: func.func @stack_memory
// CHECK:         call @stack_memory_part0
// CHECK:         call @stack_memory_part1
// CHECK:       func.func private @stack_memory_part0
// CHECK:         memref.alloca
// CHECK:         memref.load
// CHECK:         return
// CHECK:       func.func private @stack_memory_part1
// CHECK-NOT:     memref.
// CHECK:         return
func.func @stack_memory(%a: i8, %b: i8) -> i8 {
  %m = memref.alloca() : memref<i8>
  memref.store %a, %m[] : memref<i8>
  %0 = arith.addi %a, %b : i8
  %1 = arith.muli %0, %b : i8
  %2 = arith.addi %1, %0 : i8
  %3 = memref.load %m[] : memref<i8>
  %4 = arith.addi %2, %3 : i8
  %5 = arith.muli %4, %2 : i8
  %6 = arith.addi %5, %4 : i8
  %7 = arith.muli %6, %5 : i8
  return %7 : i8
}

// -----

// Few operations but many tensors (each a buffer later, which the
// deallocation compares pairwise): with max-tensors=2, pieces of two tensor
// results each; the default max-ops alone would keep the body whole.
// TENSORS-LABEL: func.func @many_tensors
// TENSORS:         %[[T0:.*]]:2 = call @many_tensors_part0()
// TENSORS:         %[[T1:.*]] = call @many_tensors_part1(%[[T0]]#0, %[[T0]]#1)
// TENSORS:         return %[[T1]]
// TENSORS:       func.func private @many_tensors_part0() -> (tensor<2xf32>, tensor<2xf32>)
// TENSORS-COUNT-2: tensor.empty() : tensor<2xf32>
// TENSORS-NEXT:    return
// TENSORS:       func.func private @many_tensors_part1(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>) -> tensor<4xf32>
// TENSORS-NEXT:    tensor.empty() : tensor<4xf32>
// TENSORS-NEXT:    tensor.concat
// TENSORS-NEXT:    return
// SMALL-LABEL: func.func @many_tensors
// SMALL-NOT:     call
func.func @many_tensors() -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<2xf32>
  %1 = tensor.empty() : tensor<2xf32>
  %2 = tensor.empty() : tensor<4xf32>
  %3 = tensor.concat dim(0) %0, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// A chain of tensor results cut into pieces leaves a chain of calls that is
// itself over the bound: it is cut again, until the function is within it.
// TENSORS-LABEL: func.func @nested
// TENSORS:         %[[A:.*]] = call @nested_part0_0(
// TENSORS-NEXT:    %[[B:.*]] = call @nested_part1_1(%{{.*}}, %[[A]])
// TENSORS-NEXT:    return %[[B]]
// TENSORS:       func.func private @nested_part0_0(
// TENSORS-NEXT:    call @nested_part0(
// TENSORS-NEXT:    call @nested_part1(
// TENSORS:       func.func private @nested_part1_1(
// TENSORS-NEXT:    call @nested_part2(
// TENSORS-NEXT:    call @nested_part3(
// TENSORS:       func.func private @nested_part0(
// TENSORS:         tensor.insert
// TENSORS-NEXT:    tensor.insert
// TENSORS-NEXT:    return
// SMALL-LABEL: func.func @nested
// SMALL-NOT:     call
func.func @nested(%t: tensor<4xf32>, %f: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = tensor.insert %f into %t[%c0] : tensor<4xf32>
  %1 = tensor.insert %f into %0[%c0] : tensor<4xf32>
  %2 = tensor.insert %f into %1[%c0] : tensor<4xf32>
  %3 = tensor.insert %f into %2[%c0] : tensor<4xf32>
  %4 = tensor.insert %f into %3[%c0] : tensor<4xf32>
  %5 = tensor.insert %f into %4[%c0] : tensor<4xf32>
  %6 = tensor.insert %f into %5[%c0] : tensor<4xf32>
  %7 = tensor.insert %f into %6[%c0] : tensor<4xf32>
  return %7 : tensor<4xf32>
}
