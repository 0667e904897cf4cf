// Found by `scripts/fuzz.sh --minutes 68 --seed 6666 --jobs 2` (a mutation
// of the lit corpus; the same input crashed --canonicalize, both CPU
// pipelines and the GPU pipeline). The mutation made an scf.forall bound
// `affine.apply affine_map<()[s0] -> (s0 ceildiv 0)>`; canonicalization
// then segfaults inside libMLIR in dispatchIndexOpFoldResults, called from
// a rewrite pattern. Not reduced yet: whether the division by zero is
// upstream's alone (folding it to a non-integer attribute) or ours is
// open. A fix must turn this into a diagnostic or a clean compile.
// XFAIL: *
// RUN: gather-opt %s --canonicalize -o /dev/null
#map = affine_map<()[s0] -> (s0 ceildiv 3)>
#map1 = affine_map<()[s0] -> (s0 ceildiv 0)>
#map2 = affine_map<(d0) -> (d0 * 3)>
#map3 = affine_map<(d0) -> (d0 * 2)>
#map4 = affine_map<(d0)[s0] -> (-d0 + s0, 3)>
#map5 = affine_map<(d0)[s0] -> (-d0 + s0, 2)>
module {
  memref.global "private" constant @__gather_site_74827f9fc432d94a : memref<25xi8> = dense<[103, 97, 116, 104, 101, 114, 46, 98, 108, 111, 99, 107, 32, 97, 116, 32, 116, 57, 55, 46, 109, 108, 105, 114, 0]>
  func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
  func.func @main(%arg0: tensor<3x1xf64>, %arg1: tensor<1x4xi64>) -> tensor<?x?x?xf64> {
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %0 = tensor.empty(%c3, %c1, %c4) : tensor<?x?x?xf64>
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %0, %c0 : tensor<?x?x?xf64>
    %c1_0 = arith.constant 1 : index
    %dim_1 = tensor.dim %0, %c1_0 : tensor<?x?x?xf64>
    %c2 = arith.constant 2 : index
    %dim_2 = tensor.dim %0, %c2 : tensor<?x?x?xf64>
    %1 = affine.apply #map()[%dim]
    %2 = affine.apply #map1()[%dim_2]
    %3 = scf.forall (%arg2, %arg3, %arg4) in (%1, %dim_1, %2) shared_outs(%arg5 = %0) -> (tensor<?x?x?xf64>) {
      %4 = affine.apply #map2(%arg2)
      %5 = affine.apply #map3(%arg4)
      %6 = affine.min #map4(%4)[%dim]
      %7 = affine.min #map5(%5)[%dim_2]
      %extracted_slice = tensor.extract_slice %arg5[%4, %arg3, %5] [%6, 1, %7] [1, 1, 1] : tensor<?x?x?xf64> to tensor<?x1x?xf64>
      %c0_3 = arith.constant 0 : index
      %dim_4 = tensor.dim %arg5, %c0_3 : tensor<?x?x?xf64>
      %c3_5 = arith.constant 3 : index
      %8 = arith.cmpi eq, %dim_4, %c3_5 : index
      %c1_6 = arith.constant 1 : index
      %dim_7 = tensor.dim %arg5, %c1_6 : tensor<?x?x?xf64>
      %c1_8 = arith.constant 1 : index
      %9 = arith.cmpi eq, %dim_7, %c1_8 : index
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg5, %c2_9 : tensor<?x?x?xf64>
      %c4_11 = arith.constant 4 : index
      %10 = arith.cmpi eq, %dim_10, %c4_11 : index
      %11 = arith.andi %8, %9 : i1
      %12 = arith.andi %11, %10 : i1
      %13 = scf.if %12 -> (tensor<?x1x?xf64>) {
        %extracted_slice_12 = tensor.extract_slice %arg0[%4, 0] [%6, 1] [1, 1] : tensor<3x1xf64> to tensor<?x1xf64>
        %extracted_slice_13 = tensor.extract_slice %arg1[%arg3, %5] [1, %7] [1, 1] : tensor<1x4xi64> to tensor<1x?xi64>
        %14 = gather.block %extracted_slice_12[%extracted_slice_13] axis = -1 negative_indices = out_of_bounds out_of_bounds = clamp into %extracted_slice : tensor<?x1xf64>, tensor<1x?xi64> into tensor<?x1x?xf64>
        scf.yield %14 : tensor<?x1x?xf64>
      } else {
        %c4_i64 = arith.constant 4 : i64
        %c2_12 = arith.constant 2 : index
        %true = arith.constant true
        %14 = arith.xori %9, %true : i1
        %c4_i64_13 = arith.constant 4 : i64
        %15 = arith.select %14, %c4_i64_13, %c4_i64 : i64
        %c1_14 = arith.constant 1 : index
        %16 = arith.select %14, %c1_14, %c2_12 : index
        %17 = arith.select %14, %dim_7, %dim_10 : index
        %18 = arith.select %14, %c1_8, %c4_11 : index
        %true_15 = arith.constant true
        %19 = arith.xori %8, %true_15 : i1
        %c4_i64_16 = arith.constant 4 : i64
        %20 = arith.select %19, %c4_i64_16, %15 : i64
        %c0_17 = arith.constant -1 : index
        %21 = arith.select %19, %c0_17, %16 : index
        %22 = arith.select %19, %dim_4, %17 : index
        %23 = arith.select %19, %c3_5, %18 : index
        %24 = memref.get_global @__gather_site_74827f9fc432d94a : memref<25xi8>
        %intptr = memref.extract_aligned_pointer_as_index %24 : memref<25xi8> -> index
        %25 = arith.index_cast %intptr : index to i64
        %c6_i64 = arith.constant 6 : i64
        %c8_i64 = arith.constant 8 : i64
        %c3_i64 = arith.constant 3 : i64
        %c0_i64 = arith.constant 0 : i64
        %alloc = memref.alloc() : memref<3xi64>
        %26 = arith.index_cast %21 : index to i64
        %c0_18 = arith.constant 0 : index
        memref.store %26, %alloc[%c0_18] : memref<3xi64>
        %27 = arith.index_cast %22 : index to i64
        %c1_19 = arith.constant 1 : index
        memref.store %27, %alloc[%c1_19] : memref<3xi64>
        %28 = arith.index_cast %23 : index to i64
        %c2_20 = arith.constant 2 : index
        memref.store %28, %alloc[%c2_20] : memref<3xi64>
        %intptr_21 = memref.extract_aligned_pointer_as_index %alloc : memref<3xi64> -> index
        %29 = arith.index_cast %intptr_21 : index to i64
        func.call @__gather_runtime_error(%25, %c6_i64, %c8_i64, %20, %c3_i64, %29) : (i64, i64, i64, i64, i64, i64) -> ()
        scf.yield %extracted_slice : tensor<?x1x?xf64>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %13 into %arg5[%4, %arg3, %5] [%6, 1, %7] [1, 1, 1] : tensor<?x1x?xf64> into tensor<?x?x?xf64>
      }
    }
    return %3 : tensor<?x?x?xf64>
  }
}
