// An upstream MLIR 22.1.8 defect the fuzzer found (scripts/fuzz.sh
// --minutes 68 --seed 6666: a corpus mutation turned a tile count
// `s0 ceildiv 3` into `s0 ceildiv 0`; --canonicalize, both CPU pipelines
// and the GPU pipeline segfaulted). Reduced to upstream ops only.
// affine.apply of a constant with a zero divisor folds to a poison
// attribute, and an scf.forall canonicalization then reads that bound as an
// IntegerAttr (dispatchIndexOpFoldResult). floordiv 0 and mod 0 do the same.
// That read is undefined behaviour, so Debian's `mlir-opt --canonicalize`
// has no fixed outcome on this file: on the developers' Zen 4 VM it
// segfaults every time, with --mlir-disable-threading it exits 0 having
// dropped the loop, and on the CI machine of 2026-12-05 it did not crash.
// So the test asserts the deterministic half, the fold to poison that feeds
// the bound (SCCP folds without the forall patterns), not the crash.
// No gather lowering makes a zero divisor. Both pipelines reject such maps
// before they canonicalize (gather-check-input,
// forall-zero-divisor-crash-avoided.mlir); the fuzzer skips plain
// --canonicalize on mutations that write one (known_upstream_crash in
// utils/gather_fuzz.py).
// RUN: %mlir_opt %s --sccp | FileCheck %s
// CHECK-LABEL: func.func @forall_bound_divided_by_zero
// CHECK: %[[BOUND:.+]] = ub.poison : index
// CHECK: scf.forall ({{.*}}) in (%[[BOUND]])
func.func @forall_bound_divided_by_zero(%a: tensor<4xf64>) -> tensor<4xf64> {
  %c4 = arith.constant 4 : index
  %n = affine.apply affine_map<()[s0] -> (s0 ceildiv 0)>()[%c4]
  %0 = scf.forall (%i) in (%n) shared_outs(%o = %a) -> tensor<4xf64> {
    %e = tensor.extract_slice %a[%i] [1] [1] : tensor<4xf64> to tensor<1xf64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%i] [1] [1] : tensor<1xf64> into tensor<4xf64>
    }
  }
  return %0 : tensor<4xf64>
}
