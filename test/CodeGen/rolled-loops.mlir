// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-rolled-loops))' | FileCheck %s
// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-rolled-loops), convert-scf-to-cf)' | FileCheck %s --check-prefix=CF

// A marked loop gets LLVM's unroll.disable in place of the mark, which
// convert-scf-to-cf carries to the loop's back edge; an unmarked loop keeps
// no annotation.
// CHECK-DAG:   #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG:   #[[ANNOTATION:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @marked_and_unmarked
// CHECK:         scf.for
// CHECK:         } {loop_annotation = #[[ANNOTATION]]}
// CHECK-NOT:     gather.rolled_loop
// CHECK:         scf.for
// CHECK-NOT:     loop_annotation
// CHECK:         return

// CF-LABEL: func.func @marked_and_unmarked
// CF:         cf.br ^{{.*}} {loop_annotation = #{{.*}}}
// CF-NOT:     loop_annotation
// CF:         return
func.func @marked_and_unmarked(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.rolled_loop}
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %v, %m[%i] : memref<64xf32>
  }
  return
}

// A loop around a marked one (the serial tile loop of a small gather) is not
// unrolled either: each of its copies would be a copy of the marked loop. A
// loop beside it keeps no annotation.
// CHECK-LABEL: func.func @enclosing_loop
// CHECK:         scf.for
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:             } {loop_annotation = #[[ANNOTATION]]}
// CHECK:         } {loop_annotation = #[[ANNOTATION]]}
// CHECK:         scf.for
// CHECK-NOT:     loop_annotation
// CHECK:         return
func.func @enclosing_loop(%m: memref<4x64xf32>, %v: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %t = %c0 to %c4 step %c1 {
    scf.if %c {
      scf.for %i = %c0 to %c64 step %c1 {
        memref.store %v, %m[%t, %i] : memref<4x64xf32>
      } {gather.rolled_loop}
    }
  }
  scf.for %t = %c0 to %c4 step %c1 {
    memref.store %v, %m[%t, %c0] : memref<4x64xf32>
  }
  return
}
