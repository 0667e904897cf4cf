// RUN: gather-opt %s --gather-llvm-target=cpu=x86-64-v3 | FileCheck %s
// RUN: gather-opt %s --gather-llvm-target | FileCheck %s --check-prefix=NONE
// RUN: not gather-opt %s --gather-llvm-target=cpu=pentium9 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: gather-opt %s --gather-llvm-target="cpu=x86-64-v3 tune-cpu=znver3" | FileCheck %s --check-prefix=TUNE
// RUN: not gather-opt %s --gather-llvm-target="cpu=x86-64-v3 tune-cpu=pentium9" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The CPU pipeline names the target on every function it emits; on the host
// (the JIT's on-host) a named CPU's code is also tuned for the host.
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline=target-cpu=x86-64-v3 | FileCheck %s --check-prefix=PIPELINE
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=x86-64-v3 on-host=1" | FileCheck %s --check-prefix=ONHOST
// `generic` is every architecture's baseline to LLVM; ahead of time it is
// AArch64's (the one table that lists it), on the host the host's (the
// tests run on x86-64: its baseline, no AArch64 feature).
// RUN: gather-opt %s --gather-llvm-target="cpu=generic on-host" | FileCheck %s --check-prefix=GENERIC-HOST
// RUN: gather-opt %s --gather-llvm-target="cpu=generic" | FileCheck %s --check-prefix=GENERIC-AOT
// GENERIC-HOST-LABEL: llvm.func @defined
// GENERIC-HOST-SAME:    target_cpu = "generic"
// GENERIC-HOST-SAME:    target_features = #llvm.target_features<[{{.*}}"+cmov"{{.*}}]>
// GENERIC-HOST-NOT:     "+neon"
// GENERIC-AOT-LABEL:  llvm.func @defined
// GENERIC-AOT-SAME:     target_cpu = "generic"
// GENERIC-AOT-SAME:     "+neon"
// An SVE CPU with vectors wider than NEON's (vector-bits, or the DLTI entry
// max_vector_op_width as the lowering read it): vscale_range says its SVE
// registers are at least that wide, so LLVM lowers those vectors with SVE.
// At NEON's width, or on a CPU without SVE, no vscale_range.
// RUN: gather-opt %s --gather-llvm-target="cpu=neoverse-v1 vector-bits=256" | FileCheck %s --check-prefix=SVE
// RUN: gather-opt %s --gather-llvm-target="cpu=neoverse-v1" | FileCheck %s --check-prefix=NOSVE
// RUN: gather-opt %s --gather-llvm-target="cpu=neoverse-n1 vector-bits=256" | FileCheck %s --check-prefix=NOSVE
// RUN: not gather-opt %s --gather-llvm-target="cpu=neoverse-v1 vector-bits=384" 2>&1 | FileCheck %s --check-prefix=SVEBITS
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=a64fx vector-bits=512" | FileCheck %s --check-prefix=PIPESVE
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target-dlti.mlir --split-input-file --gather-cpu-pipeline="target-cpu=neoverse-v1" | FileCheck %s --check-prefix=DLTISVE

// CHECK-LABEL: llvm.func @defined
// CHECK-SAME:    target_cpu = "x86-64-v3"
// CHECK-SAME:    target_features = #llvm.target_features<[{{.*}}"+avx2"{{.*}}]>
// Declarations and functions that name their own target are left alone.
// CHECK:       llvm.func @declared(i64)
// CHECK-NOT:   target_cpu
// CHECK-LABEL: llvm.func @own_target
// CHECK-SAME:    target_cpu = "znver4"
// A function that adds features and names no CPU gets the target's CPU
// and its features, then its own (which LLVM applies last), as clang's
// target attribute adds to -march.
// CHECK-LABEL: llvm.func @own_features
// CHECK-SAME:    target_cpu = "x86-64-v3"
// CHECK-SAME:    target_features = #llvm.target_features<["+{{.*}}"+avx2"{{.*}}"+xop", "-avx"]>
// NONE:        llvm.func @defined() {
// UNKNOWN:     error: unknown target CPU 'pentium9'
// PIPELINE:    llvm.func @element_rows({{.*}}{target_cpu = "x86-64-v3"
// PIPELINE-NOT:  tune_cpu
// PIPELINE:    llvm.func @block_rows({{.*}}{target_cpu = "x86-64-v3"
// PIPELINE-NOT:  tune_cpu
// TUNE-LABEL:  llvm.func @defined
// TUNE-SAME:     target_cpu = "x86-64-v3"
// TUNE-SAME:     tune_cpu = "znver3"
// TUNE-LABEL:  llvm.func @own_target
// TUNE-SAME:     tune_cpu = "znver3"
// ONHOST:      llvm.func @element_rows({{.*}}{target_cpu = "x86-64-v3"{{.*}}tune_cpu = "{{[a-z0-9-]+}}"
// ONHOST:      llvm.func @block_rows({{.*}}{target_cpu = "x86-64-v3"{{.*}}tune_cpu = "{{[a-z0-9-]+}}"
// SVE-LABEL:   llvm.func @defined() vscale_range(2, 16) attributes
// SVE-SAME:      target_cpu = "neoverse-v1"
// SVE-SAME:      "+sve"
// SVE:         llvm.func @declared(i64)
// SVE-LABEL:   llvm.func @own_target() vscale_range(2, 16)
// NOSVE-NOT:   vscale_range
// SVEBITS:     error: vector width 384 of the SVE CPU 'neoverse-v1' is not a power of two in [128, 2048] (the length its SVE registers guarantee)
// Through the pipeline, the body of each entry point (gather-vector-length-
// guard moves it into <name>.vl<bits>, behind the check) keeps the range.
// PIPESVE:     llvm.func @element_rows(
// PIPESVE-NOT:   vscale_range
// PIPESVE-SAME:  target_cpu = "a64fx"
// PIPESVE:     llvm.func internal @element_rows.vl512({{.*}} vscale_range(4, 16) attributes {{.*}}target_cpu = "a64fx"
// PIPESVE:       llvm.intr.masked.gather {{.*}} -> vector<16xf32>
// PIPESVE:     llvm.func internal @block_rows.vl512({{.*}} vscale_range(4, 16)
// DLTISVE:     llvm.func internal @width_from_the_description.vl256({{.*}} vscale_range(2, 16)
// DLTISVE:       llvm.intr.masked.gather {{.*}} -> vector<8xf32>
// DLTISVE:     llvm.func @narrow_vector_units(
// DLTISVE-NOT:   vscale_range
// DLTISVE-SAME:  attributes
llvm.func @defined() {
  llvm.return
}
llvm.func @declared(i64)
llvm.func @own_target() attributes {target_cpu = "znver4"} {
  llvm.return
}
llvm.func @own_features() attributes {target_features = #llvm.target_features<["+xop", "-avx"]>} {
  llvm.return
}
