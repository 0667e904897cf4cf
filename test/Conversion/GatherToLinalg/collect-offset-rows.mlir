// Offset-table rows collected in registers (CpuTarget's collectOffsetRows):
// on Zen 4 (znver4) rows of 32- or 64-bit elements that neither stream nor
// gather still load each element with a scalar load (and prefetch it where the rows prefetch), but
// build a register of them with vector.from_elements and write it whole,
// instead of a tensor.insert (a scalar store) each. Other CPUs (znver3
// here) keep the scalar stores; the DLTI entry "collect_offset_rows"
// overrides the CPU's choice.
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver4 --split-input-file | FileCheck %s --check-prefixes=CHECK,ZEN4
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver3 --split-input-file | FileCheck %s --check-prefixes=CHECK,ZEN3
// RUN: gather-opt %s --convert-gather-to-linalg="target-cpu=znver4 report-forms" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMS
// FORMS: remark: lowered as vector-rows offset-table collected{{$}}
// FORMS: remark: lowered as vector-rows offset-table collected{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}
// FORMS: remark: lowered as vector-rows offset-table collected{{$}}
// FORMS: remark: lowered as vector-rows offset-table collected{{$}}
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}

// W5's rows (8 index rows of 16 (n, c) pairs): on Zen 4, 16 prefetched
// scalar loads, then one register of 16 f32 written at the row's step.
// CHECK-LABEL:  func.func @w5_rows
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:          scf.forall
// ZEN4:               scf.for %[[J:.*]] = %c0 to %c16 step %c16
// ZEN4-COUNT-16:        tensor.extract %[[FLAT]]
// ZEN4:                 %[[V:.*]] = vector.from_elements {{.*}} : vector<16xf32>
// ZEN4:                 vector.transfer_write %[[V]], %{{.*}}[%c0, %c0, %c0, %[[J]]]
// ZEN4-NOT:             tensor.insert %
// ZEN3:               tensor.extract %[[FLAT]]
// ZEN3:               tensor.insert %
// ZEN3-NOT:           vector.from_elements
// CHECK:          return
func.func @w5_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

// -----

// Described for any CPU: registers of the target's width (16 lanes of f32
// with znver4's AVX-512, 8 with znver3's AVX2).
// CHECK-LABEL:  func.func @described_on
// ZEN4:             vector.from_elements {{.*}} : vector<16xf32>
// ZEN3:             vector.from_elements {{.*}} : vector<8xf32>
// CHECK-NOT:        tensor.insert %
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 1 : i64>>} {
  func.func @described_on(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// Off by the entry: a scalar store each.
// CHECK-LABEL:  func.func @described_off
// CHECK:            tensor.insert %
// CHECK-NOT:        vector.from_elements
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 0 : i64>>} {
  func.func @described_off(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// f64 elements: 8 lanes a 512-bit register, 4 a 256-bit one.
// CHECK-LABEL:  func.func @f64_rows
// ZEN4:             vector.from_elements {{.*}} : vector<8xf64>
// ZEN3:             vector.from_elements {{.*}} : vector<4xf64>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 1 : i64>>} {
  func.func @f64_rows(%d: tensor<32x56x56x64xf64>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf64> {
    %e = tensor.empty() : tensor<8x56x56x16xf64>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf64>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf64>
    return %r : tensor<8x56x56x16xf64>
  }
}

// -----

// A row of a dynamic length: whole registers collected, then the rest an
// element at a time.
// CHECK-LABEL:  func.func @dynamic_row_length
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:            scf.for
// CHECK:              vector.from_elements
// CHECK:              vector.transfer_write
// CHECK:            scf.for
// CHECK:              tensor.extract %[[FLAT]]
// CHECK:              tensor.insert %
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 1 : i64, "nontemporal_stores" = 0 : i64>>} {
  func.func @dynamic_row_length(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x?xi64>, %e: tensor<8x56x56x?xf32>) -> tensor<8x56x56x?xf32> {
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x?xi64> into tensor<8x56x56x?xf32>
    return %r : tensor<8x56x56x?xf32>
  }
}

// -----

// Where the target gathers the rows, it gathers them (no collection).
// CHECK-LABEL:  func.func @gathered_first
// CHECK:            vector.gather
// CHECK-NOT:        vector.from_elements
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 1 : i64, "gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @gathered_first(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// f16 elements (32 loads a 512-bit register, unmeasured): a scalar store
// each.
// CHECK-LABEL:  func.func @f16_rows_not_collected
// CHECK:            tensor.insert %
// CHECK-NOT:        vector.from_elements
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"collect_offset_rows" = 1 : i64>>} {
  func.func @f16_rows_not_collected(%d: tensor<32x56x56x64xf16>, %i: tensor<8x1x1x64xi64>) -> tensor<8x56x56x32xf16> {
    %e = tensor.empty() : tensor<8x56x56x32xf16>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf16>, tensor<8x1x1x64xi64> into tensor<8x56x56x32xf16>
    return %r : tensor<8x56x56x32xf16>
  }
}
