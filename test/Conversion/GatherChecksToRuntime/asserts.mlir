// RUN: gather-opt %s --convert-gather-checks-to-runtime=asserts=true --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-checks-to-runtime --split-input-file | FileCheck %s --check-prefix=KEPT
// The CPU pipeline turns the program's asserts into the hook too.
// RUN: gather-opt %s --gather-cpu-pipeline --split-input-file | FileCheck %s --check-prefix=CPU

// With `asserts`, each cf.assert becomes a branch on its condition and a
// call of the one assert report of the module (out of line, cold), which
// passes the kind (assertion_failed, 7) and the address of the message to
// the hook; the site is "cf.assert at file" with the assert's line and
// column. The message and the site are constant strings (one per text).
// CHECK-DAG:   memref.global "private" constant @__gather_site_{{[0-9a-f]+}} : memref<20xi8> = dense<[99, 102, 46, 97, 115, 115, 101, 114, 116, 32, 97, 116, 32, 109, 46, 109, 108, 105, 114, 0]>
// CHECK-DAG:   memref.global "private" constant @[[MSG:__gather_site_[0-9a-f]+]] : memref<8xi8> = dense<[116, 111, 111, 32, 98, 105, 103, 0]>
// The hook leaves the call from the plain report where errors are
// recorded: gather.leaves_call keeps loops that call it serial.
// CHECK:       func.func private @__gather_report_assert(%[[SITE:[^:]*]]: i64, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64, %[[TEXT:[^:]*]]: i64) attributes {gather.leaves_call, passthrough = ["noinline", "cold"]}
// CHECK-DAG:     %[[KIND:.*]] = arith.constant 7 : i64
// CHECK-DAG:     %[[DETAILS:.*]] = memref.alloc() : memref<1xi64>
// CHECK:         memref.store %[[TEXT]], %[[DETAILS]]
// CHECK:         call @__gather_runtime_error(%[[SITE]], %[[LINE]], %[[COL]], %[[KIND]], %{{.*}}, %{{.*}})
// CHECK-LABEL: func.func @asserted
// CHECK-SAME:    %[[N:[^:]*]]: index
// CHECK:         %[[OK:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         %[[FAILED:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK:         scf.if %[[FAILED]] {
// CHECK-DAG:       %[[L:.*]] = arith.constant 12 : i64
// CHECK-DAG:       %[[C:.*]] = arith.constant 3 : i64
// CHECK-DAG:       memref.get_global @[[MSG]]
// CHECK:           call @__gather_report_assert(%{{.*}}, %[[L]], %[[C]], %{{.*}})
// CHECK-NOT:     cf.assert
// KEPT-LABEL:  func.func @asserted
// KEPT:          cf.assert %{{.*}}, "too big"
// CPU-LABEL:   llvm.func @asserted
// CPU:           llvm.call @__gather_report_assert
// CPU-NOT:       llvm.call @abort
func.func @asserted(%n: index) -> index {
  %c8 = arith.constant 8 : index
  %ok = arith.cmpi slt, %n, %c8 : index
  cf.assert %ok, "too big" loc("m.mlir":12:3)
  return %n : index
}

// -----

// An assert in a linalg op's body (torch-mlir's bound asserts) skips what
// it guards: the rest of the body moves into an scf.if on its condition,
// whose else calls the skipping report (the message and 1 as details: the
// loop may run in a parallel region, which the hook cannot leave) and
// yields zeros. The second assert, rewritten first, sits in the first's
// guarded rest; linalg.index stays in the body. The barrier after the
// generic, and after each op around it in the function, leaves the call
// (gather.leaves_call on its declaration); the skipping report returns.
// CHECK-LABEL: func.func private @__gather_report_skipping_assert
// CHECK-SAME:    %[[SITE:[^:]*]]: i64, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64, %[[TEXT:[^:]*]]: i64) attributes {passthrough = ["noinline", "cold"]}
// CHECK-DAG:     %[[KIND:.*]] = arith.constant 7 : i64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[DETAILS:.*]] = memref.alloc() : memref<2xi64>
// CHECK-DAG:     memref.store %[[TEXT]], %[[DETAILS]][%{{.*}}]
// CHECK-DAG:     memref.store %[[ONE]], %[[DETAILS]][%{{.*}}]
// CHECK:         call @__gather_runtime_error(%[[SITE]], %[[LINE]], %[[COL]], %[[KIND]], %[[TWO]], %{{.*}})
// CHECK:       func.func private @__gather_runtime_assert_barrier() attributes {gather.leaves_call}
// CHECK-LABEL: func.func @generic_asserts
// CHECK:         scf.for
// CHECK:           linalg.generic
// CHECK:           ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK:             %[[LT:.*]] = arith.cmpi slt
// CHECK-NEXT:        %[[COLUMN:.*]] = linalg.index 1 : index
// CHECK:             %[[R:.*]] = scf.if %[[LT]] -> (f32) {
// CHECK:               %[[GE:.*]] = arith.cmpi sge, %[[IN]]
// CHECK:               %[[V:.*]] = scf.if %[[GE]] -> (f32) {
// CHECK:                 %[[E:.*]] = tensor.extract %{{.*}}[%{{.*}}, %[[COLUMN]]]
// CHECK:                 scf.yield %[[E]] : f32
// CHECK:               } else {
// CHECK-DAG:             %[[L2:.*]] = arith.constant 9 : i64
// CHECK-DAG:             %[[C2:.*]] = arith.constant 7 : i64
// CHECK:                 func.call @__gather_report_skipping_assert(%{{.*}}, %[[L2]], %[[C2]], %{{.*}})
// CHECK:                 %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:                 scf.yield %[[Z]] : f32
// CHECK:               }
// CHECK:               scf.yield %[[V]] : f32
// CHECK:             } else {
// CHECK:               %[[L1:.*]] = arith.constant 5 : i64
// CHECK:               func.call @__gather_report_skipping_assert(%{{.*}}, %[[L1]], %{{.*}}, %{{.*}})
// CHECK:               scf.yield %{{.*}} : f32
// CHECK:             }
// CHECK:             linalg.yield %[[R]] : f32
// CHECK:           }
// CHECK-NEXT:      func.call @__gather_runtime_assert_barrier() : () -> ()
// CHECK:         }
// CHECK-NEXT:    call @__gather_runtime_assert_barrier() : () -> ()
// CHECK-NOT:     cf.assert
// CHECK:         return
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_asserts(%weight: tensor<4x3xf32>, %ids: tensor<?xi64>, %init: tensor<?x3xf32>, %n: index) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<?x3xf32> {
    %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
        ins(%ids : tensor<?xi64>) outs(%acc : tensor<?x3xf32>) {
    ^bb0(%in: i64, %out: f32):
      %0 = arith.index_cast %in : i64 to index
      %c4 = arith.constant 4 : index
      %lt = arith.cmpi slt, %0, %c4 : index
      cf.assert %lt, "index must be smaller than dim size" loc("g.mlir":5:7)
      %1 = linalg.index 1 : index
      %c0_i64 = arith.constant 0 : i64
      %ge = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %ge, "index must be larger or equal to 0" loc("g.mlir":9:7)
      %5 = tensor.extract %weight[%0, %1] : tensor<4x3xf32>
      linalg.yield %5 : f32
    } -> tensor<?x3xf32>
    scf.yield %r : tensor<?x3xf32>
  }
  return %loop : tensor<?x3xf32>
}

// -----

// An assert nested deeper in the body (here in an scf.if) cannot skip the
// rest of the body: the plain report, and no barrier.
// CHECK-LABEL: func.func @nested_assert
// CHECK:         linalg.generic
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               call @__gather_report_assert(
// CHECK:           tensor.extract
// CHECK-NOT:     __gather_runtime_assert_barrier
// CHECK:         return
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @nested_assert(%weight: tensor<4x3xf32>, %ids: tensor<?xi64>, %init: tensor<?x3xf32>, %c: i1) -> tensor<?x3xf32> {
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 1 : index
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    scf.if %c {
      cf.assert %ge, "index must be larger or equal to 0"
    }
    %5 = tensor.extract %weight[%0, %1] : tensor<4x3xf32>
    linalg.yield %5 : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
