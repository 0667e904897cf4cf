// An upstream MLIR 22.1.8 crash the fuzzer found (scripts/fuzz.sh --seed
// 3333: gather.nd on f8E4M3FN under `fill`, tiled by a transform script,
// then --gather-cpu-pipeline). Reduced to upstream ops only (no gather op
// is left once the transform has lowered it): Debian's own mlir-opt
// crashes on it in canonicalize with the bottom-up traversal that
// GreedyRewriteConfig defaults to (top-down does not crash), also with
// f32. The crashing pattern is ConvertToStaticExpandShape
// (upstream-expand-shape-crash.mlir has the one-op form). With the gather
// dialect loaded, as in the gather pipelines, its canonicalizer refines the
// expand_shape first and the input compiles
// (expand-shape-crash-avoided.mlir). Asserted as a crash (not --crash): any other failure, or none once Debian's MLIR is fixed, fails this test.
// RUN: %not_crash %mlir_opt %s --pass-pipeline='builtin.module(func.func(canonicalize{top-down=false}))' -o /dev/null
#map = affine_map<(d0) -> (d0 * 2)>
#map1 = affine_map<(d0) -> (-d0 + 3, 2)>
module {
  func.func @fuzz(%arg0: tensor<3x1x?x1x?xf32>, %arg1: tensor<3x?x1xi32>, %arg2: tensor<3x1x1x?xf32>) -> tensor<3x1x1x?xf32> {
    %cst = arith.constant 0.0 : f32
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %dim = tensor.dim %arg2, %c3 : tensor<3x1x1x?xf32>
    %0 = scf.forall (%arg3) in (2) shared_outs(%arg4 = %arg2) -> (tensor<3x1x1x?xf32>) {
      %1 = affine.apply #map(%arg3)
      %2 = affine.min #map1(%1)
      %extracted_slice = tensor.extract_slice %arg4[%1, 0, 0, 0] [%2, 1, 1, %dim] [1, 1, 1, 1] : tensor<3x1x1x?xf32> to tensor<?x1x1x?xf32>
      %dim_0 = tensor.dim %arg1, %c1 : tensor<3x?x1xi32>
      %dim_1 = tensor.dim %arg0, %c4 : tensor<3x1x?x1x?xf32>
      %3 = arith.cmpi eq, %dim_0, %c1 : index
      %dim_2 = tensor.dim %arg4, %c3 : tensor<3x1x1x?xf32>
      %4 = arith.cmpi eq, %dim_2, %dim_1 : index
      %5 = arith.andi %3, %4 : i1
      %6 = scf.if %5 -> (tensor<?x1x1x?xf32>) {
        %dim_3 = tensor.dim %arg0, %c2 : tensor<3x1x?x1x?xf32>
        %extracted_slice_4 = tensor.extract_slice %arg0[%1, 0, 0, 0, 0] [%2, 1, %dim_3, 1, %dim] [1, 1, 1, 1, 1] : tensor<3x1x?x1x?xf32> to tensor<?x1x?x1x?xf32>
        %extracted_slice_5 = tensor.extract_slice %arg1[%1, %c0, 0] [%2, %c1, 1] [1, 1, 1] : tensor<3x?x1xi32> to tensor<?x?x1xi32>
        %expanded = tensor.expand_shape %extracted_slice_5 [[0], [1, 2, 3], [4]] output_shape [%2, %c1, 1, 1, 1] : tensor<?x?x1xi32> into tensor<?x?x1x1x1xi32>
        %expanded_6 = tensor.expand_shape %extracted_slice [[0], [1, 2], [3], [4]] output_shape [%2, 1, 1, 1, %dim] : tensor<?x1x1x?xf32> into tensor<?x1x1x1x?xf32>
        %collapsed = tensor.collapse_shape %extracted_slice_4 [[0], [1], [2, 3], [4]] : tensor<?x1x?x1x?xf32> into tensor<?x1x?x?xf32>
        %collapsed_7 = tensor.collapse_shape %expanded [[0], [1], [2, 3], [4]] : tensor<?x?x1x1x1xi32> into tensor<?x?x1x1xi32>
        %collapsed_8 = tensor.collapse_shape %expanded_6 [[0], [1], [2, 3], [4]] : tensor<?x1x1x1x?xf32> into tensor<?x1x1x?xf32>
        %dim_9 = tensor.dim %collapsed, %c0 : tensor<?x1x?x?xf32>
        %dim_10 = tensor.dim %collapsed_7, %c0 : tensor<?x?x1x1xi32>
        %7 = arith.cmpi eq, %dim_9, %c1 : index
        %8 = arith.cmpi eq, %dim_10, %c1 : index
        %dim_11 = tensor.dim %collapsed, %c2 : tensor<?x1x?x?xf32>
        %dim_12 = tensor.dim %collapsed, %c3 : tensor<?x1x?x?xf32>
        %dim_13 = tensor.dim %collapsed, %c0 : tensor<?x1x?x?xf32>
        %dim_14 = tensor.dim %collapsed_7, %c0 : tensor<?x?x1x1xi32>
        %9 = arith.cmpi eq, %dim_13, %dim_14 : index
        %10 = arith.cmpi eq, %dim_13, %c1 : index
        %11 = arith.cmpi eq, %dim_14, %c1 : index
        %12 = arith.ori %10, %11 : i1
        %13 = arith.ori %9, %12 : i1
        %dim_15 = tensor.dim %collapsed, %c0 : tensor<?x1x?x?xf32>
        %dim_16 = tensor.dim %collapsed_7, %c0 : tensor<?x?x1x1xi32>
        %14 = arith.cmpi eq, %dim_15, %c1 : index
        %15 = arith.select %14, %dim_16, %dim_15 : index
        %dim_17 = tensor.dim %collapsed_7, %c1 : tensor<?x?x1x1xi32>
        %dim_18 = tensor.dim %collapsed, %c3 : tensor<?x1x?x?xf32>
        %dim_19 = tensor.dim %collapsed_8, %c0 : tensor<?x1x1x?xf32>
        %16 = arith.cmpi eq, %dim_19, %15 : index
        %17 = arith.cmpi eq, %dim_17, %c1 : index
        %dim_20 = tensor.dim %collapsed_8, %c3 : tensor<?x1x1x?xf32>
        %18 = arith.cmpi eq, %dim_20, %dim_18 : index
        %19 = arith.andi %13, %16 : i1
        %20 = arith.andi %19, %17 : i1
        %21 = arith.andi %20, %18 : i1
        %22 = arith.cmpi ne, %dim_11, %c0 : index
        %23 = arith.andi %21, %22 : i1
        %24 = scf.if %23 -> (tensor<?x1x1x?xf32>) {
          %dim_25 = tensor.dim %collapsed_8, %c0 : tensor<?x1x1x?xf32>
          %30 = arith.ceildivui %dim_12, %c64 : index
          %31 = arith.minui %30, %c64 : index
          %32 = scf.forall (%arg5, %arg6, %arg7) in (%dim_25, 1, 1) shared_outs(%arg8 = %collapsed_8) -> (tensor<?x1x1x?xf32>) {
            scf.for %arg9 = %c0 to %31 step %c1 {
            }
            %dim_26 = tensor.dim %collapsed, %c3 : tensor<?x1x?x?xf32>
            %46 = arith.select %8, %c0, %arg5 : index
            %47 = arith.select %7, %c0, %arg5 : index
            %extracted_27 = tensor.extract %collapsed_7[%46, %arg6, %c0, %c0] : tensor<?x?x1x1xi32>
            %48 = arith.index_cast %extracted_27 : i32 to index
            %49 = arith.cmpi slt, %48, %c0 : index
            %50 = arith.addi %48, %dim_11 : index
            %51 = arith.select %49, %50, %48 : index
            %52 = arith.cmpi ult, %51, %dim_11 : index
            %53 = arith.select %52, %51, %c0 : index
            %extracted_slice_28 = tensor.extract_slice %collapsed[%47, %c0, %53, %c0] [1, 1, 1, %dim_26] [1, 1, 1, 1] : tensor<?x1x?x?xf32> to tensor<1x1x1x?xf32>
            %54 = scf.if %52 -> (tensor<1x1x1x?xf32>) {
              scf.yield %extracted_slice_28 : tensor<1x1x1x?xf32>
            } else {
              %55 = tensor.empty(%dim_26) : tensor<1x1x1x?xf32>
              %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<1x1x1x?xf32>) -> tensor<1x1x1x?xf32>
              scf.yield %56 : tensor<1x1x1x?xf32>
            }
            scf.forall.in_parallel {
            }
          }
          scf.yield %32 : tensor<?x1x1x?xf32>
        } else {
          %25 = arith.xori %21, %true : i1
          scf.if %25 {
          }
          %26 = linalg.fill ins(%cst : f32) outs(%collapsed_8 : tensor<?x1x1x?xf32>) -> tensor<?x1x1x?xf32>
          scf.yield %26 : tensor<?x1x1x?xf32>
        }
        %dim_21 = tensor.dim %expanded_6, %c0 : tensor<?x1x1x1x?xf32>
        %dim_22 = tensor.dim %expanded_6, %c4 : tensor<?x1x1x1x?xf32>
        %expanded_23 = tensor.expand_shape %24 [[0], [1], [2, 3], [4]] output_shape [%dim_21, 1, 1, 1, %dim_22] : tensor<?x1x1x?xf32> into tensor<?x1x1x1x?xf32>
        %collapsed_24 = tensor.collapse_shape %expanded_23 [[0], [1, 2], [3], [4]] : tensor<?x1x1x1x?xf32> into tensor<?x1x1x?xf32>
        scf.yield %collapsed_24 : tensor<?x1x1x?xf32>
      } else {
        scf.yield %extracted_slice : tensor<?x1x1x?xf32>
      }
      scf.forall.in_parallel {
      }
    }
    return %0 : tensor<3x1x1x?xf32>
  }
}
