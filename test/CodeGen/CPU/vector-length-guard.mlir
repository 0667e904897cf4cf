// RUN: gather-opt %s --gather-vector-length-guard | FileCheck %s
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=neoverse-v1 vector-bits=256" | FileCheck %s --check-prefix=PIPELINE
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=sifive-x280" | FileCheck %s --check-prefix=RISCV
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=neoverse-v1" | FileCheck %s --check-prefix=NEON
// RUN: gather-opt %S/../../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=x86-64-v3" | FileCheck %s --check-prefix=NEON

// Code that assumes vector registers longer than its architecture
// guarantees (SVE's vscale_range(2, _) and up; RISC-V V's zvl<N>b above
// 128) runs only behind a check of the CPU's length at each entry point.
// The entry gives the promise up, compares vscale with it and calls the
// body, moved unchanged into an internal function that keeps the promise
// and is never inlined; too short, it reports both lengths in bits
// through the error hook and returns zeros.
// CHECK-DAG:   llvm.func @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
// CHECK-DAG:   llvm.mlir.global internal constant @__gather_vector_length_site_results("@results\00")
// CHECK-DAG:   llvm.mlir.global internal constant @__gather_vector_length_site_nothing("@nothing\00")
// CHECK-DAG:   llvm.mlir.global internal constant @__gather_vector_length_site_rvv("@rvv\00")
// CHECK-LABEL: llvm.func @results(
// CHECK-SAME:    %[[ARG:.*]]: !llvm.ptr) -> !llvm.struct<(ptr, i64)> attributes {target_features = #llvm.target_features<["+sve"]>} {
// CHECK-DAG:     %[[UNIT:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-DAG:     %[[VSCALE:.*]] = "llvm.intr.vscale"() : () -> i64
// CHECK:         %[[BITS:.*]] = llvm.mul %[[VSCALE]], %[[UNIT]] : i64
// CHECK:         %[[MIN:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK:         %[[OK:.*]] = llvm.icmp "uge" %[[BITS]], %[[MIN]] : i64
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK:         %[[DETAILS:.*]] = llvm.alloca %[[TWO]] x i64
// CHECK:         llvm.cond_br %[[OK]], ^[[GO:.*]], ^[[FAIL:.*]]
// CHECK:       ^[[GO]]:
// CHECK-NEXT:    %[[RESULT:.*]] = llvm.call @results.vl256(%[[ARG]])
// CHECK-NEXT:    llvm.return %[[RESULT]]
// CHECK:       ^[[FAIL]]:
// CHECK:         %[[NEEDED:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK:         llvm.store %[[NEEDED]], %[[DETAILS]]
// CHECK:         %[[SECOND:.*]] = llvm.getelementptr %[[DETAILS]][1]
// CHECK:         llvm.store %[[BITS]], %[[SECOND]]
// CHECK:         %[[KIND:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK:         llvm.call @__gather_runtime_error({{.*}}, %[[KIND]], %[[TWO]], {{.*}})
// CHECK:         %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(ptr, i64)>
// CHECK-NEXT:    llvm.return %[[ZERO]]
// CHECK:       llvm.func internal @results.vl256(%{{.*}}: !llvm.ptr) -> !llvm.struct<(ptr, i64)> vscale_range(2, 16) attributes {no_inline, target_features = #llvm.target_features<["+sve"]>} {
// CHECK-NEXT:    llvm.mlir.constant(1 : i64)
// CHECK-NEXT:    llvm.alloca
// CHECK-NEXT:    llvm.load
// CHECK-LABEL: llvm.func @nothing()
// CHECK-NOT:     vscale_range
// CHECK:         llvm.mlir.constant(512 : i64)
// CHECK:         llvm.call @nothing.vl512() : () -> ()
// CHECK-NEXT:    llvm.return{{$}}
// CHECK:         llvm.call @__gather_runtime_error
// CHECK-NEXT:    llvm.return{{$}}
// CHECK:       llvm.func internal @nothing.vl512() vscale_range(4, 16)
// No check: a private function (its callers check), 128-bit registers, no
// vscale_range, no vector extension. A C interface wrapper gives the
// promise up without a check: it calls a function that checks.
// CHECK-LABEL: llvm.func internal @helper() vscale_range(2, 16)
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_results(%{{.*}}: !llvm.ptr) attributes {target_features = #llvm.target_features<["+sve"]>} {
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @neon() vscale_range(1, 16)
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @plain() {
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @no_vectors() vscale_range(4, 16) attributes {target_features = #llvm.target_features<["+neon"]>} {
// CHECK-NEXT:    llvm.return
// RISC-V V: vscale counts 64 bits; the entry and the wrapper turn each
// zvl<N>b above 128 off (the CPU may imply them), the body keeps them.
// CHECK-LABEL: llvm.func @rvv() attributes {target_cpu = "sifive-x280", target_features = #llvm.target_features<["+v", "+zvl128b", "-zvl256b", "-zvl512b"]>} {
// CHECK-DAG:     llvm.mlir.constant(64 : i64)
// CHECK-DAG:     "llvm.intr.vscale"()
// CHECK:         llvm.mlir.constant(512 : i64)
// CHECK:         llvm.call @rvv.vl512()
// CHECK:       llvm.func internal @rvv.vl512() attributes {no_inline, target_cpu = "sifive-x280", target_features = #llvm.target_features<["+v", "+zvl128b", "+zvl256b", "+zvl512b"]>} {
// CHECK-LABEL: llvm.func @_mlir_ciface_rvv() attributes {target_features = #llvm.target_features<["+v", "-zvl256b"]>} {
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @rvv_range()
// CHECK-NOT:     vscale_range
// CHECK:         llvm.mlir.constant(1024 : i64)
// CHECK:         llvm.call @rvv_range.vl1024()
// CHECK:       llvm.func internal @rvv_range.vl1024() vscale_range(16, 1024)
// CHECK-LABEL: llvm.func @rvv_128() attributes {target_features = #llvm.target_features<["+v", "+zvl128b"]>} {
// CHECK-NEXT:    llvm.return
// The body's name is made unique where <name>.vl<bits> is taken.
// CHECK-LABEL: llvm.func @taken()
// CHECK:         llvm.call @[[BODY:taken\.vl256_[0-9]+]]()
// CHECK:       llvm.func internal @[[BODY]]() vscale_range(2, 16)
// CHECK-LABEL: llvm.func @taken.vl256()
// CHECK-NEXT:    llvm.return

// The CPU pipeline checks each gather function. With NEON's 128 bits, or
// on x86, nothing.
// PIPELINE-LABEL: llvm.func @element_rows(
// PIPELINE-NOT:     vscale_range
// PIPELINE:         "llvm.intr.vscale"
// PIPELINE:         llvm.call @element_rows.vl256(
// PIPELINE:       llvm.func internal @element_rows.vl256({{.*}} vscale_range(2, 16)
// PIPELINE-LABEL: llvm.func @block_rows(
// PIPELINE:         "llvm.intr.vscale"
// PIPELINE:         llvm.call @block_rows.vl256(
// RISCV-LABEL:    llvm.func @element_rows(
// RISCV-SAME:       "-zvl256b"{{.*}}"-zvl512b"
// RISCV:            "llvm.intr.vscale"
// RISCV:            llvm.call @element_rows.vl512(
// RISCV:          llvm.func internal @element_rows.vl512(
// RISCV-SAME:       "+zvl256b"{{.*}}"+zvl512b"
// NEON-NOT:       llvm.intr.vscale
// NEON-NOT:       __gather_vector_length_site
// NEON-NOT:       .vl{{[0-9]+}}(

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
llvm.func @no_vectors() vscale_range(4, 16) attributes {target_features = #llvm.target_features<["+neon"]>} {
  llvm.return
}
llvm.func @rvv() attributes {target_cpu = "sifive-x280", target_features = #llvm.target_features<["+v", "+zvl128b", "+zvl256b", "+zvl512b"]>} {
  llvm.return
}
llvm.func @_mlir_ciface_rvv() attributes {target_features = #llvm.target_features<["+v", "+zvl256b"]>} {
  llvm.return
}
llvm.func @rvv_range() vscale_range(16, 1024) attributes {target_features = #llvm.target_features<["+v"]>} {
  llvm.return
}
llvm.func @rvv_128() attributes {target_features = #llvm.target_features<["+v", "+zvl128b"]>} {
  llvm.return
}
llvm.func @taken() vscale_range(2, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
llvm.func @taken.vl256() {
  llvm.return
}
