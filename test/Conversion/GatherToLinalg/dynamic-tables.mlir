// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg=report-forms --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMS
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as block-copy vector-rows coordinate-table{{$}}
// @all_dynamic_versions: the version for broadcast indices and the general
// one, each in two versions for its dynamic N and C:
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-chunks{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-chunks{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows{{$}}
// Two versions each for @dynamic_images and @dynamic_channels:
// FORMS-COUNT-4: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// and for @all_indices_dynamic:
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-chunks{{$}}
// and for @broadcast_versions_where_the_input_spans:
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows{{$}}
// FORMS: dynamic-tables.mlir:{{.*}} remark: lowered as vector-rows offset-table{{$}}

// Index tables with dynamic sizes. The reuse that pays for a table is
// decided from the static sizes: a dimension dynamic in both the indices
// and the output counts as no reuse, and indices of static size 1 along a
// dynamic output dimension broadcast along it. The table then has the
// indices' dynamic sizes (the tuple dimension's divided by the tuple
// length), and the offset-table tiles and loop order stay where their
// sizes are static.

// An NHWC lookup whose index rows are dynamic (a batch): the offset table
// has ? rows, the pixels go outermost, in tiles of 8 (twice the default 32
// KiB L1; a dynamic batch of reads a pixel is bounded by the 8 KiB slice of
// (n, c) it ranges over), and the index rows inside.
// CHECK-LABEL: func.func @offset_table_dynamic_index_rows
// CHECK-SAME:    %[[D:[^:]*]]: tensor<32x56x56x64xf32>, %[[I:[^:]*]]: tensor<?x1x1x32xi64>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[ROWS:.*]] = tensor.dim %[[I]], %[[C0]] : tensor<?x1x1x32xi64>
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x1x1x16xindex>
// CHECK:         linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x1x1x16xindex>)
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, %[[ROWS]])
// CHECK:           tensor.extract_slice %{{.*}} [1, 1, 8, 16] [1, 1, 1, 1] : tensor<?x56x56x16xf32> to tensor<1x1x8x16xf32>
func.func @offset_table_dynamic_index_rows(%d: tensor<32x56x56x64xf32>, %i: tensor<?x1x1x32xi64>) -> tensor<?x56x56x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?x1x1x32xi64>
  %e = tensor.empty(%n) : tensor<?x56x56x16xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<?x1x1x32xi64> into tensor<?x56x56x16xf32>
  return %0 : tensor<?x56x56x16xf32>
}

// -----

// The tuple dimension dynamic: the table's last size is the indices'
// divided by the 2 coordinates of a tuple.
// CHECK-LABEL: func.func @offset_table_dynamic_tuples
// CHECK-SAME:    %{{[^:]*}}: tensor<6x9x7x12xf32>, %[[I:[^:]*]]: tensor<3x1x1x?xi64>
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[RAW:.*]] = tensor.dim %[[I]], %[[C3]] : tensor<3x1x1x?xi64>
// CHECK:         %[[TUPLES:.*]] = arith.divui %[[RAW]], %[[C2]] : index
// CHECK:         tensor.empty(%[[TUPLES]]) : tensor<3x1x1x?xindex>
func.func @offset_table_dynamic_tuples(%d: tensor<6x9x7x12xf32>, %i: tensor<3x1x1x?xi64>, %e: tensor<3x9x7x?xf32>) -> tensor<3x9x7x?xf32> {
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<6x9x7x12xf32>, tensor<3x1x1x?xi64> into tensor<3x9x7x?xf32>
  return %0 : tensor<3x9x7x?xf32>
}

// -----

// The pixels dynamic, the indices static with size 1 there: they
// broadcast along the dynamic dimensions, a table.
// CHECK-LABEL: func.func @offset_table_dynamic_pixels
// CHECK:         tensor.empty() : tensor<3x1x1x20xindex>
// CHECK:         linalg.generic
func.func @offset_table_dynamic_pixels(%d: tensor<6x?x?x12xf32>, %i: tensor<3x1x1x40xi64>, %e: tensor<3x?x?x20xf32>) -> tensor<3x?x?x20xf32> {
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<6x?x?x12xf32>, tensor<3x1x1x40xi64> into tensor<3x?x?x20xf32>
  return %0 : tensor<3x?x?x20xf32>
}

// -----

// Rows copied as blocks, one index per row broadcast over dimension 0 (8
// uses each) and a dynamic count of them: a coordinate table of that
// count.
// CHECK-LABEL: func.func @coordinate_table_dynamic
// CHECK-SAME:    %{{[^:]*}}: tensor<8x30x64xf32>, %[[I:[^:]*]]: tensor<1x?x1xi64>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[K:.*]] = tensor.dim %[[I]], %[[C1]] : tensor<1x?x1xi64>
// CHECK:         tensor.empty(%[[K]]) : tensor<1x?x1xindex>
func.func @coordinate_table_dynamic(%d: tensor<8x30x64xf32>, %i: tensor<1x?x1xi64>, %e: tensor<8x?x64xf32>) -> tensor<8x?x64xf32> {
  %0 = gather.multiaxis %d[%i] axes = [1] into %e : tensor<8x30x64xf32>, tensor<1x?x1xi64> into tensor<8x?x64xf32>
  return %0 : tensor<8x?x64xf32>
}

// -----

// Every size dynamic: nothing shows reuse, and the general version has no
// table; the version for indices of size 1 off the axes has one
// (@all_indices_dynamic below), built in each of its two versions for the
// dynamic N and C (@dynamic_images): two tables, then none.
// CHECK-LABEL: func.func @all_dynamic_versions
// CHECK:         scf.if
// CHECK-COUNT-2:   linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x1x?xindex>)
// CHECK-NOT:       xindex>)
// CHECK:         return
func.func @all_dynamic_versions(%d: tensor<?x?x?x?xf32>, %i: tensor<?x?x?x?xi64>, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// The tuple dimension dynamic and off the axes: at run time it may be 1
// under longer output rows (a broadcast), which rows reading their offsets
// along the table cannot take: no table (reused-indices.py runs it).
// CHECK-LABEL: func.func @no_table_dynamic_tuples_off_axes
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor<{{[0-9?x]*}}xindex>
// CHECK:         return
func.func @no_table_dynamic_tuples_off_axes(%d: tensor<6x9x7x12xf32>, %i: tensor<4x1x1x?xi64>, %e: tensor<4x9x1x12xf32>) -> tensor<4x9x1x12xf32> {
  %0 = gather.multiaxis %d[%i] axes = [0, 2] into %e : tensor<6x9x7x12xf32>, tensor<4x1x1x?xi64> into tensor<4x9x1x12xf32>
  return %0 : tensor<4x9x1x12xf32>
}

// -----

// A dynamic image count N: a pixel's reads range over N (n, c) rows of 64
// channels (256 bytes each), unknown, and the order that keeps them in the
// L1 needs that. Two versions of the loops, chosen at run time: the pixels
// outermost, in tiles (of 4: a pixel counted at most 64 x 256 bytes, twice
// the L1 holding 4), where N x 256 bytes fit half the default 32 KiB L1d
// (N <= 64; N clamped first, so that the product cannot overflow), else the
// output's order (index rows outermost).
// CHECK-LABEL: func.func @dynamic_images
// CHECK-SAME:    %[[D:[^:]*]]: tensor<?x56x56x64xf32>
// CHECK-DAG:     %[[ROW:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[BUDGET:.*]] = arith.constant 16384 : index
// CHECK-DAG:     %[[CAP:.*]] = arith.constant 16385 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<?x56x56x64xf32>
// CHECK:         %[[CLAMPED:.*]] = arith.minui %[[N]], %[[CAP]] : index
// CHECK:         %[[BYTES:.*]] = arith.muli %[[CLAMPED]], %[[ROW]] : index
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %[[BYTES]], %[[BUDGET]] : index
// CHECK:         scf.if %[[FITS]]
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 14, 64)
// CHECK:         } else {
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (64, 56, 56)
func.func @dynamic_images(%d: tensor<?x56x56x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
  %e = tensor.empty() : tensor<64x56x56x16xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<?x56x56x64xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
  return %0 : tensor<64x56x56x16xf32>
}

// -----

// A dynamic channel count C (the innermost axis) counts in whole lines: a
// pixel's 32 images fit half the L1d while a row of C takes at most 512
// bytes (C <= 128 f32).
// CHECK-LABEL: func.func @dynamic_channels
// CHECK-SAME:    %[[D:[^:]*]]: tensor<32x56x56x?xf32>
// CHECK-DAG:     %[[LINE:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[BUDGET:.*]] = arith.constant 16384 : index
// CHECK:         %[[C:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<32x56x56x?xf32>
// CHECK:         %[[CLAMPED:.*]] = arith.minui %[[C]], %{{.*}} : index
// CHECK:         %[[ROWBYTES:.*]] = arith.muli %[[CLAMPED]], %{{.*}} : index
// CHECK:         %[[LINES:.*]] = arith.ceildivui %[[ROWBYTES]], %[[LINE]] : index
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %[[BUDGET]] : index
// CHECK:         scf.if %[[FITS]]
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, {{[0-9]+}}, 64)
// CHECK:         } else {
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (64, 56, 56)
func.func @dynamic_channels(%d: tensor<32x56x56x?xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x56x56x16xf32> {
  %e = tensor.empty() : tensor<64x56x56x16xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x?xf32>, tensor<64x1x1x32xi64> into tensor<64x56x56x16xf32>
  return %0 : tensor<64x56x56x16xf32>
}

// -----

// Every indices size dynamic, as frontends often type them: nothing shows
// that the (n, c) pairs broadcast along the pixels, so the general plan
// has no offset table. Two versions, chosen at run time: where the
// indices' sizes off the axes (dimensions 1 and 2) are 1, the gather reads
// them cast to a type that says so, with the table and the pixels
// outermost (tiles of 8 pixels; the dynamic row of pairs counts as
// many reads, bounded by the 8 KiB slice); else the general plan (offset
// chunks). Their error flags stay on the stack: a branch is no loop.
// CHECK-LABEL: func.func @all_indices_dynamic
// CHECK-SAME:    %{{[^:]*}}: tensor<32x56x56x64xf32>, %[[I:[^:]*]]: tensor<?x?x?x?xi64>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[H:.*]] = tensor.dim %[[I]], %[[C1]] : tensor<?x?x?x?xi64>
// CHECK:         %[[HUNIT:.*]] = arith.cmpi eq, %[[H]], %[[C1]] : index
// CHECK:         %[[W:.*]] = tensor.dim %[[I]], %[[C2]] : tensor<?x?x?x?xi64>
// CHECK:         %[[WUNIT:.*]] = arith.cmpi eq, %[[W]], %[[C1]] : index
// CHECK:         %[[UNIT:.*]] = arith.andi %[[HUNIT]], %[[WUNIT]] : i1
// CHECK:         scf.if %[[UNIT]]
// CHECK:           memref.alloca() : memref<i8>
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x1x?xindex>)
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, %{{.*}})
// CHECK:             tensor.extract_slice %{{.*}} [1, 1, 8, %{{.*}}] [1, 1, 1, 1] : tensor<?x56x56x?xf32> to tensor<1x1x8x?xf32>
// CHECK-NOT:       outs(%{{.*}} : tensor<?x1x1x?xindex>)
// CHECK:           memref.alloca() : memref<i8>
// CHECK-NOT:       outs(%{{.*}} : tensor<?x1x1x?xindex>)
// CHECK:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 56, %{{.*}})
// CHECK:         return
func.func @all_indices_dynamic(%d: tensor<32x56x56x64xf32>, %i: tensor<?x?x?x?xi64>) -> tensor<?x56x56x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %i, %c0 : tensor<?x?x?x?xi64>
  %t = tensor.dim %i, %c3 : tensor<?x?x?x?xi64>
  %k = arith.divui %t, %c2 : index
  %e = tensor.empty(%n, %k) : tensor<?x56x56x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x56x56x64xf32>, tensor<?x?x?x?xi64> into tensor<?x56x56x?xf32>
  return %0 : tensor<?x56x56x?xf32>
}

// -----

// Only the sizes where indices of size 1 would broadcast: not along
// dimension 1, where the input's size is 1 (the indices alone give the
// output's 5 rows there); the version tests dimension 2 alone.
// CHECK-LABEL: func.func @broadcast_versions_where_the_input_spans
// CHECK-SAME:    %{{[^:]*}}: tensor<32x1x56x64xf32>, %[[I:[^:]*]]: tensor<?x?x?x?xi64>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT:     tensor.dim %[[I]], %[[C1]]
// CHECK:         %[[W:.*]] = tensor.dim %[[I]], %[[C2]] : tensor<?x?x?x?xi64>
// CHECK-NEXT:    %[[UNIT:.*]] = arith.cmpi eq, %[[W]], %[[C1]] : index
// CHECK-NEXT:    scf.if %[[UNIT]]
func.func @broadcast_versions_where_the_input_spans(%d: tensor<32x1x56x64xf32>, %i: tensor<?x?x?x?xi64>) -> tensor<?x5x56x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %i, %c0 : tensor<?x?x?x?xi64>
  %t = tensor.dim %i, %c3 : tensor<?x?x?x?xi64>
  %k = arith.divui %t, %c2 : index
  %e = tensor.empty(%n, %k) : tensor<?x5x56x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x1x56x64xf32>, tensor<?x?x?x?xi64> into tensor<?x5x56x?xf32>
  return %0 : tensor<?x5x56x?xf32>
}

// -----

// The pixels dynamic (data H and W): the tiles along the image row take the
// budget's count, 8 pixels of 8 KiB (twice the default 32 KiB L1), with a
// partial last tile, since no divisor of a dynamic size is known.
// CHECK-LABEL: func.func @pixels_dynamic_partial_tiles
// CHECK-SAME:    %[[D:[^:]*]]: tensor<32x?x?x64xf32>
// CHECK-DAG:     %[[T:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[H:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<32x?x?x64xf32>
// CHECK-DAG:     %[[W:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<32x?x?x64xf32>
// CHECK:         %[[TILES:.*]] = arith.ceildivui %[[W]], %[[T]] : index
// CHECK:         scf.forall (%[[Y:.*]], %[[X:.*]], %{{.*}}) in (%[[H]], %[[TILES]], 64)
// CHECK:           %[[START:.*]] = arith.muli %[[X]], %[[T]] : index
// CHECK:           %[[LEFT:.*]] = arith.subi %[[W]], %[[START]] : index
// CHECK:           %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[T]] : index
// CHECK:           tensor.extract_slice %{{.*}}[%{{.*}}, %[[Y]], %[[START]], 0] [1, 1, %[[COUNT]], 16]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[COUNT]] step
func.func @pixels_dynamic_partial_tiles(%d: tensor<32x?x?x64xf32>, %i: tensor<64x1x1x32xi64>) -> tensor<64x?x?x16xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %d, %c1 : tensor<32x?x?x64xf32>
  %w = tensor.dim %d, %c2 : tensor<32x?x?x64xf32>
  %e = tensor.empty(%h, %w) : tensor<64x?x?x16xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<32x?x?x64xf32>, tensor<64x1x1x32xi64> into tensor<64x?x?x16xf32>
  return %0 : tensor<64x?x?x16xf32>
}
