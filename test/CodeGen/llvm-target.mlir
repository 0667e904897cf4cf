// RUN: gather-opt %s --gather-llvm-target=cpu=x86-64-v3 | FileCheck %s
// RUN: gather-opt %s --gather-llvm-target | FileCheck %s --check-prefix=NONE
// RUN: not gather-opt %s --gather-llvm-target=cpu=pentium9 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: gather-opt %s --gather-llvm-target="cpu=x86-64-v3 tune-cpu=znver3" | FileCheck %s --check-prefix=TUNE
// RUN: not gather-opt %s --gather-llvm-target="cpu=x86-64-v3 tune-cpu=pentium9" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The CPU pipeline names the target on every function it emits; on the host
// (the JIT's on-host) a named CPU's code is also tuned for the host.
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline=target-cpu=x86-64-v3 | FileCheck %s --check-prefix=PIPELINE
// RUN: gather-opt %S/../Conversion/GatherToLinalg/target.mlir --split-input-file --gather-cpu-pipeline="target-cpu=x86-64-v3 on-host=1" | FileCheck %s --check-prefix=ONHOST

// CHECK-LABEL: llvm.func @defined
// CHECK-SAME:    target_cpu = "x86-64-v3"
// CHECK-SAME:    target_features = #llvm.target_features<[{{.*}}"+avx2"{{.*}}]>
// Declarations and functions that name their own target are left alone.
// CHECK:       llvm.func @declared(i64)
// CHECK-NOT:   target_cpu
// CHECK-LABEL: llvm.func @own_target
// CHECK-SAME:    target_cpu = "znver4"
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
llvm.func @defined() {
  llvm.return
}
llvm.func @declared(i64)
llvm.func @own_target() attributes {target_cpu = "znver4"} {
  llvm.return
}
