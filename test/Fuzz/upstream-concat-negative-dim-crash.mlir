// An upstream MLIR 22.1.8 crash the fuzzer found (scripts/fuzz.sh --inputs
// 20000 --seed 2630: a corpus mutation turned `tensor.concat dim(0)` of
// split-functions.mlir into `dim(-2)`). tensor.concat's verifier rejects a
// dim past the rank but indexes the shape with a negative one: Debian's own
// mlir-opt segfaults while it verifies the parsed module, before any pass,
// so gather-opt (MlirOptMain) cannot reject it first. gather-run and the C
// API parse without verifying and reject it before they verify
// (verifyParsedInput, include/gather/Compat/Passes.h;
// gather-run-errors.test, Python/package.py). No gather lowering makes a
// concat. The fuzzer, which runs gather-opt, skips mutations that write
// one (known_upstream_crash in utils/gather_fuzz.py). Asserted as a crash (not
// --crash): any other failure, or none once Debian's MLIR is fixed, fails
// this test.
// RUN: %not_crash %mlir_opt %s -o /dev/null
func.func @concat_negative_dim(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %0 = tensor.concat dim(-2) %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
