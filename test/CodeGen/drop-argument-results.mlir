// RUN: gather-opt %s --gather-drop-argument-results --split-input-file | FileCheck %s

// A private function that returns its buffer argument (through a cast or
// not) returns nothing; its callers use the operand they passed, cast back
// to the result type where that differs. A result that is not an argument
// stays.
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[A:[^:]*]]: memref<4xf32>, %[[B:[^:]*]]: memref<4xf32>)
// CHECK:         %[[N:.*]] = call @computes_into(%[[A]], %[[B]]) : (memref<4xf32>, memref<4xf32>) -> memref<2xf32>
// CHECK:         %[[CAST:.*]] = memref.cast %[[A]] : memref<4xf32> to memref<?xf32>
// CHECK:         return %[[B]], %[[CAST]], %[[N]]
// CHECK:       func.func private @computes_into(%[[X:[^:]*]]: memref<4xf32>, %[[Y:[^:]*]]: memref<4xf32>) -> memref<2xf32>
// CHECK:         %[[NEW:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:    return %[[NEW]] : memref<2xf32>
func.func @caller(%a: memref<4xf32>, %b: memref<4xf32>) -> (memref<4xf32>, memref<?xf32>, memref<2xf32>) {
  %0:3 = call @computes_into(%a, %b) : (memref<4xf32>, memref<4xf32>) -> (memref<4xf32>, memref<?xf32>, memref<2xf32>)
  return %0#0, %0#1, %0#2 : memref<4xf32>, memref<?xf32>, memref<2xf32>
}
func.func private @computes_into(%x: memref<4xf32>, %y: memref<4xf32>) -> (memref<4xf32>, memref<?xf32>, memref<2xf32>) {
  %c = memref.cast %x : memref<4xf32> to memref<?xf32>
  %n = memref.alloc() : memref<2xf32>
  return %y, %c, %n : memref<4xf32>, memref<?xf32>, memref<2xf32>
}

// -----

// Public functions keep their signatures (a caller outside the module
// calls them), and so does a private function whose symbol has a use other
// than a call.
// CHECK-LABEL: func.func @public_returns_argument
// CHECK-SAME:    -> memref<4xf32>
// CHECK:         return %{{.*}} : memref<4xf32>
// CHECK-LABEL: func.func private @referenced
// CHECK-SAME:    -> memref<4xf32>
// CHECK:         return %{{.*}} : memref<4xf32>
// CHECK-LABEL: func.func @takes_address
// CHECK:         constant @referenced
// CHECK:         call @referenced(%{{.*}}) : (memref<4xf32>) -> memref<4xf32>
func.func @public_returns_argument(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
func.func private @referenced(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
func.func @takes_address(%x: memref<4xf32>) -> memref<4xf32> {
  %f = func.constant @referenced : (memref<4xf32>) -> memref<4xf32>
  %0 = call @referenced(%x) : (memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}
