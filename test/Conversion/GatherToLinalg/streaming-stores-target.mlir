// Non-temporal stores are the target's (CpuTarget::nonTemporalStores): an
// x86-64 CPU has them, an AArch64 CPU (neoverse-n1) not unless the DLTI
// entry nontemporal_stores says so, and the entry turns them off on x86.
// Each module describes a 64 KiB L3: outputs of 32 KiB or more stream.
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=x86-64-v3 --split-input-file | FileCheck %s --check-prefix=X86
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=neoverse-n1 --split-input-file | FileCheck %s --check-prefix=ARM

// X86-LABEL: func.func @target_default
// X86:         scf.forall
// X86:         } {gather.streaming_stores = 32768 : i64}
// ARM-LABEL: func.func @target_default
// ARM-NOT:     gather.streaming_stores
// ARM:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64>>} {
  func.func @target_default(%d: tensor<300x768xf32>, %i: tensor<40xi64>) -> tensor<40x768xf32> {
    %e = tensor.empty() : tensor<40x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<40xi64> into tensor<40x768xf32>
    return %r : tensor<40x768xf32>
  }
}

// -----

// X86-LABEL: func.func @entry_off
// X86-NOT:     gather.streaming_stores
// X86:         return
// ARM-LABEL: func.func @entry_off
// ARM-NOT:     gather.streaming_stores
// ARM:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "nontemporal_stores" = 0 : i64>>} {
  func.func @entry_off(%d: tensor<300x768xf32>, %i: tensor<40xi64>) -> tensor<40x768xf32> {
    %e = tensor.empty() : tensor<40x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<40xi64> into tensor<40x768xf32>
    return %r : tensor<40x768xf32>
  }
}

// -----

// X86-LABEL: func.func @entry_on
// X86:         } {gather.streaming_stores = 32768 : i64}
// ARM-LABEL: func.func @entry_on
// ARM:         scf.forall
// ARM:           vector.transfer_write {{.*}} vector<4xf32>
// ARM:         } {gather.streaming_stores = 32768 : i64}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "nontemporal_stores" = 1 : i64>>} {
  func.func @entry_on(%d: tensor<300x768xf32>, %i: tensor<40xi64>) -> tensor<40x768xf32> {
    %e = tensor.empty() : tensor<40x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<40xi64> into tensor<40x768xf32>
    return %r : tensor<40x768xf32>
  }
}
