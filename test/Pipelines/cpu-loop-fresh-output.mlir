// RUN: gather-opt %S/../Integration/Inputs/loop-fresh-output.mlir --gather-cpu-pipeline | FileCheck %s

// An scf.for whose generic writes into a fresh tensor.empty (the fusion's
// elementwise rewrite drops its read of the iteration argument) yields a
// new buffer each iteration: one-shot bufferization allows the loop to
// return allocations (allowReturnAllocsFromLoops). Without it the pipeline
// failed on this function. The loop carries the buffer's descriptor and
// allocates in its body; the generic's parallel region writes into that.
// CHECK-LABEL: llvm.func @main
// CHECK:         llvm.br ^bb1(%{{.*}}, %{{.*}}, %{{.*}} : i64, !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i1)
// CHECK:       ^bb1(%[[K:.*]]: i64, %[[ACC:.*]]: !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, %{{.*}}: i1):
// CHECK:         llvm.cond_br %{{.*}}, ^bb2, ^bb{{[0-9]+}}
// CHECK:       ^bb2:
// CHECK:         llvm.sitofp %[[K]] : i64 to f32
// CHECK:         llvm.call @malloc(
// CHECK:         omp.parallel {
