// Offset-table rows loaded with gathers (CpuTarget's gatherOffsetRows):
// Intel's server cores (sapphirerapids, or AMX under another name) load
// each register of a row that does not stream with one vector.gather at
// offsets read from the table as one vector; other CPUs, streamed rows,
// elements other than 32 and 64 bits, prefetched rows and rows whose lanes
// need a coordinate of their own keep one scalar load per element. The
// DLTI entry "gather_offset_rows" overrides the CPU's choice.
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=sapphirerapids --split-input-file | FileCheck %s --check-prefixes=CHECK,SPR
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=x86-64-v3 --split-input-file | FileCheck %s --check-prefixes=CHECK,V3
// RUN: gather-opt %s --convert-gather-to-linalg="target-cpu=sapphirerapids report-forms" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMS
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}
// FORMS: remark: lowered as vector-rows offset-table gathered{{$}}
// FORMS: remark: lowered as vector-rows offset-table{{$}}

// CHECK-LABEL:  func.func @w5_rows
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:          scf.forall
// SPR:              scf.for %{{.*}} = %c0 to %c16 step %c16
// SPR:                %[[OFFS:.*]] = vector.transfer_read %{{.*}} : tensor<8x1x1x16xindex>, vector<16xindex>
// SPR:                %[[BASE:.*]] = vector.broadcast %{{.*}} : index to vector<16xindex>
// SPR:                %[[AT:.*]] = arith.addi %[[OFFS]], %[[BASE]] : vector<16xindex>
// SPR:                %[[V:.*]] = vector.gather %[[FLAT]][%c0] [%[[AT]]]
// SPR-SAME:             into vector<16xf32>
// SPR:                vector.transfer_write %[[V]]
// SPR-NOT:            tensor.extract %[[FLAT]]
// V3:                 memref.prefetch
// V3:                 tensor.extract %[[FLAT]]
// V3-NOT:             vector.gather
// CHECK:          return
func.func @w5_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

// -----

// Described for any x86 CPU: gathers of the target's register (16 lanes of
// f32 with AVX-512, 8 with AVX2).
// CHECK-LABEL:  func.func @described_on
// CHECK-NOT:        memref.prefetch
// SPR:              vector.gather {{.*}} into vector<16xf32>
// V3:               vector.gather {{.*}} into vector<8xf32>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @described_on(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// Off by the entry: scalar loads.
// CHECK-LABEL:  func.func @described_off
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:            tensor.extract %[[FLAT]]
// CHECK-NOT:        vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 0 : i64>>} {
  func.func @described_off(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// Rows that prefetch their reads keep the scalar loads that prefetch.
// CHECK-LABEL:  func.func @prefetched_rows
// CHECK:            memref.prefetch
// CHECK-NOT:        vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 1 : i64>>} {
  func.func @prefetched_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// `fill`: a miss (-1 in the table) reads offset 0 and its lane keeps zero.
// CHECK-LABEL:  func.func @fill_rows
// CHECK-DAG:      %[[ZEROS:.*]] = arith.constant dense<0> : vector<{{8|16}}xindex>
// CHECK-DAG:      %[[PASS:.*]] = arith.constant dense<0.000000e+00> : vector<{{8|16}}xf32>
// CHECK:            %[[OFFS:.*]] = vector.transfer_read
// CHECK:            %[[HIT:.*]] = arith.cmpi sge, %[[OFFS]], %[[ZEROS]]
// CHECK:            arith.select %[[HIT]], %[[OFFS]], %[[ZEROS]]
// CHECK:            %[[V:.*]] = vector.gather
// CHECK:            arith.select %[[HIT]], %[[V]], %[[PASS]]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @fill_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
    %e = tensor.empty() : tensor<8x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] out_of_bounds = fill into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    return %r : tensor<8x56x56x16xf32>
  }
}

// -----

// 64-bit elements: gathers of the register's 8 (AVX-512) or 4 lanes.
// CHECK-LABEL:  func.func @f64_rows
// SPR:              vector.gather {{.*}} into vector<8xf64>
// V3:               vector.gather {{.*}} into vector<4xf64>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @f64_rows(%d: tensor<32x56x56x64xf64>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf64> {
    %e = tensor.empty() : tensor<8x56x56x16xf64>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf64>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf64>
    return %r : tensor<8x56x56x16xf64>
  }
}

// -----

// f16: no gather instruction loads 16-bit elements.
// CHECK-LABEL:  func.func @f16_rows
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:            tensor.extract %[[FLAT]]
// CHECK-NOT:        vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @f16_rows(%d: tensor<32x56x56x64xf16>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf16> {
    %e = tensor.empty() : tensor<8x56x56x16xf16>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf16>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf16>
    return %r : tensor<8x56x56x16xf16>
  }
}

// -----

// Rows that stream (W5x64's 12.8 MB output over four 1 KiB L2s) keep
// their scalar loads, collected into registers for the streaming stores.
// CHECK-LABEL:  func.func @streamed_rows
// CHECK:            vector.from_elements
// CHECK-NOT:        vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64, "mesh_l3" = 1 : i64, "L2_cache_size_in_bytes" = 1024 : i64>>} {
  func.func @streamed_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
    %e = tensor.empty() : tensor<64x56x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
    return %r : tensor<64x56x56x16xf32>
  }
}

// -----

// A row of a dynamic length (no streaming stores described): whole
// registers gathered, the rest an element at a time.
// CHECK-LABEL:  func.func @dynamic_row_length
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:            scf.for
// CHECK:              vector.gather %[[FLAT]]
// CHECK:            scf.for
// CHECK:              tensor.extract %[[FLAT]]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64, "nontemporal_stores" = 0 : i64>>} {
  func.func @dynamic_row_length(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x?xi64>, %e: tensor<8x56x56x?xf32>) -> tensor<8x56x56x?xf32> {
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x?xi64> into tensor<8x56x56x?xf32>
    return %r : tensor<8x56x56x?xf32>
  }
}

// -----

// The innermost dimension not an axis (NCHW, axes [0, 1], each of a row's
// lanes with its own (n, c) pair): each lane also has a coordinate of its
// own along the row; scalar loads.
// CHECK-LABEL:  func.func @innermost_not_an_axis
// CHECK:          %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:            tensor.extract %[[FLAT]]
// CHECK-NOT:        vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"gather_offset_rows" = 1 : i64, "prefetch_offset_tables" = 0 : i64>>} {
  func.func @innermost_not_an_axis(%d: tensor<32x64x56x16xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x1x56x16xf32> {
    %e = tensor.empty() : tensor<8x1x56x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<32x64x56x16xf32>, tensor<8x1x1x32xi64> into tensor<8x1x56x16xf32>
    return %r : tensor<8x1x56x16xf32>
  }
}
