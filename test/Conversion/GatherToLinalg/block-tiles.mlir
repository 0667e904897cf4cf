// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse --split-input-file | FileCheck %s
// With AVX2's 256-bit registers the tiles hold 4 blocks (one register of
// 64-bit coordinates per vector, as 8 are with AVX-512); so do Zen 1's
// 128-bit units, never fewer.
// RUN: gather-opt %s --convert-gather-to-linalg=vector-bits=256 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=znver1 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: not gather-opt %s --convert-gather-to-linalg=vector-bits=100 --split-input-file 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: vector-bits must be a positive multiple of 64 up to 4096, got 100

// Small blocks (at most 256 bytes) are copied in tiles of 8 along the
// innermost loop dimension. A full tile reads its 8 (y, x) tuples as one
// vector of 16 index values, applies the policy to each coordinate as a
// vector and reports a bad index with one reduction per tile, the branch
// that reports it also reading the bad lanes through coordinate 0 (the
// valid tiles' path selects nothing: W4 with AVX2). The axes' sizes are
// powers of two (8), so each coordinate is its value's low 3 bits (a
// valid negative value's being its wrapped one) and the reduction ORs the
// values moved up by 8 with their bits at or above 16 kept, then compares
// with 0 (one vptest with AVX2); the lanes' validity is computed for the
// reporting branch alone (other sizes: @nd_tiles_of_other_sizes); then a
// loop
// over the 8 lanes copies the blocks one by one, each from its offset in
// the input collapsed to blocks (b * 64 + y * 8 + x, computed as vectors),
// read from lane 0 of a vector it rotates by one lane per iteration (a
// loop, not 8 copies of the body: compile time). A partial tile
// (42 = 5 x 8 + 2) copies block by block, checking each.
// CHECK-LABEL: func.func @nd_small_blocks_in_tiles
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[SIZE:.*]] = arith.constant dense<8> : vector<8xindex>
// CHECK-DAG:     %[[LOW:.*]] = arith.constant dense<7> : vector<8xindex>
// CHECK-DAG:     %[[HIGH:.*]] = arith.constant dense<-16> : vector<8xindex>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<2x42x2xi64> into tensor<168xi64>
// CHECK:         %[[BLOCKS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<2x8x8x4xf32> into tensor<128x4xf32>
// CHECK:         scf.forall (%[[B:.*]], %[[T:.*]]) in (2, 6)
// CHECK:           %[[START:.*]] = arith.muli %[[T]], %[[C8]] : index
// CHECK:           %[[LEN:.*]] = arith.minui %{{.*}}, %[[C8]] : index
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %{{.*}}[%[[B]], %[[START]], 0, 0] [1, %[[LEN]], 1, 4]
// CHECK:           %[[FULL:.*]] = arith.cmpi eq, %[[LEN]], %[[C8]] : index
// CHECK:           scf.if %[[FULL]]
// CHECK:             %[[RAW:.*]] = vector.transfer_read %[[FLAT]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<168xi64>, vector<16xi64>
// CHECK:             %[[Y:.*]] = vector.shuffle %[[RAW]], %[[RAW]] [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK:             %[[YV:.*]] = arith.index_cast %[[Y]]
// CHECK:             %[[X:.*]] = vector.shuffle %[[RAW]], %[[RAW]] [1, 3, 5, 7, 9, 11, 13, 15]
// CHECK:             %[[XV:.*]] = arith.index_cast %[[X]]
// CHECK:             %[[YW:.*]] = arith.andi %[[YV]], %[[LOW]] : vector<8xindex>
// CHECK:             %[[YUP:.*]] = arith.addi %[[YV]], %[[SIZE]] : vector<8xindex>
// CHECK:             %[[YHIGH:.*]] = arith.andi %[[YUP]], %[[HIGH]] : vector<8xindex>
// CHECK:             %[[YOK:.*]] = arith.cmpi ult, %{{.*}}, %[[SIZE]] : vector<8xindex>
// CHECK:             %[[XW:.*]] = arith.andi %[[XV]], %[[LOW]] : vector<8xindex>
// CHECK:             %[[XUP:.*]] = arith.addi %[[XV]], %[[SIZE]] : vector<8xindex>
// CHECK:             %[[XHIGH:.*]] = arith.andi %[[XUP]], %[[HIGH]] : vector<8xindex>
// CHECK:             %[[MASKED:.*]] = arith.ori %[[YHIGH]], %[[XHIGH]] : vector<8xindex>
// CHECK:             %[[XOK:.*]] = arith.cmpi ult, %{{.*}}, %[[SIZE]] : vector<8xindex>
// CHECK:             %[[OK:.*]] = arith.andi %[[YOK]], %[[XOK]] : vector<8xi1>
// CHECK:             %[[ORED:.*]] = vector.reduction <or>, %[[MASKED]] : vector<8xindex> into index
// CHECK:             %[[ANY:.*]] = arith.cmpi ne, %[[ORED]], %[[C0]] : index
// CHECK:             %[[SAFE:.*]]:2 = scf.if %[[ANY]] -> (vector<8xindex>, vector<8xindex>)
// CHECK:               memref.store
// CHECK:               %[[YS:.*]] = arith.select %[[OK]], %[[YW]], %[[ZEROS:.*]] : vector<8xi1>, vector<8xindex>
// CHECK:               %[[XS:.*]] = arith.select %[[OK]], %[[XW]], %[[ZEROS]] : vector<8xi1>, vector<8xindex>
// CHECK:               scf.yield %[[YS]], %[[XS]]
// CHECK:             } else {
// CHECK:               scf.yield %[[YW]], %[[XW]]
// CHECK:             %[[BATCH:.*]] = arith.muli %[[B]], %[[C64]] : index
// CHECK:             %[[BASE:.*]] = vector.broadcast %[[BATCH]] : index to vector<8xindex>
// CHECK:             %[[ROWS:.*]] = arith.muli %[[SAFE]]#0, %[[SIZE]] : vector<8xindex>
// CHECK:             %[[SUM:.*]] = arith.addi %[[BASE]], %[[ROWS]] : vector<8xindex>
// CHECK:             %[[OFFSETS:.*]] = arith.addi %[[SUM]], %[[SAFE]]#1 : vector<8xindex>
// CHECK:             %[[LANES:.*]]:2 = scf.for %[[L:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[TILE]], %[[OV:.*]] = %[[OFFSETS]])
// CHECK:               %[[O0:.*]] = vector.extract %[[OV]][0]
// CHECK:               %[[OR:.*]] = vector.shuffle %[[OV]], %[[OV]] [1, 2, 3, 4, 5, 6, 7, 0]
// CHECK:               %[[BLOCK:.*]] = tensor.extract_slice %[[BLOCKS]][%[[O0]], 0] [1, 4] [1, 1] : tensor<128x4xf32> to tensor<4xf32>
// CHECK:               %[[NEXT:.*]] = tensor.insert_slice %[[BLOCK]] into %[[ACC]][0, %[[L]], 0, 0] [1, 1, 1, 4]
// CHECK-NOT:           vector.reduction
// CHECK:               scf.yield %[[NEXT]], %[[OR]]
// CHECK:             scf.yield %[[LANES]]#0
// CHECK:           } else {
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[LEN]] step
// CHECK:               tensor.extract %{{.*}} : tensor<2x42x1x2xi64>
// CHECK:               scf.if
// CHECK:                 memref.store
// CHECK:               tensor.insert_slice %{{.*}}[0, %[[J]], 0, 0] [1, 1, 1, 4]
// CHECK:         tensor.parallel_insert_slice %{{.*}}[%[[B]], %[[START]], 0, 0] [1, %[[LEN]], 1, 4]
// AVX2-LABEL: func.func @nd_small_blocks_in_tiles
// AVX2-DAG:     %[[C4:.*]] = arith.constant 4 : index
// AVX2:         scf.forall (%{{.*}}, %{{.*}}) in (2, 11)
// AVX2:           vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<168xi64>, vector<8xi64>
// AVX2:           vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6]
// AVX2:           vector.reduction <or>, %{{.*}} : vector<4xindex> into index
// AVX2:           scf.for %{{.*}} = %{{.*}} to %[[C4]] step
// AVX2:             vector.shuffle %{{.*}}, %{{.*}} [1, 2, 3, 0] : vector<4xindex>, vector<4xindex>
func.func @nd_small_blocks_in_tiles(%d: tensor<2x8x8x4xf32>, %i: tensor<2x42x2xi64>) -> tensor<2x42x4xf32> {
  %e = tensor.empty() : tensor<2x42x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x8x8x4xf32>, tensor<2x42x2xi64> into tensor<2x42x4xf32>
  return %r : tensor<2x42x4xf32>
}

// -----

// Axes of sizes that are not both powers of two (6 and 8): each lane's
// validity (an unsigned compare per coordinate) is negated and OR-reduced.
// CHECK-LABEL: func.func @nd_tiles_of_other_sizes
// CHECK:         scf.forall
// CHECK:           scf.if
// CHECK:             %[[YOK:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<8xindex>
// CHECK:             %[[XOK:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<8xindex>
// CHECK:             %[[OK:.*]] = arith.andi %[[YOK]], %[[XOK]] : vector<8xi1>
// CHECK:             %[[BAD:.*]] = arith.xori %[[OK]]
// CHECK:             %[[ANY:.*]] = vector.reduction <or>, %[[BAD]] : vector<8xi1> into i1
// CHECK:             scf.if %[[ANY]] -> (vector<8xindex>, vector<8xindex>)
func.func @nd_tiles_of_other_sizes(%d: tensor<2x6x8x4xf32>, %i: tensor<2x42x2xi64>) -> tensor<2x42x4xf32> {
  %e = tensor.empty() : tensor<2x42x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<2x6x8x4xf32>, tensor<2x42x2xi64> into tensor<2x42x4xf32>
  return %r : tensor<2x42x4xf32>
}

// -----

// `unchecked` along axes of power-of-two sizes: each coordinate is one AND
// of its value (no wrap by compare and select), no check.
// CHECK-LABEL: func.func @nd_tiles_unchecked_of_power_of_two_sizes
// CHECK-DAG:     %[[LOW:.*]] = arith.constant dense<7> : vector<8xindex>
// CHECK:         scf.forall
// CHECK:           scf.if
// CHECK:             vector.transfer_read
// CHECK-NOT:         arith.select
// CHECK:             arith.andi %{{.*}}, %[[LOW]] : vector<8xindex>
// CHECK-NOT:         arith.select
// CHECK:             arith.andi %{{.*}}, %[[LOW]] : vector<8xindex>
// CHECK-NOT:         vector.reduction
// CHECK:             scf.for
func.func @nd_tiles_unchecked_of_power_of_two_sizes(%d: tensor<2x8x8x4xf32>, %i: tensor<2x42x2xi64>) -> tensor<2x42x4xf32> {
  %e = tensor.empty() : tensor<2x42x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 out_of_bounds = unchecked into %e : tensor<2x8x8x4xf32>, tensor<2x42x2xi64> into tensor<2x42x4xf32>
  return %r : tensor<2x42x4xf32>
}

// -----

// `fill`: no reduction; each block of the full tile is selected against
// zeros with its lane of the validity mask, which the lane loop rotates
// with the coordinates.
// CHECK-LABEL: func.func @fill_selects_per_block
// CHECK:         scf.forall
// CHECK:           scf.if
// CHECK:             %[[OK:.*]] = arith.cmpi ult, %{{.*}} : vector<8xindex>
// CHECK-NOT:         vector.reduction
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ROWS:.*]] = %{{.*}}, %[[OKS:.*]] = %[[OK]])
// CHECK-DAG:           %[[ROW:.*]] = vector.extract %[[ROWS]][0] : index from vector<8xindex>
// CHECK-DAG:           %[[LANE:.*]] = vector.extract %[[OKS]][0] : i1 from vector<8xi1>
// CHECK:               %[[BLOCK:.*]] = tensor.extract_slice %{{.*}}[%[[ROW]], 0] [1, 4]
// CHECK:               arith.select %[[LANE]], %[[BLOCK]], %{{.*}} : tensor<4xf32>
func.func @fill_selects_per_block(%d: tensor<1000x4xf32>, %i: tensor<100xi32>) -> tensor<100x4xf32> {
  %e = tensor.empty() : tensor<100x4xf32>
  %r = gather.block %d[%i] axis = 0 out_of_bounds = fill into %e : tensor<1000x4xf32>, tensor<100xi32> into tensor<100x4xf32>
  return %r : tensor<100x4xf32>
}

// -----

// A full tile of a large input prefetches the tile 128 blocks ahead (the
// last full tile of the row at the end): its tuples resolved as vectors,
// clamped, one prefetch per block in the lane loop.
// CHECK-LABEL: func.func @tiles_prefetch_ahead
// CHECK-DAG:     %[[AHEAD:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[LASTTILE:.*]] = arith.constant 996 : index
// CHECK:         scf.forall
// CHECK:           scf.if
// CHECK:             vector.reduction <or>
// CHECK:             %[[NEXT:.*]] = arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK:             arith.minui %[[NEXT]], %[[LASTTILE]] : index
// CHECK:             vector.transfer_read {{.*}} : tensor<1004xi64>, vector<8xi64>
// CHECK:             arith.minsi {{.*}} : vector<8xindex>
// CHECK:             arith.maxsi {{.*}} : vector<8xindex>
// CHECK:             scf.for
// CHECK:               memref.prefetch
// CHECK-NOT:           memref.prefetch
// CHECK:           } else {
// CHECK:             scf.for
// CHECK:               memref.prefetch
func.func @tiles_prefetch_ahead(%d: tensor<100000x4xf32>, %i: tensor<1004xi64>) -> tensor<1004x4xf32> {
  %e = tensor.empty() : tensor<1004x4xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100000x4xf32>, tensor<1004xi64> into tensor<1004x4xf32>
  return %r : tensor<1004x4xf32>
}

// -----

// Where the tiled extent is a static multiple of 8 (here 64) every tile is
// full: no run-time test of the tile's length and no block-by-block path.
// CHECK-LABEL: func.func @static_full_tiles_only
// CHECK:         scf.forall (%{{.*}}) in (8)
// CHECK-NOT:       arith.minui
// CHECK-NOT:       scf.if {{.*}} -> (tensor
// CHECK:           vector.transfer_read {{.*}} : tensor<64xi64>, vector<8xi64>
// CHECK:           vector.reduction <or>
// CHECK:           scf.for {{.*}} -> (tensor<8x4xf32>, vector<8xindex>)
// CHECK-NOT:       scf.for {{.*}} iter_args
// CHECK:           tensor.parallel_insert_slice %{{.*}} [8, 4]
func.func @static_full_tiles_only(%d: tensor<1000x4xf32>, %i: tensor<64xi64>) -> tensor<64x4xf32> {
  %e = tensor.empty() : tensor<64x4xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x4xf32>, tensor<64xi64> into tensor<64x4xf32>
  return %r : tensor<64x4xf32>
}

// -----

// A lane loop over blocks of 128 bytes or more (two or more vector copies
// each) is marked for LLVM not to unroll it; one over smaller blocks is left
// to LLVM (here 124 bytes, and the 16-byte blocks above).
// CHECK-LABEL: func.func @lane_loop_rolled_from_128_bytes
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} -> (tensor<8x32xf32>, vector<8xindex>)
// CHECK:             vector.transfer_write %{{.*}} : vector<16xf32>, tensor<8x32xf32>
// CHECK:           } {gather.rolled_loop}
// CHECK-LABEL: func.func @lane_loop_unrolled_under_128_bytes
// CHECK:         scf.for {{.*}} -> (tensor<8x31xf32>, vector<8xindex>)
// CHECK-NOT:     gather.rolled_loop
// CHECK:         return
func.func @lane_loop_rolled_from_128_bytes(%d: tensor<1000x32xf32>, %i: tensor<64xi64>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x32xf32>, tensor<64xi64> into tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
func.func @lane_loop_unrolled_under_128_bytes(%d: tensor<1000x31xf32>, %i: tensor<64xi64>) -> tensor<64x31xf32> {
  %e = tensor.empty() : tensor<64x31xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x31xf32>, tensor<64xi64> into tensor<64x31xf32>
  return %r : tensor<64x31xf32>
}

// -----

// Blocks whose rows hold a cache line or more are copied a vector register
// at a time (16 f32 by default), all reads before the writes, in address
// order: here blocks of two 64-byte rows. As slices, LLVM's inline memcpy
// stored a block's lines from the last one back. Under fill each register
// is selected against zeros with its block's lane of the validity mask.
// CHECK-LABEL: func.func @tile_rows_in_registers
// CHECK-SAME:    %[[D:[^:]*]]: tensor<1000x2x16xf32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %[[T:[^ ]*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[ROWS:[^ ]*]] = %{{.*}}) -> (tensor<8x2x16xf32>, vector<8xindex>)
// CHECK:           %[[R:.*]] = vector.extract %[[ROWS]][0]
// CHECK:           %[[V0:.*]] = vector.transfer_read %[[D]][%[[R]], %[[C0]], %[[C0]]], %{{.*}} {in_bounds = [true]} : tensor<1000x2x16xf32>, vector<16xf32>
// CHECK-NEXT:      %[[V1:.*]] = vector.transfer_read %[[D]][%[[R]], %[[C1]], %[[C0]]], %{{.*}} {in_bounds = [true]} : tensor<1000x2x16xf32>, vector<16xf32>
// CHECK-NEXT:      %[[W0:.*]] = vector.transfer_write %[[V0]], %[[ACC]][%[[T]], %[[C0]], %[[C0]]] {in_bounds = [true]} : vector<16xf32>, tensor<8x2x16xf32>
// CHECK-NEXT:      vector.transfer_write %[[V1]], %[[W0]][%[[T]], %[[C1]], %[[C0]]] {in_bounds = [true]} : vector<16xf32>, tensor<8x2x16xf32>
// CHECK-NOT:       tensor.insert_slice
// CHECK:         } {gather.rolled_loop}
// CHECK-LABEL: func.func @tile_rows_in_registers_fill
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:         scf.for {{.*}} -> (tensor<8x2x16xf32>, vector<8xindex>, vector<8xi1>)
// CHECK:           %[[OK:.*]] = vector.extract %{{.*}}[0] : i1 from vector<8xi1>
// CHECK:           %[[V0:.*]] = vector.transfer_read
// CHECK-NEXT:      %[[S0:.*]] = arith.select %[[OK]], %[[V0]], %[[ZEROS]] : vector<16xf32>
// CHECK-NEXT:      %[[V1:.*]] = vector.transfer_read
// CHECK-NEXT:      %[[S1:.*]] = arith.select %[[OK]], %[[V1]], %[[ZEROS]] : vector<16xf32>
// CHECK-NEXT:      %[[W0:.*]] = vector.transfer_write %[[S0]]
// CHECK-NEXT:      vector.transfer_write %[[S1]], %[[W0]]
func.func @tile_rows_in_registers(%d: tensor<1000x2x16xf32>, %i: tensor<64xi64>) -> tensor<64x2x16xf32> {
  %e = tensor.empty() : tensor<64x2x16xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x2x16xf32>, tensor<64xi64> into tensor<64x2x16xf32>
  return %r : tensor<64x2x16xf32>
}
func.func @tile_rows_in_registers_fill(%d: tensor<1000x2x16xf32>, %i: tensor<64xi64>) -> tensor<64x2x16xf32> {
  %e = tensor.empty() : tensor<64x2x16xf32>
  %r = gather.block %d[%i] axis = 0 out_of_bounds = fill into %e : tensor<1000x2x16xf32>, tensor<64xi64> into tensor<64x2x16xf32>
  return %r : tensor<64x2x16xf32>
}

// Where the block starts after two or more gathered axes, the tile reads
// from the input collapsed before the block (one offset per block) but
// writes into the output's tile of full rank: each row's coordinates are
// the last ones on both sides. The second row goes to [t, 0, 1, 0], never
// into the unit dimension at [t, 1, 0, 0] (outside the tile: until
// 2026-12-03 this wrote past the output and left rows unwritten).
// CHECK-LABEL: func.func @nd_tile_rows_in_registers_after_collapsed_axes
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[BLOCKS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<5x6x2x16xf32> into tensor<30x2x16xf32>
// CHECK:         scf.for %[[T:[^ ]*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[ROWS:[^ ]*]] = %{{.*}}) -> (tensor<8x1x2x16xf32>, vector<8xindex>)
// CHECK:           %[[R:.*]] = vector.extract %[[ROWS]][0]
// CHECK:           %[[V0:.*]] = vector.transfer_read %[[BLOCKS]][%[[R]], %[[C0]], %[[C0]]], %{{.*}} {in_bounds = [true]} : tensor<30x2x16xf32>, vector<16xf32>
// CHECK-NEXT:      %[[V1:.*]] = vector.transfer_read %[[BLOCKS]][%[[R]], %[[C1]], %[[C0]]], %{{.*}} {in_bounds = [true]} : tensor<30x2x16xf32>, vector<16xf32>
// CHECK-NEXT:      %[[W0:.*]] = vector.transfer_write %[[V0]], %[[ACC]][%[[T]], %[[C0]], %[[C0]], %[[C0]]] {in_bounds = [true]} : vector<16xf32>, tensor<8x1x2x16xf32>
// CHECK-NEXT:      vector.transfer_write %[[V1]], %[[W0]][%[[T]], %[[C0]], %[[C1]], %[[C0]]] {in_bounds = [true]} : vector<16xf32>, tensor<8x1x2x16xf32>
// CHECK:         } {gather.rolled_loop}
func.func @nd_tile_rows_in_registers_after_collapsed_axes(%d: tensor<5x6x2x16xf32>, %i: tensor<24x2xi64>) -> tensor<24x2x16xf32> {
  %e = tensor.empty() : tensor<24x2x16xf32>
  %r = gather.nd %d[%i] into %e : tensor<5x6x2x16xf32>, tensor<24x2xi64> into tensor<24x2x16xf32>
  return %r : tensor<24x2x16xf32>
}

// A row of several whole registers is copied by a loop of one read and one
// write, kept rolled: a function of many small-block gathers compiled 20%
// slower with the registers unrolled.
// CHECK-LABEL: func.func @tile_row_registers_rolled
// CHECK-SAME:    %[[D:[^:]*]]: tensor<1000x64xf32>
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[T:[^ ]*]] = {{.*}} iter_args(%{{[^ ]*}} = %{{.*}}, %[[ROWS:[^ ]*]] = %{{.*}}) -> (tensor<8x64xf32>, vector<8xindex>)
// CHECK:           %[[R:.*]] = vector.extract %[[ROWS]][0]
// CHECK:           scf.for %[[J:[^ ]*]] = %{{.*}} to %[[C4]] step %{{[^ ]*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (tensor<8x64xf32>)
// CHECK:             %[[AT:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:             %[[V:.*]] = vector.transfer_read %[[D]][%[[R]], %[[AT]]], %{{.*}} {in_bounds = [true]} : tensor<1000x64xf32>, vector<16xf32>
// CHECK:             %[[W:.*]] = vector.transfer_write %[[V]], %[[ACC]][%[[T]], %[[AT]]] {in_bounds = [true]} : vector<16xf32>, tensor<8x64xf32>
// CHECK:             scf.yield %[[W]]
// CHECK:           } {gather.rolled_loop}
// CHECK:         } {gather.rolled_loop}
func.func @tile_row_registers_rolled(%d: tensor<1000x64xf32>, %i: tensor<64xi64>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x64xf32>, tensor<64xi64> into tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Blocks over 256 bytes (here 512) cost more to copy than to address: one
// block per iteration, no tiles.
// CHECK-LABEL: func.func @large_blocks_not_tiled
// CHECK:         scf.forall (%{{.*}}) in (30)
// CHECK-NOT:     vector.transfer_read
// CHECK:         tensor.extract_slice %{{.*}} [1, 128]
func.func @large_blocks_not_tiled(%d: tensor<100x128xf32>, %i: tensor<30xi64>) -> tensor<30x128xf32> {
  %e = tensor.empty() : tensor<30x128xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x128xf32>, tensor<30xi64> into tensor<30x128xf32>
  return %r : tensor<30x128xf32>
}

// -----

// Indices that are a strided slice cannot be read as one vector without a
// copy: one block per iteration.
// CHECK-LABEL: func.func @sliced_indices_not_tiled
// CHECK:         scf.forall (%{{.*}}) in (30)
// CHECK-NOT:     vector.transfer_read
func.func @sliced_indices_not_tiled(%d: tensor<100x4xf32>, %all: tensor<60xi64>) -> tensor<30x4xf32> {
  %i = tensor.extract_slice %all[0] [30] [2] : tensor<60xi64> to tensor<30xi64>
  %e = tensor.empty() : tensor<30x4xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x4xf32>, tensor<30xi64> into tensor<30x4xf32>
  return %r : tensor<30x4xf32>
}

// -----

// A tile addresses its blocks by their offsets in the input collapsed
// before the block, which a strided slice of the input cannot be without
// a copy: one block per iteration.
// CHECK-LABEL: func.func @sliced_input_not_tiled
// CHECK:         scf.forall (%{{.*}}) in (30)
// CHECK-NOT:     vector.transfer_read
func.func @sliced_input_not_tiled(%all: tensor<200x4xf32>, %i: tensor<30xi64>) -> tensor<30x4xf32> {
  %d = tensor.extract_slice %all[0, 0] [100, 4] [2, 1] : tensor<200x4xf32> to tensor<100x4xf32>
  %e = tensor.empty() : tensor<30x4xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x4xf32>, tensor<30xi64> into tensor<30x4xf32>
  return %r : tensor<30x4xf32>
}

// -----

// An empty input has no block to read (its collapse would pair a static 0
// with a dynamic size, which no buffer can be): no tiles.
// CHECK-LABEL: func.func @empty_input_not_tiled
// CHECK-NOT:     vector.transfer_read
func.func @empty_input_not_tiled(%d: tensor<?x0x4xf32>, %i: tensor<2x30x2xi64>) -> tensor<2x30x4xf32> {
  %e = tensor.empty() : tensor<2x30x4xf32>
  %r = gather.nd %d[%i] batch_dims = 0 out_of_bounds = fill into %e : tensor<?x0x4xf32>, tensor<2x30x2xi64> into tensor<2x30x4xf32>
  return %r : tensor<2x30x4xf32>
}

// -----

// Tiles along a dimension that is not an axis and that the input spans
// (the indices and the input both 16 there): each lane's block is at its
// output position along it, step + the tile's start, plus the axis
// coordinate times the 16 blocks of an input row.
// CHECK-LABEL: func.func @tile_along_a_dimension_of_the_input
// CHECK-DAG:     %[[ROW:.*]] = arith.constant dense<16> : vector<8xindex>
// CHECK:         %[[BLOCKS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<100x16x4xf32> into tensor<1600x4xf32>
// CHECK:         scf.forall (%{{.*}}, %[[T:.*]]) in (3, 2)
// CHECK:           %[[START:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:           %[[YOK:.*]] = arith.cmpi ult, %{{.*}} : vector<8xindex>
// CHECK:           %[[YS:.*]] = scf.if %{{.*}} -> (vector<8xindex>)
// CHECK:             arith.select %[[YOK]], %{{.*}} : vector<8xi1>, vector<8xindex>
// CHECK:           %[[STEP:.*]] = vector.step : vector<8xindex>
// CHECK:           %[[FIRST:.*]] = vector.broadcast %[[START]] : index to vector<8xindex>
// CHECK:           %[[POS:.*]] = arith.addi %[[FIRST]], %[[STEP]] : vector<8xindex>
// CHECK:           %[[ROWS:.*]] = arith.muli %[[YS]], %[[ROW]] : vector<8xindex>
// CHECK:           %[[OFFSETS:.*]] = arith.addi %[[POS]], %[[ROWS]] : vector<8xindex>
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[OV:.*]] = %[[OFFSETS]])
// CHECK:             %[[O:.*]] = vector.extract %[[OV]][0]
// CHECK:             tensor.extract_slice %[[BLOCKS]][%[[O]], 0] [1, 4]
func.func @tile_along_a_dimension_of_the_input(%d: tensor<100x16x4xf32>, %i: tensor<3x16x1xi64>) -> tensor<3x16x4xf32> {
  %e = tensor.empty() : tensor<3x16x4xf32>
  %r = gather.multiaxis %d[%i] axes = [0] into %e : tensor<100x16x4xf32>, tensor<3x16x1xi64> into tensor<3x16x4xf32>
  return %r : tensor<3x16x4xf32>
}

// -----

// The same dimension of dynamic size in the input: 1 at run time is a
// broadcast, whose lanes all read position 0 there (a select against
// zeros), and the input row's blocks are that size.
// CHECK-LABEL: func.func @tile_along_a_dynamic_dimension
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0> : vector<8xindex>
// CHECK:         %[[DIM:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<100x?x4xf32>
// CHECK:         %[[UNIT:.*]] = arith.cmpi eq, %[[DIM]], %{{.*}} : index
// CHECK:         scf.forall
// CHECK:           %[[STEP:.*]] = vector.step : vector<8xindex>
// CHECK:           %[[POS:.*]] = arith.addi %{{.*}}, %[[STEP]] : vector<8xindex>
// CHECK:           %[[AT:.*]] = arith.select %[[UNIT]], %[[ZEROS]], %[[POS]] : vector<8xindex>
// CHECK:           %[[ROW:.*]] = vector.broadcast %[[DIM]] : index to vector<8xindex>
// CHECK:           %[[ROWS:.*]] = arith.muli %{{.*}}, %[[ROW]] : vector<8xindex>
// CHECK:           arith.addi %[[AT]], %[[ROWS]] : vector<8xindex>
func.func @tile_along_a_dynamic_dimension(%d: tensor<100x?x4xf32>, %i: tensor<3x16x1xi64>) -> tensor<3x16x4xf32> {
  %e = tensor.empty() : tensor<3x16x4xf32>
  %r = gather.multiaxis %d[%i] axes = [0] into %e : tensor<100x?x4xf32>, tensor<3x16x1xi64> into tensor<3x16x4xf32>
  return %r : tensor<3x16x4xf32>
}

// -----

// Blocks of 37 rows of 18 i64 (144 bytes: two 64-byte registers and a
// shorter one) in tiles, as a description of 128-byte lines that allows 64
// lines a block plans them: one loop copies a block's rows (a loop per row,
// chained through the tile, made one-shot-bufferize's buffer type queries
// exponential in their count), each row's whole registers by a loop inside
// it, then its last 2 elements.
// CHECK-LABEL: func.func @block_rows_in_one_loop
// CHECK-DAG:     %[[C37:.*]] = arith.constant 37 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} -> (tensor<8x37x18xi64>, vector<8xindex>, vector<8xindex>)
// CHECK:             %[[ROWS:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %[[C37]] step %{{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<8x37x18xi64>)
// CHECK:               %[[REGS:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C2]] step %{{.*}} iter_args(%[[U:.*]] = %[[T]]) -> (tensor<8x37x18xi64>)
// CHECK:                 vector.transfer_read %{{.*}}[%{{.*}}, %[[ROW]], %{{.*}}]{{.*}} vector<8xi64>
// CHECK:                 vector.transfer_write %{{.*}}, %[[U]][%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK:               } {gather.rolled_loop}
// CHECK:               vector.transfer_read {{.*}} vector<2xi64>
// CHECK:               vector.transfer_write %{{.*}}, %[[REGS]][%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK:             } {gather.rolled_loop}
// CHECK-NOT:         scf.for
// CHECK:           } {gather.rolled_loop}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache_line_size_in_bytes" = 128 : i64, "tile_max_block_lines" = 64 : i64>>} {
  func.func @block_rows_in_one_loop(%d: tensor<1000x37x18xi64>, %i: tensor<64xi64>) -> tensor<64x37x18xi64> {
    %e = tensor.empty() : tensor<64x37x18xi64>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<1000x37x18xi64>, tensor<64xi64> into tensor<64x37x18xi64>
    return %r : tensor<64x37x18xi64>
  }
}
