// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file | FileCheck %s --check-prefix=NOCANON

// The scalar element path: i1 elements have no byte-addressed vector form,
// so one linalg.generic reads each element's own index (the same path serves
// slices and multi-axis gathers that reuse their indices).

// clamp: wrap negatives, then min/max into [0, size); no run-time check.
// CHECK-LABEL: func.func @clamp
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x3xi1>, %[[I:[^:]*]]: tensor<2x3xi32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3xi1>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xi1>)
// CHECK:           %[[O0:.*]] = linalg.index 0 : index
// CHECK:           %[[O1:.*]] = linalg.index 1 : index
// CHECK:           %[[RAW:.*]] = tensor.extract %[[I]][%[[O0]], %[[O1]]] : tensor<2x3xi32>
// CHECK:           %[[IDX:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[IDX]], %[[C0]] : index
// CHECK:           %[[WR:.*]] = arith.addi %[[IDX]], %[[C4]] : index
// CHECK:           %[[W:.*]] = arith.select %[[NEG]], %[[WR]], %[[IDX]] : index
// CHECK:           %[[MIN:.*]] = arith.minsi %[[W]], %[[C3]] : index
// CHECK:           %[[MAX:.*]] = arith.maxsi %[[MIN]], %[[C0]] : index
// CHECK:           %[[V:.*]] = tensor.extract %[[D]][%[[MAX]], %[[O1]]] : tensor<4x3xi1>
// CHECK:           linalg.yield %[[V]] : i1
// CHECK-NOT:     gather.
// CHECK-NOT:     scf.if
func.func @clamp(%d: tensor<4x3xi1>, %i: tensor<2x3xi32>) -> tensor<2x3xi1> {
  %init_0 = tensor.empty() : tensor<2x3xi1>
  %0 = gather.multiaxis %d[%i] axes = [0] out_of_bounds = clamp into %init_0 : tensor<4x3xi1>, tensor<2x3xi32> into tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// fill without wrap: one unsigned compare, a safe index, a select to zero.
// CHECK-LABEL: func.func @fill_negative_out_of_bounds
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant false
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         linalg.generic
// CHECK:           %[[IDX:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NOT:       arith.cmpi slt
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[IDX]], %[[C4]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[IDX]], %{{.*}} : index
// CHECK:           %[[V:.*]] = tensor.extract %{{.*}}[%[[SAFE]], %{{.*}}] : tensor<4x3xi1>
// CHECK:           %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[ZERO]] : i1
// CHECK:           linalg.yield %[[R]] : i1
func.func @fill_negative_out_of_bounds(%d: tensor<4x3xi1>, %i: tensor<2x3xi64>) -> tensor<2x3xi1> {
  %init_0 = tensor.empty() : tensor<2x3xi1>
  %0 = gather.multiaxis %d[%i] axes = [0] negative_indices = out_of_bounds out_of_bounds = fill into %init_0 : tensor<4x3xi1>, tensor<2x3xi64> into tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// unchecked without wrap: the index goes straight to the load.
// CHECK-LABEL: func.func @unchecked
// CHECK:         linalg.generic
// CHECK:           %[[IDX:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %{{.*}}[%[[IDX]], %{{.*}}] : tensor<4x3xi1>
// CHECK-NEXT:      linalg.yield %[[V]] : i1
func.func @unchecked(%d: tensor<4x3xi1>, %i: tensor<2x3xi64>) -> tensor<2x3xi1> {
  %init_0 = tensor.empty() : tensor<2x3xi1>
  %0 = gather.multiaxis %d[%i] axes = [0] negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<4x3xi1>, tensor<2x3xi64> into tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// A genuine element gather along the innermost dimension (GatherElements on
// the last axis) is vectorized: per output row, 16 indices at a time are
// read contiguously (masked transfer_read), wrapped and checked with vector
// arithmetic, and the elements fetched with one unmasked vector.gather:
// the lanes past the row's end and the fill lanes read offset 0, and the
// fill lanes then take the zeros by a select.
// CHECK-LABEL: func.func @elements_last_axis
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x5xf32>, %[[I:[^:]*]]: tensor<4x3xi64>
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG:     %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK:         scf.forall (%[[ROW:.*]]) in (4)
// CHECK:           %[[MASK:.*]] = vector.constant_mask [3] : vector<16xi1>
// CHECK:           %[[RAW:.*]] = vector.transfer_read %[[I]][%[[ROW]], %{{.*}}], %{{.*}}, %[[MASK]] : tensor<4x3xi64>, vector<16xi64>
// CHECK:           %[[IDX:.*]] = arith.index_cast %[[RAW]] : vector<16xi64> to vector<16xindex>
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<16xindex>
// CHECK:           %[[GMASK:.*]] = arith.andi %[[MASK]], %[[OK]] : vector<16xi1>
// CHECK:           %[[SAFE:.*]] = arith.select %[[GMASK]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xindex>
// CHECK:           %[[G:.*]] = vector.gather %[[D]][%[[ROW]], %{{.*}}] [%[[SAFE]]], %[[ALL]], %[[ZEROS]] : tensor<4x5xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:           %[[V:.*]] = arith.select %[[GMASK]], %[[G]], %[[ZEROS]] : vector<16xi1>, vector<16xf32>
// CHECK:           vector.transfer_write %[[V]], %{{.*}}[%{{.*}}, %{{.*}}], %[[MASK]] : vector<16xf32>, tensor<1x3xf32>
// CHECK-NOT:     linalg.generic {{.*}}outs(%{{.*}} : tensor<4x3xf32>)
func.func @elements_last_axis(%d: tensor<4x5xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %init_0 = tensor.empty() : tensor<4x3xf32>
  %0 = gather.elements %d[%i] axis = 1 out_of_bounds = fill into %init_0 : tensor<4x5xf32>, tensor<4x3xi64> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The block path: a 6x16 embedding-lookup tile (fewer rows than a tile of
// small blocks, block-tiles.mlir). Upstream linalg vectorization of the
// element-wise form makes one 96-lane vector.gather; here each of the 6
// rows is found once and copied whole (its 64 bytes with one vector load
// and store), in a parallel loop over the rows. The row is read through an
// index made safe (the `error` check in the loop).
// CHECK-LABEL: func.func @embedding_tile
// CHECK-SAME:    %[[TABLE:[^:]*]]: tensor<1000x16xf32>, %[[IDS:[^:]*]]: tensor<6xi64>
// CHECK:         scf.forall (%[[ROW:.*]]) in (6) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<6x16xf32>)
// CHECK:           %[[TARGET:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<1x16xf32>
// CHECK:           %[[RAW:.*]] = tensor.extract %{{.*}}[%[[ROW]], %{{.*}}] : tensor<6x1xi64>
// CHECK:           %[[IDX:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:           %[[W:.*]] = arith.select %{{.*}}, %{{.*}}, %[[IDX]] : index
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[W]], %{{.*}} : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[W]], %{{.*}} : index
// CHECK:           %[[V:.*]] = vector.transfer_read %[[TABLE]][%[[SAFE]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1000x16xf32>, vector<16xf32>
// CHECK:           %[[COPIED:.*]] = vector.transfer_write %[[V]], %[[TARGET]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<16xf32>, tensor<1x16xf32>
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[COPIED]] into %[[OUT]][%[[ROW]], 0] [1, 16] [1, 1]
// CHECK-NOT:     vector.gather
// CHECK-NOT:     linalg.generic {{.*}} outs(%{{.*}} : tensor<6x16xf32>)
func.func @embedding_tile(%table: tensor<1000x16xf32>, %ids: tensor<6xi64>) -> tensor<6x16xf32> {
  %init_0 = tensor.empty() : tensor<6x16xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init_0 : tensor<1000x16xf32>, tensor<6xi64> into tensor<6x16xf32>
  return %0 : tensor<6x16xf32>
}

// -----

// The block path under fill: a select between the row and zeros (no branch
// inside the parallel loop).
// CHECK-LABEL: func.func @block_fill
// CHECK:         %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<1x3xf32>
// CHECK:         scf.forall
// CHECK:           %[[OK:.*]] = arith.cmpi ult
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice {{.*}} [1, 3] [1, 1] : tensor<4x3xf32> to tensor<1x3xf32>
// CHECK:           %[[ROW:.*]] = arith.select %[[OK]], %[[SLICE]], %[[ZEROS]] : tensor<1x3xf32>
// CHECK:           tensor.parallel_insert_slice %[[ROW]]
func.func @block_fill(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] out_of_bounds = fill into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The block path under fill with a row of dynamic length: in registers,
// each register or zeros (a select on the index's validity); as one slice,
// the row, or on a miss a new row filled with zeros (no constant has a
// dynamic size).
// CHECK-LABEL: func.func @block_fill_dynamic_row
// CHECK:         scf.forall
// CHECK:           %[[OK:.*]] = arith.cmpi ult
// CHECK:           %[[ROW:.*]] = scf.if %{{.*}} -> (tensor<1x?xf32>) {
// CHECK:             arith.select %[[OK]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:             vector.create_mask
// CHECK:             arith.select %[[OK]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:           } else {
// CHECK:             %[[SLICE:.*]] = tensor.extract_slice {{.*}} : tensor<4x?xf32> to tensor<1x?xf32>
// CHECK:             %[[PICKED:.*]] = scf.if %[[OK]] -> (tensor<1x?xf32>) {
// CHECK-NEXT:          scf.yield %[[SLICE]]
// CHECK-NEXT:        } else {
// CHECK:               %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<1x?xf32>
// CHECK:               %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<1x?xf32>)
// CHECK:               scf.yield %[[ZEROS]]
// CHECK:             tensor.insert_slice %[[PICKED]]
// CHECK:           tensor.parallel_insert_slice %[[ROW]]
func.func @block_fill_dynamic_row(%d: tensor<4x?xf32>, %i: tensor<2x1xi64>) -> tensor<2x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %d, %c1 : tensor<4x?xf32>
  %init_0 = tensor.empty(%n) : tensor<2x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] out_of_bounds = fill into %init_0 : tensor<4x?xf32>, tensor<2x1xi64> into tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// error: the bounds are checked in the gather's own loop, in one pass over
// the indices: an invalid index reads row 0 instead (never out of bounds)
// and raises a flag; after the loop a raised flag reports the indices
// (gather.check_indices, which finds the invalid value: the addressed size,
// the dimension and the shape to name, the negative-index rule). Nothing is
// made outside the function.
// CHECK-NOT:   func.func private
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @error
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[ZERO8:.*]] = arith.constant 0 : i8
// CHECK-DAG:     %[[ONE8:.*]] = arith.constant 1 : i8
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<i8>
// CHECK:         memref.store %[[ZERO8]], %[[FLAG]][]
// CHECK:         %[[R:.*]] = scf.forall
// CHECK:           %[[IDX:.*]] = arith.index_cast
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[IDX]], %[[C4]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[IDX]], %[[C0]] : index
// CHECK:           tensor.extract_slice %{{.*}}[%[[SAFE]], 0] [1, 3] [1, 1]
// CHECK:           %[[BAD:.*]] = arith.cmpi uge, %[[IDX]], %[[C4]] : index
// CHECK:           scf.if %[[BAD]] {
// CHECK:             memref.store %[[ONE8]], %[[FLAG]][]
// CHECK:         %[[RAISED:.*]] = memref.load %[[FLAG]][]
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[RAISED]], %[[ZERO8]] : i8
// CHECK:         scf.if %[[FAILED]] {
// CHECK:           %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2x1xi64>
// CHECK:           %[[ANY:.*]] = memref.cast %[[BUF]] {{.*}} to memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK:           gather.check_indices %[[ANY]] sizes(%[[C4]]) dims = [0] shape(%{{.*}}, %{{.*}}) negative_indices = out_of_bounds assume_invalid for "gather.multiaxis" : memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.generic
func.func @error(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] negative_indices = out_of_bounds into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Dynamic broadcasts are checked at run time before the loop: equal, or one
// side 1. The coordinate of a dimension that may be broadcast is selected
// (here per lane: the input's innermost size may be 1).
// CHECK-LABEL: func.func @dynamic_broadcast
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x?xf32>, %[[I:[^:]*]]: tensor<?x?xi64>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[D1:.*]] = tensor.dim %[[D]], %[[C1]]
// CHECK-DAG:     %[[I1:.*]] = tensor.dim %[[I]], %[[C1]]
// CHECK-DAG:     %[[SAME:.*]] = arith.cmpi eq, %[[D1]], %[[I1]] : index
// CHECK:         scf.if
// CHECK:           scf.forall
// CHECK:             arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xindex>
// CHECK:             vector.gather
// CHECK:         } else {
// CHECK:           gather.check_shape %{{.*}}, shape_mismatch dim = 1 sizes(%[[D1]], %[[I1]]) for "gather.multiaxis"
// CHECK-NEXT:      gather.check_shape %{{.*}}, init_size_mismatch dim = 0
func.func @dynamic_broadcast(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.multiaxis %d[%i] axes = [0] out_of_bounds = clamp into %init_0 : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An init size made of the output's (a tensor.empty of the indices'
// dimension 0) needs no run-time check: it is the same tensor.dim as the
// output's size. Dimension 1, the input's against the broadcast of both
// sides, is still checked.
// CHECK-LABEL: func.func @init_of_output_sizes_unchecked
// CHECK:         gather.check_shape %{{.*}}, shape_mismatch dim = 1
// CHECK-NOT:     init_size_mismatch dim = 0
// CHECK:         gather.check_shape %{{.*}}, init_size_mismatch dim = 1
// CHECK-NOT:     init_size_mismatch
// CHECK:         return
func.func @init_of_output_sizes_unchecked(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c0 : tensor<?x?xi64>
  %m = tensor.dim %d, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] out_of_bounds = clamp into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Two axes: the coordinate pair is read from the last dimension at 2*p and
// 2*p + 1; each component is bounded by its own axis size. The output
// (401408 elements) reuses each of the 128 coordinate pairs 3136 times, so
// the policy is applied once per pair into a table of linear offsets
// (n * 56*56*64 + c). The pixels (h, w) are the outer loops and the index
// rows the inner one, the columns in tiles of 8 (offset-table-tiles.mlir;
// 8 pixels fill half of a 128 KiB L2, DLTI): all 8 rows read a tile's
// pixels while they are in cache. Each output row
// then reads its 16 offsets, adds its pixel's offset and loads one element
// each.
// CHECK-LABEL: func.func @two_axes
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : index
// CHECK-DAG:     %[[C63:.*]] = arith.constant 63 : index
// CHECK-DAG:     %[[NSTRIDE:.*]] = arith.constant 200704 : index
// CHECK-DAG:     %[[HSTRIDE:.*]] = arith.constant 3584 : index
// CHECK-DAG:     %[[WSTRIDE:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[TSTRIDE:.*]] = arith.constant 512 : index
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<32x56x56x64xf32> into tensor<6422528xf32>
// CHECK:         %[[TABLE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x1x1x16xindex>)
// CHECK:           %[[P:.*]] = linalg.index 3 : index
// CHECK:           %[[FIRST:.*]] = arith.muli %[[P]], %[[C2]] : index
// CHECK:           tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]] : tensor<8x1x1x32xi64>
// CHECK:           arith.minsi %{{.*}}, %[[C31]] : index
// CHECK:           %[[N:.*]] = arith.maxsi
// CHECK:           %[[NOFF:.*]] = arith.muli %[[N]], %[[NSTRIDE]] : index
// CHECK:           arith.minsi %{{.*}}, %[[C63]] : index
// CHECK:           %[[C:.*]] = arith.maxsi
// CHECK:           %[[OFF:.*]] = arith.addi %[[NOFF]], %[[C]] : index
// CHECK:           linalg.yield %[[OFF]] : index
// CHECK:         scf.forall (%[[H:[^ ]*]], %[[T:[^ ]*]], %[[I:[^ ]*]]) in (56, 7, 8)
// CHECK:           %[[W:.*]] = arith.muli %[[T]], %[[C8]] : index
// CHECK:           tensor.extract_slice %{{.*}}[%[[I]], %[[H]], %[[W]], 0] [1, 1, 8, 16]
// CHECK:           %[[HOFF:.*]] = arith.muli %[[H]], %[[HSTRIDE]] : index
// CHECK:           %[[TOFF:.*]] = arith.muli %[[T]], %[[TSTRIDE]] : index
// CHECK:           %[[TILE:.*]] = arith.addi %[[HOFF]], %[[TOFF]] : index
// CHECK:           scf.for %[[X:[^ ]*]] = %{{.*}} to %[[C8]] step
// CHECK:             %[[XOFF:.*]] = arith.muli %[[X]], %[[WSTRIDE]] : index
// CHECK:             %[[ROW:.*]] = arith.addi %[[TILE]], %[[XOFF]] : index
// CHECK:             scf.for %[[J:[^ ]*]] = %{{.*}} to %[[C16]] step
// CHECK:               %[[PAIR:.*]] = tensor.extract %[[TABLE]][%[[I]], %{{.*}}, %{{.*}}, %[[J]]] : tensor<8x1x1x16xindex>
// CHECK:               %[[ADDR:.*]] = arith.addi %[[PAIR]], %[[ROW]] : index
// CHECK:               %[[VALUE:.*]] = tensor.extract %[[FLAT]][%[[ADDR]]] : tensor<6422528xf32>
// CHECK-NOT:           arith.minsi
// CHECK:               tensor.insert %[[VALUE]] into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J]]]
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 131072 : i64>>} {
func.func @two_axes(%input: tensor<32x56x56x64xf32>, %indices: tensor<8x1x1x32xi64>) -> tensor<8x56x56x16xf32> {
  %init_0 = tensor.empty() : tensor<8x56x56x16xf32>
  %0 = gather.multiaxis %input[%indices] axes = [0, 3] out_of_bounds = clamp into %init_0 : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %0 : tensor<8x56x56x16xf32>
}

}

// -----

// ONNX-style ops are rewritten to multiaxis first, then lowered (here a row
// copy per index).
// CHECK-LABEL: func.func @block
// CHECK:         scf.forall
// CHECK:           tensor.extract_slice %{{.*}} [1, 7] [1, 1] : tensor<5x7xf32> to tensor<1x7xf32>
// CHECK-NOT:     gather.
func.func @block(%d: tensor<5x7xf32>, %i: tensor<3xi64>) -> tensor<3x7xf32> {
  %init_0 = tensor.empty() : tensor<3x7xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = fill into %init_0 : tensor<5x7xf32>, tensor<3xi64> into tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// Constant indices against static sizes were proven in bounds by the
// verifier: no run-time check at all under `error`.
// CHECK-LABEL: func.func @error_constant_indices
// CHECK-NOT:     scf.if
// CHECK-NOT:     iterator_types = ["reduction"
// CHECK-NOT:     __gather_runtime_error
// CHECK:         vector.gather
// CHECK:         return
func.func @error_constant_indices(%d: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %i = arith.constant dense<[[0, 2], [1, 1], [2, 0], [-1, -3]]> : tensor<4x2xi64>
  %init_0 = tensor.empty() : tensor<4x2xf32>
  %0 = gather.multiaxis %d[%i] axes = [1] into %init_0 : tensor<4x3xf32>, tensor<4x2xi64> into tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Two interleaved coordinates per lane, without reuse: the step's index
// pairs are read with one contiguous vector.transfer_read of 2 x 16 values
// (masked to the row's 2 x 2), each coordinate taken out with a
// vector.shuffle (lanes 2l and 2l + 1), and the elements with one
// vector.gather from the input collapsed to 1-D at linear offsets.
// CHECK-LABEL: func.func @two_axes_vector
// CHECK-SAME:    %[[D:[^:]*]]: tensor<8x6xf32>, %[[I:[^:]*]]: tensor<3x4xi64>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0, 1]] : tensor<8x6xf32> into tensor<48xf32>
// CHECK:         scf.forall (%[[ROW:.*]]) in (3)
// CHECK:           %[[PAIRMASK:.*]] = vector.constant_mask [4] : vector<32xi1>
// CHECK:           %[[PAIRS:.*]] = vector.transfer_read %[[I]][%[[ROW]], %{{.*}}], %{{.*}}, %[[PAIRMASK]] : tensor<3x4xi64>, vector<32xi64>
// CHECK:           vector.shuffle %[[PAIRS]], %[[PAIRS]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xi64>, vector<32xi64>
// CHECK:           vector.shuffle %[[PAIRS]], %[[PAIRS]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xi64>, vector<32xi64>
// CHECK-NOT:       vector.gather %[[I]]
// CHECK:           %[[V:.*]] = vector.gather %[[FLAT]][%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : tensor<48xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:           vector.transfer_write %[[V]]
func.func @two_axes_vector(%d: tensor<8x6xf32>, %i: tensor<3x4xi64>) -> tensor<3x2xf32> {
  %init_0 = tensor.empty() : tensor<3x2xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 1] out_of_bounds = clamp into %init_0 : tensor<8x6xf32>, tensor<3x4xi64> into tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// gather.elements with dynamic sizes: the lowering checks that no indices
// size outside the axis exceeds the data size, then slices the data to the
// minimum of the two, which stays in bounds even when the error hook returns
// (embedders that record errors).
// CHECK-LABEL: func.func @elements_runtime_sizes
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x?xf32>, %[[I:[^:]*]]: tensor<?x?xi64>
// CHECK-DAG:     %[[DD0:.*]] = tensor.dim %[[D]], %c0
// CHECK-DAG:     %[[ID0:.*]] = tensor.dim %[[I]], %c0
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %[[ID0]], %[[DD0]]
// CHECK:         %[[BAD:.*]] = arith.cmpi ugt, %[[ID0]], %[[DD0]]
// CHECK:         scf.if %[[BAD]] {
// CHECK:           gather.check_shape %[[FITS]], indices_larger_than_data dim = 0 sizes(%[[ID0]], %[[DD0]]) for "gather.elements"
// CHECK:         %[[ROWS:.*]] = arith.minui %[[DD0]], %[[ID0]]
// CHECK:         tensor.extract_slice %[[D]][0, 0] [%[[ROWS]], %{{.*}}] [1, 1]
// CHECK-NOT:     = gather.
func.func @elements_runtime_sizes(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.elements %d[%i] axis = 1 into %init_0 : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A tile of a larger gather (whole_indices, from tiling): the loop checks
// the tile's own indices, and the report scans the whole op's indices as
// written (a gather.nd's, 3-d), in their own shape, so that it names the
// position the untiled op would.
// Loops that read many indices raise a flag read after them.
// NOCANON-LABEL: func.func @error_in_a_tile
// NOCANON:     memref.alloca() : memref<i8>
// NOCANON:     memref.load %{{.*}}[] : memref<i8>
// CHECK-LABEL: func.func @error_in_a_tile
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x3xf32>, %[[I:[^:]*]]: tensor<2x1xi64>, %[[WHOLE:[^:]*]]: tensor<8x1x1xi64>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.forall
// CHECK:           tensor.extract %[[I]]
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[BUF:.*]] = bufferization.to_buffer %[[WHOLE]] read_only : tensor<8x1x1xi64>
// CHECK:           %[[ANY:.*]] = memref.cast %[[BUF]] {{.*}} to memref<?x?x?xi64, strided<[?, ?, ?], offset: ?>>
// CHECK:           gather.check_indices %[[ANY]] sizes(%[[C4]]) dims = [0] shape(%[[C8]], %[[C1]], %[[C1]]) assume_invalid for "gather.nd" : memref<?x?x?xi64, strided<[?, ?, ?], offset: ?>>
func.func @error_in_a_tile(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %whole: tensor<8x1x1xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] whole_indices(%whole : tensor<8x1x1xi64>) into %init_0 {gather.origin = #gather.origin<"gather.nd", dims = [0], indices = [2x1x1], indices_dims = [0, 1, 1]>} : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A gather of one index of larger whole indices (a step of a fused
// reduction, gather-fuse-consumers): an invalid index is reported where it
// is found, before the row is read, and no flag is checked after the copy
// (the row's loads then sit next to the step's adds).
// Before any cleanup: a report in place makes no flag at all.
// NOCANON-LABEL: func.func @error_in_a_step_reported_in_place
// NOCANON-NOT: memref.alloca
// NOCANON-NOT: memref<i8>
// NOCANON:     return
// CHECK-LABEL: func.func @error_in_a_step_reported_in_place
// CHECK-SAME:    %[[T:[^:]*]]: tensor<1000x128xf32>, %[[I:[^:]*]]: tensor<1x1xi64>, %[[WHOLE:[^:]*]]: tensor<64x8xi64>
// CHECK:         tensor.extract %[[I]]
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[BUF:.*]] = bufferization.to_buffer %[[WHOLE]] read_only : tensor<64x8xi64>
// CHECK:           gather.check_indices %{{.*}} assume_invalid for "gather.block"
// CHECK:         }
// CHECK-COUNT-8: vector.transfer_read %[[T]]
// CHECK-NOT:     memref.load
// CHECK-NOT:     gather.check_indices
// CHECK:         return
func.func @error_in_a_step_reported_in_place(%t: tensor<1000x128xf32>, %i: tensor<1x1xi64>, %whole: tensor<64x8xi64>) -> tensor<1x1x128xf32> {
  %e = tensor.empty() : tensor<1x1x128xf32>
  %g = gather.block %t[%i] axis = 0 whole_indices(%whole : tensor<64x8xi64>) into %e : tensor<1000x128xf32>, tensor<1x1xi64> into tensor<1x1x128xf32>
  return %g : tensor<1x1x128xf32>
}
