// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file -verify-diagnostics
// RUN: not gather-opt %s --convert-gather-to-linalg=target-cpu=pentium9 --split-input-file 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: unknown target CPU 'pentium9' (native, or an x86-64 CPU name LLVM knows: x86-64-v3, znver4, skylake-avx512, ...)

// expected-error @+1 {{the target description's CPU entry "L2_cache_size_in_bytes" must be a positive integer, got 0 : i64}}
module @l2_cache_not_positive attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 0 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "max_vector_op_width" must be a positive integer multiple of 64, got 100 : i64}}
module @vector_width_not_multiple_of_64 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 100 : i64>>} {
}

// -----

// expected-error @+1 {{the target description's CPU entry "cores" must be a positive integer, got "two"}}
module @cores_not_an_integer attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = "two">>} {
}
