// Block copies whose rows are whole cache lines copied with vector
// registers, and vector rows of whole lines, are marked for non-temporal
// stores (gather.streaming_stores, carried out by gather-streaming-stores)
// where the output may reach half of the L3: here the description's 64 KiB
// L3, so 32 KiB. A dynamic size is marked and compared at run time.
// RUN: gather-opt %s --convert-gather-to-linalg=report-forms --split-input-file -verify-diagnostics | FileCheck %s

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64>>} {
  // 40 rows of 3 KiB: 120 KiB.
  // CHECK-LABEL: func.func @rows_over_half_the_l3
  // CHECK:         scf.forall
  // CHECK:           vector.transfer_write
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  func.func @rows_over_half_the_l3(%d: tensor<300x768xf32>, %i: tensor<40xi64>) -> tensor<40x768xf32> {
    %e = tensor.empty() : tensor<40x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<40xi64> into tensor<40x768xf32>
    return %r : tensor<40x768xf32>
  }

  // 10 rows of 3 KiB: 30 KiB, under half the L3.
  // CHECK-LABEL: func.func @rows_under_half_the_l3
  // CHECK-NOT:     gather.streaming_stores
  // CHECK:         return
  func.func @rows_under_half_the_l3(%d: tensor<300x768xf32>, %i: tensor<10xi64>) -> tensor<10x768xf32> {
    %e = tensor.empty() : tensor<10x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<10xi64> into tensor<10x768xf32>
    return %r : tensor<10x768xf32>
  }

  // A run-time number of rows.
  // CHECK-LABEL: func.func @rows_dynamic_count
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  func.func @rows_dynamic_count(%d: tensor<300x768xf32>, %i: tensor<?xi64>) -> tensor<?x768xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %i, %c0 : tensor<?xi64>
    %e = tensor.empty(%n) : tensor<?x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<?xi64> into tensor<?x768xf32>
    return %r : tensor<?x768xf32>
  }

  // Rows of 400 bytes: a line shared by two rows would be written partly
  // past the caches and partly through them.
  // CHECK-LABEL: func.func @rows_not_whole_lines
  // CHECK-NOT:     gather.streaming_stores
  // CHECK:         return
  func.func @rows_not_whole_lines(%d: tensor<300x100xf32>, %i: tensor<400xi64>) -> tensor<400x100xf32> {
    %e = tensor.empty() : tensor<400x100xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x100xf32>, tensor<400xi64> into tensor<400x100xf32>
    return %r : tensor<400x100xf32>
  }

  // Tiled blocks of 256-byte rows copied in registers (W7's form): 256 KiB.
  // CHECK-LABEL: func.func @tiles_in_registers
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  func.func @tiles_in_registers(%d: tensor<300x64xf32>, %i: tensor<1024xi64>) -> tensor<1024x64xf32> {
    %e = tensor.empty() : tensor<1024x64xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x64xf32>, tensor<1024xi64> into tensor<1024x64xf32>
    return %r : tensor<1024x64xf32>
  }

  // Element gathers whose output rows are written a vector at a time (W3's
  // form): 64 rows of 1 KiB. Rows of a run-time length are marked too, with
  // the line they must be a multiple of at run time.
  // CHECK-LABEL: func.func @vector_rows
  // CHECK:         vector.gather
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  // CHECK:         vector.gather
  // CHECK:         } {gather.streaming_row_bytes = 64 : i64, gather.streaming_stores = 32768 : i64}
  // CHECK:         return
  func.func @vector_rows(%d: tensor<64x512xf32>, %i: tensor<64x256xi64>, %dd: tensor<64x?xf32>, %di: tensor<64x?xi64>) -> (tensor<64x256xf32>, tensor<64x?xf32>) {
    %e = tensor.empty() : tensor<64x256xf32>
    // expected-remark @+1 {{lowered as vector-rows}}
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<64x512xf32>, tensor<64x256xi64> into tensor<64x256xf32>
    %c1 = arith.constant 1 : index
    %n = tensor.dim %di, %c1 : tensor<64x?xi64>
    %f = tensor.empty(%n) : tensor<64x?xf32>
    // expected-remark @+1 {{lowered as vector-rows}}
    %s = gather.elements %dd[%di] axis = 1 into %f : tensor<64x?xf32>, tensor<64x?xi64> into tensor<64x?xf32>
    return %r, %s : tensor<64x256xf32>, tensor<64x?xf32>
  }

  // Offset-table rows (an NHWC lookup of (n, c) pairs, W5's form): where
  // the output streams (8 index rows: 32 KiB), each row's elements are
  // collected a register at a time (16 f32 under the default 512 bits) and
  // written as one, which can stream; under the threshold (4 index rows: 16
  // KiB), one scalar store per element.
  // CHECK-LABEL: func.func @offset_table_rows
  // CHECK:         scf.forall
  // CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c16
  // CHECK-COUNT-16:    tensor.extract %{{.*}} : tensor<{{[0-9]+}}xf32>
  // CHECK:             %[[V:.*]] = vector.from_elements {{.*}} : vector<16xf32>
  // CHECK:             vector.transfer_write %[[V]], %{{.*}}[%c0, %c0, %c0, %[[R]]] {in_bounds = [true]}
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  // CHECK-NOT:     vector.from_elements
  // CHECK:         scf.forall
  // CHECK:           tensor.insert
  // CHECK-NOT:     gather.streaming_stores
  // CHECK:         return
  func.func @offset_table_rows(%d: tensor<4x8x8x64xf32>, %i: tensor<8x1x1x32xi64>, %j: tensor<4x1x1x32xi64>) -> (tensor<8x8x8x16xf32>, tensor<4x8x8x16xf32>) {
    %e = tensor.empty() : tensor<8x8x8x16xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-table}}
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<4x8x8x64xf32>, tensor<8x1x1x32xi64> into tensor<8x8x8x16xf32>
    %f = tensor.empty() : tensor<4x8x8x16xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-table}}
    %s = gather.multiaxis %d[%j] axes = [0, 3] into %f : tensor<4x8x8x64xf32>, tensor<4x1x1x32xi64> into tensor<4x8x8x16xf32>
    return %r, %s : tensor<8x8x8x16xf32>, tensor<4x8x8x16xf32>
  }

  // Offset-table rows of a run-time length: whole registers up to the
  // row's last, then the rest an element at a time; marked, with the line.
  // CHECK-LABEL: func.func @offset_table_dynamic_rows
  // CHECK:         scf.forall
  // CHECK:           %[[Q:.*]] = arith.divui %[[LEN:.*]], %c16
  // CHECK:           %[[END:.*]] = arith.muli %[[Q]], %c16
  // CHECK:           scf.for %[[R:.*]] = %c0 to %[[END]] step %c16
  // CHECK:             vector.from_elements {{.*}} : vector<16xf32>
  // CHECK:             vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0, %c0, %[[R]]]
  // CHECK:           scf.for %[[J:.*]] = %[[END]] to %[[LEN]] step %c1
  // CHECK:             tensor.insert %{{.*}} into %{{.*}}[%c0, %c0, %c0, %[[J]]]
  // CHECK:         } {gather.streaming_row_bytes = 64 : i64, gather.streaming_stores = 32768 : i64}
  func.func @offset_table_dynamic_rows(%d: tensor<4x8x8x64xf32>, %i: tensor<8x1x1x?xi64>, %e: tensor<8x8x8x?xf32>) -> tensor<8x8x8x?xf32> {
    // expected-remark @+1 {{lowered as vector-rows offset-table}}
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<4x8x8x64xf32>, tensor<8x1x1x?xi64> into tensor<8x8x8x?xf32>
    return %r : tensor<8x8x8x?xf32>
  }

  // Block rows of a run-time length (in registers where a row is a line to
  // a page): marked, with the line.
  // CHECK-LABEL: func.func @dynamic_rows
  // CHECK:         vector.create_mask
  // CHECK:         } {gather.streaming_row_bytes = 64 : i64, gather.streaming_stores = 32768 : i64}
  func.func @dynamic_rows(%d: tensor<300x?xf32>, %i: tensor<40xi64>, %e: tensor<40x?xf32>) -> tensor<40x?xf32> {
    // expected-remark @+1 {{lowered as block-copy vector-rows run-time-length}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x?xf32>, tensor<40xi64> into tensor<40x?xf32>
    return %r : tensor<40x?xf32>
  }

  // Tiled blocks of 32-byte rows (not in registers) and blocks of 64 KiB
  // (twice the L1d: one memcpy each): not marked.
  // CHECK-LABEL: func.func @short_rows_and_memcpy_blocks
  // CHECK-NOT:     gather.streaming_stores
  // CHECK:         return
  func.func @short_rows_and_memcpy_blocks(%d: tensor<300x8xf32>, %i: tensor<8192xi64>, %w: tensor<30x16384xf32>, %j: tensor<8xi64>) -> (tensor<8192x8xf32>, tensor<8x16384xf32>) {
    %e = tensor.empty() : tensor<8192x8xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x8xf32>, tensor<8192xi64> into tensor<8192x8xf32>
    %f = tensor.empty() : tensor<8x16384xf32>
    // expected-remark @+1 {{lowered as block-copy slices}}
    %s = gather.block %w[%j] axis = 0 into %f : tensor<30x16384xf32>, tensor<8xi64> into tensor<8x16384xf32>
    return %r, %s : tensor<8192x8xf32>, tensor<8x16384xf32>
  }

  // Blocks of 8 KiB, over a page but under twice the L1d: vector rows,
  // marked.
  // CHECK-LABEL: func.func @long_rows_streamed
  // CHECK:         } {gather.streaming_stores = 32768 : i64}
  func.func @long_rows_streamed(%w: tensor<30x2048xf32>, %j: tensor<64xi64>) -> tensor<64x2048xf32> {
    %f = tensor.empty() : tensor<64x2048xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %s = gather.block %w[%j] axis = 0 into %f : tensor<30x2048xf32>, tensor<64xi64> into tensor<64x2048xf32>
    return %s : tensor<64x2048xf32>
  }
}

// -----

// Without a description the L3 is 32 MiB (the default): outputs of 16 MiB
// or more are marked, read from inputs of 16 MiB or more (36.9 MB here).
// CHECK-LABEL: func.func @default_l3
// CHECK:         } {gather.streaming_stores = 16777216 : i64}
// CHECK-NOT:     gather.streaming_stores
// CHECK:         return
func.func @default_l3(%d: tensor<12000x768xf32>, %i: tensor<8192xi64>, %j: tensor<2048xi64>) -> (tensor<8192x768xf32>, tensor<2048x768xf32>) {
  %e = tensor.empty() : tensor<8192x768xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<12000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
  %f = tensor.empty() : tensor<2048x768xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows}}
  %s = gather.block %d[%j] axis = 0 into %f : tensor<12000x768xf32>, tensor<2048xi64> into tensor<2048x768xf32>
  return %r, %s : tensor<8192x768xf32>, tensor<2048x768xf32>
}

// -----

// From a table under half the L3 (9.2 MB against 32 MiB) a 25 MB output is
// not marked: rows written through the caches kept the whole working set in
// the L3 (CpuTarget::streamingInputMinBytes). A 50 MB output (the L3 or
// more) is.
// CHECK-LABEL: func.func @default_l3_cached_table
// CHECK-NOT:     gather.streaming_stores
// CHECK:         return
func.func @default_l3_cached_table(%d: tensor<3000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
  %e = tensor.empty() : tensor<8192x768xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<3000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
  return %r : tensor<8192x768xf32>
}
// CHECK-LABEL: func.func @default_l3_small_table_large_output
// CHECK:         } {gather.streaming_stores = 16777216 : i64}
func.func @default_l3_small_table_large_output(%d: tensor<3000x768xf32>, %i: tensor<16384xi64>) -> tensor<16384x768xf32> {
  %e = tensor.empty() : tensor<16384x768xf32>
  // expected-remark @+1 {{lowered as block-copy vector-rows}}
  %r = gather.block %d[%i] axis = 0 into %e : tensor<3000x768xf32>, tensor<16384xi64> into tensor<16384x768xf32>
  return %r : tensor<16384x768xf32>
}

// -----

// With a mesh L3 (Intel's Sapphire Rapids generation: the DLTI entry
// mesh_l3, or target-cpu=emeraldrapids) outputs of four L2s or more are
// marked, whatever the L3 and the input: here 4 x 2 MiB = 8 MiB under a
// 300 MiB L3, so the 12 MiB output is marked and the 6 MiB one is not.
// CHECK-LABEL: func.func @mesh_l3
// CHECK:         } {gather.streaming_stores = 8388608 : i64}
// CHECK-NOT:     gather.streaming_stores
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"mesh_l3" = 1 : i64, "L2_cache_size_in_bytes" = 2097152 : i64, "L3_cache_size_in_bytes" = 314572800 : i64>>} {
  func.func @mesh_l3(%d: tensor<3000x768xf32>, %i: tensor<4096xi64>, %j: tensor<2048xi64>) -> (tensor<4096x768xf32>, tensor<2048x768xf32>) {
    %e = tensor.empty() : tensor<4096x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<3000x768xf32>, tensor<4096xi64> into tensor<4096x768xf32>
    %f = tensor.empty() : tensor<2048x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %s = gather.block %d[%j] axis = 0 into %f : tensor<3000x768xf32>, tensor<2048xi64> into tensor<2048x768xf32>
    return %r, %s : tensor<4096x768xf32>, tensor<2048x768xf32>
  }
}

// -----

// With a mesh L3 rows stream only from a table of half the L2 or more
// (CpuTarget::streamingInputMinBytes): a 960 KiB table (320 rows of 3 KiB,
// under 1 MiB) into a 24 MiB output is not marked, a 1 MiB one (the bound)
// is.
// CHECK-LABEL: func.func @mesh_l3_table_under_half_the_l2
// CHECK-NOT:     gather.streaming_stores
// CHECK-LABEL: func.func @mesh_l3_table_of_half_the_l2
// CHECK:         } {gather.streaming_stores = 8388608 : i64}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"mesh_l3" = 1 : i64, "L2_cache_size_in_bytes" = 2097152 : i64, "L3_cache_size_in_bytes" = 314572800 : i64>>} {
  func.func @mesh_l3_table_under_half_the_l2(%d: tensor<320x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    // expected-remark @+1 {{lowered as block-copy vector-rows}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<320x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
  func.func @mesh_l3_table_of_half_the_l2(%d: tensor<4096x64xf32>, %i: tensor<65536xi64>) -> tensor<65536x64xf32> {
    %e = tensor.empty() : tensor<65536x64xf32>
    // expected-remark @+1 {{lowered as block-copy tiles}}
    %r = gather.block %d[%i] axis = 0 into %e : tensor<4096x64xf32>, tensor<65536xi64> into tensor<65536x64xf32>
    return %r : tensor<65536x64xf32>
  }
}
