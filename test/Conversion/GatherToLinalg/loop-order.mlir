// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// The loops over the output's outer dimensions put the dimensions the input
// spans outside those along which only the index values change, where all
// that the inner loops read for one position of the outer ones fits L1
// (16 KiB: the axes' extent, the innermost dimension in whole lines). An
// NHWC lookup of (n, c) pairs: every pixel (h, w) is read by all 3 index
// rows in a row, 4 images x 64 bytes. (The 5 columns then go in one tile,
// which each index row walks: offset-table-tiles.mlir.)
// CHECK-LABEL: func.func @pixels_outermost
// CHECK:         scf.forall (%[[H:.*]], %[[R:.*]]) in (6, 3)
// CHECK:           tensor.extract_slice %{{.*}}[%[[R]], %[[H]], 0, 0] [1, 1, 5, 4]
// CHECK:           scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for
// CHECK:               tensor.extract %{{.*}}[%[[R]], %{{.*}}, %{{.*}}, %{{.*}}] : tensor<3x1x1x4xindex>
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[R]], %[[H]], 0, 0] [1, 1, 5, 4]
func.func @pixels_outermost(%input: tensor<4x6x5x8xf32>, %indices: tensor<3x1x1x8xi64>) -> tensor<3x6x5x4xf32> {
  %init = tensor.empty() : tensor<3x6x5x4xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 3] into %init : tensor<4x6x5x8xf32>, tensor<3x1x1x8xi64> into tensor<3x6x5x4xf32>
  return %0 : tensor<3x6x5x4xf32>
}

// -----

// 6 images x 8 KiB per pixel: more than L1 keeps, the output's order.
// CHECK-LABEL: func.func @footprint_exceeds_l1_keeps_output_order
// CHECK:         scf.forall (%[[R:.*]], %[[H:.*]], %[[W:.*]]) in (3, 4, 4)
// CHECK:           tensor.extract_slice %{{.*}}[%[[R]], %[[H]], %[[W]], 0] [1, 1, 1, 9]
func.func @footprint_exceeds_l1_keeps_output_order(%input: tensor<6x4x4x2048xf32>, %indices: tensor<3x1x1x18xi64>) -> tensor<3x4x4x9xf32> {
  %init = tensor.empty() : tensor<3x4x4x9xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 3] into %init : tensor<6x4x4x2048xf32>, tensor<3x1x1x18xi64> into tensor<3x4x4x9xf32>
  return %0 : tensor<3x4x4x9xf32>
}

// -----

// An axis of dynamic size: the footprint is not known, the output's order.
// CHECK-LABEL: func.func @dynamic_axis_keeps_output_order
// CHECK:         scf.forall (%[[R:.*]], %[[H:.*]], %[[W:.*]]) in (3, 6, 5)
// CHECK:           tensor.extract_slice %{{.*}}[%[[R]], %[[H]], %[[W]], 0] [1, 1, 1, 4]
func.func @dynamic_axis_keeps_output_order(%input: tensor<?x6x5x8xf32>, %indices: tensor<3x1x1x8xi64>) -> tensor<3x6x5x4xf32> {
  %init = tensor.empty() : tensor<3x6x5x4xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 3] into %init : tensor<?x6x5x8xf32>, tensor<3x1x1x8xi64> into tensor<3x6x5x4xf32>
  return %0 : tensor<3x6x5x4xf32>
}

// -----

// One innermost axis, the input broadcast along dimension 0: the 8 index
// rows of one input row run together. The row prefetches (of the next
// input and indices rows in the output's order) are left out: the input
// rows are reused, and the next iteration is another indices row's.
// CHECK-LABEL: func.func @shared_rows_outermost_without_prefetch
// CHECK-NOT:     memref.prefetch
// CHECK:         scf.forall (%[[ROW:.*]], %[[R:.*]]) in (4096, 8)
// CHECK-NOT:     memref.prefetch
// CHECK:           vector.gather %{{.*}}[%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK-NOT:     memref.prefetch
func.func @shared_rows_outermost_without_prefetch(%input: tensor<1x4096x256xf32>, %indices: tensor<8x4096x64xi64>) -> tensor<8x4096x64xf32> {
  %init = tensor.empty() : tensor<8x4096x64xf32>
  %0 = gather.multiaxis %input[%indices] axes = [2] into %init : tensor<1x4096x256xf32>, tensor<8x4096x64xi64> into tensor<8x4096x64xf32>
  return %0 : tensor<8x4096x64xf32>
}

// -----

// The same rows of distinct inputs: the output's order, with the prefetch.
// CHECK-LABEL: func.func @distinct_rows_keep_output_order
// CHECK:         scf.forall (%[[R:.*]], %[[ROW:.*]]) in (8, 4096)
// CHECK:           memref.prefetch
// CHECK:           vector.gather %{{.*}}[%[[R]], %[[ROW]], %{{.*}}]
func.func @distinct_rows_keep_output_order(%input: tensor<8x4096x256xf32>, %indices: tensor<8x4096x64xi64>) -> tensor<8x4096x64xf32> {
  %init = tensor.empty() : tensor<8x4096x64xf32>
  %0 = gather.multiaxis %input[%indices] axes = [2] into %init : tensor<8x4096x256xf32>, tensor<8x4096x64xi64> into tensor<8x4096x64xf32>
  return %0 : tensor<8x4096x64xf32>
}
