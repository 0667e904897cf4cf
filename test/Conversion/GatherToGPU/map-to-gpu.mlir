// RUN: gather-opt %s --gather-map-to-gpu=threads-per-block=128 --canonicalize --split-input-file --verify-diagnostics | FileCheck %s

// One thread per iteration; the iteration space is linearized with the
// innermost dimension fastest: thread id x gives the innermost coordinate
// (remainder), so consecutive threads store to consecutive addresses. The
// static trip count (6 * 42 = 252) fits 32 bits: 32-bit index arithmetic.
// Rows of 42 floats are not a multiple of 16 bytes: one element per thread.
// Kernel loads and stores state their natural alignment (NVPTX would
// otherwise split 64-bit accesses). The output allocation moves to the
// device.
// CHECK-LABEL: func.func @coalesced
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C42:.*]] = arith.constant 42 : i32
// CHECK-DAG:     %[[C252:.*]] = arith.constant 252 : i32
// CHECK:         %[[OUT:.*]] = gpu.alloc () : memref<6x42xf32>
// CHECK:           gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}}, %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK-DAG:         %[[T32:.*]] = arith.index_castui %[[TX]] : index to i32
// CHECK-DAG:         %[[B32:.*]] = arith.index_castui %[[BX]] : index to i32
// CHECK:             %[[BASE:.*]] = arith.muli %[[B32]], %{{.*}} : i32
// CHECK:             %[[ID:.*]] = arith.addi %[[BASE]], %[[T32]] : i32
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[C252]] : i32
// CHECK:             scf.if %[[IN]] {
// CHECK:               %[[COL:.*]] = arith.remui %[[ID]], %[[C42]] : i32
// CHECK:               %[[ROW:.*]] = arith.divui %[[ID]], %[[C42]] : i32
// CHECK:               %[[J:.*]] = arith.index_castui %[[COL]] : i32 to index
// CHECK:               %[[I:.*]] = arith.index_castui %[[ROW]] : i32 to index
// CHECK:               %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] {alignment = 4 : i64}
// CHECK:               memref.store %[[V]], %[[OUT]][%[[I]], %[[J]]] {alignment = 4 : i64}
// CHECK:             gpu.terminator
func.func @coalesced(%in: memref<6x42xf32>) -> memref<6x42xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c42 = arith.constant 42 : index
  %out = memref.alloc() : memref<6x42xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c42) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<6x42xf32>
    memref.store %v, %out[%i, %j] : memref<6x42xf32>
    scf.reduce
  }
  return %out : memref<6x42xf32>
}

// -----

// Dynamic trip counts: the kernel in two widths, launched by the run-time
// total (32-bit arithmetic below 2^31 elements, index arithmetic above),
// and no launch at all when the space is empty (CUDA rejects zero blocks;
// with static sizes the guard folds away).
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 2147483648 : index
// CHECK:         %[[N:.*]] = memref.dim
// CHECK:         %[[ANY:.*]] = arith.cmpi ugt, %[[TOTAL:.*]], %{{.*}} : index
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[FITS:.*]] = arith.cmpi ult, %[[TOTAL]], %[[LIMIT]] : index
// CHECK:           scf.if %[[FITS]] {
// CHECK:             gpu.launch
// CHECK:               %[[T32:.*]] = arith.index_castui %[[TOTAL]] : index to i32
// CHECK:               arith.cmpi ult, %{{.*}}, %[[T32]] : i32
// CHECK:               memref.store
// CHECK:           } else {
// CHECK:             gpu.launch
// CHECK:               arith.cmpi ult, %{{.*}}, %[[TOTAL]] : index
// CHECK:               memref.store
// CHECK:         gpu.dealloc
func.func @dynamic(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %tmp = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %in[%i] : memref<?xf32>
    %s = arith.negf %v : f32
    memref.store %s, %tmp[%i] : memref<?xf32>
    scf.reduce
  }
  memref.dealloc %tmp : memref<?xf32>
  return
}

// -----

// Copies: contiguous ones become gpu.memcpy, strided views a copy kernel.
// CHECK-LABEL: func.func @copies
// CHECK:         gpu.memcpy %{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %{{.*}} : memref<2x4xf32, strided<[8, 1], offset: 4>>
// CHECK-NOT:     memref.copy
func.func @copies(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  %view = memref.subview %c[0, 0] [2, 4] [2, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[16, 1]>>
  %view2 = memref.subview %c[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %dst = memref.alloc() : memref<2x4xf32>
  memref.copy %view2, %dst : memref<2x4xf32, strided<[8, 1], offset: 4>> to memref<2x4xf32>
  memref.dealloc %dst : memref<2x4xf32>
  return
}

// -----

// A constant global that a kernel reads is copied to the device once and
// freed before the return.
// CHECK-LABEL: func.func @global_table
// CHECK:         %[[G:.*]] = memref.get_global @table
// CHECK:         %[[DEV:.*]] = gpu.alloc () : memref<3xf32>
// CHECK:         gpu.memcpy %[[DEV]], %[[G]]
// CHECK:         gpu.launch
// CHECK:           memref.load %[[DEV]]
// CHECK:         gpu.dealloc %[[DEV]]
// CHECK-NEXT:    return
memref.global "private" constant @table : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
func.func @global_table(%out: memref<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %g = memref.get_global @table : memref<3xf32>
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    %v = memref.load %g[%i] : memref<3xf32>
    memref.store %v, %out[%i] : memref<3xf32>
    scf.reduce
  }
  return
}

// -----

// Host code that would read a device buffer is rejected, not miscompiled.
func.func @host_read_of_device_memory(%in: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op on the host would access device memory; gather-map-to-gpu cannot place it on the GPU}}
  %v = memref.load %in[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Reductions have no one-thread-per-iteration mapping.
func.func @parallel_reduction(%in: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'scf.parallel' op with reductions cannot be mapped to the GPU}}
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %v = memref.load %in[%i] : memref<4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// -----

// A row copy (the innermost dimension only moves data from one row to
// another) copies 16 bytes per thread with aligned vector accesses: the
// innermost trip count 8 becomes 2.
// CHECK-LABEL: func.func @row_copy
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         gpu.launch
// CHECK:           arith.cmpi ult, %{{.*}}, %[[C6]] : i32
// CHECK:           arith.remui %{{.*}}, %[[C2]] : i32
// CHECK:           %[[J4:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK:           %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %[[J4]]] {alignment = 16 : i64} : memref<10x8xf32>, vector<4xf32>
// CHECK:           vector.store %[[V]], %{{.*}}[%{{.*}}, %[[J4]]] {alignment = 16 : i64} : memref<3x8xf32>, vector<4xf32>
func.func @row_copy(%table: memref<10x8xf32>, %ids: memref<3xindex>, %out: memref<3x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c8) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<3xindex>
    %v = memref.load %table[%row, %j] : memref<10x8xf32>
    memref.store %v, %out[%i, %j] : memref<3x8xf32>
    scf.reduce
  }
  return
}

// -----

// fill's select between the row and zero (the condition is the row
// index's, the same along the row) selects 16 bytes at once too.
// CHECK-LABEL: func.func @fill_row_copy
// CHECK-SAME:    %{{[^:]*}}: memref<10x8xf32>, %{{[^:]*}}: memref<3xindex>, %{{[^:]*}}: memref<3x8xf32>, %[[OK:[^:]*]]: i1
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         gpu.launch
// CHECK:           %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<10x8xf32>, vector<4xf32>
// CHECK:           %[[S:.*]] = arith.select %[[OK]], %[[V]], %[[ZEROS]] : vector<4xf32>
// CHECK:           vector.store %[[S]], %{{.*}} {alignment = 16 : i64} : memref<3x8xf32>, vector<4xf32>
func.func @fill_row_copy(%table: memref<10x8xf32>, %ids: memref<3xindex>, %out: memref<3x8xf32>, %ok: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c8) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<3xindex>
    %v = memref.load %table[%row, %j] : memref<10x8xf32>
    %s = arith.select %ok, %v, %zero : f32
    memref.store %s, %out[%i, %j] : memref<3x8xf32>
    scf.reduce
  }
  return
}

// -----

// A row copy of run-time sizes: the host checks that the trip count and
// both buffers' row lengths are multiples of 4 floats and launches the
// kernel of 16 bytes per thread if so (a quarter of the trip count), the
// kernel of an element per thread if not; each in both index widths.
// CHECK-LABEL: func.func @dynamic_row_copy
// CHECK-SAME:    %[[TABLE:[^:]*]]: memref<?x?xf32>, %[[IDS:[^:]*]]: memref<?xindex>, %[[OUT:[^:]*]]: memref<?x?xf32>
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[W:.*]] = memref.dim %[[OUT]], %{{.*}} : memref<?x?xf32>
// CHECK:         %[[WR:.*]] = arith.remui %[[W]], %[[C4]] : index
// CHECK:         %[[WOK:.*]] = arith.cmpi eq, %[[WR]], %[[C0]] : index
// CHECK:         %[[TW:.*]] = memref.dim %[[TABLE]], %{{.*}} : memref<?x?xf32>
// CHECK:         %[[TR:.*]] = arith.remui %[[TW]], %[[C4]] : index
// CHECK:         %[[TOK:.*]] = arith.cmpi eq, %[[TR]], %[[C0]] : index
// CHECK:         %[[BOTH:.*]] = arith.andi %[[WOK]], %[[TOK]] : i1
// CHECK:         %[[WHOLE:.*]] = arith.andi %[[BOTH]], %{{.*}} : i1
// CHECK:         scf.if %[[WHOLE]] {
// CHECK:           %[[W4:.*]] = arith.divui %[[W]], %[[C4]] : index
// CHECK:           arith.muli %{{.*}}, %[[W4]] : index
// CHECK:           gpu.launch
// CHECK:             vector.load %[[TABLE]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK:             vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK:           gpu.launch
// CHECK:             vector.load
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         vector.load
// CHECK:             memref.load %[[TABLE]]
// CHECK:             memref.store %{{.*}}, %[[OUT]]
// CHECK:           gpu.launch
// CHECK-NOT:         vector.load
// CHECK:             memref.load %[[TABLE]]
// CHECK:         return
func.func @dynamic_row_copy(%table: memref<?x?xf32>, %ids: memref<?xindex>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ids, %c0 : memref<?xindex>
  %w = memref.dim %out, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %w) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<?xindex>
    %v = memref.load %table[%row, %j] : memref<?x?xf32>
    memref.store %v, %out[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// A run-time trip count over rows of a static length that is not a
// multiple of 16 bytes (6 floats), and a buffer of a run-time row length
// made inside the loop (the host cannot read its size before the launch):
// no version with vectors.
// CHECK-LABEL: func.func @dynamic_row_copy_not_whole
// CHECK-NOT:     vector.load
// CHECK-NOT:     arith.remui %{{.*}}, %c4
// CHECK:         return
func.func @dynamic_row_copy_not_whole(%t6: memref<10x6xf32>, %ids: memref<?xindex>, %odd: memref<?x6xf32>, %w: index, %out8: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ids, %c0 : memref<?xindex>
  %c6 = arith.constant 6 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c6) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<?xindex>
    %v = memref.load %t6[%row, %j] : memref<10x6xf32>
    memref.store %v, %odd[%i, %j] : memref<?x6xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %w) step (%c1, %c1) {
    %local = memref.alloca(%w) : memref<?xf32>
    %row = memref.load %ids[%i] : memref<?xindex>
    %v = memref.load %local[%j] : memref<?xf32>
    memref.store %v, %out8[%i, %j] : memref<?x8xf32>
    scf.reduce
  }
  return
}

// -----

// Not a copy (arithmetic on the element), or a row length that is not a
// multiple of 16 bytes: element by element.
// CHECK-LABEL: func.func @no_row_copy
// CHECK-NOT:     vector.load
// CHECK:         return
func.func @no_row_copy(%table: memref<10x8xf32>, %ids: memref<3xindex>, %out: memref<3x8xf32>, %odd: memref<3x6xf32>, %t6: memref<10x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c8) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<3xindex>
    %v = memref.load %table[%row, %j] : memref<10x8xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %out[%i, %j] : memref<3x8xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c6) step (%c1, %c1) {
    %row = memref.load %ids[%i] : memref<3xindex>
    %v = memref.load %t6[%row, %j] : memref<10x6xf32>
    memref.store %v, %odd[%i, %j] : memref<3x6xf32>
    scf.reduce
  }
  return
}

// -----

// Buffers the host keeps for itself (the pointer lists buffer deallocation
// builds when functions return buffers that may alias) stay on the host:
// only host stores, loads and a private helper that launches nothing use
// them. The buffer a kernel writes goes to the device.
// CHECK-LABEL: func.func @host_buffers
// CHECK:         %[[DEV:.*]] = gpu.alloc () : memref<8xf32>
// CHECK:         gpu.launch
// CHECK:         %[[LIST:.*]] = memref.alloc() : memref<2xindex>
// CHECK:         memref.store %{{.*}}, %[[LIST]]
// CHECK:         call @pointer_helper(%{{.*}}) : (memref<?xindex>) -> index
// CHECK:         memref.dealloc %[[LIST]] : memref<2xindex>
// CHECK:         gpu.dealloc %[[DEV]]
// CHECK-LABEL: func.func private @pointer_helper
// CHECK:         memref.load
func.func @host_buffers(%in: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %in[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  }
  %list = memref.alloc() : memref<2xindex>
  %p = memref.extract_aligned_pointer_as_index %out : memref<8xf32> -> index
  memref.store %p, %list[%c0] : memref<2xindex>
  memref.store %p, %list[%c1] : memref<2xindex>
  %dyn = memref.cast %list : memref<2xindex> to memref<?xindex>
  %first = call @pointer_helper(%dyn) : (memref<?xindex>) -> index
  memref.dealloc %list : memref<2xindex>
  memref.dealloc %out : memref<8xf32>
  return
}
func.func private @pointer_helper(%list: memref<?xindex>) -> index {
  %c0 = arith.constant 0 : index
  %p = memref.load %list[%c0] : memref<?xindex>
  return %p : index
}

// -----

// The host copy of indices for an error report: a buffer that only a
// gpu.memcpy from device memory and host loads use stays on the host (the
// indices can be too large for a stack slot).
// CHECK-LABEL: func.func @host_copy_of_indices
// CHECK-SAME:    %[[IDX:[^:]*]]: memref<?xi64>
// CHECK:         %[[HOST:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK-NEXT:    gpu.memcpy %[[HOST]], %[[IDX]]
// CHECK-NEXT:    memref.load %[[HOST]]
// CHECK:         memref.dealloc %[[HOST]]
// CHECK-NOT:     gpu.alloc
func.func @host_copy_of_indices(%indices: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %indices, %c0 : memref<?xi64>
  %host = memref.alloc(%n) : memref<?xi64>
  gpu.memcpy %host, %indices : memref<?xi64>, memref<?xi64>
  %v = memref.load %host[%c0] : memref<?xi64>
  memref.dealloc %host : memref<?xi64>
  return %v : i64
}

// -----

// A rank-0 fill bufferizes to a store with no loop around it: it runs as a
// one-iteration launch instead of a host store into device memory.
// CHECK-LABEL: func.func @lone_rank0_store
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<i16>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %[[OUT]][]
// CHECK:         return
func.func @lone_rank0_store(%out: memref<i16>) {
  %c0_i16 = arith.constant 0 : i16
  memref.store %c0_i16, %out[] : memref<i16>
  return
}

// -----

// A rank-0 consumer of a 0-d gather (its linalg.generic bufferized without
// a loop) loads the gather's device buffer, computes and stores: the load
// and the arithmetic go into the one-iteration launch with the store.
// CHECK-LABEL: func.func @lone_rank0_consumer
// CHECK-SAME:    %[[IN:[^:]*]]: memref<f64>, %[[OUT:[^:]*]]: memref<f64>
// CHECK-NOT:     memref.load
// CHECK:         gpu.launch
// CHECK:           %[[V:.*]] = memref.load %[[IN]][]
// CHECK:           %[[S:.*]] = arith.addf %[[V]], %[[V]] : f64
// CHECK:           memref.store %[[S]], %[[OUT]][]
// CHECK:         return
func.func @lone_rank0_consumer(%in: memref<f64>, %out: memref<f64>) {
  %v = memref.load %in[] : memref<f64>
  %s = arith.addf %v, %v : f64
  memref.store %s, %out[] : memref<f64>
  return
}

// -----

// A 0-d gather of constant indices folds to a load from a view of the
// data: the load goes into the launch, the view stays on the host (the
// kernel's lowering expands no view metadata) and is passed in.
// CHECK-LABEL: func.func @lone_rank0_consumer_of_a_view
// CHECK-SAME:    %[[IN:[^:]*]]: memref<3x1x4xi8>
// CHECK:         %[[SUB:.*]] = memref.subview %[[IN]]
// CHECK:         %[[VIEW:.*]] = memref.collapse_shape %[[SUB]]
// CHECK-NOT:     memref.load
// CHECK:         gpu.launch
// CHECK-NOT:       memref.subview
// CHECK:           %[[V:.*]] = memref.load %[[VIEW]][]
// CHECK:           arith.addi %[[V]], %[[V]] : i8
func.func @lone_rank0_consumer_of_a_view(%in: memref<3x1x4xi8>, %out: memref<i8>) {
  %sub = memref.subview %in[0, 0, 2] [1, 1, 1] [1, 1, 1] : memref<3x1x4xi8> to memref<1x1x1xi8, strided<[4, 4, 1], offset: 2>>
  %view = memref.collapse_shape %sub [] : memref<1x1x1xi8, strided<[4, 4, 1], offset: 2>> into memref<i8, strided<[], offset: 2>>
  %v = memref.load %view[] : memref<i8, strided<[], offset: 2>>
  %s = arith.addi %v, %v : i8
  memref.store %s, %out[] : memref<i8>
  return
}

// -----

// The value of a host buffer is read on the host and passed in.
// CHECK-LABEL: func.func @lone_rank0_store_of_host_value
// CHECK:         %[[H:.*]] = memref.alloca() : memref<f32>
// CHECK:         %[[V:.*]] = memref.load %[[H]][]
// CHECK:         gpu.launch
// CHECK:           %[[S:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK:           memref.store %[[S]], %{{.*}}[]
func.func @lone_rank0_store_of_host_value(%out: memref<f32>) {
  %h = memref.alloca() : memref<f32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %h[] : memref<f32>
  %v = memref.load %h[] : memref<f32>
  %s = arith.mulf %v, %v : f32
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// A constant global is host memory (kernels read a device copy of it): the
// host reads it and passes the value into the store's launch.
memref.global "private" constant @seven : memref<f32> = dense<-7.0>
// CHECK-LABEL: func.func @lone_rank0_store_of_a_constant
// CHECK:         %[[G:.*]] = memref.get_global @seven
// CHECK:         %[[V:.*]] = memref.load %[[G]][]
// CHECK:         gpu.launch
// CHECK:           %[[S:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK:           memref.store %[[S]], %{{.*}}[]
func.func @lone_rank0_store_of_a_constant(%out: memref<f32>) {
  %g = memref.get_global @seven : memref<f32>
  %v = memref.load %g[] : memref<f32>
  %s = arith.addf %v, %v : f32
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// A write between the load and the store: the load cannot move past it,
// and host code reading a device buffer is rejected.
func.func @lone_rank0_store_after_a_write(%in: memref<f64>, %out: memref<f64>, %other: memref<f64>) {
  // expected-error @+1 {{'memref.load' op on the host would access device memory; gather-map-to-gpu cannot place it on the GPU}}
  %v = memref.load %in[] : memref<f64>
  memref.store %v, %in[] : memref<f64>
  memref.store %v, %out[] : memref<f64>
  return
}

// -----

// A trip count of INT64_MAX: computed without overflow (a UBSan report of
// the fuzzer), too large for 32-bit thread indices.
// CHECK-LABEL: func.func @trip_count_near_int64_max
// CHECK:         arith.constant 9223372036854775807 : index
// CHECK-NOT:     arith.constant 2147483648
// CHECK:         gpu.launch
// CHECK-NOT:     arith.index_castui %{{.*}} : index to i32
// CHECK:         memref.store
func.func @trip_count_near_int64_max(%out: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cmax = arith.constant 9223372036854775807 : index
  scf.parallel (%i) = (%c0) to (%cmax) step (%c1) {
    memref.store %v, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// A dynamic size beside a static part of 2^32: only the wide kernel.
// CHECK-LABEL: func.func @dynamic_beside_large
// CHECK-NOT:     arith.constant 2147483648
// CHECK:         gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     : index to i32
// CHECK:         memref.store
// CHECK:         return
func.func @dynamic_beside_large(%out: memref<?x4294967296xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cbig = arith.constant 4294967296 : index
  %n = memref.dim %out, %c0 : memref<?x4294967296xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %cbig) step (%c1, %c1) {
    memref.store %v, %out[%i, %j] : memref<?x4294967296xf32>
    scf.reduce
  }
  return
}
