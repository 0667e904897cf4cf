// RUN: gather-opt %s --gather-expand-shapes-to-reinterpret-casts --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-expand-shapes-to-reinterpret-casts --expand-strided-metadata --split-input-file | FileCheck %s --check-prefix=EXPANDED

// The reshape MLIR 22's expand-strided-metadata crashes on (two dynamic
// sizes in one group): sizes from output_shape, strides from the right.
// CHECK-LABEL: func.func @two_dynamic_sizes_in_one_group
// CHECK-SAME:    (%[[A:.*]]: memref<?xf32>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[OUTER:.*]] = arith.muli %[[STRIDE]], %[[N]] : index
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[M]], %[[N]]], strides: [%[[OUTER]], 1] : memref<?xf32> to memref<?x?xf32>
// CHECK-NOT:     memref.expand_shape
// CHECK:         return %[[R]]
// EXPANDED-LABEL: func.func @two_dynamic_sizes_in_one_group
// EXPANDED-NOT:   memref.expand_shape
// EXPANDED:       memref.reinterpret_cast
func.func @two_dynamic_sizes_in_one_group(%a: memref<?xf32>, %m: index, %n: index) -> memref<?x?xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n] : memref<?xf32> into memref<?x?xf32>
  return %e : memref<?x?xf32>
}

// -----

// Three dimensions in the group, a static one between two dynamic ones,
// and a second group kept whole; the source has a dynamic offset and
// strides, which the result keeps.
// CHECK-LABEL: func.func @strided_source
// CHECK-SAME:    (%[[A:.*]]: memref<?x4xf32, strided<[?, ?], offset: ?>>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK:         %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[MIDDLE:.*]] = arith.muli %[[STRIDES]]#0, %[[N]] : index
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[OUTER:.*]] = arith.muli %[[MIDDLE]], %[[C8]] : index
// CHECK:         memref.reinterpret_cast %[[A]] to offset: [%[[OFFSET]]], sizes: [%[[M]], 8, %[[N]], 4], strides: [%[[OUTER]], %[[MIDDLE]], %[[STRIDES]]#0, %[[STRIDES]]#1]
// CHECK-SAME:      to memref<?x8x?x4xf32, strided<[?, ?, ?, ?], offset: ?>>
func.func @strided_source(%a: memref<?x4xf32, strided<[?, ?], offset: ?>>, %m: index, %n: index) -> memref<?x8x?x4xf32, strided<[?, ?, ?, ?], offset: ?>> {
  %e = memref.expand_shape %a [[0, 1, 2], [3]] output_shape [%m, 8, %n, 4] : memref<?x4xf32, strided<[?, ?], offset: ?>> into memref<?x8x?x4xf32, strided<[?, ?, ?, ?], offset: ?>>
  return %e : memref<?x8x?x4xf32, strided<[?, ?, ?, ?], offset: ?>>
}

// -----

// A static output_shape entry where the type is dynamic (the verifier
// accepts it) becomes a value: reinterpret_cast would otherwise find its
// static size at odds with the type. A negative entry is no size
// (undefined at run time), but compiles.
// CHECK-LABEL: func.func @static_entries_of_dynamic_sizes
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%[[C3]], %{{.*}}], strides: [%{{.*}}, 1]
// CHECK:         %[[CM2:.*]] = arith.constant -2 : index
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%[[CM2]], %{{.*}}], strides: [%{{.*}}, 1]
// EXPANDED-LABEL: func.func @static_entries_of_dynamic_sizes
// EXPANDED-NOT:   memref.expand_shape
func.func @static_entries_of_dynamic_sizes(%a: memref<?xf32>, %n: index) -> (memref<?x?xf32>, memref<?x?xf32>) {
  %e = memref.expand_shape %a [[0, 1]] output_shape [3, %n] : memref<?xf32> into memref<?x?xf32>
  %f = memref.expand_shape %a [[0, 1]] output_shape [-2, %n] : memref<?xf32> into memref<?x?xf32>
  return %e, %f : memref<?x?xf32>, memref<?x?xf32>
}

// -----

// One dynamic size per group: upstream expands it, the pass leaves it.
// CHECK-LABEL: func.func @one_dynamic_size_per_group
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [%{{.*}}, 4, 2, %{{.*}}]
// CHECK-NOT:     memref.reinterpret_cast
func.func @one_dynamic_size_per_group(%a: memref<?x?xf32>, %m: index, %n: index) -> memref<?x4x2x?xf32> {
  %e = memref.expand_shape %a [[0, 1], [2, 3]] output_shape [%m, 4, 2, %n] : memref<?x?xf32> into memref<?x4x2x?xf32>
  return %e : memref<?x4x2x?xf32>
}
