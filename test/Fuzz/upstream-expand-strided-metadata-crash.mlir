// An upstream MLIR 22.1.8 crash the fuzzer found (scripts/fuzz.sh --seed
// 7777, mutations of Compat/gather-canonicalize.mlir, whose
// @nothing_to_refine alone crashes every pipeline): expand-strided-metadata
// segfaults on a memref.expand_shape with two dynamic sizes in one
// reassociation group (ReinterpretCastOp::build reads a stride that is
// not an integer attribute; one dynamic size per group is fine). Debian's
// own mlir-opt crashes on this input. Upstream knows it
// (llvm/llvm-project#186830, fixed for LLVM 23 by #187844). Our pipelines
// lower such reshapes before expand-strided-metadata runs
// (gather-expand-shapes-to-reinterpret-casts; this input through them:
// expand-strided-metadata-crash-avoided.mlir). Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --expand-strided-metadata -o /dev/null
func.func @two_dynamic_sizes_in_one_group(%a: memref<?xf32>, %m: index, %n: index) -> memref<?x?xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n] : memref<?xf32> into memref<?x?xf32>
  return %e : memref<?x?xf32>
}
