// Whether offset-table rows prefetch is the target's (CpuTarget's
// prefetchOffsetTables): Zen 1 (znver1) does not, its hardware prefetchers
// following those rows' images themselves, nor do Intel's server cores
// with AMX (sapphirerapids, emeraldrapids); other CPUs do. A DLTI entry
// "prefetch_offset_tables" overrides the CPU's choice either way. The rows
// keep their tiles with or without the prefetch: of 8 pixels under the
// default 32 KiB L1, or on Zen 1, whose long tiles (CpuTarget's
// longOffsetTiles) take half the default 1 MiB L2 for W5's pixels, the
// whole row of 56 (offset-table-tiles.mlir). Intel's server cores load
// those rows with gathers (gather-offset-rows.mlir), the others by
// scalar loads.
// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file | FileCheck %s --check-prefixes=CHECK,WITH,TILE8,SCALAR
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver3 --split-input-file | FileCheck %s --check-prefixes=CHECK,WITH,TILE8,SCALAR
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=skylake-avx512 --split-input-file | FileCheck %s --check-prefixes=CHECK,WITH,TILE8,SCALAR
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver1 --split-input-file | FileCheck %s --check-prefixes=CHECK,WITHOUT,ROW,SCALAR
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=sapphirerapids --split-input-file | FileCheck %s --check-prefixes=CHECK,WITHOUT,TILE8,GATHERED

// CHECK-LABEL:  func.func @offset_table_rows
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// TILE8:          scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 8)
// ROW:            scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 1, 8)
// WITH:             memref.prefetch
// WITHOUT-NOT:      memref.prefetch
// SCALAR:           tensor.extract %[[FLAT]]
// GATHERED:         vector.gather %[[FLAT]]
// CHECK:          return
func.func @offset_table_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

// -----

// CHECK-LABEL:  func.func @described_with_prefetch
// TILE8:          scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 8)
// ROW:            scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 1, 8)
// CHECK:            memref.prefetch
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_offset_tables" = 1 : i64>>} {
  func.func @described_with_prefetch(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// CHECK-LABEL:  func.func @described_without_prefetch
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// TILE8:          scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 8)
// ROW:            scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 1, 8)
// CHECK-NOT:        memref.prefetch
// SCALAR:           tensor.extract %[[FLAT]]
// GATHERED:         vector.gather %[[FLAT]]
// CHECK:          return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_offset_tables" = 0 : i64>>} {
  func.func @described_without_prefetch(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}
