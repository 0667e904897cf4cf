// Vector rows whose reads range over the L2 or more (here the description's
// 64 KiB L2; the whole input, or the input row where only the innermost
// coordinate varies) run their full steps a chunk at a time: the chunk's
// offsets resolved and checked into a stack buffer first (an offset per
// line of two thirds of the L1: 341 of the default 32 KiB's 512, whole
// vector steps: 336), then its elements loaded one scalar load of an
// offset and one of the element per lane, in a loop of loads alone, so that
// more reads miss the L2 at once. The row's rest stays one masked step.
// RUN: gather-opt %s --convert-gather-to-linalg="report-forms target-cpu=x86-64-v3" --canonicalize --cse --split-input-file -verify-diagnostics | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="report-forms" --canonicalize --cse --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=AVX512
// Zen 2 takes chunks of 8 KiB, 1024 offsets, whatever its L1d
// (CpuTarget::largeOffsetChunks).
// RUN: gather-opt %s --convert-gather-to-linalg="report-forms target-cpu=znver2" --canonicalize --cse --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=ZEN2

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 65536 : i64>>} {
  // A 64 KiB table, rows of 1100 points: 137 full steps of 8 in chunks of
  // 336, then a rest of 4. A step resolves its pairs in the order one
  // unpack per register pair gives them (AVX2: tuples 0, 2, 1, 3 of each
  // 4), and the loads read the slots back in the row's order. Under `error`
  // each chunk's steps OR the wrapped coordinates (both axes 128, a power of
  // two, and AVX2 has no mask registers: no compare a step), the chunk
  // compares the OR with 128 once, and an OR out of range makes no lane of
  // what the row carries valid (64-bit lanes); the chunk's loads run only
  // while all are valid (no output is returned after an error), so the
  // offsets need no mask.
  // ZEN2-LABEL: func.func @points_over_the_l2
  // ZEN2:         memref.alloca() : memref<1024xindex>
  // CHECK-LABEL: func.func @points_over_the_l2
  // CHECK-SAME:    %[[D:[^:]*]]: tensor<128x128xf32>, %[[I:[^:]*]]: tensor<8x2200xi64>
  // CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
  // CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
  // CHECK-DAG:     %[[C336:.*]] = arith.constant 336 : index
  // CHECK-DAG:     %[[C1096:.*]] = arith.constant 1096 : index
  // CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
  // CHECK-DAG:     %[[ONES:.*]] = arith.constant dense<-1> : vector<8xi64>
  // CHECK-DAG:     %[[NONE:.*]] = arith.constant dense<0> : vector<8xi64>
  // CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0> : vector<8xindex>
  // CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[D]]
  // CHECK:         scf.forall (%[[ROW:.*]]) in (8)
  // CHECK:           %[[BUF:.*]] = memref.alloca() : memref<336xindex>
  // CHECK:           %[[CHUNKS:.*]]:2 = scf.for %[[C0:.*]] = %{{.*}} to %[[C1096]] step %[[C336]] iter_args(%[[R:.*]] = %{{.*}}, %[[V:.*]] = %[[ONES]])
  // CHECK:             %[[NEXT:.*]] = arith.addi %[[C0]], %[[C336]] : index
  // CHECK:             %[[END:.*]] = arith.minui %[[NEXT]], %[[C1096]] : index
  // CHECK:             %[[ORED:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[END]] step %[[C8]] iter_args(%[[ACC:.*]] = %[[ZEROS]]) -> (vector<8xindex>)
  // CHECK:               %[[PAIRS:.*]] = vector.transfer_read %[[I]][%[[ROW]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<8x2200xi64>, vector<16xi64>
  // CHECK:               vector.shuffle %[[PAIRS]], %[[PAIRS]] [0, 4, 2, 6, 8, 12, 10, 14]
  // CHECK:               %[[Y:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xindex>
  // CHECK:               %[[OY:.*]] = arith.ori %[[ACC]], %[[Y]] : vector<8xindex>
  // CHECK:               vector.shuffle %[[PAIRS]], %[[PAIRS]] [1, 5, 3, 7, 9, 13, 11, 15]
  // CHECK:               %[[X:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xindex>
  // CHECK:               %[[OX:.*]] = arith.ori %[[OY]], %[[X]] : vector<8xindex>
  // CHECK-NOT:           arith.cmpi ult
  // CHECK:               %[[SLOT:.*]] = arith.subi %[[J]], %[[C0]] : index
  // CHECK:               vector.store %{{.*}}, %[[BUF]][%[[SLOT]]] : memref<336xindex>, vector<8xindex>
  // CHECK-NOT:           vector.gather
  // CHECK:               scf.yield %[[OX]]
  // CHECK:             %[[OR:.*]] = vector.reduction <or>, %[[ORED]] : vector<8xindex> into index
  // CHECK:             %[[OUTSIDE:.*]] = arith.cmpi uge, %[[OR]], %[[C128]] : index
  // CHECK:             %[[VALID:.*]] = arith.select %[[OUTSIDE]], %[[NONE]], %[[V]] : vector<8xi64>
  // CHECK:             %[[ALL:.*]] = vector.reduction <and>, %[[VALID]] : vector<8xi64> into i64
  // CHECK:             %[[BAD:.*]] = arith.cmpi ne, %[[ALL]], %{{.*}} : i64
  // CHECK:             %[[ROWOUT:.*]] = scf.if %[[BAD]]
  // CHECK:               scf.yield %[[R]]
  // CHECK:             } else {
  // CHECK:               scf.for %[[K:.*]] = %[[C0]] to %[[END]] step %[[C8]] iter_args(%[[OUT:.*]] = %[[R]])
  // CHECK:               %[[AT:.*]] = arith.subi %[[K]], %[[C0]] : index
  // CHECK:               %[[OFF0:.*]] = memref.load %[[BUF]][%[[AT]]] : memref<336xindex>
  // CHECK:               %[[E0:.*]] = tensor.extract %[[FLAT]][%[[OFF0]]] : tensor<16384xf32>
  // CHECK:               %[[AT1:.*]] = arith.addi %[[AT]], %[[C2]] : index
  // CHECK:               %[[OFF1:.*]] = memref.load %[[BUF]][%[[AT1]]] : memref<336xindex>
  // CHECK:               tensor.extract %[[FLAT]][%[[OFF1]]]
  // CHECK:               %[[AT2:.*]] = arith.addi %[[AT]], %[[C1]] : index
  // CHECK:               %[[OFF2:.*]] = memref.load %[[BUF]][%[[AT2]]] : memref<336xindex>
  // CHECK:               tensor.extract %[[FLAT]][%[[OFF2]]]
  // CHECK-COUNT-5:       tensor.extract %[[FLAT]]
  // CHECK:               %[[VALUES:.*]] = vector.from_elements %[[E0]], {{.*}} : vector<8xf32>
  // CHECK:               vector.transfer_write %[[VALUES]], %[[OUT]][%{{.*}}, %[[K]]] {in_bounds = [true]} : vector<8xf32>, tensor<1x1100xf32>
  // CHECK:             scf.yield %[[ROWOUT]], %[[VALID]]
  // CHECK:           %[[MASK:.*]] = vector.constant_mask [4] : vector<8xi1>
  // CHECK:           vector.gather %[[FLAT]]
  // CHECK:           vector.transfer_write %{{.*}}, %[[CHUNKS]]#0[%{{.*}}, %[[C1096]]], %[[MASK]]
  // CHECK:           vector.reduction <and>
  // With 512-bit registers (the default description: 16 lanes, mask
  // registers) an unpack takes tuples 0, 4, 1, 5, 2, 6, 3, 7 of each 8, and
  // the chunk's loads run unless a bad lane is in the i1 mask carried.
  // AVX512-LABEL: func.func @points_over_the_l2
  // AVX512:         memref.alloca() : memref<336xindex>
  // AVX512:         vector.shuffle %{{.*}}, %{{.*}} [0, 8, 2, 10, 4, 12, 6, 14, 16, 24, 18, 26, 20, 28, 22, 30] : vector<32xi64>, vector<32xi64>
  // AVX512:         %[[ANY:.*]] = vector.reduction <or>, %{{.*}} : vector<16xi1> into i1
  // AVX512:         scf.if %[[ANY]]
  func.func @points_over_the_l2(%d: tensor<128x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<128x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }

  // Axes of other powers of two (256 and 128): each coordinate is shifted
  // right by its axis's bits over the smallest axis's (256: by 1), and the
  // OR is compared with the smallest size.
  // CHECK-LABEL: func.func @points_unequal_powers_of_two
  // CHECK-DAG:     %[[ONE:.*]] = arith.constant dense<1> : vector<8xindex>
  // CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
  // CHECK:         scf.for
  // CHECK:           %[[ORED:.*]] = scf.for {{.*}} -> (vector<8xindex>)
  // CHECK:             %[[Y:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xindex>
  // CHECK:             %[[YS:.*]] = arith.shrui %[[Y]], %[[ONE]] : vector<8xindex>
  // CHECK:             arith.ori %{{.*}}, %[[YS]] : vector<8xindex>
  // CHECK-NOT:         arith.cmpi ult
  // CHECK:           %[[OR:.*]] = vector.reduction <or>, %[[ORED]] : vector<8xindex> into index
  // CHECK:           arith.cmpi uge, %[[OR]], %[[C128]] : index
  func.func @points_unequal_powers_of_two(%d: tensor<256x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<256x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }

  // An axis of another size (136): the steps compare each coordinate and
  // AND the valid lanes (64-bit) into what the row carries.
  // CHECK-LABEL: func.func @points_not_powers_of_two
  // CHECK-DAG:     %[[ONES:.*]] = arith.constant dense<-1> : vector<8xi64>
  // CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[V:.*]] = %[[ONES]])
  // CHECK:           %[[VALID:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[V]]) -> (vector<8xi64>)
  // CHECK:             arith.cmpi ult, %{{.*}} : vector<8xindex>
  // CHECK:             arith.andi %[[ACC]], %{{.*}} : vector<8xi64>
  // CHECK-NOT:         arith.ori
  // CHECK:           vector.reduction <and>, %[[VALID]] : vector<8xi64> into i64
  func.func @points_not_powers_of_two(%d: tensor<136x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<136x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }

  // A 32 KiB table stays in the L2: each step resolves and gathers.
  // CHECK-LABEL: func.func @points_under_the_l2
  // CHECK-NOT:     memref.alloca() : memref<{{.*}}xindex>
  // CHECK:         vector.gather
  // CHECK:         return
  func.func @points_under_the_l2(%d: tensor<64x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<64x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }

  // An input of dynamic size is taken to be large. Without a check the
  // chunks carry only the row.
  // CHECK-LABEL: func.func @dynamic_input
  // CHECK:         memref.alloca() : memref<336xindex>
  // CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x?xf32>)
  // CHECK:           scf.for
  // CHECK:             vector.store
  // CHECK:           scf.for
  // CHECK:             memref.load
  func.func @dynamic_input(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] out_of_bounds = unchecked into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }

  // Under `fill` each step also stores its lanes' verdicts, a byte a lane,
  // beside its offsets (invalid lanes' offsets are 0); the loads take them
  // back in the row's order (the slots hold tuples 0, 2, 1, 3 of each 4)
  // and select the zero pass-through where a verdict is 0. Nothing is
  // carried along the row.
  // CHECK-LABEL: func.func @fill_chunks_keep_verdicts
  // CHECK-DAG:     %[[ZERO8:.*]] = arith.constant dense<0> : vector<8xi8>
  // CHECK-DAG:     %[[ZEROF:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
  // CHECK:         scf.forall
  // CHECK:           %[[BUF:.*]] = memref.alloca() : memref<336xindex>
  // CHECK:           %[[VBUF:.*]] = memref.alloca() : memref<336xi8>
  // CHECK:           scf.for %[[C0:.*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x1100xf32>)
  // CHECK:             scf.for %[[J:[^ ]*]] =
  // CHECK:               %[[SLOT:.*]] = arith.subi %[[J]], %[[C0]] : index
  // CHECK:               vector.store %{{.*}}, %[[BUF]][%[[SLOT]]] : memref<336xindex>, vector<8xindex>
  // CHECK:               %[[VERDICT:.*]] = arith.extui %{{.*}} : vector<8xi1> to vector<8xi8>
  // CHECK:               vector.store %[[VERDICT]], %[[VBUF]][%[[SLOT]]] : memref<336xi8>, vector<8xi8>
  // CHECK:             scf.for %[[K:[^ ]*]] =
  // CHECK:               %[[AT:.*]] = arith.subi %[[K]], %[[C0]] : index
  // CHECK-COUNT-8:       tensor.extract
  // CHECK:               %[[VALUES:.*]] = vector.from_elements
  // CHECK:               %[[SLOTS:.*]] = vector.load %[[VBUF]][%[[AT]]] : memref<336xi8>, vector<8xi8>
  // CHECK:               %[[LANES:.*]] = vector.shuffle %[[SLOTS]], %[[SLOTS]] [0, 2, 1, 3, 4, 6, 5, 7]
  // CHECK:               %[[KEEP:.*]] = arith.cmpi ne, %[[LANES]], %[[ZERO8]] : vector<8xi8>
  // CHECK:               %[[OUT:.*]] = arith.select %[[KEEP]], %[[VALUES]], %[[ZEROF]]
  // CHECK:               vector.transfer_write %[[OUT]]
  func.func @fill_chunks_keep_verdicts(%d: tensor<128x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] out_of_bounds = fill into %e : tensor<128x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }

  // Along input rows the reads stay in one row: a 128 KiB row is over the
  // L2, and its chunks load from the input row itself.
  // CHECK-LABEL: func.func @input_row_over_the_l2
  // CHECK-SAME:    %[[D:[^:]*]]: tensor<4x32768xf32>
  // CHECK:         scf.forall (%[[ROW:.*]]) in (4)
  // CHECK:           memref.alloca() : memref<336xindex>
  // CHECK:           %[[OFF:.*]] = memref.load
  // CHECK:           tensor.extract %[[D]][%[[ROW]], %[[OFF]]] : tensor<4x32768xf32>
  func.func @input_row_over_the_l2(%d: tensor<4x32768xf32>, %i: tensor<4x1000xi32>) -> tensor<4x1000xf32> {
    %e = tensor.empty() : tensor<4x1000xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.elements %d[%i] axis = 1 out_of_bounds = clamp into %e : tensor<4x32768xf32>, tensor<4x1000xi32> into tensor<4x1000xf32>
    return %r : tensor<4x1000xf32>
  }

  // An input row of dynamic length is taken to stay in the L2.
  // CHECK-LABEL: func.func @dynamic_input_row
  // CHECK-NOT:     memref.alloca() : memref<{{.*}}xindex>
  // CHECK:         return
  func.func @dynamic_input_row(%d: tensor<4x?xf32>, %i: tensor<4x1000xi32>) -> tensor<4x1000xf32> {
    %e = tensor.empty() : tensor<4x1000xf32>
    // expected-remark @+1 {{lowered as vector-rows}}
    %r = gather.elements %d[%i] axis = 1 out_of_bounds = clamp into %e : tensor<4x?xf32>, tensor<4x1000xi32> into tensor<4x1000xf32>
    return %r : tensor<4x1000xf32>
  }
}

// -----

// The chunk has an 8-byte offset for each line of two thirds of the L1, in
// whole vector steps: a 64 KiB L1 of 64-byte lines gives 682, 680 in steps
// of 8.
// CHECK-LABEL: func.func @chunk_from_the_l1
// CHECK:         memref.alloca() : memref<680xindex>
// ZEN2-LABEL: func.func @chunk_from_the_l1
// ZEN2:         memref.alloca() : memref<1024xindex>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 65536 : i64, "L1_cache_size_in_bytes" = 65536 : i64>>} {
  func.func @chunk_from_the_l1(%d: tensor<128x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<128x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }
}

// -----

// "offset_chunk_bytes" gives the chunk's bytes instead (the L1 entry then
// moves nothing here): 8192, a whole row of 1024 points in one chunk, the
// chunk loop folded away.
// CHECK-LABEL: func.func @chunk_given
// CHECK:         memref.alloca() : memref<1024xindex>
// CHECK-NOT:     arith.constant 336 : index
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 65536 : i64, "offset_chunk_bytes" = 8192 : i64>>} {
  func.func @chunk_given(%d: tensor<128x128xf32>, %i: tensor<8x2048xi64>) -> tensor<8x1024xf32> {
    %e = tensor.empty() : tensor<8x1024xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<128x128xf32>, tensor<8x2048xi64> into tensor<8x1024xf32>
    return %r : tensor<8x1024xf32>
  }
}

// -----

// 192-bit vectors (a described width, not a real register's): steps of 6
// lanes, 3 of 64 bits a register, no whole 128-bit lanes to unpack pairs
// from, so each step takes its pairs in the row's order.
// CHECK-LABEL: func.func @pairs_in_row_order_with_odd_registers
// CHECK:         vector.shuffle %[[PAIRS:.*]], %[[PAIRS]] [0, 2, 4, 6, 8, 10] : vector<12xi64>, vector<12xi64>
// CHECK:         vector.shuffle %[[PAIRS]], %[[PAIRS]] [1, 3, 5, 7, 9, 11] : vector<12xi64>, vector<12xi64>
// AVX512-LABEL: func.func @pairs_in_row_order_with_odd_registers
// AVX512:         vector.shuffle %{{.*}} [0, 2, 4, 6, 8, 10] : vector<12xi64>, vector<12xi64>
// ZEN2-LABEL: func.func @pairs_in_row_order_with_odd_registers
// ZEN2:         vector.shuffle %{{.*}} [0, 2, 4, 6, 8, 10] : vector<12xi64>, vector<12xi64>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 65536 : i64, "max_vector_op_width" = 192 : i64>>} {
  func.func @pairs_in_row_order_with_odd_registers(%d: tensor<128x128xf32>, %i: tensor<8x2200xi64>) -> tensor<8x1100xf32> {
    %e = tensor.empty() : tensor<8x1100xf32>
    // expected-remark @+1 {{lowered as vector-rows offset-chunks}}
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<128x128xf32>, tensor<8x2200xi64> into tensor<8x1100xf32>
    return %r : tensor<8x1100xf32>
  }
}
