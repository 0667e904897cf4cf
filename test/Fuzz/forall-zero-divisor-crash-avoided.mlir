// The input on which upstream's canonicalization crashes (an affine map
// dividing by zero feeding an scf.forall bound) gets a diagnostic from both
// pipelines, which check affine divisors before they canonicalize
// (gather-check-input). `--canonicalize` alone still reads the poison
// bound as an integer, which may crash: see
// upstream-forall-zero-divisor-crash.mlir.
// RUN: not gather-opt %S/upstream-forall-zero-divisor-crash.mlir --gather-cpu-pipeline 2>&1 | FileCheck %s
// RUN: not gather-opt %S/upstream-forall-zero-divisor-crash.mlir --gather-gpu-pipeline=format=isa 2>&1 | FileCheck %s
// CHECK: upstream-forall-zero-divisor-crash.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'affine.apply' op divides by 0 in the affine expression s0 ceildiv 0
// CHECK-NOT: PLEASE submit a bug report
