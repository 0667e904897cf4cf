// RUN: gather-opt %s --convert-gather-checks-to-runtime=asserts=true --split-input-file --verify-diagnostics

// The run-time library's functions keep their names: a symbol of the
// module with one of them and another op or type is an error (renamed, the
// declaration would not link; called, it would not verify), reported once.

// expected-error @+1 {{'__gather_runtime_error' is the run-time library's; it must be a func.func of '(i64, i64, i64, i64, i64, i64) -> ()'}}
func.func private @__gather_runtime_error(i64) -> i64
func.func @hook_of_another_type(%ok: i1, %n: index) -> index {
  cf.assert %ok, "first"
  cf.assert %ok, "second"
  return %n : index
}

// -----

// expected-error @+1 {{'__gather_runtime_error' is the run-time library's; it must be a func.func of '(i64, i64, i64, i64, i64, i64) -> ()'}}
memref.global @__gather_runtime_error : memref<4xi8> = dense<7>
func.func @hook_name_taken_by_global(%ok: i1, %a: index, %b: index) {
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %b) for "gather.block"
  return
}

// -----

// The barrier only where an assert can skip what it guards: in a linalg
// body.
// expected-error @+1 {{'__gather_runtime_assert_barrier' is the run-time library's; it must be a func.func of '() -> ()'}}
func.func private @__gather_runtime_assert_barrier(i64)
#map = affine_map<(d0) -> (d0)>
func.func @barrier_of_another_type(%ids: tensor<?xi64>, %init: tensor<?xi64>) -> tensor<?xi64> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %c0 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0 : i64
    cf.assert %ge, "negative"
    linalg.yield %in : i64
  } -> tensor<?xi64>
  return %r : tensor<?xi64>
}
