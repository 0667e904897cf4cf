// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false target-cpu=x86-64-v3" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=AVX2

// The vector rows run their full steps of 16 lanes without masks (reads and
// writes in bounds), then the rest of the row as one masked step: with a
// dynamic row length a mask in every step made W3 2.5x slower than with
// static sizes. Under `error` the lanes with an invalid index read offset 0
// instead (the gather takes no mask, which LLVM would turn into a branch per
// lane where the target has no fast gather) and keep what offset 0 holds
// (no output is returned after an error: no select), and the same mask gives
// the bad lanes.
// CHECK-LABEL: func.func @dynamic_row_full_steps_then_rest
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4096x4096xf32>, %[[I:[^:]*]]: tensor<4096x?xi64>
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK:         scf.forall (%[[ROW:.*]]) in (4096)
// CHECK:           %[[STEPS:.*]] = arith.divui %[[LEN:.*]], %[[C16]] : index
// CHECK:           %[[END:.*]] = arith.muli %[[STEPS]], %[[C16]] : index
// CHECK:           %[[FULL:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[END]] step %[[C16]]
// CHECK-NOT:         vector.create_mask
// CHECK:             vector.transfer_read %[[I]][%[[ROW]], %[[J]]], %{{.*}} {in_bounds = [true]} : tensor<4096x?xi64>, vector<16xi64>
// CHECK:             %[[VALID:.*]] = arith.cmpi ult, %[[INDEX:.*]], %{{.*}} : vector<16xindex>
// CHECK:             %[[BAD:.*]] = arith.xori %[[VALID]], %[[ALL]] : vector<16xi1>
// CHECK:             arith.ori %{{.*}}, %[[BAD]] : vector<16xi1>
// CHECK:             %[[SAFE:.*]] = arith.select %[[VALID]], %[[INDEX]], %[[ZERO:.*]] : vector<16xi1>, vector<16xindex>
// CHECK:             %[[G:.*]] = vector.gather %[[D]][%[[ROW]], %{{.*}}] [%[[SAFE]]], %[[ALL]]
// CHECK-NOT:         arith.select
// CHECK:             vector.transfer_write %[[G]], %{{.*}}[%{{.*}}, %[[J]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x?xf32>
// CHECK:           %[[HAS_REST:.*]] = arith.cmpi ult, %[[END]], %[[LEN]] : index
// CHECK:           %[[DONE:.*]]:2 = scf.if %[[HAS_REST]]
// CHECK:             %[[LEFT:.*]] = arith.subi %[[LEN]], %[[END]] : index
// CHECK:             %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<16xi1>
// CHECK:             vector.transfer_read %[[I]][%[[ROW]], %[[END]]], %{{.*}}, %[[MASK]] : tensor<4096x?xi64>, vector<16xi64>
// CHECK:             %[[REST_VALID:.*]] = arith.cmpi ult, %[[REST_INDEX:.*]], %{{.*}} : vector<16xindex>
// CHECK:             %[[READ:.*]] = arith.andi %[[MASK]], %[[REST_VALID]] : vector<16xi1>
// CHECK:             arith.xori %[[READ]], %[[MASK]] : vector<16xi1>
// CHECK:             %[[REST_SAFE:.*]] = arith.select %[[READ]], %[[REST_INDEX]], %[[ZERO]]
// CHECK:             vector.gather %[[D]][%[[ROW]], %{{.*}}] [%[[REST_SAFE]]], %[[ALL]]
// CHECK:             vector.transfer_write %{{.*}}, %[[FULL]]#0[%{{.*}}, %[[END]]], %[[MASK]] : vector<16xf32>, tensor<1x?xf32>
// CHECK:           } else {
// CHECK:             scf.yield %[[FULL]]#0, %[[FULL]]#1
// CHECK:           vector.reduction <or>, %[[DONE]]#1
// Without mask registers (AVX2) the valid lanes are carried as 64-bit
// lanes, ANDed (all ones: valid so far): an i1 vector carried through the
// loop was packed in every step, and one inverted for the bad lanes packed
// too. The axis here is 4096, a power of two: a full step compares
// nothing, its lanes read index & 4095 (in bounds) and the lanes carried
// lose every bit of index >> 12 (an AND NOT); the masked rest compares.
// AVX2-LABEL: func.func @dynamic_row_full_steps_then_rest
// AVX2-DAG:     %[[ONES:.*]] = arith.constant dense<-1> : vector<8xi64>
// AVX2-DAG:     %[[TWELVE:.*]] = arith.constant dense<12> : vector<8xindex>
// AVX2-DAG:     %[[LOW:.*]] = arith.constant dense<4095> : vector<8xindex>
// AVX2-DAG:     %[[ALL_VALID:.*]] = arith.constant -1 : i64
// AVX2:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[ONES]])
// AVX2:           %[[INDEX:.*]] = arith.select
// AVX2-NOT:       arith.cmpi ult
// AVX2:           %[[HIGH:.*]] = arith.shrui %[[INDEX]], %[[TWELVE]] : vector<8xindex>
// AVX2:           %[[WIDE:.*]] = arith.index_cast %[[HIGH]] : vector<8xindex> to vector<8xi64>
// AVX2:           %[[OUT:.*]] = arith.xori %[[WIDE]], %[[ONES]] : vector<8xi64>
// AVX2:           arith.andi %[[ACC]], %[[OUT]] : vector<8xi64>
// AVX2:           %[[SAFE:.*]] = arith.andi %[[INDEX]], %[[LOW]] : vector<8xindex>
// AVX2:           vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%[[SAFE]]]
// AVX2:         vector.create_mask
// AVX2:         arith.cmpi ult, %{{.*}} : vector<8xindex>
// AVX2:         %[[ALL:.*]] = vector.reduction <and>, %{{.*}} : vector<8xi64> into i64
// AVX2:         arith.cmpi ne, %[[ALL]], %[[ALL_VALID]] : i64
func.func @dynamic_row_full_steps_then_rest(%d: tensor<4096x4096xf32>, %i: tensor<4096x?xi64>) -> tensor<4096x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c1 : tensor<4096x?xi64>
  %e = tensor.empty(%n) : tensor<4096x?xf32>
  %0 = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x?xi64> into tensor<4096x?xf32>
  return %0 : tensor<4096x?xf32>
}

// -----

// An axis of another size (4000): a full step's compares give the valid
// lanes as 64-bit lanes, ANDed into what the row carries, and its invalid
// lanes read offset 0 by an AND with the same lanes.
// AVX2-LABEL: func.func @dynamic_row_not_a_power_of_two
// AVX2-DAG:     %[[ONES:.*]] = arith.constant dense<-1> : vector<8xi64>
// AVX2:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[ONES]])
// AVX2:           %[[INDEX:.*]] = arith.select
// AVX2:           %[[VALID:.*]] = arith.cmpi ult, %[[INDEX]], %{{.*}} : vector<8xindex>
// AVX2:           %[[WIDE:.*]] = arith.extsi %[[VALID]] : vector<8xi1> to vector<8xi64>
// AVX2:           arith.andi %[[ACC]], %[[WIDE]] : vector<8xi64>
// AVX2:           %[[KEEP:.*]] = arith.index_cast %[[VALID]] : vector<8xi1> to vector<8xindex>
// AVX2:           %[[SAFE:.*]] = arith.andi %[[INDEX]], %[[KEEP]] : vector<8xindex>
// AVX2:           vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%[[SAFE]]]
// AVX2-NOT:       arith.shrui
// AVX2:         vector.reduction <and>, %{{.*}} : vector<8xi64> into i64
func.func @dynamic_row_not_a_power_of_two(%d: tensor<4096x4000xf32>, %i: tensor<4096x?xi64>) -> tensor<4096x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c1 : tensor<4096x?xi64>
  %e = tensor.empty(%n) : tensor<4096x?xf32>
  %0 = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4000xf32>, tensor<4096x?xi64> into tensor<4096x?xf32>
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

// -----

// Interleaved coordinates with a dynamic indices row: a row of one pair at
// run time is a broadcast (the pair read once and repeated to every lane),
// else the step's pairs are one contiguous read, in bounds in a full step
// and masked to twice the rest in the last; each coordinate is a shuffle.
// CHECK-LABEL: func.func @dynamic_interleaved_pairs
// CHECK:         scf.for
// CHECK:           %[[FULL:.*]] = scf.if %{{.*}} -> (vector<32xi64>) {
// CHECK:             %[[PAIR:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<?x?xi64>, vector<2xi64>
// CHECK:             vector.shuffle %[[PAIR]], %[[PAIR]] [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1] : vector<2xi64>, vector<2xi64>
// CHECK:           } else {
// CHECK:             vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<?x?xi64>, vector<32xi64>
// CHECK:           vector.shuffle %[[FULL]], %[[FULL]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:           vector.shuffle %[[FULL]], %[[FULL]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:         scf.if
// CHECK:           %[[REST:.*]] = arith.subi
// CHECK:           scf.if %{{.*}} -> (vector<32xi64>) {
// CHECK:           } else {
// CHECK:             %[[TWICE:.*]] = arith.muli %[[REST]], %c2 : index
// CHECK:             %[[MASK:.*]] = vector.create_mask %[[TWICE]] : vector<32xi1>
// CHECK:             vector.transfer_read %{{.*}}, %[[MASK]] : tensor<?x?xi64>, vector<32xi64>
// CHECK-NOT:     vector.gather %{{.*}} : tensor<?x?xi64>
func.func @dynamic_interleaved_pairs(%d: tensor<64x64xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.multiaxis %d[%i] axes = [0, 1] out_of_bounds = clamp into %e : tensor<64x64xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
