// Under prefetch_offset_tables = 2 (Zen 4's, CpuTarget::prefetchOffsetTables)
// offset-table rows prefetch only where a pixel reads each line of its
// slice fewer than 8 times (kOffsetTablePrefetchMaxReadsPerLine): W5's
// pixel makes 8 x 16 reads of its slice's 128 lines (one a line), W5x32's
// 4, W5x64's 8. Elsewhere (level 1, the default) all three prefetch.
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver4 --split-input-file | FileCheck %s --check-prefixes=CHECK,ZEN4
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver3 --split-input-file | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: sed 's/^module {/module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_offset_tables" = 2 : i64>>} {/' %s | gather-opt --convert-gather-to-linalg --split-input-file | FileCheck %s --check-prefixes=CHECK,ZEN4

// CHECK-LABEL:  func.func @reads_once_a_line
// CHECK:          scf.forall
// CHECK:            memref.prefetch
// CHECK:          return
module {
  func.func @reads_once_a_line(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// CHECK-LABEL:  func.func @reads_four_times_a_line
// CHECK:          scf.forall
// CHECK:            memref.prefetch
// CHECK:          return
module {
  func.func @reads_four_times_a_line(%d: tensor<32x56x56x64xf32>, %i: tensor<32x1x1x32xi64>) -> tensor<32x56x56x16xf32> {
    %e = tensor.empty() : tensor<32x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<32x1x1x32xi64> into tensor<32x56x56x16xf32>
    return %r : tensor<32x56x56x16xf32>
  }
}

// -----

// CHECK-LABEL:  func.func @reads_eight_times_a_line
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:          scf.forall
// ZEN4-NOT:         memref.prefetch
// ONE:              memref.prefetch
// CHECK:            tensor.extract %[[FLAT]]
// CHECK:          return
module {
  func.func @reads_eight_times_a_line(%d: tensor<32x56x56x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
    %e = tensor.empty() : tensor<64x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
    return %r : tensor<64x56x56x16xf32>
  }
}
