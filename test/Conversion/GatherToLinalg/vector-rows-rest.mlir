// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false" --canonicalize --cse --split-input-file | FileCheck %s

// The vector rows run their full steps of 16 lanes without masks (reads and
// writes in bounds), then the rest of the row as one masked step: with a
// dynamic row length a mask in every step made W3 2.5x slower than with
// static sizes.
// CHECK-LABEL: func.func @dynamic_row_full_steps_then_rest
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4096x4096xf32>, %[[I:[^:]*]]: tensor<4096x?xi64>
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK:         scf.forall (%[[ROW:.*]]) in (4096)
// CHECK:           %[[REM:.*]] = arith.remui %[[LEN:.*]], %[[C16]] : index
// CHECK:           %[[END:.*]] = arith.subi %[[LEN]], %[[REM]] : index
// CHECK:           %[[FULL:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[END]] step %[[C16]]
// CHECK-NOT:         vector.create_mask
// CHECK:             vector.transfer_read %[[I]][%[[ROW]], %[[J]]], %{{.*}} {in_bounds = [true]} : tensor<4096x?xi64>, vector<16xi64>
// CHECK:             vector.gather %[[D]][%[[ROW]], %{{.*}}] [%{{.*}}], %[[ALL]]
// CHECK:             vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[J]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x?xf32>
// CHECK:           %[[HAS_REST:.*]] = arith.cmpi ult, %[[END]], %[[LEN]] : index
// CHECK:           %[[DONE:.*]]:2 = scf.if %[[HAS_REST]]
// CHECK:             %[[LEFT:.*]] = arith.subi %[[LEN]], %[[END]] : index
// CHECK:             %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<16xi1>
// CHECK:             vector.transfer_read %[[I]][%[[ROW]], %[[END]]], %{{.*}}, %[[MASK]] : tensor<4096x?xi64>, vector<16xi64>
// CHECK:             vector.transfer_write %{{.*}}, %[[FULL]]#0[%{{.*}}, %[[END]]], %[[MASK]] : vector<16xf32>, tensor<1x?xf32>
// CHECK:           } else {
// CHECK:             scf.yield %[[FULL]]#0, %[[FULL]]#1
// CHECK:           vector.reduction <or>, %[[DONE]]#1
func.func @dynamic_row_full_steps_then_rest(%d: tensor<4096x4096xf32>, %i: tensor<4096x?xi64>) -> tensor<4096x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c1 : tensor<4096x?xi64>
  %e = tensor.empty(%n) : tensor<4096x?xf32>
  %0 = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x?xi64> into tensor<4096x?xf32>
  return %0 : tensor<4096x?xf32>
}

// -----

// A static row of 40: two full steps, then a rest of 8 with a constant
// mask; a row of a multiple of 16 has no rest.
// CHECK-LABEL: func.func @static_row_with_rest
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NOT:       vector.constant_mask
// CHECK:           vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x40xf32>
// CHECK:         %[[MASK:.*]] = vector.constant_mask [8] : vector<16xi1>
// CHECK:         vector.transfer_write %{{.*}}, %[[MASK]] : vector<16xf32>, tensor<1x40xf32>
func.func @static_row_with_rest(%d: tensor<8x100xf32>, %i: tensor<8x40xi32>) -> tensor<8x40xf32> {
  %e = tensor.empty() : tensor<8x40xf32>
  %0 = gather.elements %d[%i] axis = 1 out_of_bounds = clamp into %e : tensor<8x100xf32>, tensor<8x40xi32> into tensor<8x40xf32>
  return %0 : tensor<8x40xf32>
}

// CHECK-LABEL: func.func @static_row_without_rest
// CHECK:         scf.for
// CHECK-NOT:     vector.constant_mask
// CHECK-NOT:     vector.create_mask
// CHECK:         return
func.func @static_row_without_rest(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %0 = gather.elements %d[%i] axis = 1 out_of_bounds = clamp into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
