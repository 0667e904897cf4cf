// A whole read of a small static tensor that vector writes cover becomes
// those vectors (gather-forward-vector-writes); the writes, then unused,
// are erased. Reads the writes do not cover, or that are not whole, stay.
// RUN: gather-opt %s --gather-forward-vector-writes --split-input-file | FileCheck %s

// A fused step's row: eight 16-lane writes through a collapse of unit
// dimensions, read whole through the expand back.
// CHECK-LABEL: func.func @row_of_eight_writes
// CHECK-NOT:     tensor.empty
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[P:.*]] = ub.poison : vector<128xf32>
// CHECK:         %[[I0:.*]] = vector.insert_strided_slice %{{.*}}, %[[P]] {offsets = [0], strides = [1]} : vector<16xf32> into vector<128xf32>
// CHECK-COUNT-6: vector.insert_strided_slice
// CHECK:         %[[I7:.*]] = vector.insert_strided_slice %{{.*}} {offsets = [112], strides = [1]} : vector<16xf32> into vector<128xf32>
// CHECK:         %[[R:.*]] = vector.shape_cast %[[I7]] : vector<128xf32> to vector<1x1x128xf32>
// CHECK-NOT:     vector.transfer_read
// CHECK:         return %[[R]]
func.func @row_of_eight_writes(%t: tensor<1000x128xf32>, %row: index) -> vector<1x1x128xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x128xf32>
  %c = tensor.collapse_shape %e [[0, 1], [2]] : tensor<1x1x128xf32> into tensor<1x128xf32>
  %r0 = vector.transfer_read %t[%row, %c0], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w0 = vector.transfer_write %r0, %c[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c16 = arith.constant 16 : index
  %r1 = vector.transfer_read %t[%row, %c16], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w1 = vector.transfer_write %r1, %w0[%c0, %c16] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c32 = arith.constant 32 : index
  %r2 = vector.transfer_read %t[%row, %c32], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w2 = vector.transfer_write %r2, %w1[%c0, %c32] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c48 = arith.constant 48 : index
  %r3 = vector.transfer_read %t[%row, %c48], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w3 = vector.transfer_write %r3, %w2[%c0, %c48] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c64 = arith.constant 64 : index
  %r4 = vector.transfer_read %t[%row, %c64], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w4 = vector.transfer_write %r4, %w3[%c0, %c64] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c80 = arith.constant 80 : index
  %r5 = vector.transfer_read %t[%row, %c80], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w5 = vector.transfer_write %r5, %w4[%c0, %c80] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c96 = arith.constant 96 : index
  %r6 = vector.transfer_read %t[%row, %c96], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w6 = vector.transfer_write %r6, %w5[%c0, %c96] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %c112 = arith.constant 112 : index
  %r7 = vector.transfer_read %t[%row, %c112], %pad {in_bounds = [true]} : tensor<1000x128xf32>, vector<16xf32>
  %w7 = vector.transfer_write %r7, %w6[%c0, %c112] {in_bounds = [true]} : vector<16xf32>, tensor<1x128xf32>
  %x = tensor.expand_shape %w7 [[0, 1], [2]] output_shape [1, 1, 128] : tensor<1x128xf32> into tensor<1x1x128xf32>
  %v = vector.transfer_read %x[%c0, %c0, %c0], %pad {in_bounds = [true, true, true]} : tensor<1x1x128xf32>, vector<1x1x128xf32>
  return %v : vector<1x1x128xf32>
}

// -----

// Overlapping writes: the later one's lanes win (inserted last; the first,
// the whole vector, folds to itself), and a write of a vector<1x8xf32>
// counts as 8 contiguous elements.
// CHECK-LABEL: func.func @later_write_wins
// CHECK-SAME:      %[[A:[^:]*]]: vector<16xf32>, %[[B:[^:]*]]: vector<1x8xf32>
// CHECK:         %[[BF:.*]] = vector.shape_cast %[[B]] : vector<1x8xf32> to vector<8xf32>
// CHECK:         %[[Y:.*]] = vector.insert_strided_slice %[[BF]], %[[A]] {offsets = [8], strides = [1]}
// CHECK:         %[[R:.*]] = vector.shape_cast %[[Y]] : vector<16xf32> to vector<2x8xf32>
// CHECK:         return %[[R]]
func.func @later_write_wins(%a: vector<16xf32>, %b: vector<1x8xf32>) -> vector<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %w0 = vector.transfer_write %a, %e[%c0] {in_bounds = [true]} : vector<16xf32>, tensor<16xf32>
  %x = tensor.expand_shape %w0 [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
  %w1 = vector.transfer_write %b, %x[%c1, %c0] {in_bounds = [true, true]} : vector<1x8xf32>, tensor<2x8xf32>
  %v = vector.transfer_read %w1[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<2x8xf32>, vector<2x8xf32>
  return %v : vector<2x8xf32>
}

// -----

// Not forwarded: writes that leave elements unwritten (the tensor's own
// values show through), a write at a run-time offset, a masked write and
// a read of part of the tensor.
// CHECK-LABEL: func.func @not_covered
// CHECK:         vector.transfer_read
// CHECK-LABEL: func.func @dynamic_offset
// CHECK:         vector.transfer_read
// CHECK-LABEL: func.func @masked_write
// CHECK:         vector.transfer_read
// CHECK-LABEL: func.func @part_of_the_tensor
// CHECK:         vector.transfer_read
func.func @not_covered(%a: vector<8xf32>, %t: tensor<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %a, %t[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<16xf32>
  %v = vector.transfer_read %w[%c0], %pad {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
  return %v : vector<16xf32>
}
func.func @dynamic_offset(%a: vector<8xf32>, %b: vector<8xf32>, %i: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %w0 = vector.transfer_write %a, %e[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<16xf32>
  %w1 = vector.transfer_write %b, %w0[%i] {in_bounds = [true]} : vector<8xf32>, tensor<16xf32>
  %v = vector.transfer_read %w1[%c0], %pad {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
  return %v : vector<16xf32>
}
func.func @masked_write(%a: vector<16xf32>, %m: vector<16xi1>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %w = vector.transfer_write %a, %e[%c0], %m {in_bounds = [true]} : vector<16xf32>, tensor<16xf32>
  %v = vector.transfer_read %w[%c0], %pad {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
  return %v : vector<16xf32>
}
func.func @part_of_the_tensor(%a: vector<16xf32>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %w = vector.transfer_write %a, %e[%c0] {in_bounds = [true]} : vector<16xf32>, tensor<16xf32>
  %v = vector.transfer_read %w[%c0], %pad {in_bounds = [true]} : tensor<16xf32>, vector<8xf32>
  return %v : vector<8xf32>
}
