// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-fold-self-copies))' | FileCheck %s

// A tile written back onto itself through a unit-dimension reshape round
// trip (the layouts differ only in the unit dimension's stride) is no copy.
// CHECK-LABEL: func.func @round_trip_onto_equal_subview
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @round_trip_onto_equal_subview(%buf: memref<1x4096x256xf32>, %i: index) {
  %tile = memref.subview %buf[0, %i, 0] [1, 64, 256] [1, 1, 1] : memref<1x4096x256xf32> to memref<1x64x256xf32, strided<[1048576, 256, 1], offset: ?>>
  %flat = memref.collapse_shape %tile [[0, 1], [2]] : memref<1x64x256xf32, strided<[1048576, 256, 1], offset: ?>> into memref<64x256xf32, strided<[256, 1], offset: ?>>
  %back = memref.expand_shape %flat [[0, 1], [2]] output_shape [1, 64, 256] : memref<64x256xf32, strided<[256, 1], offset: ?>> into memref<1x64x256xf32, strided<[16384, 256, 1], offset: ?>>
  %dest = memref.subview %buf[0, %i, 0] [1, 64, 256] [1, 1, 1] : memref<1x4096x256xf32> to memref<1x64x256xf32, strided<[1048576, 256, 1], offset: ?>>
  memref.copy %back, %dest : memref<1x64x256xf32, strided<[16384, 256, 1], offset: ?>> to memref<1x64x256xf32, strided<[1048576, 256, 1], offset: ?>>
  return
}

// A copy between different regions stays.
// CHECK-LABEL: func.func @different_offsets
// CHECK:         memref.copy
func.func @different_offsets(%buf: memref<128xf32>) {
  %a = memref.subview %buf[0] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1]>>
  %b = memref.subview %buf[64] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.copy %a, %b : memref<64xf32, strided<[1]>> to memref<64xf32, strided<[1], offset: 64>>
  return
}
