// The input on which upstream's expand-strided-metadata crashes (two
// dynamic sizes in one group) and the reshapes of
// Compat/gather-canonicalize.mlir (two dynamic sizes; static entries that
// are no sizes: negative, or a group product over 2^63 - 1) go through
// both pipelines, which lower such reshapes before that pass runs
// (gather-expand-shapes-to-reinterpret-casts).
// RUN: gather-opt %S/upstream-expand-strided-metadata-crash.mlir --gather-cpu-pipeline | FileCheck %s
// RUN: gather-opt %S/upstream-expand-strided-metadata-crash.mlir --gather-gpu-pipeline=format=isa | FileCheck %s
// RUN: gather-opt %S/../Compat/gather-canonicalize.mlir --gather-cpu-pipeline | FileCheck %s --check-prefix=RESHAPES
// RUN: gather-opt %S/../Compat/gather-canonicalize.mlir --gather-gpu-pipeline=format=isa | FileCheck %s --check-prefix=RESHAPES

// CHECK-LABEL: llvm.func @two_dynamic_sizes_in_one_group
// CHECK:         llvm.mul
// CHECK:         llvm.return

// RESHAPES-LABEL: llvm.func @nothing_to_refine
// RESHAPES-LABEL: llvm.func @group_size_overflows
// RESHAPES-LABEL: llvm.func @negative_entry_is_no_size
// RESHAPES-NOT:   memref.
