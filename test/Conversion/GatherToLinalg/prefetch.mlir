// Software prefetch in the CPU forms, for inputs of 1 MiB or more or of
// dynamic size: a block copy prefetches the block that the iteration
// `distance` later along its innermost loop dimension copies (128 cache
// lines ahead: 128 iterations for 16-byte blocks, 2 for 3 KiB rows), and the
// vector rows of an element gather along dense input rows prefetch the next
// input row in shares, one share per vector step; vector rows that read
// indices of at least the L2's size (the default target's: 1 MiB)
// contiguously prefetch the lines of the next indices row that each step
// will read there, unless the target's "prefetch_index_streams" is 0.
// RUN: gather-opt %s --convert-gather-to-linalg --convert-gather-checks-to-runtime --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg="prefetch=false" --convert-gather-checks-to-runtime --split-input-file | FileCheck %s --check-prefix=OFF
// OFF-NOT: memref.prefetch

// 16-byte blocks, copied in tiles of 8 (block-tiles.mlir): a full tile
// resolves the tuples of the tile 128 blocks ahead (the last full tile of
// the row at the end) as vectors into addresses in the input whatever the
// op's policy (no compare and branch for a prefetch): the axes' sizes
// (512) are powers of two, so each coordinate is one AND with 511, a
// valid negative value's being its wrapped one (other sizes are wrapped
// and clamped: @nd_tiles_prefetch_clamped_where_no_power_of_two), made
// offsets in the input collapsed to blocks (b * 262144 + y * 512 + x) as
// the copies' are, and prefetches one line per block in the lane loop; a
// partial tile (65530 is no multiple of 8) prefetches block by block, the
// iteration 128 ahead clamped to the last one. With 8 MiB of indices, a
// full tile also prefetches the 2 lines (8 pairs of i64) of the tile that
// the block prefetch will read 128 blocks later (256 ahead, clamped alike).
// CHECK-LABEL: func.func @nd_blocks_prefetched_ahead
// CHECK-SAME:      %[[D:[^:]*]]: tensor<16x512x512x4xf32>, %[[I:[^:]*]]: tensor<16x65530x2xi64>
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[LAST:.*]] = arith.constant 65529 : index
// CHECK-DAG:     %[[LASTTILE:.*]] = arith.constant 65522 : index
// CHECK-DAG:     %[[C511:.*]] = arith.constant 511 : index
// CHECK-DAG:     %[[C262144:.*]] = arith.constant 262144 : index
// CHECK-DAG:     %[[C512V:.*]] = arith.constant dense<512> : vector<8xindex>
// CHECK-DAG:     %[[C511V:.*]] = arith.constant dense<511> : vector<8xindex>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[D]] read_only : tensor<16x512x512x4xf32> to memref<16x512x512x4xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK:         %[[BLOCKS:.*]] = tensor.collapse_shape %[[D]] {{\[\[}}0, 1, 2], [3]] : tensor<16x512x512x4xf32> into tensor<4194304x4xf32>
// CHECK:         %[[BLOCKBUF:.*]] = bufferization.to_buffer %[[BLOCKS]] read_only
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2096960xi64>
// CHECK:         scf.forall (%[[B:.*]], %[[T:.*]], %{{.*}}) in (16, %{{.*}}, 1)
// CHECK:           %[[START:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:           scf.if
// CHECK:             %[[ROWFIRST:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK:             %[[AHEAD:.*]] = arith.addi %[[START]], %[[C128]] : index
// CHECK:             %[[AHEADTILE:.*]] = arith.minui %[[AHEAD]], %[[LASTTILE]] : index
// CHECK:             vector.transfer_read {{.*}} : tensor<2096960xi64>, vector<16xi64>
// CHECK-NOT:         arith.minsi
// CHECK:             %[[YS:.*]] = arith.andi %{{.*}}, %[[C511V]] : vector<8xindex>
// CHECK-NOT:         arith.minsi
// CHECK:             %[[XS:.*]] = arith.andi %{{.*}}, %[[C511V]] : vector<8xindex>
// CHECK:             %[[FAR:.*]] = arith.addi %[[AHEADTILE]], %[[C128]] : index
// CHECK:             %[[FARTILE:.*]] = arith.minui %[[FAR]], %[[LASTTILE]] : index
// CHECK:             %[[FARVALUES:.*]] = arith.muli %[[FARTILE]], %{{.*}} : index
// CHECK:             %[[FARFIRST:.*]] = arith.addi %[[ROWFIRST]], %[[FARVALUES]] : index
// CHECK:             memref.prefetch %[[IBUF]][%[[FARFIRST]]], read, locality<3>, data
// CHECK:             %[[FARLINE:.*]] = arith.addi %[[FARFIRST]], %{{.*}} : index
// CHECK:             memref.prefetch %[[IBUF]][%[[FARLINE]]], read, locality<3>, data
// CHECK-NOT:         memref.prefetch
// CHECK:             arith.muli %[[B]], %[[C262144]] : index
// CHECK:             %[[ROWS:.*]] = arith.muli %[[YS]], %[[C512V]] : vector<8xindex>
// CHECK:             %[[SUM:.*]] = arith.addi %{{.*}}, %[[ROWS]] : vector<8xindex>
// CHECK:             %[[AHEADS:.*]] = arith.addi %[[SUM]], %[[XS]] : vector<8xindex>
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[OV:.*]] = %{{.*}}, %[[AV:.*]] = %[[AHEADS]])
// CHECK:               %[[O:.*]] = vector.extract %[[OV]][0]
// CHECK:               %[[A:.*]] = vector.extract %[[AV]][0]
// CHECK:               memref.prefetch %[[BLOCKBUF]][%[[A]], %{{.*}}], read, locality<3>, data
// CHECK-NOT:           memref.prefetch
// CHECK:               tensor.extract_slice %[[BLOCKS]][%[[O]], 0] [1, 4]
// CHECK:           } else {
// CHECK:             scf.for %[[J:[^ ]*]] =
// CHECK:               %[[K:.*]] = arith.addi %[[START]], %[[J]] : index
// CHECK:               %[[NEXT:.*]] = arith.addi %[[K]], %[[C128]] : index
// CHECK:               %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK:               tensor.extract %{{.*}}[%[[B]], %[[CLAMPED]], %{{.*}}, %{{.*}}]
// CHECK:               arith.minsi %{{.*}}, %[[C511]] : index
// CHECK:               memref.prefetch %[[BUF]]
// CHECK-NOT:           memref.prefetch
// CHECK:               tensor.extract_slice %[[D]]
// CHECK-NOT:     gather.
func.func @nd_blocks_prefetched_ahead(%d: tensor<16x512x512x4xf32>, %i: tensor<16x65530x2xi64>) -> tensor<16x65530x4xf32> {
  %e = tensor.empty() : tensor<16x65530x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<16x512x512x4xf32>, tensor<16x65530x2xi64> into tensor<16x65530x4xf32>
  return %r : tensor<16x65530x4xf32>
}

// -----

// Rows of 500 blocks (no power of two) and columns of 512: the y values
// ahead are wrapped and clamped into [0, 499], the x values ANDed with 511.
// CHECK-LABEL: func.func @nd_tiles_prefetch_clamped_where_no_power_of_two
// CHECK-DAG:     %[[C499V:.*]] = arith.constant dense<499> : vector<8xindex>
// CHECK-DAG:     %[[C511V:.*]] = arith.constant dense<511> : vector<8xindex>
// CHECK:         scf.forall
// CHECK:           vector.transfer_read {{.*}} : tensor<{{[0-9]+}}xi64>, vector<16xi64>
// CHECK:           vector.transfer_read {{.*}} : tensor<{{[0-9]+}}xi64>, vector<16xi64>
// CHECK:           %[[YMIN:.*]] = arith.minsi %{{.*}}, %[[C499V]] : vector<8xindex>
// CHECK:           arith.maxsi %[[YMIN]], %{{.*}} : vector<8xindex>
// CHECK:           arith.andi %{{.*}}, %[[C511V]] : vector<8xindex>
// CHECK:           memref.prefetch
func.func @nd_tiles_prefetch_clamped_where_no_power_of_two(%d: tensor<16x500x512x4xf32>, %i: tensor<16x65536x2xi64>) -> tensor<16x65536x4xf32> {
  %e = tensor.empty() : tensor<16x65536x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<16x500x512x4xf32>, tensor<16x65536x2xi64> into tensor<16x65536x4xf32>
  return %r : tensor<16x65536x4xf32>
}

// -----

// The same blocks with 256 KiB of indices, which stay in a core's L2: the
// tiles prefetch the blocks ahead, not the index values.
// CHECK-LABEL: func.func @nd_tiles_small_indices_not_prefetched
// CHECK-NOT:     memref<32768xi64
// CHECK:         scf.forall
// CHECK-NOT:     memref<32768xi64
// CHECK:           memref.prefetch %{{.*}} : memref<4194304x4xf32
// CHECK-NOT:     memref<32768xi64
// CHECK:         return
func.func @nd_tiles_small_indices_not_prefetched(%d: tensor<16x512x512x4xf32>, %i: tensor<16x1024x2xi64>) -> tensor<16x1024x4xf32> {
  %e = tensor.empty() : tensor<16x1024x4xf32>
  %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<16x512x512x4xf32>, tensor<16x1024x2xi64> into tensor<16x1024x4xf32>
  return %r : tensor<16x1024x4xf32>
}

// -----

// 3 KiB rows (48 lines): two rows ahead, the first 16 lines of the row
// (the hardware prefetchers follow the rest within a page), then the line
// of its last element (a row that ends a few bytes into a page).
// CHECK-LABEL: func.func @embedding_rows_prefetched_ahead
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C240:.*]] = arith.constant 240 : index
// CHECK-DAG:     %[[C767:.*]] = arith.constant 767 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         scf.forall (%[[K:.*]]) in (8192)
// CHECK:           arith.addi %[[K]], %[[C2]] : index
// CHECK-COUNT-15:  memref.prefetch %[[BUF]]
// CHECK-NEXT:      memref.prefetch %[[BUF]][%{{.*}}, %[[C240]]]
// CHECK-NEXT:      memref.prefetch %[[BUF]][%{{.*}}, %[[C767]]]
// CHECK-NOT:       memref.prefetch
// CHECK:           tensor.extract_slice
func.func @embedding_rows_prefetched_ahead(%d: tensor<50000x768xf32>, %i: tensor<8192xi64>) -> tensor<8192x768xf32> {
  %e = tensor.empty() : tensor<8192x768xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x768xf32>, tensor<8192xi64> into tensor<8192x768xf32>
  return %r : tensor<8192x768xf32>
}

// -----

// 1 KiB rows (16 lines, the most prefetched of a block): eight rows ahead,
// all 16 lines, then the line of the row's last element, which is a 17th
// where the row does not start on a line (numpy's arrays start 16 bytes
// past one).
// CHECK-LABEL: func.func @kib_rows_prefetch_last_line
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C240:.*]] = arith.constant 240 : index
// CHECK-DAG:     %[[C255:.*]] = arith.constant 255 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         scf.forall (%[[K:.*]]) in (1000)
// CHECK:           arith.addi %[[K]], %[[C8]] : index
// CHECK-COUNT-15:  memref.prefetch %[[BUF]]
// CHECK-NEXT:      memref.prefetch %[[BUF]][%{{.*}}, %[[C240]]]
// CHECK-NEXT:      memref.prefetch %[[BUF]][%{{.*}}, %[[C255]]]
// CHECK-NOT:       memref.prefetch
// CHECK:           tensor.extract_slice
func.func @kib_rows_prefetch_last_line(%d: tensor<4096x256xf32>, %i: tensor<1000xi64>) -> tensor<1000x256xf32> {
  %e = tensor.empty() : tensor<1000x256xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4096x256xf32>, tensor<1000xi64> into tensor<1000x256xf32>
  return %r : tensor<1000x256xf32>
}

// -----

// The target's "prefetch_blocks_l2" = 1: the same rows prefetched into the
// L2 only (locality 2, x86's prefetcht1).
// CHECK-LABEL: func.func @kib_rows_prefetched_into_the_l2
// CHECK:         scf.forall
// CHECK-COUNT-17:  memref.prefetch %{{.*}}, read, locality<2>, data
// CHECK-NOT:       memref.prefetch
// CHECK:           tensor.extract_slice
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_blocks_l2" = 1 : i64>>} {
  func.func @kib_rows_prefetched_into_the_l2(%d: tensor<4096x256xf32>, %i: tensor<1000xi64>) -> tensor<1000x256xf32> {
    %e = tensor.empty() : tensor<1000x256xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<4096x256xf32>, tensor<1000xi64> into tensor<1000x256xf32>
    return %r : tensor<1000x256xf32>
  }
}

// -----

// Bags of 32 rows of 512 bytes (an embedding bag's [bags, rows] indices):
// the row 16 ahead, past the bag's end in the next bag (the thread's next
// under OpenMP's static schedule), clamped to the last bag's last row. A
// clamp would leave half the rows unprefetched.
// CHECK-LABEL: func.func @bag_rows_prefetch_into_next_bag
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C2047:.*]] = arith.constant 2047 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         scf.forall (%[[B:.*]], %[[L:.*]]) in (2048, 32)
// CHECK:           %[[NEXT:.*]] = arith.addi %[[L]], %[[C16]] : index
// CHECK:           %[[PAST:.*]] = arith.cmpi uge, %[[NEXT]], %[[C32]] : index
// CHECK:           %[[STEP:.*]] = arith.select %[[PAST]], %[[C1]], %[[C0]] : index
// CHECK:           %[[WRAPPED:.*]] = arith.subi %[[NEXT]], %[[C32]] : index
// CHECK:           %[[WITHIN:.*]] = arith.select %[[PAST]], %[[WRAPPED]], %[[NEXT]] : index
// CHECK-NOT:       arith.minui
// CHECK:           %[[NEXTB:.*]] = arith.addi %[[B]], %[[STEP]] : index
// CHECK:           %[[BEYOND:.*]] = arith.cmpi ugt, %[[NEXTB]], %[[C2047]] : index
// CHECK:           %[[AHEADB:.*]] = arith.select %[[BEYOND]], %[[C2047]], %[[NEXTB]] : index
// CHECK:           %[[AHEADL:.*]] = arith.select %[[BEYOND]], %[[C31]], %[[WITHIN]] : index
// CHECK:           tensor.extract %{{.*}}[%[[AHEADB]], %[[AHEADL]], %{{.*}}]
// CHECK-COUNT-9:   memref.prefetch %[[BUF]]
// CHECK-NOT:       memref.prefetch
// CHECK:           tensor.extract_slice
func.func @bag_rows_prefetch_into_next_bag(%d: tensor<200000x128xf32>, %i: tensor<2048x32xi64>) -> tensor<2048x32x128xf32> {
  %e = tensor.empty() : tensor<2048x32x128xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<200000x128xf32>, tensor<2048x32xi64> into tensor<2048x32x128xf32>
  return %r : tensor<2048x32x128xf32>
}

// -----

// 1000 indices a row, 8 rows of 1 KiB ahead: a clamp leaves 8 of every
// 1000 rows unprefetched, too few to pay for a carry into the next row.
// CHECK-LABEL: func.func @long_index_rows_clamped
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C999:.*]] = arith.constant 999 : index
// CHECK:         scf.forall (%[[B:.*]], %[[L:.*]]) in (4, 1000)
// CHECK:           %[[NEXT:.*]] = arith.addi %[[L]], %[[C8]] : index
// CHECK-NOT:       arith.cmpi uge
// CHECK:           %[[AHEAD:.*]] = arith.minui %[[NEXT]], %[[C999]] : index
// CHECK:           tensor.extract %{{.*}}[%[[B]], %[[AHEAD]], %{{.*}}]
func.func @long_index_rows_clamped(%d: tensor<20000x256xf32>, %i: tensor<4x1000xi64>) -> tensor<4x1000x256xf32> {
  %e = tensor.empty() : tensor<4x1000x256xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<20000x256xf32>, tensor<4x1000xi64> into tensor<4x1000x256xf32>
  return %r : tensor<4x1000x256xf32>
}

// -----

// Bags of 4 rows of 1 KiB, 8 rows ahead: two bags on, by a division by the
// constant 4.
// CHECK-LABEL: func.func @short_bags_prefetch_bags_ahead
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.forall (%[[B:.*]], %[[L:.*]]) in (1024, 4)
// CHECK:           %[[NEXT:.*]] = arith.addi %[[L]], %[[C8]] : index
// CHECK:           %[[STEPS:.*]] = arith.divui %[[NEXT]], %[[C4]] : index
// CHECK:           %[[WITHIN:.*]] = arith.remui %[[NEXT]], %[[C4]] : index
// CHECK:           arith.addi %[[B]], %[[STEPS]] : index
// CHECK:           memref.prefetch
func.func @short_bags_prefetch_bags_ahead(%d: tensor<20000x256xf32>, %i: tensor<1024x4xi64>) -> tensor<1024x4x256xf32> {
  %e = tensor.empty() : tensor<1024x4x256xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<20000x256xf32>, tensor<1024x4xi64> into tensor<1024x4x256xf32>
  return %r : tensor<1024x4x256xf32>
}

// -----

// Bags of a dynamic length: one carry, the row within clamped to the bag's
// last (a distance past a whole bag stays in the next one).
// CHECK-LABEL: func.func @dynamic_bags_prefetch_into_next_bag
// CHECK:         scf.forall (%[[B:.*]], %[[L:.*]]) in (%[[NB:[^,]*]], %[[NL:[^)]*]])
// CHECK:           %[[NEXT:.*]] = arith.addi %[[L]], %{{.*}} : index
// CHECK:           %[[LASTL:.*]] = arith.subi %[[NL]], %{{.*}} : index
// CHECK:           %[[PAST:.*]] = arith.cmpi uge, %[[NEXT]], %[[NL]] : index
// CHECK:           %[[WITHIN:.*]] = arith.select %[[PAST]], %{{.*}}, %[[NEXT]] : index
// CHECK:           arith.minui %[[WITHIN]], %[[LASTL]] : index
// CHECK:           %[[LASTB:.*]] = arith.subi %[[NB]], %{{.*}} : index
// CHECK:           arith.cmpi ugt, %{{.*}}, %[[LASTB]] : index
// CHECK:           memref.prefetch
func.func @dynamic_bags_prefetch_into_next_bag(%d: tensor<200000x128xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nb = tensor.dim %i, %c0 : tensor<?x?xi64>
  %nl = tensor.dim %i, %c1 : tensor<?x?xi64>
  %e = tensor.empty(%nb, %nl) : tensor<?x?x128xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<200000x128xf32>, tensor<?x?xi64> into tensor<?x?x128xf32>
  return %r : tensor<?x?x128xf32>
}

// -----

// A 64 KiB table stays in the caches: no prefetch.
// CHECK-LABEL: func.func @small_table_not_prefetched
// CHECK-NOT:     bufferization.to_buffer %arg0
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @small_table_not_prefetched(%d: tensor<64x256xf32>, %i: tensor<8192xi64>) -> tensor<8192x256xf32> {
  %e = tensor.empty() : tensor<8192x256xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<64x256xf32>, tensor<8192xi64> into tensor<8192x256xf32>
  return %r : tensor<8192x256xf32>
}

// -----

// A table of dynamic size counts as large; its rows are static (the plan
// is made of them). The loop bound is the dynamic number of indices.
// CHECK-LABEL: func.func @dynamic_table_prefetched
// CHECK-SAME:      %[[D:[^:]*]]: tensor<?x768xf32>, %[[I:[^:]*]]: tensor<?xi64>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[D]] read_only : tensor<?x768xf32> to memref<?x768xf32, strided<[?, ?], offset: ?>>
// CHECK:         scf.forall (%[[K:.*]]) in (%[[N:[^)]*]])
// CHECK:           %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK:           arith.minui %{{.*}}, %[[LAST]] : index
// CHECK-COUNT-16:  memref.prefetch %[[BUF]]
// CHECK-NEXT:      memref.prefetch %[[BUF]][%{{.*}}, %c767]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @dynamic_table_prefetched(%d: tensor<?x768xf32>, %i: tensor<?xi64>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x768xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<?x768xf32>, tensor<?xi64> into tensor<?x768xf32>
  return %r : tensor<?x768xf32>
}

// -----

// A dynamic row size: the plan at run time. Lines per block
// ceil(row * 4 / 64) (at least 1), distance max(128 / lines, 1) blocks
// ahead, min(ceil(row / 16), 64) lines of the row in a loop, then the
// row's last element.
// CHECK-LABEL: func.func @dynamic_rows_prefetched
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         %[[ROW:.*]] = tensor.dim %{{.*}}, %[[C1]] : tensor<50000x?xf32>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         %[[BYTES:.*]] = arith.muli %[[ROW]], %[[C4]]
// CHECK:         %[[LINES:.*]] = arith.ceildivui %[[BYTES]], %[[C64]]
// CHECK:         %[[LINES1:.*]] = arith.maxui %[[LINES]], %[[C1]]
// CHECK:         %[[DIST:.*]] = arith.divui %[[C128]], %[[LINES1]]
// CHECK:         %[[DIST1:.*]] = arith.maxui %[[DIST]], %[[C1]]
// CHECK:         %[[ROWLINES:.*]] = arith.ceildivui %[[ROW]], %[[C16]]
// CHECK:         %[[COUNT:.*]] = arith.minui %[[ROWLINES]], %[[C16]]
// CHECK:         scf.forall (%[[K:.*]]) in (8192)
// CHECK:           arith.addi %[[K]], %[[DIST1]]
// CHECK:           scf.for %[[L:.*]] = %{{.*}} to %[[COUNT]] step %[[C1]]
// CHECK:             %[[AT:.*]] = arith.muli %[[L]], %[[C16]]
// CHECK:             memref.prefetch %[[BUF]][%{{.*}}, %[[AT]]]
// CHECK:           %[[END:.*]] = arith.subi %[[ROW]], %[[C1]]
// CHECK:           memref.prefetch %[[BUF]][%{{.*}}, %[[END]]]
func.func @dynamic_rows_prefetched(%d: tensor<50000x?xf32>, %i: tensor<8192xi64>, %e: tensor<8192x?xf32>) -> tensor<8192x?xf32> {
  %r = gather.block %d[%i] axis = 0 into %e : tensor<50000x?xf32>, tensor<8192xi64> into tensor<8192x?xf32>
  return %r : tensor<8192x?xf32>
}

// -----

// Element rows: 1024 reads per 16 KiB input row (256 lines) are dense; each
// 16-lane step prefetches its 4 lines of the next row (row + 1, clamped),
// from element step * 4096 / 1024 on, and the 2 lines (16 i64) of the next
// indices row that the same step reads there (columns step and step + 8).
// Every step is full, at most 1008: its lines lie in the rows (up to
// element 4032 + 48, value 1016), and no column is clamped.
// CHECK-LABEL: func.func @element_rows_prefetch_next_row
// CHECK-SAME:      %[[D:[^:]*]]: tensor<4096x4096xf32>
// CHECK-SAME:      %[[I:[^:]*]]: tensor<4096x1024xi64>
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C4095:.*]] = arith.constant 4095 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[D]] read_only
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %[[I]] read_only
// CHECK:         scf.forall (%[[R:.*]]) in (4096)
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:             %[[NEXT:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK:             %[[ROW:.*]] = arith.minui %[[NEXT]], %[[C4095]] : index
// CHECK:             %[[SCALED:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:             %[[FIRST:.*]] = arith.divui %[[SCALED]], %{{.*}} : index
// CHECK-NEXT:        memref.prefetch %[[BUF]][%[[ROW]], %[[FIRST]]], read, locality<3>, data
// CHECK-NEXT:        %[[COL1:.*]] = arith.addi %[[FIRST]], %[[C16]] : index
// CHECK-NEXT:        memref.prefetch %[[BUF]][%[[ROW]], %[[COL1]]], read, locality<3>, data
// CHECK-NOT:         arith.minui
// CHECK-COUNT-2:     memref.prefetch %[[BUF]][%[[ROW]],
// CHECK:             %[[INEXT:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK:             %[[IROW:.*]] = arith.minui %[[INEXT]], %[[C4095]] : index
// CHECK-NOT:         arith.minui
// CHECK:             memref.prefetch %[[IBUF]][%[[IROW]], %[[J]]], read, locality<3>, data
// CHECK-NEXT:        %[[J8:.*]] = arith.addi %[[J]], %[[C8]] : index
// CHECK-NEXT:        memref.prefetch %[[IBUF]][%[[IROW]], %[[J8]]], read, locality<3>, data
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.transfer_read %[[I]][%[[R]], %[[J]]]
// CHECK:             vector.gather %[[D]]
func.func @element_rows_prefetch_next_row(%d: tensor<4096x4096xf32>, %i: tensor<4096x1024xi64>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x1024xi64> into tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

// Rows of 1000: 62 full steps (the last at 976, its 5 lines from element
// 3997 to 4061, its index values 976-991 in the row) then a step of 8 at
// 992, where the lines past element 4095 and the index values past 999
// are clamped (folded to constants).
// CHECK-LABEL: func.func @element_rows_tail_step_clamped
// CHECK-DAG:     %[[C992:.*]] = arith.constant 992 : index
// CHECK-DAG:     %[[C4095:.*]] = arith.constant 4095 : index
// CHECK-DAG:     %[[C999:.*]] = arith.constant 999 : index
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[C992]] step
// CHECK:           %[[ROW:.*]] = arith.minui %{{.*}}, %[[C4095]] : index
// CHECK-NOT:       arith.minui
// CHECK-COUNT-5:   memref.prefetch %{{.*}}[%[[ROW]], %{{.*}}]{{.*}} : memref<4096x4096xf32
// CHECK:           %[[IROW:.*]] = arith.minui %{{.*}}, %[[C4095]] : index
// CHECK-NOT:       arith.minui
// CHECK:           memref.prefetch %{{.*}}[%[[IROW]], %[[J]]]
// CHECK:           vector.gather
// CHECK:         scf.if
// CHECK-COUNT-2:   memref.prefetch %{{.*}} : memref<4096x4096xf32
// CHECK-COUNT-3:   memref.prefetch %{{.*}}[%{{.*}}, %[[C4095]]]{{.*}} : memref<4096x4096xf32
// CHECK:           memref.prefetch %{{.*}}[%{{.*}}, %[[C992]]]{{.*}} : memref<4096x1000xi64
// CHECK:           memref.prefetch %{{.*}}[%{{.*}}, %[[C999]]]{{.*}} : memref<4096x1000xi64
func.func @element_rows_tail_step_clamped(%d: tensor<4096x4096xf32>, %i: tensor<4096x1000xi64>) -> tensor<4096x1000xf32> {
  %e = tensor.empty() : tensor<4096x1000xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x1000xi64> into tensor<4096x1000xf32>
  return %r : tensor<4096x1000xf32>
}

// -----

// 32-bit indices: a step's 16 index values are one line of the next
// indices row.
// CHECK-LABEL: func.func @element_rows_prefetch_next_index_row_i32
// CHECK-SAME:      %[[D:[^:]*]]: tensor<4096x4096xf32>
// CHECK-SAME:      %[[I:[^:]*]]: tensor<4096x1024xi32>
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %[[I]] read_only
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK-COUNT-4:   memref.prefetch %{{.*}} : memref<4096x4096xf32
// CHECK-NOT:       arith.minui %[[J]]
// CHECK:           memref.prefetch %[[IBUF]][%{{.*}}, %[[J]]]
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.gather %[[D]]
func.func @element_rows_prefetch_next_index_row_i32(%d: tensor<4096x4096xf32>, %i: tensor<4096x1024xi32>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x1024xi32> into tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

// One indices row broadcast over the input's rows: every row reads the
// same index values, so only the next input row is prefetched.
// CHECK-LABEL: func.func @broadcast_index_row_not_prefetched
// CHECK-SAME:      %[[D:[^:]*]]: tensor<4096x4096xf32>
// CHECK-SAME:      %[[I:[^:]*]]: tensor<1x1024xi64>
// CHECK-NOT:     bufferization.to_buffer %[[I]]
// CHECK:         scf.for
// CHECK-COUNT-4:   memref.prefetch %{{.*}} : memref<4096x4096xf32
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.gather %[[D]]
func.func @broadcast_index_row_not_prefetched(%d: tensor<4096x4096xf32>, %i: tensor<1x1024xi64>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = gather.multiaxis %d[%i] axes = [1] into %e : tensor<4096x4096xf32>, tensor<1x1024xi64> into tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

// Interleaved (row, column) pairs (W8 of bench/run.py, 16 MiB of indices):
// a step of 16 lanes reads 32 i64 values, 4 lines, and prefetches the same
// 4 lines of the next indices row (columns 2 * step + 0, 8, 16, 24) before
// the chunk's offsets are resolved. The table itself is read at scattered
// offsets: no input row prefetch.
// CHECK-LABEL: func.func @pairs_prefetch_next_index_row
// CHECK-SAME:      %[[I:[^:]*]]: tensor<1024x2048xi64>
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %[[I]] read_only
// CHECK:         scf.forall (%[[R:.*]]) in (1024)
// CHECK:           scf.for
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:               %[[NEXT:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK:               %[[ROW:.*]] = arith.minui %[[NEXT]], %{{.*}} : index
// CHECK:               %[[FIRST:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:          memref.prefetch %[[IBUF]][%[[ROW]], %[[FIRST]]], read, locality<3>, data
// CHECK-COUNT-3:       memref.prefetch %[[IBUF]][%[[ROW]],
// CHECK-NOT:           memref.prefetch
// CHECK:               vector.transfer_read %[[I]][%[[R]],
func.func @pairs_prefetch_next_index_row(%d: tensor<1024x1024xf32>, %i: tensor<1024x2048xi64>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<1024x1024xf32>, tensor<1024x2048xi64> into tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

// 512 KiB of indices stay in a core's L2 once read (the default target's
// L2 is 1 MiB), and the 64 MiB table is read at scattered offsets: no
// prefetch at all.
// CHECK-LABEL: func.func @small_indices_not_prefetched
// CHECK-NOT:     memref.prefetch
// CHECK:         vector.transfer_read
// CHECK-NOT:     memref.prefetch
func.func @small_indices_not_prefetched(%d: tensor<4096x4096xf32>, %i: tensor<64x1024xi64>) -> tensor<64x512xf32> {
  %e = tensor.empty() : tensor<64x512xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<4096x4096xf32>, tensor<64x1024xi64> into tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// The DLTI entry "prefetch_index_streams" = 0 turns the index prefetch off
// (CpuTarget::prefetchIndexStreams): W3's rows still prefetch their 4 lines
// of the next input row, not the 32 MiB of indices.
// CHECK-LABEL: func.func @index_streams_off_element_rows
// CHECK-SAME:      %[[D:[^:]*]]: tensor<4096x4096xf32>
// CHECK-NOT:     memref<4096x1024xi64
// CHECK:         scf.for
// CHECK-COUNT-4:   memref.prefetch %{{.*}} : memref<4096x4096xf32
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.gather %[[D]]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 0 : i64>>} {
  func.func @index_streams_off_element_rows(%d: tensor<4096x4096xf32>, %i: tensor<4096x1024xi64>) -> tensor<4096x1024xf32> {
    %e = tensor.empty() : tensor<4096x1024xf32>
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x1024xi64> into tensor<4096x1024xf32>
    return %r : tensor<4096x1024xf32>
  }
}

// -----

// The same entry on W4's tiles (8 MiB of indices): the blocks 128 ahead
// are prefetched, the index values their read-ahead takes are not.
// CHECK-LABEL: func.func @index_streams_off_nd_tiles
// CHECK-NOT:     memref<2096960xi64
// CHECK:         scf.forall
// CHECK-NOT:     memref<2096960xi64
// CHECK:           memref.prefetch %{{.*}} : memref<4194304x4xf32
// CHECK-NOT:     memref<2096960xi64
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 0 : i64>>} {
  func.func @index_streams_off_nd_tiles(%d: tensor<16x512x512x4xf32>, %i: tensor<16x65530x2xi64>) -> tensor<16x65530x4xf32> {
    %e = tensor.empty() : tensor<16x65530x4xf32>
    %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<16x512x512x4xf32>, tensor<16x65530x2xi64> into tensor<16x65530x4xf32>
    return %r : tensor<16x65530x4xf32>
  }
}

// -----

// "prefetch_index_streams" = 2 (Zen 4's level, CpuTarget::prefetchIndexStreams)
// prefetches index lines into the L2 only (locality 2), and not in rows
// that already prefetch their next input row: W3's rows prefetch the 4
// lines of the next input row, to every level, and no index line.
// CHECK-LABEL: func.func @index_streams_to_l2_not_beside_input_rows
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4096x4096xf32>
// CHECK-NOT:     memref<4096x1024xi64
// CHECK:         scf.for
// CHECK-COUNT-4:   memref.prefetch %[[BUF]][{{.*}}], read, locality<3>, data
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.gather
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 2 : i64>>} {
  func.func @index_streams_to_l2_not_beside_input_rows(%d: tensor<4096x4096xf32>, %i: tensor<4096x1024xi64>) -> tensor<4096x1024xf32> {
    %e = tensor.empty() : tensor<4096x1024xf32>
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x1024xi64> into tensor<4096x1024xf32>
    return %r : tensor<4096x1024xf32>
  }
}

// -----

// The same level on rows of coordinate pairs (W8's form), which read the
// table at scattered offsets and prefetch no input row: their 4 lines of
// the next indices row go to the L2.
// CHECK-LABEL: func.func @index_streams_to_l2_pair_rows
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1024x2048xi64>
// CHECK:         scf.forall
// CHECK-COUNT-4:       memref.prefetch %[[IBUF]][{{.*}}], read, locality<2>, data
// CHECK-NOT:           memref.prefetch
// CHECK:               vector.transfer_read
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 2 : i64>>} {
  func.func @index_streams_to_l2_pair_rows(%d: tensor<1024x1024xf32>, %i: tensor<1024x2048xi64>) -> tensor<1024x1024xf32> {
    %e = tensor.empty() : tensor<1024x1024xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 1] into %e : tensor<1024x1024xf32>, tensor<1024x2048xi64> into tensor<1024x1024xf32>
    return %r : tensor<1024x1024xf32>
  }
}

// -----

// The same level on W4's tiles: the index values the read-ahead takes go
// to the L2, the blocks 128 ahead to every level.
// CHECK-LABEL: func.func @index_streams_to_l2_nd_tiles
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2096960xi64>
// CHECK:         scf.forall
// CHECK-COUNT-2:   memref.prefetch %[[IBUF]][{{.*}}], read, locality<2>, data
// CHECK-NOT:       memref.prefetch %[[IBUF]]
// CHECK:           memref.prefetch %{{.*}} : memref<4194304x4xf32{{.*}}
// CHECK-NOT:     locality<2>
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"prefetch_index_streams" = 2 : i64>>} {
  func.func @index_streams_to_l2_nd_tiles(%d: tensor<16x512x512x4xf32>, %i: tensor<16x65530x2xi64>) -> tensor<16x65530x4xf32> {
    %e = tensor.empty() : tensor<16x65530x4xf32>
    %r = gather.nd %d[%i] batch_dims = 1 into %e : tensor<16x512x512x4xf32>, tensor<16x65530x2xi64> into tensor<16x65530x4xf32>
    return %r : tensor<16x65530x4xf32>
  }
}

// -----

// Sparse rows (16 reads per 16 KiB row) would fetch lines nobody reads.
// CHECK-LABEL: func.func @sparse_element_rows_not_prefetched
// CHECK-NOT:     memref.prefetch
// CHECK:         vector.gather
func.func @sparse_element_rows_not_prefetched(%d: tensor<4096x4096xf32>, %i: tensor<4096x16xi64>) -> tensor<4096x16xf32> {
  %e = tensor.empty() : tensor<4096x16xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<4096x4096xf32>, tensor<4096x16xi64> into tensor<4096x16xf32>
  return %r : tensor<4096x16xf32>
}

// -----

// A dynamic number of rows: the next row is clamped at run time (a single
// row prefetches itself).
// CHECK-LABEL: func.func @dynamic_rows_prefetch_next_row
// CHECK-SAME:      %[[D:[^:]*]]: tensor<?x4096xf32>
// CHECK:         scf.forall (%[[R:.*]]) in
// CHECK:           scf.for
// CHECK:             %[[NEXT:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK:             %[[LASTROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:             %[[ROW:.*]] = arith.minui %[[NEXT]], %[[LASTROW]] : index
// CHECK-COUNT-4:     memref.prefetch %{{.*}}[%[[ROW]],
// CHECK:             %[[LASTIROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:             %[[INEXT:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK:             %[[IROW:.*]] = arith.minui %[[INEXT]], %[[LASTIROW]] : index
// CHECK-COUNT-2:     memref.prefetch %{{.*}}[%[[IROW]], %{{.*}}], {{.*}} : memref<?x1024xi64
func.func @dynamic_rows_prefetch_next_row(%d: tensor<?x4096xf32>, %i: tensor<?x1024xi64>, %e: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<?x4096xf32>, tensor<?x1024xi64> into tensor<?x1024xf32>
  return %r : tensor<?x1024xf32>
}

// -----

// Every size dynamic: the lines per step are computed before the loops
// (0 for sparse rows), and with them the spacing of the 4 prefetches per
// vector step (ceil(lines / 4) lines) and the share's last line. A step
// prefetches under one branch on a loop-invariant condition, never in a
// loop (a loop there kept LLVM from simplifying the step loop).
// CHECK-LABEL: func.func @all_dynamic_rows_prefetch
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         %[[LINES:.*]] = arith.ceildivui
// CHECK:         %[[DENSE:.*]] = arith.cmpi uge
// CHECK:         %[[COUNT:.*]] = arith.select %{{.*}}, %[[LINES]], %[[C0]] : index
// CHECK:         %[[SPACING:.*]] = arith.ceildivui %[[LINES]], %[[C4]] : index
// CHECK:         %[[STRIDE:.*]] = arith.muli %[[SPACING]], %[[C16]] : index
// CHECK:         %[[LASTLINE:.*]] = arith.muli %{{.*}}, %[[C16]] : index
// CHECK:         scf.forall
// CHECK:           scf.for %[[J:[^ ]*]] =
// CHECK-NOT:         scf.for
// CHECK:             %[[ANY:.*]] = arith.cmpi ugt, %[[COUNT]], %[[C0]] : index
// CHECK:             scf.if %[[ANY]] {
// CHECK:               memref.prefetch %[[BUF]]
// CHECK:               arith.minui %[[STRIDE]], %[[LASTLINE]] : index
// CHECK:               memref.prefetch %[[BUF]]
// CHECK:               memref.prefetch %[[BUF]]
// CHECK:               memref.prefetch %[[BUF]]
// CHECK-NOT:           memref.prefetch
// CHECK:             }
// CHECK-COUNT-2:     memref.prefetch %{{.*}} : memref<?x?xi64
// CHECK:             scf.if
// CHECK:               tensor.extract
// CHECK:               vector.broadcast
// CHECK:             } else {
// CHECK:               vector.transfer_read
// CHECK:             vector.gather
func.func @all_dynamic_rows_prefetch(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Offset-table rows (W5 of bench/run.py: the (n, c) pairs of 8 index rows
// reused by every pixel of an NHWC image): each read also prefetches its
// offset in the pixel the loop over the image's columns reaches `distance`
// iterations later. Each iteration (a pixel) reads 8 x 16 elements, counted
// as 128 lines: 1 pixel ahead (64 elements), the row base clamped to the
// last pixel's (55 * 3584 + 55 * 64). The pixels go in tiles of 8
// (offset-table-tiles.mlir; a 128 KiB L2, DLTI), each pixel of a tile at
// its own row base.
// CHECK-LABEL: func.func @offset_table_rows_prefetch_next_pixel
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[MAXBASE:.*]] = arith.constant 200640 : index
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:         %[[TABLE:.*]] = linalg.generic
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[FLAT]] read_only : tensor<6422528xf32> to memref<6422528xf32, strided<[?], offset: ?>>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[R:[^ ]*]]) in (56, 7, 8)
// CHECK:           %[[TILEBASE:.*]] = arith.addi
// CHECK:           scf.for %[[X:[^ ]*]] =
// CHECK:             %[[XOFF:.*]] = arith.muli %[[X]], %[[C64]] : index
// CHECK:             %[[BASE:.*]] = arith.addi %[[TILEBASE]], %[[XOFF]] : index
// CHECK:             %[[AHEAD:.*]] = arith.addi %[[BASE]], %[[C64]] : index
// CHECK:             %[[PBASE:.*]] = arith.minui %[[AHEAD]], %[[MAXBASE]] : index
// CHECK:             scf.for %[[J:[^ ]*]] =
// CHECK:               %[[ENTRY:.*]] = tensor.extract %[[TABLE]][%[[R]], %{{.*}}, %{{.*}}, %[[J]]]
// CHECK:               %[[AT:.*]] = arith.addi %[[ENTRY]], %[[BASE]] : index
// CHECK:               %[[PAT:.*]] = arith.addi %[[ENTRY]], %[[PBASE]] : index
// CHECK:               memref.prefetch %[[BUF]][%[[PAT]]], read, locality<3>, data
// CHECK:               tensor.extract %[[FLAT]][%[[AT]]]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 131072 : i64>>} {
func.func @offset_table_rows_prefetch_next_pixel(%d: tensor<32x56x56x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %e = tensor.empty() : tensor<8x56x56x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %r : tensor<8x56x56x16xf32>
}

}

// -----

// One (n, c) pair per pixel and two per row: 2 reads an iteration, so the
// prefetch runs 128 / 2 = 64 pixels ahead (64 x 64 elements).
// CHECK-LABEL: func.func @offset_table_few_reads_prefetch_further
// CHECK-DAG:     %[[C4096:.*]] = arith.constant 4096 : index
// CHECK:         scf.forall
// CHECK:           %[[AHEAD:.*]] = arith.addi %{{.*}}, %[[C4096]] : index
// CHECK:           arith.minui %[[AHEAD]], %{{.*}} : index
// CHECK:           scf.for
// CHECK:             memref.prefetch
func.func @offset_table_few_reads_prefetch_further(%d: tensor<32x56x56x64xf32>, %i: tensor<1x1x1x4xi64>) -> tensor<1x56x56x2xf32> {
  %e = tensor.empty() : tensor<1x56x56x2xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<1x1x1x4xi64> into tensor<1x56x56x2xf32>
  return %r : tensor<1x56x56x2xf32>
}

// -----

// A non-axis innermost dimension: the prefetch adds the element's own
// column as the read does; the next row of 512 (63 * 512 the last).
// CHECK-LABEL: func.func @offset_table_own_column_prefetched
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[MAXBASE:.*]] = arith.constant 32256 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<524288xf32>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (4, 64)
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[BASE:.*]], %[[C512]] : index
// CHECK:           %[[PBASE:.*]] = arith.minui %[[AHEAD]], %[[MAXBASE]] : index
// CHECK:           scf.for %[[J:[^ ]*]] =
// CHECK:             %[[ENTRY:.*]] = tensor.extract
// CHECK:             %[[PAT:.*]] = arith.addi %[[ENTRY]], %[[PBASE]] : index
// CHECK:             %[[PCOL:.*]] = arith.addi %[[PAT]], %[[J]] : index
// CHECK:             memref.prefetch %[[BUF]][%[[PCOL]]]
func.func @offset_table_own_column_prefetched(%d: tensor<16x64x512xf32>, %i: tensor<4x1x512xi64>) -> tensor<4x64x512xf32> {
  %e = tensor.empty() : tensor<4x64x512xf32>
  %r = gather.multiaxis %d[%i] axes = [0] into %e : tensor<16x64x512xf32>, tensor<4x1x512xi64> into tensor<4x64x512xf32>
  return %r : tensor<4x64x512xf32>
}

// -----

// A 32 KiB image stays in the caches: offset-table rows without prefetch.
// CHECK-LABEL: func.func @offset_table_small_image_not_prefetched
// CHECK:         linalg.generic
// CHECK:         scf.forall
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @offset_table_small_image_not_prefetched(%d: tensor<2x8x8x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x8x8x16xf32> {
  %e = tensor.empty() : tensor<8x8x8x16xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<2x8x8x64xf32>, tensor<8x1x1x32xi64> into tensor<8x8x8x16xf32>
  return %r : tensor<8x8x8x16xf32>
}

// -----

// One row gathered, its index a slice of the whole indices (a gather fused
// into each step of an embedding bag's sum, gather-fuse-consumers): the
// row named 16 positions further on in the whole indices, which later
// steps gather. Whole indices that are a function's argument (contiguous)
// are read as one row, position (b + 3) * 32 + l + 16 clamped to the last,
// which runs into the next bag without a carry.
// CHECK-LABEL: func.func @one_row_prefetch_in_whole_indices
// CHECK-SAME:      %[[D:[^:]*]]: tensor<200000x128xf32>, %[[IDS:[^:]*]]: tensor<2048x32xi64>, %[[B:[^:]*]]: index, %[[L:[^:]*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C65535:.*]] = arith.constant 65535 : index
// CHECK-DAG:     %[[C199999:.*]] = arith.constant 199999 : index
// CHECK:         %[[BAG:.*]] = arith.addi %[[B]], %[[C3]] : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         %[[BAGSTART:.*]] = arith.muli %[[BAG]], %[[C32]] : index
// CHECK:         %[[FLAT:.*]] = arith.addi %[[BAGSTART]], %[[L]] : index
// CHECK:         %[[NEXT:.*]] = arith.addi %[[FLAT]], %[[C16]] : index
// CHECK:         %[[AHEAD:.*]] = arith.minui %[[NEXT]], %[[C65535]] : index
// CHECK:         %[[ROW:.*]] = tensor.collapse_shape %[[IDS]] {{\[}}[0, 1]] : tensor<2048x32xi64> into tensor<65536xi64>
// CHECK:         %[[RAW:.*]] = tensor.extract %[[ROW]][%[[AHEAD]]] : tensor<65536xi64>
// CHECK:         %[[INDEX:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:         %[[CLAMPED:.*]] = arith.minsi %{{.*}}, %[[C199999]] : index
// CHECK:         %[[AT:.*]] = arith.maxsi %[[CLAMPED]], %[[C0]] : index
// CHECK-COUNT-9: memref.prefetch %[[BUF]][%[[AT]], %{{.*}}]
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @one_row_prefetch_in_whole_indices(%d: tensor<200000x128xf32>, %ids: tensor<2048x32xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %tile = tensor.extract_slice %ids[%b, 0] [16, 32] [1, 1] : tensor<2048x32xi64> to tensor<16x32xi64>
  %one = tensor.extract_slice %tile[3, %l] [1, 1] [1, 1] : tensor<16x32xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 whole_indices(%ids : tensor<2048x32xi64>) into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}

// -----

// The same row in computed whole indices (whose buffer need not be
// contiguous): the position ahead is carried past the bag's end into the
// next bag and clamped to the last bag's last row.
// CHECK-LABEL: func.func @one_row_prefetch_in_computed_whole_indices
// CHECK-SAME:      %[[D:[^:]*]]: tensor<200000x128xf32>, %[[RAWIDS:[^:]*]]: tensor<2048x32xi64>, %[[B:[^:]*]]: index, %[[L:[^:]*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C2047:.*]] = arith.constant 2047 : index
// CHECK-DAG:     %[[C199999:.*]] = arith.constant 199999 : index
// CHECK:         %[[IDS:.*]] = arith.addi %[[RAWIDS]], %[[RAWIDS]] : tensor<2048x32xi64>
// CHECK:         %[[BAG:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer
// CHECK:         %[[NEXT:.*]] = arith.addi %[[L]], %[[C16]] : index
// CHECK:         %[[PAST:.*]] = arith.cmpi uge, %[[NEXT]], %[[C32]] : index
// CHECK:         %[[STEP:.*]] = arith.select %[[PAST]], %[[C1]], %[[C0]] : index
// CHECK:         %[[WRAPPED:.*]] = arith.subi %[[NEXT]], %[[C32]] : index
// CHECK:         %[[WITHIN:.*]] = arith.select %[[PAST]], %[[WRAPPED]], %[[NEXT]] : index
// CHECK:         %[[NEXTB:.*]] = arith.addi %[[BAG]], %[[STEP]] : index
// CHECK:         %[[BEYOND:.*]] = arith.cmpi ugt, %[[NEXTB]], %[[C2047]] : index
// CHECK:         %[[AHEADB:.*]] = arith.select %[[BEYOND]], %[[C2047]], %[[NEXTB]] : index
// CHECK:         %[[AHEADL:.*]] = arith.select %[[BEYOND]], %[[C31]], %[[WITHIN]] : index
// CHECK:         %[[RAW:.*]] = tensor.extract %[[IDS]][%[[AHEADB]], %[[AHEADL]]] : tensor<2048x32xi64>
// CHECK:         %[[ROW:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:         %[[CLAMPED:.*]] = arith.minsi %{{.*}}, %[[C199999]] : index
// CHECK:         %[[AT:.*]] = arith.maxsi %[[CLAMPED]], %[[C0]] : index
// CHECK-COUNT-9: memref.prefetch %[[BUF]][%[[AT]], %{{.*}}]
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @one_row_prefetch_in_computed_whole_indices(%d: tensor<200000x128xf32>, %raw: tensor<2048x32xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %ids = arith.addi %raw, %raw : tensor<2048x32xi64>
  %tile = tensor.extract_slice %ids[%b, 0] [16, 32] [1, 1] : tensor<2048x32xi64> to tensor<16x32xi64>
  %one = tensor.extract_slice %tile[3, %l] [1, 1] [1, 1] : tensor<16x32xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 whole_indices(%ids : tensor<2048x32xi64>) into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}

// -----

// The same row without whole indices: nothing names the rows that later
// steps gather, so no prefetch.
// CHECK-LABEL: func.func @one_row_without_whole_indices_not_prefetched
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @one_row_without_whole_indices_not_prefetched(%d: tensor<200000x128xf32>, %ids: tensor<2048x32xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %one = tensor.extract_slice %ids[%b, %l] [1, 1] [1, 1] : tensor<2048x32xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}

// -----

// Whole indices of dynamic sizes, a function's argument (contiguous): the
// distance may reach past the next bag, so the index ahead is read from
// them as one row, its position b * length + l + 16 clamped to the last.
// CHECK-LABEL: func.func @one_row_prefetch_in_dynamic_whole_indices
// CHECK-SAME:      %[[IDS:[^:]*]]: tensor<?x?xi64>, %[[B:[^:]*]]: index, %[[L:[^:]*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[BAGS:.*]] = tensor.dim %[[IDS]], %[[C0]]
// CHECK:         %[[LENGTH:.*]] = tensor.dim %[[IDS]], %[[C1]]
// CHECK:         %[[BAGSTART:.*]] = arith.muli %[[B]], %[[LENGTH]] : index
// CHECK:         %[[FLAT:.*]] = arith.addi %[[BAGSTART]], %[[L]] : index
// CHECK:         %[[TOTAL:.*]] = arith.muli %[[BAGS]], %[[LENGTH]] : index
// CHECK:         %[[LAST:.*]] = arith.subi %[[TOTAL]], %[[C1]] : index
// CHECK:         %[[NEXT:.*]] = arith.addi %[[FLAT]], %[[C16]] : index
// CHECK:         %[[AHEAD:.*]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK:         %[[ROW:.*]] = tensor.collapse_shape %[[IDS]] {{\[}}[0, 1]] : tensor<?x?xi64> into tensor<?xi64>
// CHECK:         tensor.extract %[[ROW]][%[[AHEAD]]] : tensor<?xi64>
// CHECK-NOT:     arith.divui
// CHECK-COUNT-9: memref.prefetch
func.func @one_row_prefetch_in_dynamic_whole_indices(%d: tensor<200000x128xf32>, %ids: tensor<?x?xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %one = tensor.extract_slice %ids[%b, %l] [1, 1] [1, 1] : tensor<?x?xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 whole_indices(%ids : tensor<?x?xi64>) into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}

// -----

// Bags of 8 rows, 16 rows ahead: past the next bag. Whole indices that are
// a function's argument are read as one row (no division); computed ones
// (whose buffer need not be contiguous) divide the position by the length.
// CHECK-LABEL: func.func @one_row_prefetch_in_short_bags
// CHECK-SAME:      %[[IDS:[^:]*]]: tensor<4096x8xi64>
// CHECK:         %[[ROW:.*]] = tensor.collapse_shape %[[IDS]] {{\[}}[0, 1]] : tensor<4096x8xi64> into tensor<32768xi64>
// CHECK:         tensor.extract %[[ROW]][%{{.*}}] : tensor<32768xi64>
// CHECK-NOT:     arith.divui
// CHECK-COUNT-9: memref.prefetch
func.func @one_row_prefetch_in_short_bags(%d: tensor<200000x128xf32>, %ids: tensor<4096x8xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %one = tensor.extract_slice %ids[%b, %l] [1, 1] [1, 1] : tensor<4096x8xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 whole_indices(%ids : tensor<4096x8xi64>) into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}

// -----

// CHECK-LABEL: func.func @one_row_prefetch_in_short_computed_bags
// CHECK-NOT:     tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<4096x8xi64>
// CHECK:         arith.divui %{{.*}}, %{{.*}} : index
// CHECK:         arith.remui %{{.*}}, %{{.*}} : index
// CHECK:         tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4096x8xi64>
// CHECK-COUNT-9: memref.prefetch
func.func @one_row_prefetch_in_short_computed_bags(%d: tensor<200000x128xf32>, %raw: tensor<4096x8xi64>, %b: index, %l: index) -> tensor<1x1x128xf32> {
  %ids = arith.addi %raw, %raw : tensor<4096x8xi64>
  %one = tensor.extract_slice %ids[%b, %l] [1, 1] [1, 1] : tensor<4096x8xi64> to tensor<1x1xi64>
  %e = tensor.empty() : tensor<1x1x128xf32>
  %r = gather.block %d[%one] axis = 0 whole_indices(%ids : tensor<4096x8xi64>) into %e : tensor<200000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %r : tensor<1x1x128xf32>
}
