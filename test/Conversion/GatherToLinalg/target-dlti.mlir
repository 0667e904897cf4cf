// A #dlti.target_system_spec on the module describes the CPU (device "CPU"):
// each entry overrides the target-cpu option's value, and the vector-bits
// option overrides the description's width.
// RUN: gather-opt %s --convert-gather-to-linalg=report-forms --split-input-file -verify-diagnostics | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="report-forms target-cpu=x86-64-v4" --split-input-file -verify-diagnostics | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=OPTION

// CHECK-LABEL:  func.func @width_from_the_description
// CHECK:          vector.gather {{.*}} into vector<8xf32>
// OPTION-LABEL: func.func @width_from_the_description
// OPTION:         vector.gather {{.*}} into vector<16xf32>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 256 : i64>>} {
  func.func @width_from_the_description(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
    %e = tensor.empty() : tensor<8x32xf32>
    // expected-remark @+1 {{lowered as vector-rows}}
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
    return %r : tensor<8x32xf32>
  }
}

// -----

// Vector units of 128 bits (Zen 1's): tiles of 4 small blocks, whatever the
// register width.
// CHECK-LABEL: func.func @narrow_vector_units
// CHECK:         vector.reduction <or>, %{{.*}} : vector<4xindex> into index
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [1, 2, 3, 0] : vector<4xindex>, vector<4xindex>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"vector_unit_width" = 128 : i64>>} {
  func.func @narrow_vector_units(%d: tensor<2x8x8x4xf32>, %i: tensor<2x40x2xi64>) -> tensor<2x40x4xf32> {
    %e = tensor.empty() : tensor<2x40x4xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x8x8x4xf32>, tensor<2x40x2xi64> into tensor<2x40x4xf32>
    return %r : tensor<2x40x4xf32>
  }
}

// -----

// "tile_blocks" gives the tile instead of the vector units: 16 blocks where
// AVX-512 registers give 8.
// CHECK-LABEL: func.func @tile_blocks_given
// CHECK:         vector.reduction <or>, %{{.*}} : vector<16xindex> into index
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0] : vector<16xindex>, vector<16xindex>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_blocks" = 16 : i64>>} {
  func.func @tile_blocks_given(%d: tensor<2x8x8x4xf32>, %i: tensor<2x40x2xi64>) -> tensor<2x40x4xf32> {
    %e = tensor.empty() : tensor<2x40x4xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x8x8x4xf32>, tensor<2x40x2xi64> into tensor<2x40x4xf32>
    return %r : tensor<2x40x4xf32>
  }
}

// -----

// "tile_blocks" 1: no tiles, the blocks copied one at a time.
// CHECK-LABEL: func.func @tile_blocks_one_no_tiles
// CHECK-NOT:     vector.shuffle
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_blocks" = 1 : i64>>} {
  func.func @tile_blocks_one_no_tiles(%d: tensor<2x8x8x4xf32>, %i: tensor<2x40x2xi64>) -> tensor<2x40x4xf32> {
    %e = tensor.empty() : tensor<2x40x4xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x8x8x4xf32>, tensor<2x40x2xi64> into tensor<2x40x4xf32>
    return %r : tensor<2x40x4xf32>
  }
}

// -----

// Blocks of 4 lines (W7's 256-byte rows) go in tiles under the default 4
// lines, a row at a time under "tile_max_block_lines" 2 (Zen 2's), and 2
// lines still in tiles.
// CHECK-LABEL: func.func @four_line_rows
func.func @four_line_rows(%d: tensor<100x64xf32>, %i: tensor<40xi64>) -> tensor<40x64xf32> {
  %e = tensor.empty() : tensor<40x64xf32>
  // expected-remark @+1 {{lowered as block-copy tiles}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x64xf32>, tensor<40xi64> into tensor<40x64xf32>
  return %r : tensor<40x64xf32>
}

// -----

// CHECK-LABEL: func.func @four_line_rows_two_lines_at_most
// CHECK-LABEL: func.func @two_line_rows_two_lines_at_most
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_max_block_lines" = 2 : i64>>} {
  func.func @four_line_rows_two_lines_at_most(%d: tensor<100x64xf32>, %i: tensor<40xi64>) -> tensor<40x64xf32> {
    %e = tensor.empty() : tensor<40x64xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<100x64xf32>, tensor<40xi64> into tensor<40x64xf32>
    return %r : tensor<40x64xf32>
  }
  func.func @two_line_rows_two_lines_at_most(%d: tensor<100x32xf32>, %i: tensor<40xi64>) -> tensor<40x32xf32> {
    %e = tensor.empty() : tensor<40x32xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<100x32xf32>, tensor<40xi64> into tensor<40x32xf32>
    return %r : tensor<40x32xf32>
  }
}

// -----

// A 64 KiB table is prefetched where the L2 cache is smaller than it.
// CHECK-LABEL: func.func @small_l2
// CHECK:         memref.prefetch
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 32768 : i64>>} {
  func.func @small_l2(%d: tensor<64x256xf32>, %i: tensor<8192xi64>) -> tensor<8192x256xf32> {
    %e = tensor.empty() : tensor<8192x256xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<64x256xf32>, tensor<8192xi64> into tensor<8192x256xf32>
    return %r : tensor<8192x256xf32>
  }
}

// -----

// A 16 KiB L1d (64 lines ahead, a quarter of it): one 3 KiB row ahead
// instead of two.
// CHECK-LABEL: func.func @small_l1
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.forall (%[[K:.*]]) in (8192)
// CHECK:           arith.addi %[[K]], %[[C1]] : index
// CHECK-COUNT-16:  memref.prefetch
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %c767]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.forall.in_parallel
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 16384 : ui32>>} {
  func.func @small_l1(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
}

// -----

// A 64 KiB L1d: still 8 KiB in flight (128 lines, not a quarter of it),
// two 3 KiB rows ahead as with 32 KiB.
// CHECK-LABEL: func.func @large_l1
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.forall (%[[K:.*]]) in (8192)
// CHECK:           arith.addi %[[K]], %[[C2]] : index
// CHECK-COUNT-16:  memref.prefetch
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %c767]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.forall.in_parallel
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 65536 : ui32>>} {
  func.func @large_l1(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
}

// -----

// "prefetch_lines_ahead" gives the distance instead of the L1d: 96 lines
// are two 3 KiB rows (48 lines each) ahead, where the 16 KiB L1d alone
// gives one (64 lines, @small_l1).
// CHECK-LABEL: func.func @given_distance
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.forall (%[[K:.*]]) in (8192)
// CHECK:           arith.addi %[[K]], %[[C2]] : index
// CHECK-COUNT-16:  memref.prefetch
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %c767]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.forall.in_parallel
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_lines_ahead" = 96 : i64, "L1_cache_size_in_bytes" = 16384 : i64>>} {
  func.func @given_distance(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
}

// -----

// "prefetch_block_lines" caps the lines prefetched of each row ahead: the
// first 4 of a 3 KiB row's 48, then the line of its last element.
// CHECK-LABEL: func.func @given_block_lines
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C48:.*]] = arith.constant 48 : index
// CHECK:         scf.forall
// CHECK:           memref.prefetch %{{.*}}[%{{.*}}, %c0]
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %[[C16]]]
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %[[C32]]]
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %[[C48]]]
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %c767]
// CHECK-NOT:       memref.prefetch
// CHECK:         scf.forall.in_parallel
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_block_lines" = 4 : i64>>} {
  func.func @given_block_lines(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
}

// -----

// Small blocks in tiles: 32 lines are 8 rows of 256 bytes ahead (the
// default 128 lines, 32 rows).
// CHECK-LABEL: func.func @given_distance_small_blocks
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         arith.addi %{{.*}}, %[[C8]] : index
// CHECK:         memref.prefetch
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_lines_ahead" = 32 : i64>>} {
  func.func @given_distance_small_blocks(%d: tensor<100000x64xf32>, %i: tensor<65536xi64>) -> tensor<65536x64xf32> {
    %e = tensor.empty() : tensor<65536x64xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<100000x64xf32>, tensor<65536xi64> into tensor<65536x64xf32>
    return %r : tensor<65536x64xf32>
  }
}

// -----

// 128-byte lines: 12 lines per 1.5 KiB row (32 elements apart), then the
// line of its last element.
// CHECK-LABEL: func.func @long_lines
// CHECK-DAG:       %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:       %[[C383:.*]] = arith.constant 383 : index
// CHECK:           memref.prefetch %{{.*}}[%{{.*}}, %c0]
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %[[C32]]]
// CHECK-COUNT-10:  memref.prefetch
// CHECK-NEXT:      memref.prefetch %{{.*}}[%{{.*}}, %[[C383]]]
// CHECK-NOT:       memref.prefetch
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache_line_size_in_bytes" = 128 : i64>>} {
  func.func @long_lines(%d: tensor<50000x384xf32>, %i: tensor<8192xi64>) -> tensor<8192x384xf32> {
    %e = tensor.empty() : tensor<8192x384xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x384xf32>, tensor<8192xi64> into tensor<8192x384xf32>
    return %r : tensor<8192x384xf32>
  }
}

// -----

// With 2 KiB pages a 3 KiB row is copied by memcpy (a slice), not inline.
// CHECK-LABEL: func.func @small_pages
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"page_size_in_bytes" = 2048 : i64>>} {
  func.func @small_pages(%d: tensor<100x768xf32>, %i: tensor<4xi32>) -> tensor<4x768xf32> {
    %e = tensor.empty() : tensor<4x768xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<100x768xf32>, tensor<4xi32> into tensor<4x768xf32>
    return %r : tensor<4x768xf32>
  }
}

// -----

// Into a streamed output (a 64 KiB L3 streams outputs of 32 KiB or more)
// from an input beyond the L3, blocks stay vector rows below twice the
// L1d, not only below a page: 8 KiB rows with a 32 KiB L1d, streamed
// (stores that bypass the caches, where memcpy's do not).
// CHECK-LABEL: func.func @streamed_long_rows
// CHECK:         scf.forall
// CHECK:           vector.transfer_read
// CHECK:         {gather.streaming_stores
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
  func.func @streamed_long_rows(%d: tensor<40x2048xf32>, %i: tensor<10xi64>) -> tensor<10x2048xf32> {
    %e = tensor.empty() : tensor<10x2048xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x2048xf32>, tensor<10xi64> into tensor<10x2048xf32>
    return %r : tensor<10x2048xf32>
  }
  // A block of four 4 KiB rows (16 KiB) is within the bound too.
  func.func @streamed_row_blocks(%d: tensor<20x4x1024xf32>, %i: tensor<6xi64>) -> tensor<6x4x1024xf32> {
    %e = tensor.empty() : tensor<6x4x1024xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<20x4x1024xf32>, tensor<6xi64> into tensor<6x4x1024xf32>
    return %r : tensor<6x4x1024xf32>
  }
}

// -----

// From an input under half the L3 (320 KiB against 1 MiB) a 640 KiB output
// does not stream, and the rows keep the page bound: memcpy's cached
// stores kept such working sets in the L3.
// CHECK-LABEL: func.func @streamed_long_rows_from_the_l3
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 1048576 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
  func.func @streamed_long_rows_from_the_l3(%d: tensor<40x2048xf32>, %i: tensor<80xi64>) -> tensor<80x2048xf32> {
    %e = tensor.empty() : tensor<80x2048xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x2048xf32>, tensor<80xi64> into tensor<80x2048xf32>
    return %r : tensor<80x2048xf32>
  }
  // From a table of 1 MiB (half the L3 or more), vector rows.
  func.func @streamed_long_rows_beyond_the_l3(%d: tensor<128x2048xf32>, %i: tensor<80xi64>) -> tensor<80x2048xf32> {
    %e = tensor.empty() : tensor<80x2048xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<128x2048xf32>, tensor<80xi64> into tensor<80x2048xf32>
    return %r : tensor<80x2048xf32>
  }
}

// -----

// The bound is twice the L1d: with a 4 KiB L1d the same 8 KiB rows are
// copied by memcpy.
// CHECK-LABEL: func.func @streamed_rows_of_twice_the_l1d
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "L1_cache_size_in_bytes" = 4096 : i64>>} {
  func.func @streamed_rows_of_twice_the_l1d(%d: tensor<40x2048xf32>, %i: tensor<10xi64>) -> tensor<10x2048xf32> {
    %e = tensor.empty() : tensor<10x2048xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x2048xf32>, tensor<10xi64> into tensor<10x2048xf32>
    return %r : tensor<10x2048xf32>
  }
}

// -----

// "streamed_vector_copy_bytes" gives the bound into a streamed output: 8 KiB
// by memcpy from 8192 on, whatever the L1d.
// CHECK-LABEL: func.func @given_streamed_vector_copy_bytes
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "L1_cache_size_in_bytes" = 32768 : i64, "streamed_vector_copy_bytes" = 8192 : i64>>} {
  func.func @given_streamed_vector_copy_bytes(%d: tensor<40x2048xf32>, %i: tensor<10xi64>) -> tensor<10x2048xf32> {
    %e = tensor.empty() : tensor<10x2048xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x2048xf32>, tensor<10xi64> into tensor<10x2048xf32>
    return %r : tensor<10x2048xf32>
  }
  // Rows of 4 KiB (just under it) stay vector rows.
  func.func @given_streamed_vector_copy_bytes_below(%d: tensor<40x1024xf32>, %i: tensor<20xi64>) -> tensor<20x1024xf32> {
    %e = tensor.empty() : tensor<20x1024xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x1024xf32>, tensor<20xi64> into tensor<20x1024xf32>
    return %r : tensor<20x1024xf32>
  }
}

// -----

// An output that stays in the caches (80 KB against a 32 MiB L3) keeps the
// page bound: 8 KiB rows by memcpy.
// CHECK-LABEL: func.func @cached_long_rows
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 33554432 : i64, "L1_cache_size_in_bytes" = 32768 : i64>>} {
  func.func @cached_long_rows(%d: tensor<40x2048xf32>, %i: tensor<10xi64>) -> tensor<10x2048xf32> {
    %e = tensor.empty() : tensor<10x2048xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<40x2048xf32>, tensor<10xi64> into tensor<10x2048xf32>
    return %r : tensor<10x2048xf32>
  }
}
