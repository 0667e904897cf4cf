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
func.func @nested(%out: memref<64x8x16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
      memref.store %v, %out[%t, %i, %j] : memref<64x8x16xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
