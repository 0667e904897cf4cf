// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-parallel-outer-loops))' | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-parallel-outer-loops{min-iterations=1000}))' | FileCheck %s --check-prefix=WIDE

// The 8x56x56x16 loop keeps 8x56 iterations parallel (>= 16 after the first
// dimension's 8); the rest become scf.for loops around the same body.
// CHECK-LABEL: func.func @nest
// CHECK:         scf.parallel (%[[A:.*]], %[[B:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) {
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[A]], %[[B]], %[[C]], %[[D]]]
// CHECK-NOT:     scf.parallel
// With a higher target, three dimensions stay parallel (8*56*56 >= 1000).
// WIDE-LABEL: func.func @nest
// WIDE:         scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) =
// WIDE:           scf.for
// WIDE-NOT:       scf.for
func.func @nest(%out: memref<8x56x56x16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c56 = arith.constant 56 : index
  scf.parallel (%a, %b, %c, %d) = (%c0, %c0, %c0, %c0) to (%c8, %c56, %c56, %c16) step (%c1, %c1, %c1, %c1) {
    memref.store %v, %out[%a, %b, %c, %d] : memref<8x56x56x16xf32>
    scf.reduce
  }
  return
}

// A dynamic first dimension stays parallel alone.
// CHECK-LABEL: func.func @dynamic
// WIDE-LABEL: func.func @dynamic
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      scf.for
func.func @dynamic(%out: memref<?x4xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%a, %b) = (%c0, %c0) to (%n, %c4) step (%c1, %c1) {
    memref.store %v, %out[%a, %b] : memref<?x4xf32>
    scf.reduce
  }
  return
}

// A parallel loop inside another (a gather lowered inside a fused tile)
// becomes serial loops entirely.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.parallel (%[[T:.*]]) =
// CHECK-NOT:       scf.parallel
// CHECK:           scf.for %[[I:.*]] =
// CHECK-NEXT:        scf.for %[[J:.*]] =
// CHECK-NEXT:          memref.store %{{.*}}, %{{.*}}[%[[T]], %[[I]], %[[J]]]
func.func @nested(%out: memref<1024x8x16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%t) = (%c0) to (%c1024) step (%c1) {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
      memref.store %v, %out[%t, %i, %j] : memref<1024x8x16xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// A small lookup (32 rows of 768 floats: 96 KiB stored, less than
// min-parallel-bytes, 160 KiB) runs serially: starting threads costs more.
// CHECK-LABEL: func.func @small_row_copies
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           memref.copy
func.func @small_row_copies(%table: memref<30000x768xf32>, %ids: memref<32xindex>, %out: memref<32x768xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%r) = (%c0) to (%c32) step (%c1) {
    %id = memref.load %ids[%r] : memref<32xindex>
    %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<32x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    memref.copy %row, %dst : memref<1x768xf32, strided<[768, 1], offset: ?>> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    scf.reduce
  }
  return
}

// 128 rows of 768 (384 KiB) stay parallel; so does the same body with the
// vector writes of an inner loop counted (128 x 16 x 64 floats).
// CHECK-LABEL: func.func @large_row_copies
// CHECK:         scf.parallel
// CHECK:           memref.copy
func.func @large_row_copies(%table: memref<30000x768xf32>, %ids: memref<128xindex>, %out: memref<128x768xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%r) = (%c0) to (%c128) step (%c1) {
    %id = memref.load %ids[%r] : memref<128xindex>
    %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<128x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    memref.copy %row, %dst : memref<1x768xf32, strided<[768, 1], offset: ?>> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @vector_writes_in_inner_loop
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:             vector.transfer_write
func.func @vector_writes_in_inner_loop(%out: memref<128x1024xf32>, %v: vector<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%r) = (%c0) to (%c128) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %col = arith.muli %k, %c64 : index
      vector.transfer_write %v, %out[%r, %col] {in_bounds = [true]} : vector<64xf32>, memref<128x1024xf32>
    }
    scf.reduce
  }
  return
}

// With 4 inner iterations (128 x 4 x 64 floats: 128 KiB) it runs serially.
// CHECK-LABEL: func.func @vector_writes_few
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_write
func.func @vector_writes_few(%out: memref<128x1024xf32>, %v: vector<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%r) = (%c0) to (%c128) step (%c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      %col = arith.muli %k, %c64 : index
      vector.transfer_write %v, %out[%r, %col] {in_bounds = [true]} : vector<64xf32>, memref<128x1024xf32>
    }
    scf.reduce
  }
  return
}

// Bounds at the end of int64: the trip count (INT64_MAX) is computed without
// overflow and the loop stays parallel. (Regression: the fuzzer's UBSan run
// found a signed overflow in the trip count here; scripts/sanitize.sh runs
// this test with UBSan.)
// CHECK-LABEL: func.func @trip_count_near_int64_max
// CHECK:         scf.parallel
// CHECK-NOT:     scf.for
func.func @trip_count_near_int64_max(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cmax = arith.constant 9223372036854775807 : index
  scf.parallel (%i) = (%c0) to (%cmax) step (%c1) {
    memref.store %v, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// The threshold counts bytes: 64 rows of 768 f32 (192 KiB, 49152
// elements) run in parallel, 96 rows of 768 f16 (144 KiB, 73728 elements)
// serially.
// CHECK-LABEL: func.func @f32_rows_above_threshold
// CHECK:         scf.parallel
// CHECK:           memref.copy
// CHECK-LABEL: func.func @f16_rows_below_threshold
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK:           memref.copy
func.func @f32_rows_above_threshold(%table: memref<30000x768xf32>, %ids: memref<64xindex>, %out: memref<64x768xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%r) = (%c0) to (%c64) step (%c1) {
    %id = memref.load %ids[%r] : memref<64xindex>
    %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<64x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    memref.copy %row, %dst : memref<1x768xf32, strided<[768, 1], offset: ?>> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    scf.reduce
  }
  return
}
func.func @f16_rows_below_threshold(%table: memref<30000x768xf16>, %ids: memref<96xindex>, %out: memref<96x768xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  scf.parallel (%r) = (%c0) to (%c96) step (%c1) {
    %id = memref.load %ids[%r] : memref<96xindex>
    %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf16> to memref<1x768xf16, strided<[768, 1], offset: ?>>
    %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<96x768xf16> to memref<1x768xf16, strided<[768, 1], offset: ?>>
    memref.copy %row, %dst : memref<1x768xf16, strided<[768, 1], offset: ?>> to memref<1x768xf16, strided<[768, 1], offset: ?>>
    scf.reduce
  }
  return
}

// Two versions of a loop's body (streaming stores or not) count once: one
// runs. 32 rows of 768 f32 in either branch are 96 KiB, under the threshold
// (their sum, 192 KiB, would not be).
// CHECK-LABEL: func.func @versions_count_once
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK:           scf.if
func.func @versions_count_once(%table: memref<30000x768xf32>, %ids: memref<32xindex>, %out: memref<32x768xf32>, %aligned: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%r) = (%c0) to (%c32) step (%c1) {
    %id = memref.load %ids[%r] : memref<32xindex>
    %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<32x768xf32> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    scf.if %aligned {
      memref.copy %row, %dst : memref<1x768xf32, strided<[768, 1], offset: ?>> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    } else {
      memref.copy %row, %dst : memref<1x768xf32, strided<[768, 1], offset: ?>> to memref<1x768xf32, strided<[768, 1], offset: ?>>
    }
    scf.reduce
  }
  return
}
