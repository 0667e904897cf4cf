// RUN: gather-opt %s --split-input-file --gather-runtime-allocator | FileCheck %s
// RUN: gather-opt %S/../../Integration/Inputs/assert-after-alloc.mlir --pass-pipeline='builtin.module(gather-cpu-pipeline{runtime-allocator})' | FileCheck %s --check-prefix=PIPELINE

// The C library's malloc and free become the run-time library's, which
// list what a call with a return point allocates (a failed assert then
// frees it).
// CHECK-DAG:   llvm.func @gather_runtime_malloc(i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @gather_runtime_free(!llvm.ptr)
// CHECK-NOT:   llvm.func @malloc
// CHECK-NOT:   llvm.func @free
// CHECK-LABEL: llvm.func @allocates
// CHECK:         %[[P:.*]] = llvm.call @gather_runtime_malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         llvm.call @gather_runtime_free(%[[P]]) : (!llvm.ptr) -> ()
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @allocates(%n: i64) {
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A module's own malloc stays its own.
// CHECK-LABEL: llvm.func @malloc(%{{.*}}: i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @own_malloc
// CHECK:         llvm.call @malloc(
// CHECK-NOT:     gather_runtime_malloc
llvm.func @malloc(%n: i64) -> !llvm.ptr {
  %z = llvm.mlir.zero : !llvm.ptr
  llvm.return %z : !llvm.ptr
}
llvm.func @own_malloc(%n: i64) -> !llvm.ptr {
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}

// The pipeline with the option: the alloc of the gather's output and the
// frees call the runtime.
// PIPELINE-NOT:   llvm.call @malloc(
// PIPELINE-NOT:   llvm.call @free(
// PIPELINE-DAG:   llvm.call @gather_runtime_malloc(
// PIPELINE-DAG:   llvm.call @gather_runtime_free(
// PIPELINE-NOT:   llvm.call @malloc(
// PIPELINE-NOT:   llvm.call @free(
