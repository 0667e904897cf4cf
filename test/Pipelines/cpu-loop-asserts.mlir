// RUN: gather-opt %s --pass-pipeline='builtin.module(gather-cpu-pipeline{raise-linalg=false})' | FileCheck %s

// torch-mlir's bound asserts in a generic left unraised: its loop becomes
// an OpenMP region, in which a failed assert calls the skipping report (and
// the body skips the read); the barrier after the region leaves the call.
// The region's threads report to the error state of the thread that starts
// it (the caller's), adopted at the region's start and dropped at its end.
// CHECK:       llvm.func @__gather_runtime_assert_barrier() attributes {gather.leaves_call, sym_visibility = "private"}
// CHECK-LABEL: llvm.func @main
// CHECK:         %[[STATE:.*]] = llvm.call @__gather_runtime_error_state() : () -> !llvm.ptr
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[PREVIOUS:.*]] = llvm.call @__gather_runtime_adopt_error_state(%[[STATE]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK:           llvm.call @__gather_report_skipping_assert(
// CHECK:           llvm.call @__gather_runtime_adopt_error_state(%[[PREVIOUS]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:      omp.terminator
// CHECK:         }
// CHECK:         llvm.call @__gather_runtime_assert_barrier() : () -> ()
// CHECK-NOT:     llvm.call @abort
// CHECK:         llvm.return
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%weight: tensor<4x3xf32>, %ids: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 1 : index
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %5 = tensor.extract %weight[%0, %1] : tensor<4x3xf32>
    linalg.yield %5 : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
