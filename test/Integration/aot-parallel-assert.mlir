// Ahead of time, through upstream's mlir-runner: a generic with torch-mlir's
// bound asserts, left unraised, whose loop runs as an OpenMP region that
// reports to its caller's error state (the runtime library's functions
// resolved from libgather_runtime.so). Valid indices give the gathered
// values; an index out of range on a worker thread's part of the loop
// prints the assert's message and ends the process with status 1 (no
// caller records errors here).
// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-cpu-pipeline{raise-linalg=false})' -o %t.mlir
// RUN: %mlir_runner %t.mlir -e valid -entry-point-result=void -shared-libs=%llvm_lib/libmlir_c_runner_utils.so,%llvm_lib/libmlir_runner_utils.so,%llvm_lib/libomp.so,%gather_lib/libgather_runtime.so | FileCheck %s --check-prefix=VALID
// RUN: not %mlir_runner %t.mlir -e invalid -entry-point-result=void -shared-libs=%llvm_lib/libmlir_c_runner_utils.so,%llvm_lib/libmlir_runner_utils.so,%llvm_lib/libomp.so,%gather_lib/libgather_runtime.so 2>&1 | FileCheck %s --check-prefix=INVALID

// ids[i] = (7 * i) mod 1000, table[k] = 3 * k: the gathered sum is
// 3 * sum((7 * i) mod 1000) over 65536 values (numpy: 98163480).
// VALID: Unranked Memref {{.*}} rank = 0 offset = 0 sizes = [] strides = [] data =
// VALID-NEXT: [98163480]
// INVALID: error: cf.assert at {{.*}}aot-parallel-assert.mlir:{{[0-9]+}}:5: assertion failed: index must be smaller than dim size
// INVALID-NOT: Unranked Memref

#map = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func private @printMemrefI64(tensor<*xi64>)

func.func @lookup(%table: tensor<1000xi64>, %ids: tensor<65536xi64>) -> tensor<65536xi64> {
  %c1000 = arith.constant 1000 : index
  %init = tensor.empty() : tensor<65536xi64>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%ids : tensor<65536xi64>) outs(%init : tensor<65536xi64>) {
  ^bb0(%in: i64, %out: i64):
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi slt, %i, %c1000 : index
    cf.assert %lt, "index must be smaller than dim size"
    %zero = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %zero : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i] : tensor<1000xi64>
    linalg.yield %v : i64
  } -> tensor<65536xi64>
  return %y : tensor<65536xi64>
}

/// table[k] = 3k; ids[i] = 7i mod 1000, and 1000 at `bad` (-1: none).
func.func @inputs(%bad: index) -> (tensor<1000xi64>, tensor<65536xi64>) {
  %t0 = tensor.empty() : tensor<1000xi64>
  %table = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]}
      outs(%t0 : tensor<1000xi64>) {
  ^bb0(%out: i64):
    %k = linalg.index 0 : index
    %k64 = arith.index_cast %k : index to i64
    %c3 = arith.constant 3 : i64
    %v = arith.muli %k64, %c3 : i64
    linalg.yield %v : i64
  } -> tensor<1000xi64>
  %i0 = tensor.empty() : tensor<65536xi64>
  %ids = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]}
      outs(%i0 : tensor<65536xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %c7 = arith.constant 7 : i64
    %c1000 = arith.constant 1000 : i64
    %m = arith.muli %i64, %c7 : i64
    %r = arith.remsi %m, %c1000 : i64
    %is_bad = arith.cmpi eq, %i, %bad : index
    %v = arith.select %is_bad, %c1000, %r : i64
    linalg.yield %v : i64
  } -> tensor<65536xi64>
  return %table, %ids : tensor<1000xi64>, tensor<65536xi64>
}

func.func @print_sum(%y: tensor<65536xi64>) {
  %z = arith.constant 0 : i64
  %s0 = tensor.empty() : tensor<i64>
  %s1 = linalg.fill ins(%z : i64) outs(%s0 : tensor<i64>) -> tensor<i64>
  %s = linalg.generic {indexing_maps = [#map, #sum], iterator_types = ["reduction"]}
      ins(%y : tensor<65536xi64>) outs(%s1 : tensor<i64>) {
  ^bb0(%in: i64, %acc: i64):
    %a = arith.addi %in, %acc : i64
    linalg.yield %a : i64
  } -> tensor<i64>
  %u = tensor.cast %s : tensor<i64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @valid() {
  %none = arith.constant -1 : index
  %table, %ids = call @inputs(%none) : (index) -> (tensor<1000xi64>, tensor<65536xi64>)
  %y = call @lookup(%table, %ids) : (tensor<1000xi64>, tensor<65536xi64>) -> tensor<65536xi64>
  call @print_sum(%y) : (tensor<65536xi64>) -> ()
  return
}

func.func @invalid() {
  // Three quarters into the loop: a worker thread's part.
  %bad = arith.constant 49155 : index
  %table, %ids = call @inputs(%bad) : (index) -> (tensor<1000xi64>, tensor<65536xi64>)
  %y = call @lookup(%table, %ids) : (tensor<1000xi64>, tensor<65536xi64>) -> tensor<65536xi64>
  call @print_sum(%y) : (tensor<65536xi64>) -> ()
  return
}
