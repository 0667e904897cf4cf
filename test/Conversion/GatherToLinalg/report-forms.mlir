// RUN: gather-opt %s --convert-gather-to-linalg=report-forms -verify-diagnostics -o /dev/null
// The remarks whole (-verify-diagnostics matches a part of the text; the
// expected-remark lines are dropped, or gather-opt would verify them):
// RUN: grep -v expected-remark %s | gather-opt --convert-gather-to-linalg=report-forms -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: remark: lowered as block-copy slices{{$}}
// CHECK-DAG: remark: lowered as block-copy vector-rows{{$}}
// CHECK-DAG: remark: lowered as block-copy vector-rows run-time-length{{$}}
// CHECK-DAG: remark: lowered as block-copy tiles{{$}}
// CHECK-DAG: remark: lowered as vector-rows{{$}}
// CHECK-DAG: remark: lowered as element-loops{{$}}
// CHECK-DAG: remark: lowered as vector-rows offset-table{{$}}
// CHECK-DAG: remark: lowered as block-copy vector-rows coordinate-table{{$}}
// Without the option, no remark.
// RUN: grep -v expected-remark %s | gather-opt --convert-gather-to-linalg -o /dev/null 2>&1 | count 0
// report-forms names the form each gather is lowered to: the differential
// tests count them over random cases (gather_testing.difftest) and fail when
// a fast path is never taken. One function per form.

func.func @block_copy_slices(%d: tensor<100x1024xf32>, %i: tensor<4xi32>) -> tensor<4x1024xf32> {
  %e = tensor.empty() : tensor<4x1024xf32>
  // expected-remark @+1 {{lowered as block-copy slices}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x1024xf32>, tensor<4xi32> into tensor<4x1024xf32>
  return %r : tensor<4x1024xf32>
}
func.func @block_copy_vector_rows(%d: tensor<100x1000xf32>, %i: tensor<4xi32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x1000xf32>, tensor<4xi32> into tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}
func.func @block_copy_vector_rows_run_time_length(%d: tensor<100x?xf32>, %i: tensor<4xi32>, %e: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-remark @+1 {{lowered as block-copy vector-rows run-time-length}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x?xf32>, tensor<4xi32> into tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
func.func @block_copy_tiles(%d: tensor<2x8x8x4xf32>, %i: tensor<2x32x2xi64>) -> tensor<2x32x4xf32> {
  %e = tensor.empty() : tensor<2x32x4xf32>
  // expected-remark @+1 {{lowered as block-copy tiles}}
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x8x8x4xf32>, tensor<2x32x2xi64> into tensor<2x32x4xf32>
  return %r : tensor<2x32x4xf32>
}
func.func @vector_rows(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  // expected-remark @+1 {{lowered as vector-rows}}
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
// Too short a row for vectors: loops over the elements.
func.func @element_loops(%d: tensor<3x5xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  // expected-remark @+1 {{lowered as element-loops}}
  %r = gather.elements %d[%i] axis = 0 into %e : tensor<3x5xf32>, tensor<2x2xi64> into tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
// (n, c) pairs reused by every (h, w) row: resolved once into a table of
// linear offsets.
func.func @offset_table(%d: tensor<4x9x9x7xf32>, %i: tensor<5x1x1x32xi64>) -> tensor<5x9x9x16xf32> {
  %e = tensor.empty() : tensor<5x9x9x16xf32>
  // expected-remark @+1 {{lowered as vector-rows offset-table}}
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<4x9x9x7xf32>, tensor<5x1x1x32xi64> into tensor<5x9x9x16xf32>
  return %r : tensor<5x9x9x16xf32>
}
// 50 indices reused by 450 blocks: resolved once into a table of coordinates.
func.func @coordinate_table(%d: tensor<9x40x64xf32>, %i: tensor<1x50x1xi64>) -> tensor<9x50x64xf32> {
  %e = tensor.empty() : tensor<9x50x64xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows coordinate-table}}
  %r = gather.multiaxis %d[%i] axes = [1] into %e : tensor<9x40x64xf32>, tensor<1x50x1xi64> into tensor<9x50x64xf32>
  return %r : tensor<9x50x64xf32>
}
