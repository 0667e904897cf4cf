// RUN: gather-opt %s --split-input-file --pass-pipeline='builtin.module(gather-cpu-pipeline{raise-linalg=false})' | FileCheck %s

// A program's own scf.parallel loops with reductions reach OpenMP as
// reductions it declares, or run serially (gather-openmp-reductions):
// before, any combiner convert-scf-to-openmp does not take failed the
// whole pipeline with "unconverted operation found".
// Python/parallel-reductions.py runs these programs against numpy.

// A sum and a signed maximum of i64: both OpenMP reductions.
// CHECK:       omp.declare_reduction
// CHECK-LABEL: llvm.func @sum_and_max
// CHECK:         omp.parallel
// CHECK:           omp.wsloop reduction(@{{.*}}, @{{.*}} : !llvm.ptr, !llvm.ptr)
// CHECK:         llvm.return
func.func @sum_and_max(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %zero = arith.constant 0 : i64
  %low = arith.constant -9223372036854775808 : i64
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%zero, %low) -> (i64, i64) {
    %in = tensor.extract %ids[%k] : tensor<?xi64>
    %i = arith.index_cast %in : i64 to index
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

// -----

// An unsigned minimum of i32: an OpenMP reduction.
// CHECK-LABEL: llvm.func @unsigned_min
// CHECK:         omp.wsloop reduction(
// CHECK:         llvm.return
func.func @unsigned_min(%x: tensor<?xi32>) -> tensor<1xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xi32>
  %high = arith.constant -1 : i32
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%high) -> i32 {
    %v = tensor.extract %x[%k] : tensor<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %m = arith.minui %a, %b : i32
      scf.reduce.return %m : i32
    }
  }
  %out = tensor.from_elements %r : tensor<1xi32>
  return %out : tensor<1xi32>
}

// -----

// A float maximum (NaN wins, as numpy's max) and a sum: serial loops.
// CHECK-LABEL: llvm.func @float_max_and_sum
// CHECK-NOT:     omp.
// CHECK:         llvm.return
func.func @float_max_and_sum(%x: tensor<?xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %low = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%low, %zero) -> (f32, f32) {
    %v = tensor.extract %x[%k] : tensor<?xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  %out = tensor.from_elements %r#0, %r#1 : tensor<2xf32>
  return %out : tensor<2xf32>
}

// -----

// A count in index values: serial loops.
// CHECK-LABEL: llvm.func @count_positive
// CHECK-NOT:     omp.
// CHECK:         llvm.return
func.func @count_positive(%x: tensor<?xf32>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%c0) -> index {
    %v = tensor.extract %x[%k] : tensor<?xf32>
    %p = arith.cmpf ogt, %v, %zero : f32
    %one = arith.select %p, %c1, %c0 : index
    scf.reduce(%one : index) {
    ^bb0(%a: index, %b: index):
      %s = arith.addi %a, %b : index
      scf.reduce.return %s : index
    }
  }
  %i = arith.index_cast %r : index to i64
  %out = tensor.from_elements %i : tensor<1xi64>
  return %out : tensor<1xi64>
}
