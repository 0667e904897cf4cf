// The upstream MLIR 22.1.8 crash behind upstream-canonicalize-crash.mlir
// and tiled-block-canonicalize.mlir, reduced to one op: Debian's own
// mlir-opt segfaults on it. A tensor.expand_shape may have a static
// output_shape entry for a dynamic result dimension (here dimension 1:
// upstream folds constant operands into static_output_shape and keeps the
// type). ConvertToStaticExpandShape, for an expand_shape of a tensor.cast,
// takes one output_shape operand per dynamic result dimension, reads past
// the operand list and builds an op from garbage (the same mismatch as
// iree-org/iree#23427, with a proposed fix in llvm/llvm-project#180705).
// The gather dialect's
// canonicalizer refines such types first (ExpandShapeRefinement.cpp;
// expand-shape-crash-avoided.mlir runs this input through gather-opt).
// Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --canonicalize -o /dev/null
func.func @expand_shape_static_entry_of_cast(%a: tensor<1x4x?xi32>) -> tensor<1x?x?x?x1xi32> {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %cast = tensor.cast %a : tensor<1x4x?xi32> to tensor<?x?x?xi32>
  %e = tensor.expand_shape %cast [[0, 1], [2], [3, 4]] output_shape [1, 1, %c4, %c5, 1] : tensor<?x?x?xi32> into tensor<1x?x?x?x1xi32>
  return %e : tensor<1x?x?x?x1xi32>
}
