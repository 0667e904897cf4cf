// RUN: gather-opt %s --gather-vector-length-guard | FileCheck %s
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=neoverse-v1 vector-bits=256" | FileCheck %s --check-prefix=PIPELINE
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=neoverse-v1" | FileCheck %s --check-prefix=NEON

// Code for SVE registers of at least 256 bits (vscale_range(2, _)) checks
// the register length at each entry point before any vector code runs:
// below it, it reports both lengths in bits through the error hook and
// returns zeros. Constant-size allocas stay in the entry block.
// CHECK-DAG:   llvm.mlir.global internal constant @__gather_vector_length_site_results("@results\00")
// CHECK-DAG:   llvm.mlir.global internal constant @__gather_vector_length_site_nothing("@nothing\00")
// CHECK-LABEL: llvm.func @results(
// CHECK-SAME:    vscale_range(2, 16)
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    llvm.alloca %[[ONE]] x f32
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.inline_asm has_side_effects "rdvl $0, #1", "=r"  : () -> i64
// CHECK-NEXT:    %[[MIN:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:    %[[OK:.*]] = llvm.icmp "uge" %[[BYTES]], %[[MIN]] : i64
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[DETAILS:.*]] = llvm.alloca %[[TWO]] x i64
// CHECK-NEXT:    llvm.cond_br %[[OK]], ^[[BODY:.*]], ^[[FAIL:.*]]
// CHECK:       ^[[BODY]]:
// CHECK:         llvm.load
// CHECK:       ^[[FAIL]]:
// CHECK:         %[[NEEDED:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK:         llvm.store %[[NEEDED]], %[[DETAILS]]
// CHECK:         %[[KIND:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK:         llvm.call @__gather_runtime_error({{.*}}, %[[KIND]], {{.*}})
// CHECK:         %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(ptr, i64)>
// CHECK-NEXT:    llvm.return %[[ZERO]]
// CHECK-LABEL: llvm.func @nothing(
// CHECK:         llvm.inline_asm has_side_effects "rdvl $0, #1"
// CHECK:         llvm.mlir.constant(64 : i64)
// CHECK:         llvm.call @__gather_runtime_error
// CHECK-NEXT:    llvm.return{{$}}
// No check: a private function (its callers check), a C interface wrapper
// (the function it calls checks), 128-bit registers, no vscale_range, no
// SVE (the check is SVE's `rdvl`).
// CHECK-LABEL: llvm.func internal @helper(
// CHECK-NOT:     rdvl
// CHECK-LABEL: llvm.func @_mlir_ciface_results(
// CHECK-NOT:     rdvl
// CHECK-LABEL: llvm.func @neon(
// CHECK-NOT:     rdvl
// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT:     rdvl
// CHECK-LABEL: llvm.func @not_sve(
// CHECK-NOT:     rdvl
// CHECK:       llvm.func @__gather_runtime_error(i64, i64, i64, i64, i64, i64)

// The CPU pipeline checks each gather function, but not the C interface
// wrappers, which carry no vscale_range; with NEON's 128 bits nothing.
// PIPELINE-LABEL: llvm.func @element_rows(
// PIPELINE-SAME:    vscale_range(2, 16)
// PIPELINE:         llvm.inline_asm has_side_effects "rdvl $0, #1"
// PIPELINE-LABEL: llvm.func @block_rows(
// PIPELINE:         llvm.inline_asm has_side_effects "rdvl $0, #1"
// NEON-NOT:       rdvl
// NEON-NOT:       __gather_vector_length_site

llvm.func @results(%p: !llvm.ptr) -> !llvm.struct<(ptr, i64)> vscale_range(2, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %c1 x f32 : (i64) -> !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i64
  %u = llvm.mlir.undef : !llvm.struct<(ptr, i64)>
  %s0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(ptr, i64)>
  %s1 = llvm.insertvalue %v, %s0[1] : !llvm.struct<(ptr, i64)>
  llvm.return %s1 : !llvm.struct<(ptr, i64)>
}
llvm.func @nothing() vscale_range(4, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
llvm.func internal @helper() vscale_range(2, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
llvm.func @_mlir_ciface_results(%p: !llvm.ptr) vscale_range(2, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
llvm.func @neon() vscale_range(1, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
llvm.func @plain() {
  llvm.return
}
llvm.func @not_sve() vscale_range(8, 1024) attributes {target_features = #llvm.target_features<["+v", "+zvl512b"]>} {
  llvm.return
}
