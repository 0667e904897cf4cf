// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(gather-cpu-pipeline{raise-linalg=false})' | FileCheck %s

// A failed assert that cannot skip what it guards leaves the call, which
// no OpenMP worker may do: the loops that may reach one stay on the calling
// thread (gather-serial-leaving-loops), and no parallel region holds a
// call that can leave. Here an assert nested in an scf.if of a generic's
// body (the plain report).
// CHECK-LABEL: llvm.func @nested_assert
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.call @__gather_report_assert(
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.return
#map = affine_map<(d0) -> (d0)>
func.func @nested_assert(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %size = tensor.dim %table, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?xi64>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %zero = arith.constant 0 : i64
    %neg = arith.cmpi slt, %in, %zero : i64
    %v = scf.if %neg -> i64 {
      %w = arith.addi %in, %zero : i64
      %ok = arith.cmpi sge, %w, %zero : i64
      cf.assert %ok, "index must be larger or equal to 0"
      scf.yield %w : i64
    } else {
      %i = arith.index_cast %in : i64 to index
      %lt = arith.cmpi slt, %i, %size : index
      cf.assert %lt, "index must be smaller than dim size"
      %e = tensor.extract %table[%i] : tensor<?xi64>
      scf.yield %e : i64
    }
    linalg.yield %v : i64
  } -> tensor<?xi64>
  return %y : tensor<?xi64>
}

// -----

// A program's own parallel loop (scf.forall) with an assert in its body.
// CHECK-LABEL: llvm.func @forall_assert
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.call @__gather_report_assert(
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.return
func.func @forall_assert(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %size = tensor.dim %table, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?xi64>
  %y = scf.forall (%k) in (%n) shared_outs(%o = %init) -> tensor<?xi64> {
    %in = tensor.extract %ids[%k] : tensor<?xi64>
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi ult, %i, %size : index
    cf.assert %lt, "index out of range"
    %v = tensor.extract %table[%i] : tensor<?xi64>
    %t = tensor.from_elements %v : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%k] [1] [1] : tensor<1xi64> into tensor<?xi64>
    }
  }
  return %y : tensor<?xi64>
}

// -----

// A parallel loop calling a function whose generic's asserts skip: in a
// worker the barrier after that generic would return, and the function
// would go on with the zeros the body yielded (1000 / y[0] traps). The
// forall runs serially, so the barrier leaves the call.
// CHECK-LABEL: llvm.func @calls_asserted
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.call @lookup(
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.return
#map = affine_map<(d0) -> (d0)>
func.func private @lookup(%table: tensor<?xi64>, %ids: tensor<64xi64>) -> tensor<64xi64> {
  %c0 = arith.constant 0 : index
  %size = tensor.dim %table, %c0 : tensor<?xi64>
  %init = tensor.empty() : tensor<64xi64>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%ids : tensor<64xi64>) outs(%init : tensor<64xi64>) {
  ^bb0(%in: i64, %out: i64):
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi ult, %i, %size : index
    cf.assert %lt, "index out of range"
    %v = tensor.extract %table[%i] : tensor<?xi64>
    linalg.yield %v : i64
  } -> tensor<64xi64>
  %first = tensor.extract %y[%c0] : tensor<64xi64>
  %thousand = arith.constant 1000 : i64
  %q = arith.divsi %thousand, %first : i64
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%y : tensor<64xi64>) outs(%init : tensor<64xi64>) {
  ^bb0(%in: i64, %out: i64):
    %s = arith.addi %in, %q : i64
    linalg.yield %s : i64
  } -> tensor<64xi64>
  return %r : tensor<64xi64>
}
func.func @calls_asserted(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %rows = arith.divui %n, %c64 : index
  %init = tensor.empty(%n) : tensor<?xi64>
  %y = scf.forall (%k) in (%rows) shared_outs(%o = %init) -> tensor<?xi64> {
    %start = arith.muli %k, %c64 : index
    %row = tensor.extract_slice %ids[%start] [64] [1] : tensor<?xi64> to tensor<64xi64>
    %r = func.call @lookup(%table, %row) : (tensor<?xi64>, tensor<64xi64>) -> tensor<64xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%start] [64] [1] : tensor<64xi64> into tensor<?xi64>
    }
  }
  return %y : tensor<?xi64>
}

// -----

// A program's own scf.parallel with reductions: the serial loops carry
// the sum and the maximum as iteration arguments.
// CHECK-LABEL: llvm.func @reduction_assert
// CHECK-NOT:     omp.
// CHECK:         llvm.call @__gather_report_assert(
// CHECK-NOT:     omp.
// CHECK:         llvm.return
func.func @reduction_assert(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %size = tensor.dim %table, %c0 : tensor<?xi64>
  %zero = arith.constant 0 : i64
  %minus = arith.constant -1 : i64
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%zero, %minus) -> (i64, i64) {
    %in = tensor.extract %ids[%k] : tensor<?xi64>
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi ult, %i, %size : index
    cf.assert %lt, "index out of range"
    %v = tensor.extract %table[%i] : tensor<?xi64>
    scf.reduce(%v, %v : i64, i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }, {
    ^bb0(%a: i64, %b: i64):
      %m = arith.maxsi %a, %b : i64
      scf.reduce.return %m : i64
    }
  }
  %out = tensor.from_elements %r#0, %r#1 : tensor<2xi64>
  return %out : tensor<2xi64>
}
