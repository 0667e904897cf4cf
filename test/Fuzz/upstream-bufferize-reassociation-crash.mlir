// An upstream MLIR 22.1.8 crash the fuzzer found (scripts/fuzz.sh --seed
// 2411, a mutation of Transforms/check-input.mlir that kept this function):
// MLIR 22's reshape verifier reads reassociation indices as unsigned 32-bit
// positions, so [[0, 1], [4294967298]] passes for [[0, 1], [2]], and
// one-shot-bufferize segfaults making the memref.collapse_shape of it.
// Debian's own mlir-opt crashes on it. Both pipelines reject such reshapes
// before they bufferize (gather-check-input,
// reassociation-index-past-32-bits.mlir); the fuzzer skips only plain
// --one-shot-bufferize on them (known_upstream_crash in
// utils/gather_fuzz.py). Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries -o /dev/null
func.func @collapse_index_past_32_bits(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [4294967298]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return %c : tensor<6x4xf32>
}
