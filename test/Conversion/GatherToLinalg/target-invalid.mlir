// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file -verify-diagnostics
// RUN: not gather-opt %s --convert-gather-to-linalg=target-cpu=pentium9 --split-input-file 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: unknown target CPU 'pentium9' (native, or an x86-64, AArch64 or RISC-V 64 CPU name LLVM knows: x86-64-v3, znver4, skylake-avx512, neoverse-n1, sifive-x280, ...)
// RUN: not gather-opt %S/block-tiles.mlir --convert-gather-to-linalg=vector-bits=8192 --split-input-file 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: error: vector-bits must be a positive multiple of 64 up to 4096, got 8192

// expected-error @+1 {{the target description's CPU entry "L2_cache_size_in_bytes" must be an integer in [1024, 1099511627776], got 0 : i64}}
module @l2_cache_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "max_vector_op_width" must be a multiple of 64 in [64, 4096], got 100 : i64}}
module @vector_width_not_multiple_of_64 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 100 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "vector_unit_width" must be a multiple of 64 in [64, 4096], got 96 : i64}}
module @vector_unit_width_not_multiple_of_64 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"vector_unit_width" = 96 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "cores" must be an integer in [1, 1048576], got "two"}}
module @cores_not_an_integer attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = "two">>} {
}

// -----

// Found by the fuzzer: a line of 2^63 - 1 bytes made the prefetch plan
// divide by zero.
// expected-error @+1 {{the target description's CPU entry "cache_line_size_in_bytes" must be a power of two in [8, 4096], got 9223372036854775807 : i64}}
module @cache_line_too_long attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache_line_size_in_bytes" = 9223372036854775807 : i64>>} {
  func.func @f(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
    %e = tensor.empty() : tensor<8192x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
    return %r : tensor<8192x768xf32>
  }
}

// -----

// expected-error @+1 {{the target description's CPU entry "page_size_in_bytes" must be a power of two in [256, 1073741824], got 3000 : i64}}
module @page_not_a_power_of_two attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"page_size_in_bytes" = 3000 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "prefetch_offset_tables" must be an integer in [0, 2], got 3 : i64}}
module @prefetch_offset_tables_not_a_level attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_offset_tables" = 3 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "mesh_l3" must be an integer in [0, 1], got -1 : i64}}
module @mesh_l3_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"mesh_l3" = -1 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "gather_offset_rows" must be an integer in [0, 1], got 2 : i64}}
module @gather_offset_rows_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 2 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "prefetch_index_streams" must be an integer in [0, 2], got 3 : i64}}
module @prefetch_index_streams_not_a_level attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 3 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "prefetch_blocks_l2" must be an integer in [0, 1], got 2 : i64}}
module @prefetch_blocks_l2_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_blocks_l2" = 2 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "nontemporal_stores" must be an integer in [0, 1], got 2 : i64}}
module @nontemporal_stores_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"nontemporal_stores" = 2 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "tile_blocks" must be an integer in [1, 64], got 0 : i64}}
module @tile_blocks_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_blocks" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "tile_max_block_lines" must be an integer in [1, 64], got 65 : i64}}
module @tile_max_block_lines_above_64 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_max_block_lines" = 65 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "prefetch_block_lines" must be an integer in [1, 4096], got 0 : i64}}
module @prefetch_block_lines_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_block_lines" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "prefetch_lines_ahead" must be an integer in [1, 1048576], got 0 : i64}}
module @prefetch_lines_ahead_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_lines_ahead" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "streamed_vector_copy_bytes" must be an integer in [1, 1099511627776], got 0 : i64}}
module @streamed_vector_copy_bytes_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"streamed_vector_copy_bytes" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "offset_tile_bytes" must be an integer in [1, 1099511627776], got 0 : i64}}
module @offset_tile_bytes_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"offset_tile_bytes" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "offset_chunk_bytes" must be an integer in [8, 1048576], got 4 : i64}}
module @offset_chunk_bytes_below_one_offset attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"offset_chunk_bytes" = 4 : i64>>} {
}

// -----

// A chunk is a stack buffer of each thread: at most 1 MiB.
// expected-error @+1 {{the target description's CPU entry "offset_chunk_bytes" must be an integer in [8, 1048576], got 2097152 : i64}}
module @offset_chunk_bytes_above_a_mib attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"offset_chunk_bytes" = 2097152 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "long_offset_tiles" must be an integer in [0, 1], got 2 : i64}}
module @long_offset_tiles_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"long_offset_tiles" = 2 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "collect_offset_rows" must be an integer in [0, 1], got 2 : i64}}
module @collect_offset_rows_not_0_or_1 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 2 : i64>>} {
}
