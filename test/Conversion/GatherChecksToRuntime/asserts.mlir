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
// CHECK:       func.func private @__gather_report_assert(%[[SITE:[^:]*]]: i64, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64, %[[TEXT:[^:]*]]: i64) attributes {passthrough = ["noinline", "cold"]}
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
