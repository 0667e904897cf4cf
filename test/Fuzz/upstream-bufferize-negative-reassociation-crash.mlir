// An upstream MLIR 22.1.8 crash the fuzzer found (scripts/fuzz.sh --seed
// 2417, a mutation of upstream-bufferize-reassociation-crash.mlir): the
// reshape verifier reads reassociation indices as unsigned 32-bit
// positions, so -9223372036854775808 (low 32 bits 0) passes for 0, and
// one-shot-bufferize crashes making the memref.collapse_shape of it, as it
// does for 4294967298. Debian's own mlir-opt crashes on it. Both pipelines
// reject it first (gather-check-input, reassociation-index-past-32-bits.mlir);
// the fuzzer skips only plain --one-shot-bufferize on reassociation indices
// outside [0, 2^32) (known_upstream_crash in utils/gather_fuzz.py; it let
// negative ones through before). Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries -o /dev/null
func.func @collapse_index_negative(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %c = tensor.collapse_shape %a [[-9223372036854775808, 1], [4294967298]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return %c : tensor<6x4xf32>
}
