// RUN: gather-opt %s --split-input-file --gather-serial-leaving-loops | FileCheck %s

// A loop whose body calls a function marked gather.leaves_call (the plain
// assert report) runs serially: a worker thread cannot leave the call.
// CHECK-LABEL: func.func @calls_marked
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        call @report
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func private @report() attributes {gather.leaves_call}
func.func @calls_marked(%m: memref<?x?xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xi64>
    func.call @report() : () -> ()
    scf.reduce
  }
  return
}

// -----

// Through functions of the module: @row calls @inner, which calls the
// marked barrier. The outer loop holding the parallel inner one is serial
// too. A loop whose calls all return (@returns) stays parallel.
// CHECK-LABEL: func.func @calls_through_functions
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        call @row
// CHECK:         scf.parallel
// CHECK-NEXT:      call @returns
// CHECK:         return
func.func private @barrier() attributes {gather.leaves_call}
func.func private @returns()
func.func @inner() {
  call @barrier() : () -> ()
  return
}
func.func @row() {
  call @inner() : () -> ()
  return
}
func.func @calls_through_functions(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      func.call @row() : () -> ()
      scf.reduce
    }
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @returns() : () -> ()
    scf.reduce
  }
  return
}

// -----

// Reductions become the serial loops' iteration arguments, each combined
// with the value so far (the reduce block's first argument).
// CHECK-LABEL: func.func @reduction
// CHECK-SAME:    %[[M:.*]]: memref<?x?xi64>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:         %[[R:.*]]:2 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[S0:.*]] = %[[ZERO]], %[[P0:.*]] = %[[ONE]]) -> (i64, i64)
// CHECK-NEXT:      %[[IN:.*]]:2 = scf.for %[[J:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[S0]], %[[P:.*]] = %[[P0]]) -> (i64, i64)
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[M]][%[[I]], %[[J]]]
// CHECK-NEXT:        call @report(%[[V]])
// CHECK-NEXT:        %[[SUM:.*]] = arith.addi %[[S]], %[[V]] : i64
// CHECK-NEXT:        %[[PROD:.*]] = arith.muli %[[P]], %[[V]] : i64
// CHECK-NEXT:        scf.yield %[[SUM]], %[[PROD]] : i64, i64
// CHECK:           scf.yield %[[IN]]#0, %[[IN]]#1 : i64, i64
// CHECK:         return %[[R]]#0, %[[R]]#1 : i64, i64
func.func private @report(i64) attributes {gather.leaves_call}
func.func @reduction(%m: memref<?x?xi64>, %n: index) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) init (%zero, %one) -> (i64, i64) {
    %v = memref.load %m[%i, %j] : memref<?x?xi64>
    func.call @report(%v) : (i64) -> ()
    scf.reduce(%v, %v : i64, i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }, {
    ^bb0(%a: i64, %b: i64):
      %p = arith.muli %a, %b : i64
      scf.reduce.return %p : i64
    }
  }
  return %r#0, %r#1 : i64, i64
}

// -----

// Without a marked function nothing changes; a call of a function outside
// the module counts as returning.
// CHECK-LABEL: func.func @nothing_leaves
// CHECK:         scf.parallel
// CHECK-NEXT:      call @elsewhere
func.func private @elsewhere()
func.func @nothing_leaves(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @elsewhere() : () -> ()
    scf.reduce
  }
  return
}
