// RUN: gather-opt %s --split-input-file --gather-openmp-reductions | FileCheck %s

// convert-scf-to-openmp takes an integer maximum as a compare and select
// of the combiner's arguments: the same value, and the loop stays parallel.
// CHECK-LABEL: func.func @integer_max_parallel
// CHECK:         scf.parallel
// CHECK:           scf.reduce
// CHECK-NEXT:      ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:        %[[GT:.*]] = arith.cmpi sgt, %[[A]], %[[B]] : i64
// CHECK-NEXT:        %[[M:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : i64
// CHECK-NEXT:        scf.reduce.return %[[M]] : i64
// CHECK-NOT:     scf.for
func.func @integer_max_parallel(%m: memref<?xi64>, %init: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi64>
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %m[%k] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %x = arith.maxsi %a, %b : i64
      scf.reduce.return %x : i64
    }
  }
  return %r : i64
}

// -----

// Unsigned minimum with its operands swapped: still the arguments in order
// in the compare, as convert-scf-to-openmp asks.
// CHECK-LABEL: func.func @unsigned_min_swapped
// CHECK:         ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi ult, %[[A]], %[[B]] : i32
// CHECK-NEXT:      arith.select %[[LT]], %[[A]], %[[B]] : i32
func.func @unsigned_min_swapped(%m: memref<?xi32>, %init: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi32>
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %m[%k] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %x = arith.minui %b, %a : i32
      scf.reduce.return %x : i32
    }
  }
  return %r : i32
}

// -----

// A float maximum differs from a compare and select on NaN: the loop runs
// serially, the reduction carried by the loop in iteration order.
// CHECK-LABEL: func.func @float_maximum_serial
// CHECK-SAME:      %[[M:[^:]*]]: memref<?x?xf32>, %[[INIT:[^:]*]]: f32
// CHECK-NOT:     scf.parallel
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK:           %[[IN:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (f32)
// CHECK:             %[[V:.*]] = memref.load %[[M]][%[[I]], %[[J]]]
// CHECK:             %[[X:.*]] = arith.maximumf %[[ACC2]], %[[V]] : f32
// CHECK:             scf.yield %[[X]] : f32
// CHECK:           scf.yield %[[IN]] : f32
// CHECK:         return %[[R]] : f32
func.func @float_maximum_serial(%m: memref<?x?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?x?xf32>
  %w = memref.dim %m, %c1 : memref<?x?xf32>
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %w) step (%c1, %c1) init (%init) -> f32 {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.maximumf %a, %b : f32
      scf.reduce.return %x : f32
    }
  }
  return %r : f32
}

// -----

// A sum of index values: no LLVM alloca of `index` for an OpenMP
// reduction variable, so serial.
// CHECK-LABEL: func.func @index_sum_serial
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (index)
// CHECK:           arith.addi {{.*}} : index
func.func @index_sum_serial(%m: memref<?xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xindex>
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%c0) -> index {
    %v = memref.load %m[%k] : memref<?xindex>
    scf.reduce(%v : index) {
    ^bb0(%a: index, %b: index):
      %x = arith.addi %a, %b : index
      scf.reduce.return %x : index
    }
  }
  return %r : index
}

// -----

// One reduction OpenMP cannot declare makes the whole loop serial: a sum
// and a float minimum, both carried.
// CHECK-LABEL: func.func @one_of_two_serial
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for {{.*}} -> (f32, f32)
// CHECK:           arith.addf
// CHECK:           arith.minnumf
// CHECK:           scf.yield
func.func @one_of_two_serial(%m: memref<?xf32>, %z: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z, %z) -> (f32, f32) {
    %v = memref.load %m[%k] : memref<?xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.addf %a, %b : f32
      scf.reduce.return %x : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %x = arith.minnumf %a, %b : f32
      scf.reduce.return %x : f32
    }
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// Reductions it takes are left as they are: a float sum, and a
// compare-and-select minimum.
// CHECK-LABEL: func.func @taken_unchanged
// CHECK:         scf.parallel
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf olt
// CHECK-NEXT:      arith.select
// CHECK-NOT:     scf.for
func.func @taken_unchanged(%m: memref<?xf32>, %z: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z, %z) -> (f32, f32) {
    %v = memref.load %m[%k] : memref<?xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.addf %a, %b : f32
      scf.reduce.return %x : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %lt = arith.cmpf olt, %a, %b : f32
      %x = arith.select %lt, %a, %b : f32
      scf.reduce.return %x : f32
    }
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// A combiner whose first operation yields nothing (a call on the
// arguments) before a select is not one convert-scf-to-openmp takes:
// serial, and no read of a result the call does not have.
// CHECK-LABEL: func.func @combiner_call_without_result
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for {{.*}} -> (i1)
// CHECK:           func.call @observe
func.func private @observe(i1, i1)
func.func @combiner_call_without_result(%m: memref<?xi1>, %z: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi1>
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z) -> i1 {
    %v = memref.load %m[%k] : memref<?xi1>
    scf.reduce(%v : i1) {
    ^bb0(%a: i1, %b: i1):
      func.call @observe(%a, %b) : (i1, i1) -> ()
      %x = arith.select %a, %a, %b : i1
      scf.reduce.return %x : i1
    }
  }
  return %r : i1
}
