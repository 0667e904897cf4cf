// RUN: gather-opt %s --split-input-file --gather-runtime-allocator --verify-diagnostics

// expected-error @+1 {{'malloc' is not the C library's: its type is not '!llvm.func<ptr (i64)>'}}
llvm.func @malloc(i32) -> !llvm.ptr
llvm.func @malloc_of_another_type(%n: i32) {
  %p = llvm.call @malloc(%n) : (i32) -> !llvm.ptr
  llvm.return
}

// -----

// expected-error @+1 {{'gather_runtime_free' is the run-time library's; it must be an llvm.func of '!llvm.func<void (ptr)>'}}
llvm.mlir.global internal constant @gather_runtime_free(0 : i64) : i64
llvm.func @free(!llvm.ptr)
llvm.func @runtime_name_taken(%p: !llvm.ptr) {
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}
