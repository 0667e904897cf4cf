// Offset-table rows in tiles: where the indices broadcast along the
// innermost loop that moves along the input (an NHWC image's columns) and
// index rows loop inside it, that loop runs in tiles of pixels, each index
// row walking the whole tile: it writes a run of the tile's output rows,
// and the tile's pixels stay in cache for the next index row. A tile holds
// as many pixels as keep their reads, counted a cache line each but at most
// the lines of the image slice they range over, within twice the L1 data
// cache (32 KiB by default): the largest such count that divides the
// dimension, at least 2.
// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file | FileCheck %s

// W5 of bench/run.py: 8 x 16 reads a pixel (8 KiB counted); a 32 KiB L1
// (DLTI) has room for 8 pixels: 7 tiles of the 56 columns.
// CHECK-LABEL: func.func @pixels_in_tiles
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[OUT:.*]] = scf.forall (%[[H:[^ ]*]], %[[T:[^ ]*]], %[[R:[^ ]*]]) in (56, 7, 8) shared_outs(%[[SHARED:[^ ]*]] =
// CHECK:           %[[START:.*]] = arith.muli %[[T]], %[[C8]] : index
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %[[SHARED]][%[[R]], %[[H]], %[[START]], 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<8x56x56x16xf32> to tensor<1x1x8x16xf32>
// CHECK:           %[[ROWS:.*]] = scf.for %[[X:[^ ]*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[ACC:[^ ]*]] = %[[TILE]])
// CHECK:             %[[ROW:.*]] = tensor.extract_slice %[[ACC]][0, 0, %[[X]], 0] [1, 1, 1, 16]
// CHECK:             scf.for
// CHECK:             tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, %[[X]], 0] [1, 1, 1, 16]
// CHECK:           tensor.parallel_insert_slice %[[ROWS]] into %[[SHARED]][%[[R]], %[[H]], %[[START]], 0] [1, 1, 8, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @pixels_in_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

}

// -----

// The default 32 KiB L1: room for 8 pixels, as above.
// CHECK-LABEL: func.func @default_caches_tiles_of_8
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 8, 16]
func.func @default_caches_tiles_of_8(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

// -----

// A 256 KiB L1 (DLTI): room for 64 pixels, one tile spans the 56.
// CHECK-LABEL: func.func @larger_cache_tile_spans_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 1, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 56, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 262144 : i64>>} {
func.func @larger_cache_tile_spans_row(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}
}

// -----

// A 16 KiB L1 (DLTI): tiles of 4 pixels.
// CHECK-LABEL: func.func @smaller_cache_smaller_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 14, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 4, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 16384 : i64>>} {
func.func @smaller_cache_smaller_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}
}

// -----

// W5x64: 64 x 16 reads a pixel (64 KiB counted), but in the 128 lines
// (8 KiB) of the pixel's 32 channel rows: with a 32 KiB L1, tiles of 8, as
// W5's.
// CHECK-LABEL: func.func @reads_counted_at_most_the_slice_lines
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 64)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 8, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @reads_counted_at_most_the_slice_lines(%d: tensor<32x56x56x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
  %e = tensor.empty() : tensor<64x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
  return %r : tensor<64x56x56x16xf32>
}

}

// -----

// Indices that change along the columns: a table row per pixel, no tiles.
// CHECK-LABEL: func.func @indices_vary_along_pixels_no_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 56, 8)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
func.func @indices_vary_along_pixels_no_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x56x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x56x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

// -----

// One index row: nothing loops inside the pixels, no tiles.
// CHECK-LABEL: func.func @one_index_row_no_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 56, 1)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
func.func @one_index_row_no_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<1x1x1x32xi64>) -> tensor<1x56x56x16xf32> {
  %e = tensor.empty() : tensor<1x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<1x1x1x32xi64> into tensor<1x56x56x16xf32>
  return %r : tensor<1x56x56x16xf32>
}

// -----

// 12 columns and room for 8 pixels (32 KiB L1): tiles of 6, the largest
// count within the budget that divides the columns.
// CHECK-LABEL: func.func @tile_divides_columns
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 2, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 6, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @tile_divides_columns(%d: tensor<32x56x12x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x12x16xf32> {
  %e = tensor.empty() : tensor<8x56x12x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x12x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x12x16xf32>
  return %r : tensor<8x56x12x16xf32>
}

}

// -----

// 7 columns: one tile spans the row.
// CHECK-LABEL: func.func @tile_spans_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 1, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 7, 16]
func.func @tile_spans_row(%d: tensor<32x56x7x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x7x16xf32> {
  %e = tensor.empty() : tensor<8x56x7x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x7x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x7x16xf32>
  return %r : tensor<8x56x7x16xf32>
}

// -----

// 13 columns and room for 8 pixels (32 KiB L1): nothing from 2 to 8
// divides them, no tiles.
// CHECK-LABEL: func.func @prime_columns_no_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 13, 8)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @prime_columns_no_tiles(%d: tensor<32x56x13x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x13x16xf32> {
  %e = tensor.empty() : tensor<8x56x13x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x13x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x13x16xf32>
  return %r : tensor<8x56x13x16xf32>
}
}

// -----

// A 256 GiB L1 (DLTI) would leave room for 2^26 pixels: tiles stop at 4096,
// which bounds the search for a divisor.
// CHECK-LABEL: func.func @tile_at_most_4096
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 2, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 4096, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 274877906944 : i64>>} {
func.func @tile_at_most_4096(%d: tensor<32x2x8192x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x2x8192x16xf32> {
  %e = tensor.empty() : tensor<8x2x8192x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x2x8192x64xf32>, tensor<8x1x1x32xi64> into tensor<8x2x8192x16xf32>
  return %r : tensor<8x2x8192x16xf32>
}
}

// -----

// The same L1 and 2^31 - 1 columns (a prime): no divisor from 2 to 4096, no
// tiles, found in at most 4096 steps.
// CHECK-LABEL: func.func @prime_beyond_4096_no_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 2147483647, 8)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 274877906944 : i64>>} {
func.func @prime_beyond_4096_no_tiles(%d: tensor<32x2x2147483647x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x2x2147483647x16xf32> {
  %e = tensor.empty() : tensor<8x2x2147483647x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x2x2147483647x64xf32>, tensor<8x1x1x32xi64> into tensor<8x2x2147483647x16xf32>
  return %r : tensor<8x2x2147483647x16xf32>
}
}

// -----

// Long tiles (DLTI "long_offset_tiles", Zen 1 and Zen 2's choice): W5's 128
// reads a pixel are fewer than 4 a line of its 128-line slice, so its tiles
// fill half the L2 (256 KiB of 512 KiB: 32 pixels), the largest count
// dividing 56 within it: 28.
// CHECK-LABEL: func.func @few_reads_long_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 2, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 28, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 1 : i64, "L2_cache_size_in_bytes" = 524288 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @few_reads_long_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}
}

// -----

// 31 index rows: 496 reads, still fewer than 4 a line (512): long tiles.
// CHECK-LABEL: func.func @just_under_four_reads_a_line
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 2, 31)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 28, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 1 : i64, "L2_cache_size_in_bytes" = 524288 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @just_under_four_reads_a_line(%d: tensor<32x56x56x64xf32>, %i: tensor<31x1x1x32xi64>) -> tensor<31x56x56x16xf32> {
  %e = tensor.empty() : tensor<31x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<31x1x1x32xi64> into tensor<31x56x56x16xf32>
  return %r : tensor<31x56x56x16xf32>
}
}

// -----

// 32 index rows read each of the 128 lines 4 times: tiles within twice the
// L1, as without long tiles (W5x32 ran 1.02-1.04x faster in tiles of 28 on
// a Zen 2, W5x64 0.90x).
// CHECK-LABEL: func.func @four_reads_a_line_keeps_l1_tiles
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 32)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 8, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 1 : i64, "L2_cache_size_in_bytes" = 524288 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @four_reads_a_line_keeps_l1_tiles(%d: tensor<32x56x56x64xf32>, %i: tensor<32x1x1x32xi64>) -> tensor<32x56x56x16xf32> {
  %e = tensor.empty() : tensor<32x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<32x1x1x32xi64> into tensor<32x56x56x16xf32>
  return %r : tensor<32x56x56x16xf32>
}
}

// -----

// Along a dynamic column count the long budget's count (32 pixels), the
// last tile partial.
// CHECK-LABEL: func.func @few_reads_dynamic_columns
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[TILES:.*]] = arith.ceildivui %{{.*}}, %[[C32]] : index
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, %[[TILES]], 8)
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 1 : i64, "L2_cache_size_in_bytes" = 524288 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
func.func @few_reads_dynamic_columns(%d: tensor<32x56x?x64xf32>, %i: tensor<8x1x1x32xi64>, %e: tensor<8x56x?x16xf32>) -> tensor<8x56x?x16xf32> {
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x?x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x?x16xf32>
  return %r : tensor<8x56x?x16xf32>
}
}

// -----

// "offset_tile_bytes" gives the budget for every pixel: 32 KiB, tiles of 4
// for W5 even with long tiles, and for W5x64.
// CHECK-LABEL: func.func @given_budget
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 14, 8)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 4, 16]
// CHECK-LABEL: func.func @given_budget_many_reads
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 14, 64)
// CHECK:           tensor.extract_slice {{.*}} [1, 1, 4, 16]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 1 : i64, "offset_tile_bytes" = 32768 : i64>>} {
func.func @given_budget(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}
func.func @given_budget_many_reads(%d: tensor<32x56x56x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
  %e = tensor.empty() : tensor<64x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
  return %r : tensor<64x56x56x16xf32>
}
}
