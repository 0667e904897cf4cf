// RUN: gather-opt %s --convert-gather-to-linalg --convert-gather-checks-to-runtime | FileCheck %s

// The site string and the index report are named by a hash of what they
// hold (the site text; the report's signature and policy). Where a symbol
// of the module already has that name and is something else (here the
// user's own function and global), the next free name gets the new one,
// and the user's symbols stay as they were.
// CHECK-DAG:   memref.global "private" constant @__gather_site_90c402b6371ce481_0 : memref<27xi8>
// CHECK-DAG:   memref.global @__gather_site_90c402b6371ce481 : memref<4xi8> = dense<7>
// CHECK-DAG:   func.func private @__gather_index_report_df526c8fcdcaa7cb_0(%{{.*}}: memref<?x?xi64, strided<[?, ?], offset: ?>>,
// CHECK-DAG:   func.func @__gather_index_report_df526c8fcdcaa7cb(%{{.*}}: i32) -> i32
// CHECK-LABEL: func.func @names_taken_by_user_symbols
// CHECK:         memref.get_global @__gather_site_90c402b6371ce481_0
// CHECK:         call @__gather_index_report_df526c8fcdcaa7cb_0(
memref.global @__gather_site_90c402b6371ce481 : memref<4xi8> = dense<7>
func.func @__gather_index_report_df526c8fcdcaa7cb(%x: i32) -> i32 {
  return %x : i32
}
func.func @names_taken_by_user_symbols(%d: tensor<10x4xf32>, %i: tensor<5xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<10x4xf32>, tensor<5xi64> into tensor<5x4xf32> loc("model.mlir":3:8)
  return %r : tensor<5x4xf32>
}
