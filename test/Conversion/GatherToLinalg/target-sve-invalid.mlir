// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=neoverse-v1 --split-input-file -verify-diagnostics
// An SVE CPU's vector width above NEON's is the length its SVE registers
// guarantee (vscale_range): a power of two, at most SVE's 2048 bits.

// expected-error @+1 {{vector width 384 of the SVE CPU 'neoverse-v1' is not a power of two in [128, 2048] (the length its SVE registers guarantee)}}
module @sve_width_not_power_of_two attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 384 : i64>>} {
  func.func @f(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
    %e = tensor.empty() : tensor<8x32xf32>
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
    return %r : tensor<8x32xf32>
  }
}

// -----

// expected-error @+1 {{vector width 4096 of the SVE CPU 'neoverse-v1' is not a power of two in [128, 2048] (the length its SVE registers guarantee)}}
module @sve_width_above_2048 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 4096 : i64>>} {
  func.func @f(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
    %e = tensor.empty() : tensor<8x32xf32>
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
    return %r : tensor<8x32xf32>
  }
}
