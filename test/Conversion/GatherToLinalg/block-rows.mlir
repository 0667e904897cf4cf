// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false vectorize=false" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SLICE

// Blocks under 4 KiB (under twice the L1d where the output is streamed:
// @streamed_long_rows in target-dlti.mlir) whose rows hold a cache line or
// more are copied with
// vector loads and stores in chunks of 8 registers (512 bytes with
// AVX-512), not with a memcpy per row. Each chunk is read a register at a
// time, then written, both in address order (one vector of the chunk left
// the order of its stores to LLVM, which wrote lines out of order: slower
// on a Zen 1). An embedding row of 768 f32 is six chunks, a loop of one
// chunk (eight vector<16xf32> reads, then eight writes into the output's
// slice): written out, the chain of writes on one tensor made
// bufferization take seconds. With vectorize=false the row is one slice
// (a memcpy after bufferization).
// CHECK-LABEL: func.func @embedding_rows_in_chunks
// CHECK-SAME:    %[[TABLE:[^:]*]]: tensor<50000x768xf32>
// CHECK-DAG:     %[[C768:.*]] = arith.constant 768 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C112:.*]] = arith.constant 112 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.forall (%[[ROW:.*]]) in (64) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           %[[TARGET:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, 768] [1, 1]
// CHECK:           %[[OK:.*]] = arith.cmpi ult
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]]
// CHECK:           %[[COPIED:.*]] = scf.for %[[AT:.*]] = %[[C0]] to %[[C768]] step %[[C128]] iter_args(%[[CHUNK:.*]] = %[[TARGET]])
// CHECK-NEXT:        %[[V0:.*]] = vector.transfer_read %[[TABLE]][%[[SAFE]], %[[AT]]], %{{.*}} {in_bounds = [true]} : tensor<50000x768xf32>, vector<16xf32>
// CHECK-NEXT:        %[[AT1:.*]] = arith.addi %[[AT]], %[[C16]]
// CHECK-NEXT:        %[[V1:.*]] = vector.transfer_read %[[TABLE]][%[[SAFE]], %[[AT1]]]
// CHECK-COUNT-5:     vector.transfer_read %[[TABLE]][%[[SAFE]], %{{.*}}]
// CHECK-NEXT:        %[[AT7:.*]] = arith.addi %[[AT]], %[[C112]]
// CHECK-NEXT:        %[[V7:.*]] = vector.transfer_read %[[TABLE]][%[[SAFE]], %[[AT7]]]
// CHECK-NEXT:        %[[W0:.*]] = vector.transfer_write %[[V0]], %[[CHUNK]][%[[C0]], %[[AT]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x768xf32>
// CHECK-NEXT:        %[[W1:.*]] = vector.transfer_write %[[V1]], %[[W0]][%[[C0]], %[[AT1]]]
// CHECK-COUNT-5:     vector.transfer_write
// CHECK-NEXT:        %[[W7:.*]] = vector.transfer_write %[[V7]], %{{.*}}[%[[C0]], %[[AT7]]]
// CHECK-NEXT:        scf.yield %[[W7]]
// CHECK:           tensor.parallel_insert_slice %[[COPIED]] into %[[OUT]][%[[ROW]], 0] [1, 768] [1, 1]
// CHECK-NOT:     vector.transfer_write
// SLICE-LABEL: func.func @embedding_rows_in_chunks
// SLICE:         scf.forall
// SLICE:           %[[ROW:.*]] = tensor.extract_slice %{{.*}} [1, 768] [1, 1] : tensor<50000x768xf32> to tensor<1x768xf32>
// SLICE:           tensor.parallel_insert_slice %[[ROW]]
// SLICE-NOT:     vector.transfer
func.func @embedding_rows_in_chunks(%table: tensor<50000x768xf32>, %ids: tensor<64xi64>) -> tensor<64x768xf32> {
  %init = tensor.empty() : tensor<64x768xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init : tensor<50000x768xf32>, tensor<64xi64> into tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}

// -----

// The longest row copied with vectors, 4000 bytes: 7 chunks of 128 f32 in
// a loop, then the rest (1000 = 7 x 128 + 104) in registers, the last one
// shorter (104 = 6 x 16 + 8). A block of 4 KiB or more is one slice (a
// memcpy, faster here for such blocks).
// CHECK-LABEL: func.func @longest_row_chunks_and_rest
// CHECK-DAG:     %[[C992:.*]] = arith.constant 992 : index
// CHECK-DAG:     %[[C896:.*]] = arith.constant 896 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         scf.forall
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[C896]] step %[[C128]]
// CHECK-COUNT-8:     vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x1000xf32>
// CHECK-NEXT:        scf.yield
// CHECK:           %[[REST:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[C992]]], %{{.*}} {in_bounds = [true]} : tensor<100x1000xf32>, vector<8xf32>
// CHECK-COUNT-6:   vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x1000xf32>
// CHECK-NEXT:      vector.transfer_write %[[REST]], %{{.*}}[%{{.*}}, %[[C992]]] {in_bounds = [true]} : vector<8xf32>, tensor<1x1000xf32>
// CHECK-NOT:     scf.for %
func.func @longest_row_chunks_and_rest(%table: tensor<100x1000xf32>, %ids: tensor<4xi32>) -> tensor<4x1000xf32> {
  %init = tensor.empty() : tensor<4x1000xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init : tensor<100x1000xf32>, tensor<4xi32> into tensor<4x1000xf32>
  return %0 : tensor<4x1000xf32>
}

// CHECK-LABEL: func.func @block_of_4_kib_slice
// CHECK:         tensor.extract_slice %{{.*}} [1, 1024] [1, 1] : tensor<100x1024xf32> to tensor<1x1024xf32>
// CHECK-NOT:     vector.transfer_read
func.func @block_of_4_kib_slice(%table: tensor<100x1024xf32>, %ids: tensor<4xi32>) -> tensor<4x1024xf32> {
  %init = tensor.empty() : tensor<4x1024xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init : tensor<100x1024xf32>, tensor<4xi32> into tensor<4x1024xf32>
  return %0 : tensor<4x1024xf32>
}

// CHECK-LABEL: func.func @two_dimensional_block_of_8_kib_slice
// CHECK:         tensor.extract_slice %{{.*}} [1, 1, 4, 512] [1, 1, 1, 1]
// CHECK-NOT:     vector.transfer_read
func.func @two_dimensional_block_of_8_kib_slice(%d: tensor<2x9x4x512xf32>, %i: tensor<5xi64>) -> tensor<2x5x4x512xf32> {
  %init = tensor.empty() : tensor<2x5x4x512xf32>
  %0 = gather.block %d[%i] axis = 1 into %init : tensor<2x9x4x512xf32>, tensor<5xi64> into tensor<2x5x4x512xf32>
  return %0 : tensor<2x5x4x512xf32>
}

// -----

// A block of two dimensions: a loop over its rows, each row copied in
// chunks (f16: 256 elements per 512 bytes, 32 per register; 64 per row
// here, two registers).
// CHECK-LABEL: func.func @two_dimensional_block
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 5)
// CHECK:           %[[TARGET:.*]] = tensor.extract_slice %{{.*}} [1, 1, 3, 64] [1, 1, 1, 1] : tensor<2x5x3x64xf16> to tensor<1x1x3x64xf16>
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[TARGET]])
// CHECK:             %[[V0:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[R]], %[[C0:.*]]], %{{.*}} {in_bounds = [true]} : tensor<2x9x3x64xf16>, vector<32xf16>
// CHECK-NEXT:        %[[V1:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[R]], %[[C32:.*]]], %{{.*}} {in_bounds = [true]} : tensor<2x9x3x64xf16>, vector<32xf16>
// CHECK-NEXT:        %[[W0:.*]] = vector.transfer_write %[[V0]], %[[ACC]][%{{.*}}, %{{.*}}, %[[R]], %[[C0]]] {in_bounds = [true]} : vector<32xf16>, tensor<1x1x3x64xf16>
// CHECK-NEXT:        vector.transfer_write %[[V1]], %[[W0]][%{{.*}}, %{{.*}}, %[[R]], %[[C32]]] {in_bounds = [true]} : vector<32xf16>, tensor<1x1x3x64xf16>
func.func @two_dimensional_block(%d: tensor<2x9x3x64xf16>, %i: tensor<5xi64>) -> tensor<2x5x3x64xf16> {
  %init = tensor.empty() : tensor<2x5x3x64xf16>
  %0 = gather.block %d[%i] axis = 1 into %init : tensor<2x9x3x64xf16>, tensor<5xi64> into tensor<2x5x3x64xf16>
  return %0 : tensor<2x5x3x64xf16>
}

// -----

// fill: each chunk is selected against zeros with the row's validity.
// CHECK-LABEL: func.func @fill_selects_chunks
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0> : vector<64xi8>
// CHECK:         scf.forall
// CHECK:           %[[OK:.*]] = arith.cmpi ult
// CHECK:           %[[V:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<10x64xi8>, vector<64xi8>
// CHECK:           %[[SEL:.*]] = arith.select %[[OK]], %[[V]], %[[ZEROS]] : vector<64xi8>
// CHECK:           vector.transfer_write %[[SEL]]
func.func @fill_selects_chunks(%d: tensor<10x64xi8>, %i: tensor<3xi64>) -> tensor<3x64xi8> {
  %init = tensor.empty() : tensor<3x64xi8>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = fill into %init : tensor<10x64xi8>, tensor<3xi64> into tensor<3x64xi8>
  return %0 : tensor<3x64xi8>
}

// -----

// Rows shorter than a cache line (32 bytes) and rows of an input slice
// with a stride along them stay one slice each.
// CHECK-LABEL: func.func @short_row_slice
// CHECK:         tensor.extract_slice %{{.*}} [1, 8] [1, 1] : tensor<10x8xf32> to tensor<1x8xf32>
// CHECK-NOT:     vector.transfer_read
func.func @short_row_slice(%d: tensor<10x8xf32>, %i: tensor<3xi64>) -> tensor<3x8xf32> {
  %init = tensor.empty() : tensor<3x8xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<10x8xf32>, tensor<3xi64> into tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// Rows of dynamic length: the bounds above checked at run time on the
// row's bytes (a line to a page, or to twice the L1d, 64 KiB, where the
// output may be streamed, as this one of dynamic size may). Within them, whole registers in a loop
// to the length rounded down to 16 (one register an iteration: no chunks
// of 8, the code of a dynamic gather stays small), then the rest as one
// masked register where there is one; outside them one slice. Both write
// the output's row.
// CHECK-LABEL: func.func @dynamic_row_registers_or_slice
// CHECK-SAME:      %[[D:[^:]*]]: tensor<10x?xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C65536:.*]] = arith.constant 65536 : index
// CHECK:         %[[LEN:.*]] = tensor.dim %[[D]], %[[C1]]
// CHECK:         scf.forall (%[[ROW:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           %[[TARGET:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, %[[LEN]]] [1, 1]
// CHECK:           %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[C0]] : index
// CHECK:           %[[BYTES:.*]] = arith.muli %[[LEN]], %[[C4]]
// CHECK:           %[[LONG:.*]] = arith.cmpi uge, %[[BYTES]], %[[C64]]
// CHECK:           %[[SMALL:.*]] = arith.cmpi ult, %[[BYTES]], %[[C65536]]
// CHECK:           %[[REGS:.*]] = arith.andi %[[LONG]], %[[SMALL]]
// CHECK:           %[[COPIED:.*]] = scf.if %[[REGS]] -> (tensor<1x?xf32>)
// CHECK:             %[[NREGS:.*]] = arith.divui %[[LEN]], %[[C16]]
// CHECK:             %[[REGS_END:.*]] = arith.muli %[[NREGS]], %[[C16]]
// CHECK:             %[[WHOLE:.*]] = scf.for %[[AT:.*]] = %[[C0]] to %[[REGS_END]] step %[[C16]] iter_args(%[[PART:.*]] = %[[TARGET]])
// CHECK-NEXT:          %[[V:.*]] = vector.transfer_read %[[D]][%[[SAFE]], %[[AT]]]
// CHECK-NEXT:          %[[W:.*]] = vector.transfer_write %[[V]], %[[PART]][%[[C0]], %[[AT]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x?xf32>
// CHECK-NEXT:          scf.yield %[[W]]
// CHECK:             %[[REST:.*]] = arith.subi %[[LEN]], %[[REGS_END]]
// CHECK:             %[[ANY:.*]] = arith.cmpi ne, %[[REST]], %[[C0]]
// CHECK:             scf.if %[[ANY]]
// CHECK-NEXT:          %[[MASK:.*]] = vector.create_mask %[[REST]] : vector<16xi1>
// CHECK-NEXT:          %[[TAIL:.*]] = vector.transfer_read %[[D]][%[[SAFE]], %[[REGS_END]]], %{{.*}}, %[[MASK]] {in_bounds = [true]}
// CHECK-NEXT:          vector.transfer_write %[[TAIL]], %[[WHOLE]][%[[C0]], %[[REGS_END]]], %[[MASK]] {in_bounds = [true]}
// CHECK:             } else {
// CHECK-NEXT:          scf.yield %[[WHOLE]]
// CHECK:           } else {
// CHECK-NEXT:        %[[ROWSLICE:.*]] = tensor.extract_slice %[[D]][%[[SAFE]], 0] [1, %[[LEN]]] [1, 1] : tensor<10x?xf32> to tensor<1x?xf32>
// CHECK-NEXT:        %[[INSERTED:.*]] = tensor.insert_slice %[[ROWSLICE]] into %[[TARGET]][0, 0] [1, %[[LEN]]] [1, 1]
// CHECK-NEXT:        scf.yield %[[INSERTED]]
// CHECK:           tensor.parallel_insert_slice %[[COPIED]] into %[[OUT]][%[[ROW]], 0] [1, %[[LEN]]] [1, 1]
// SLICE-LABEL: func.func @dynamic_row_registers_or_slice
// SLICE:         tensor.extract_slice %{{.*}} [1, %{{.*}}] [1, 1] : tensor<10x?xf32> to tensor<1x?xf32>
// SLICE-NOT:     vector.transfer_read
func.func @dynamic_row_registers_or_slice(%d: tensor<10x?xf32>, %i: tensor<3xi64>, %init: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<10x?xf32>, tensor<3xi64> into tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// A block of 3 rows of dynamic length: the bound is on the block (a row's
// bytes under ceil(65536 / 3)), and the rows are a loop.
// CHECK-LABEL: func.func @dynamic_rows_block_bound
// CHECK-DAG:     %[[C21846:.*]] = arith.constant 21846 : index
// CHECK:         %[[SMALL:.*]] = arith.cmpi ult, %{{.*}}, %[[C21846]]
// CHECK:         scf.if %{{.*}} -> (tensor<1x3x?xf32>)
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             vector.create_mask
// CHECK:         } else {
// CHECK:           tensor.extract_slice %{{.*}} [1, 3, %{{.*}}] [1, 1, 1] : tensor<10x3x?xf32> to tensor<1x3x?xf32>
func.func @dynamic_rows_block_bound(%d: tensor<10x3x?xf32>, %i: tensor<4xi64>, %init: tensor<4x3x?xf32>) -> tensor<4x3x?xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<10x3x?xf32>, tensor<4xi64> into tensor<4x3x?xf32>
  return %0 : tensor<4x3x?xf32>
}

// CHECK-LABEL: func.func @strided_rows_slice
// CHECK:         %[[STRIDED:.*]] = tensor.extract_slice %{{.*}}[0, 0] [10, 32] [1, 2]
// CHECK:         tensor.extract_slice %[[STRIDED]]
// CHECK-NOT:     vector.transfer_read
func.func @strided_rows_slice(%big: tensor<10x64xf32>, %i: tensor<3xi64>) -> tensor<3x32xf32> {
  %d = tensor.extract_slice %big[0, 0] [10, 32] [1, 2] : tensor<10x64xf32> to tensor<10x32xf32>
  %init = tensor.empty() : tensor<3x32xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<10x32xf32>, tensor<3xi64> into tensor<3x32xf32>
  return %0 : tensor<3x32xf32>
}
