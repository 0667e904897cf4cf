// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-cpu-pipeline --split-input-file | FileCheck %s --check-prefix=LLVM

// Sizes near 2^31 and 2^62 that the verifier accepts: index values widen to
// `index` (64 bits) before the negative wrap and the bounds check, and the
// sizes stay exact 64-bit constants down to LLVM (execution past 2^32:
// test/Integration/large-offsets.py).

// CHECK-LABEL: func.func @block_i32_indices_dimension_past_2_31
// CHECK-DAG:     %[[SIZE:.*]] = arith.constant 2147483656 : index
// CHECK:         %[[RAW:.*]] = tensor.extract %{{.*}} : tensor<4xi32>
// CHECK:         %[[IDX:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK:         %[[WRAPPED:.*]] = arith.addi %[[IDX]], %[[SIZE]] : index
// CHECK:         %[[RESOLVED:.*]] = arith.select %{{.*}}, %[[WRAPPED]], %[[IDX]] : index
// CHECK:         arith.cmpi ult, %[[RESOLVED]], %[[SIZE]] : index
// LLVM-LABEL:  llvm.func @block_i32_indices_dimension_past_2_31
// LLVM:          llvm.mlir.constant(2147483656 : index) : i64
// LLVM:          llvm.sext %{{.*}} : i32 to i64
func.func @block_i32_indices_dimension_past_2_31(%data: tensor<2147483656xf32>, %indices: tensor<4xi32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<2147483656xf32>, tensor<4xi32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 2 x (2^62 - 1) int8: every byte offset fits in 63 bits.
// CHECK-LABEL: func.func @elements_row_near_2_62
// CHECK-DAG:     arith.constant dense<4611686018427387903> : vector<16xindex>
// CHECK:         vector.gather %{{.*}} : tensor<2x4611686018427387903xi8>, vector<16xindex>
// LLVM-LABEL:  llvm.func @elements_row_near_2_62
// LLVM:          llvm.mlir.constant(4611686018427387903 : index) : i64
func.func @elements_row_near_2_62(%data: tensor<2x4611686018427387903xi8>, %indices: tensor<2x3xi64>) -> tensor<2x3xi8> {
  %init = tensor.empty() : tensor<2x3xi8>
  %0 = gather.elements %data[%indices] axis = 1 into %init : tensor<2x4611686018427387903xi8>, tensor<2x3xi64> into tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// The largest f32 dimension the verifier accepts: 2^61 - 1 elements,
// 2^63 - 4 bytes.
// CHECK-LABEL: func.func @nd_f32_near_2_63_bytes
// CHECK-DAG:     arith.constant 2305843009213693951 : index
// CHECK-NOT:     gather.
// LLVM-LABEL:  llvm.func @nd_f32_near_2_63_bytes
// LLVM:          llvm.mlir.constant(2305843009213693951 : index) : i64
func.func @nd_f32_near_2_63_bytes(%data: tensor<2305843009213693951xf32>, %indices: tensor<5x1xi64>) -> tensor<5xf32> {
  %init = tensor.empty() : tensor<5xf32>
  %0 = gather.nd %data[%indices] batch_dims = 0 out_of_bounds = clamp into %init : tensor<2305843009213693951xf32>, tensor<5x1xi64> into tensor<5xf32>
  return %0 : tensor<5xf32>
}
