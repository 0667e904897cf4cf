// A block gather tiled by a transform script (test/lib/gather_testing/tiletest.py
// --op block --seed 1, case 8). The gather's unit-dim canonicalization
// makes expand_shapes, constants fold into them, and MLIR 22's
// ConvertToStaticExpandShape then segfaults on one of a cast
// (upstream-expand-shape-crash.mlir): plain --canonicalize still crashes
// (the second RUN line; when it stops, gather-canonicalize can go), while
// gather-canonicalize refines such expand_shape types first.
// RUN: gather-opt %s --gather-canonicalize | FileCheck %s
// RUN: %not_crash gather-opt %s --canonicalize -o /dev/null
// CHECK-LABEL: func.func @t8
// CHECK:         tensor.expand_shape %{{.*}} output_shape [1, 1, 4, %{{.*}}, 1] : tensor<1x4x?xi32> into tensor<1x1x4x?x1xi32>
// CHECK:         gather.multiaxis
#map = affine_map<()[s0] -> (s0 ceildiv 2)>
#map1 = affine_map<(d0) -> (d0 * 2)>
#map2 = affine_map<(d0)[s0] -> (-d0 + s0, 2)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<()[s0] -> (s0 ceildiv 3)>
#map5 = affine_map<()[s0] -> (s0 ceildiv 4)>
#map6 = affine_map<(d0) -> (d0 * 3)>
#map7 = affine_map<(d0) -> (d0 * 4)>
#map8 = affine_map<(d0)[s0] -> (-d0 + s0, 3)>
#map9 = affine_map<(d0)[s0] -> (-d0 + s0, 4)>
#map10 = affine_map<(d0) -> (d0 - 1)>
#map11 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map12 = affine_map<()[s0] -> (s0 ceildiv 5)>
#map13 = affine_map<(d0) -> (d0 * 5)>
#map14 = affine_map<(d0)[s0] -> (-d0 + s0, 5)>
#map15 = affine_map<()[s0] -> (s0 - 1)>
#map16 = affine_map<(d0, d1) -> (d0, d1)>
#map17 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map18 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map19 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
module {
  memref.global "private" constant @__gather_site_b1d752fe8d9abf3f : memref<60xi8> = dense<[103, 97, 116, 104, 101, 114, 46, 98, 108, 111, 99, 107, 32, 97, 116, 32, 47, 116, 109, 112, 47, 103, 97, 116, 104, 101, 114, 45, 116, 105, 108, 101, 45, 98, 108, 111, 99, 107, 45, 101, 54, 95, 115, 101, 122, 97, 107, 47, 98, 97, 116, 99, 104, 48, 46, 109, 108, 105, 114, 0]>
  func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
  func.func @t8(%arg0: tensor<?x?x3x3xf32>, %arg1: tensor<1x4x4xi32>) -> tensor<?x?x?x?x?x?xf32> {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x?x3x3xf32>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c4_0 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c3_1 = arith.constant 3 : index
    %0 = tensor.empty(%dim, %c1, %c4, %c4_0, %c3, %c3_1) : tensor<?x?x?x?x?x?xf32>
    %c0_2 = arith.constant 0 : index
    %dim_3 = tensor.dim %0, %c0_2 : tensor<?x?x?x?x?x?xf32>
    %c1_4 = arith.constant 1 : index
    %dim_5 = tensor.dim %0, %c1_4 : tensor<?x?x?x?x?x?xf32>
    %c2 = arith.constant 2 : index
    %dim_6 = tensor.dim %0, %c2 : tensor<?x?x?x?x?x?xf32>
    %c3_7 = arith.constant 3 : index
    %dim_8 = tensor.dim %0, %c3_7 : tensor<?x?x?x?x?x?xf32>
    %c4_9 = arith.constant 4 : index
    %dim_10 = tensor.dim %0, %c4_9 : tensor<?x?x?x?x?x?xf32>
    %c5 = arith.constant 5 : index
    %dim_11 = tensor.dim %0, %c5 : tensor<?x?x?x?x?x?xf32>
    %1 = affine.apply #map12()[%dim_6]
    %2 = affine.apply #map4()[%dim_8]
    %3 = affine.apply #map4()[%dim_10]
    %4 = scf.forall (%arg2, %arg3, %arg4, %arg5) in (%1, %2, %3, %dim_11) shared_outs(%arg6 = %0) -> (tensor<?x?x?x?x?x?xf32>) {
      %5 = affine.apply #map13(%arg2)
      %6 = affine.apply #map6(%arg3)
      %7 = affine.apply #map6(%arg4)
      %8 = affine.min #map14(%5)[%dim_6]
      %9 = affine.min #map8(%6)[%dim_8]
      %10 = affine.min #map8(%7)[%dim_10]
      %extracted_slice = tensor.extract_slice %arg6[0, 0, %5, %6, %7, %arg5] [%dim_3, %dim_5, %8, %9, %10, 1] [1, 1, 1, 1, 1, 1] : tensor<?x?x?x?x?x?xf32> to tensor<?x?x?x?x?x1xf32>
      %c0_12 = arith.constant 0 : index
      %dim_13 = tensor.dim %arg0, %c0_12 : tensor<?x?x3x3xf32>
      %c0_14 = arith.constant 0 : index
      %dim_15 = tensor.dim %arg6, %c0_14 : tensor<?x?x?x?x?x?xf32>
      %11 = arith.cmpi eq, %dim_15, %dim_13 : index
      %c1_16 = arith.constant 1 : index
      %dim_17 = tensor.dim %arg6, %c1_16 : tensor<?x?x?x?x?x?xf32>
      %c1_18 = arith.constant 1 : index
      %12 = arith.cmpi eq, %dim_17, %c1_18 : index
      %c2_19 = arith.constant 2 : index
      %dim_20 = tensor.dim %arg6, %c2_19 : tensor<?x?x?x?x?x?xf32>
      %c4_21 = arith.constant 4 : index
      %13 = arith.cmpi eq, %dim_20, %c4_21 : index
      %c3_22 = arith.constant 3 : index
      %dim_23 = tensor.dim %arg6, %c3_22 : tensor<?x?x?x?x?x?xf32>
      %c4_24 = arith.constant 4 : index
      %14 = arith.cmpi eq, %dim_23, %c4_24 : index
      %c4_25 = arith.constant 4 : index
      %dim_26 = tensor.dim %arg6, %c4_25 : tensor<?x?x?x?x?x?xf32>
      %c3_27 = arith.constant 3 : index
      %15 = arith.cmpi eq, %dim_26, %c3_27 : index
      %c5_28 = arith.constant 5 : index
      %dim_29 = tensor.dim %arg6, %c5_28 : tensor<?x?x?x?x?x?xf32>
      %c3_30 = arith.constant 3 : index
      %16 = arith.cmpi eq, %dim_29, %c3_30 : index
      %17 = arith.andi %11, %12 : i1
      %18 = arith.andi %17, %13 : i1
      %19 = arith.andi %18, %14 : i1
      %20 = arith.andi %19, %15 : i1
      %21 = arith.andi %20, %16 : i1
      %22 = scf.if %21 -> (tensor<?x?x?x?x?x1xf32>) {
        %c0_31 = arith.constant 0 : index
        %dim_32 = tensor.dim %arg0, %c0_31 : tensor<?x?x3x3xf32>
        %c1_33 = arith.constant 1 : index
        %dim_34 = tensor.dim %arg0, %c1_33 : tensor<?x?x3x3xf32>
        %extracted_slice_35 = tensor.extract_slice %arg0[0, 0, %7, %arg5] [%dim_3, %dim_34, %10, 1] [1, 1, 1, 1] : tensor<?x?x3x3xf32> to tensor<?x?x?x1xf32>
        %extracted_slice_36 = tensor.extract_slice %arg1[0, %5, %6] [%dim_5, %8, %9] [1, 1, 1] : tensor<1x4x4xi32> to tensor<?x?x?xi32>
        %23 = gather.block %extracted_slice_35[%extracted_slice_36] axis = 1 out_of_bounds = unchecked into %extracted_slice : tensor<?x?x?x1xf32>, tensor<?x?x?xi32> into tensor<?x?x?x?x?x1xf32>
        scf.yield %23 : tensor<?x?x?x?x?x1xf32>
      } else {
        %c4_i64 = arith.constant 4 : i64
        %c5_31 = arith.constant 5 : index
        %true = arith.constant true
        %23 = arith.xori %15, %true : i1
        %c4_i64_32 = arith.constant 4 : i64
        %24 = arith.select %23, %c4_i64_32, %c4_i64 : i64
        %c4_33 = arith.constant 4 : index
        %25 = arith.select %23, %c4_33, %c5_31 : index
        %26 = arith.select %23, %dim_26, %dim_29 : index
        %27 = arith.select %23, %c3_27, %c3_30 : index
        %true_34 = arith.constant true
        %28 = arith.xori %14, %true_34 : i1
        %c4_i64_35 = arith.constant 4 : i64
        %29 = arith.select %28, %c4_i64_35, %24 : i64
        %c3_36 = arith.constant 3 : index
        %30 = arith.select %28, %c3_36, %25 : index
        %31 = arith.select %28, %dim_23, %26 : index
        %32 = arith.select %28, %c4_24, %27 : index
        %true_37 = arith.constant true
        %33 = arith.xori %13, %true_37 : i1
        %c4_i64_38 = arith.constant 4 : i64
        %34 = arith.select %33, %c4_i64_38, %29 : i64
        %c2_39 = arith.constant 2 : index
        %35 = arith.select %33, %c2_39, %30 : index
        %36 = arith.select %33, %dim_20, %31 : index
        %37 = arith.select %33, %c4_21, %32 : index
        %true_40 = arith.constant true
        %38 = arith.xori %12, %true_40 : i1
        %c4_i64_41 = arith.constant 4 : i64
        %39 = arith.select %38, %c4_i64_41, %34 : i64
        %c1_42 = arith.constant 1 : index
        %40 = arith.select %38, %c1_42, %35 : index
        %41 = arith.select %38, %dim_17, %36 : index
        %42 = arith.select %38, %c1_18, %37 : index
        %true_43 = arith.constant true
        %43 = arith.xori %11, %true_43 : i1
        %c4_i64_44 = arith.constant 4 : i64
        %44 = arith.select %43, %c4_i64_44, %39 : i64
        %c0_45 = arith.constant 0 : index
        %45 = arith.select %43, %c0_45, %40 : index
        %46 = arith.select %43, %dim_15, %41 : index
        %47 = arith.select %43, %dim_13, %42 : index
        %48 = memref.get_global @__gather_site_b1d752fe8d9abf3f : memref<60xi8>
        %intptr = memref.extract_aligned_pointer_as_index %48 : memref<60xi8> -> index
        %49 = arith.index_cast %intptr : index to i64
        %c110_i64 = arith.constant 110 : i64
        %c8_i64 = arith.constant 8 : i64
        %c3_i64 = arith.constant 3 : i64
        %c0_i64 = arith.constant 0 : i64
        %alloc = memref.alloc() : memref<3xi64>
        %50 = arith.index_cast %45 : index to i64
        %c0_46 = arith.constant 0 : index
        memref.store %50, %alloc[%c0_46] : memref<3xi64>
        %51 = arith.index_cast %46 : index to i64
        %c1_47 = arith.constant 1 : index
        memref.store %51, %alloc[%c1_47] : memref<3xi64>
        %52 = arith.index_cast %47 : index to i64
        %c2_48 = arith.constant 2 : index
        memref.store %52, %alloc[%c2_48] : memref<3xi64>
        %intptr_49 = memref.extract_aligned_pointer_as_index %alloc : memref<3xi64> -> index
        %53 = arith.index_cast %intptr_49 : index to i64
        func.call @__gather_runtime_error(%49, %c110_i64, %c8_i64, %44, %c3_i64, %53) : (i64, i64, i64, i64, i64, i64) -> ()
        scf.yield %extracted_slice : tensor<?x?x?x?x?x1xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %22 into %arg6[0, 0, %5, %6, %7, %arg5] [%dim_3, %dim_5, %8, %9, %10, 1] [1, 1, 1, 1, 1, 1] : tensor<?x?x?x?x?x1xf32> into tensor<?x?x?x?x?x?xf32>
      }
    }
    return %4 : tensor<?x?x?x?x?x?xf32>
  }
}
