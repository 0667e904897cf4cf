// RUN: gather-opt %s --convert-gather-checks-to-runtime --split-input-file | FileCheck %s

// A shape check becomes a branch on its condition and a call of the one
// shape report of the module (out of line, cold), which passes the kind and
// its three details (dimension, the two sizes) to the hook. The site is a
// constant string "op at file" (one per text) with the check's line and
// column.
// CHECK:       memref.global "private" constant @__gather_site_{{[0-9a-f]+}} : memref<23xi8>
// CHECK:       func.func private @__gather_report_shape(%[[SITE:[^:]*]]: i64, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64, %[[KIND:[^:]*]]: i64, %[[DIM:[^:]*]]: index, %[[LHS:[^:]*]]: index, %[[RHS:[^:]*]]: index) attributes {passthrough = ["noinline", "cold"]}
// CHECK:         %[[DETAILS:.*]] = memref.alloc() : memref<3xi64>
// CHECK:         call @__gather_runtime_error(%[[SITE]], %[[LINE]], %[[COL]], %[[KIND]], %{{.*}}, %{{.*}})
// CHECK:       func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @shape_checks
// CHECK-SAME:    %[[OK:[^:]*]]: i1, %[[A:[^:]*]]: index, %[[B:[^:]*]]: index
// CHECK:         %[[FAILED:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK:         scf.if %[[FAILED]] {
// CHECK-DAG:       %[[C7:.*]] = arith.constant 7 : i64
// CHECK-DAG:       %[[C9:.*]] = arith.constant 9 : i64
// CHECK-DAG:       %[[K2:.*]] = arith.constant 2 : i64
// CHECK-DAG:       %[[D1:.*]] = arith.constant 1 : index
// CHECK:           call @__gather_report_shape(%{{.*}}, %[[C7]], %[[C9]], %[[K2]], %[[D1]], %[[A]], %[[B]])
// CHECK:         scf.if
// CHECK:           call @__gather_report_shape(
// CHECK-NOT:     gather.
func.func @shape_checks(%ok: i1, %a: index, %b: index) {
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %b) for "gather.block" loc("m.mlir":7:9)
  gather.check_shape %ok, init_size_mismatch dim = 0 sizes(%b, %a) for "gather.block" loc("m.mlir":8:9)
  return
}

// -----

// An index check calls the scan function of its signature and policy with
// the indices, the addressed sizes, the dimensions to name, the shape to
// give the position in and the site; checks that differ only in sizes share
// it, a check that assumes an invalid value (the loops found one) has its
// own. Inside a parallel loop too: the call is all there is. Only the
// report after the loops skips its scan where the call has recorded an
// error: the loops rely on the check before them.
// CHECK:       func.func private @__gather_index_check_[[CHECK:[0-9a-f]+]](%{{.*}}: memref<?x?xi32, strided<[?, ?], offset: ?>>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT:     __gather_runtime_error_recorded
// CHECK:       func.func private @__gather_runtime_error_recorded() -> i32
// CHECK:       func.func private @__gather_index_report_[[REPORT:[0-9a-f]+]](
// CHECK-NEXT:    call @__gather_runtime_error_recorded() : () -> i32
// CHECK-LABEL: func.func @index_checks
// CHECK-SAME:    %[[I:[^:]*]]: memref<?x?xi32, strided<[?, ?], offset: ?>>, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index
// CHECK:         %[[D0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D2:.*]] = arith.constant 2 : index
// CHECK:         call @__gather_index_check_[[CHECK]](%[[I]], %[[N]], %[[M]], %[[D0]], %[[D2]], %[[N]], %[[M]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         call @__gather_index_check_[[CHECK]](%[[I]], %[[M]], %[[N]],
// CHECK:         scf.parallel
// CHECK:           call @__gather_index_report_[[REPORT]](%[[I]],
// CHECK-NOT:     gather.
func.func @index_checks(%i: memref<?x?xi32, strided<[?, ?], offset: ?>>, %n: index, %m: index) {
  gather.check_indices %i sizes(%n, %m) dims = [0, 2] shape(%n, %m) for "gather.nd"
      : memref<?x?xi32, strided<[?, ?], offset: ?>>
  gather.check_indices %i sizes(%m, %n) dims = [0, 2] shape(%n, %m) for "gather.nd"
      : memref<?x?xi32, strided<[?, ?], offset: ?>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%k) = (%c0) to (%n) step (%c1) {
    gather.check_indices %i sizes(%n, %m) dims = [0, 2] shape(%n, %m) assume_invalid for "gather.nd"
        : memref<?x?xi32, strided<[?, ?], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// Sites without a file location name the op alone (line and column 0).
// CHECK:       memref.global "private" constant @__gather_site_{{[0-9a-f]+}} : memref<13xi8> = dense<[103, 97, 116, 104, 101, 114, 46, 98, 108, 111, 99, 107, 0]>
// CHECK-LABEL: func.func @unknown_location
// CHECK:         %[[LINE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[COL:.*]] = arith.constant 0 : i64
// CHECK:         call @__gather_report_shape(%{{.*}}, %[[LINE]], %[[COL]],
func.func @unknown_location(%ok: i1, %a: index) {
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %a) for "gather.block" loc(unknown)
  return
}

// -----

// In a function that takes its gathers' sites as arguments (an outlined
// gather, gather.site_arguments), the calls pass the line and column
// arguments instead of the check's own: every caller's gather is named.
// The text (kind and file) is still the check's.
// CHECK-LABEL: func.func private @site_from_arguments
// CHECK-SAME:    %[[OK:[^:]*]]: i1, %[[A:[^:]*]]: index, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64
// CHECK-SAME:    attributes {gather.site_arguments}
// CHECK:         scf.if
// CHECK:           %[[TEXT:.*]] = memref.get_global @__gather_site_
// CHECK:           call @__gather_report_shape(%{{.*}}, %[[LINE]], %[[COL]],
// CHECK:         call @__gather_index_check_{{[0-9a-f]+}}(%{{.*}}, %[[LINE]], %[[COL]])
func.func private @site_from_arguments(%ok: i1, %a: index, %line: i64, %column: i64) attributes {gather.site_arguments} {
  gather.check_shape %ok, shape_mismatch dim = 1 sizes(%a, %a) for "gather.block" loc("m.mlir":7:9)
  %i = memref.alloc(%a) : memref<?xi32>
  %s = memref.cast %i : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
  gather.check_indices %s sizes(%a) dims = [0] shape(%a) for "gather.block"
      : memref<?xi32, strided<[?], offset: ?>> loc("m.mlir":8:9)
  return
}
