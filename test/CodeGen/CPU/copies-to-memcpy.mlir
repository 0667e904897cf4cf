// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-copies-to-memcpy))' --split-input-file | FileCheck %s

// A row with a run-time length and offset (a block gather's row with
// dynamic sizes): one memcpy of length * 4 bytes from each view's aligned
// pointer plus its offset in bytes, instead of upstream's memrefCopy.
// CHECK-LABEL: func.func @dynamic_row
// CHECK-SAME:    %[[SRC:[^:]*]]: memref<?xf32, strided<[1], offset: ?>>, %[[DST:[^:]*]]: memref<?xf32, strided<[1], offset: ?>>
// CHECK:         %{{.*}}, %[[SOFF:.*]], %[[SIZE:.*]], %{{.*}} = memref.extract_strided_metadata %[[SRC]]
// CHECK:         %{{.*}}, %[[DOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[DST]]
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[BYTES:.*]] = arith.muli %[[SIZE]], %[[C4]]
// CHECK:         %[[LEN:.*]] = arith.index_cast %[[BYTES]] : index to i64
// CHECK:         %[[DBASE:.*]] = memref.extract_aligned_pointer_as_index %[[DST]]
// CHECK:         %[[DOFFB:.*]] = arith.muli %[[DOFF]], %[[C4]]
// CHECK:         %[[DADDR:.*]] = arith.addi %[[DBASE]], %[[DOFFB]]
// CHECK:         %[[DI64:.*]] = arith.index_cast %[[DADDR]] : index to i64
// CHECK:         %[[DPTR:.*]] = llvm.inttoptr %[[DI64]] : i64 to !llvm.ptr
// CHECK:         %[[SBASE:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK:         %[[SOFFB:.*]] = arith.muli %[[SOFF]], %[[C4]]
// CHECK:         %[[SADDR:.*]] = arith.addi %[[SBASE]], %[[SOFFB]]
// CHECK:         %[[SI64:.*]] = arith.index_cast %[[SADDR]] : index to i64
// CHECK:         %[[SPTR:.*]] = llvm.inttoptr %[[SI64]] : i64 to !llvm.ptr
// CHECK:         "llvm.intr.memcpy"(%[[DPTR]], %[[SPTR]], %[[LEN]]) <{isVolatile = false}>
// CHECK-NOT:     memref.copy
func.func @dynamic_row(%src: memref<?xf32, strided<[1], offset: ?>>, %dst: memref<?xf32, strided<[1], offset: ?>>) {
  memref.copy %src, %dst : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  return
}

// -----

// Two dimensions with run-time strides: one memcpy of the whole when both
// views are row-major contiguous (a stride may differ where its size is 1),
// else one memcpy per innermost row, at each row's offset.
// CHECK-LABEL: func.func @dynamic_block
// CHECK-SAME:    %[[SRC:[^:]*]]: memref<?x?xf16, strided<[?, 1], offset: ?>>, %[[DST:[^:]*]]: memref<?x?xf16, strided<[?, 1], offset: ?>>
// CHECK:         %{{.*}}, %[[SOFF:.*]], %[[SIZES:.*]]:2, %[[SSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK:         %{{.*}}, %[[DOFF:.*]], %{{.*}}:2, %[[DSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[DST]]
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[UNIT:.*]] = arith.cmpi eq, %[[SIZES]]#0, %[[C1]]
// CHECK:         %[[DENSE:.*]] = arith.cmpi eq, %[[SSTRIDES]]#0, %[[SIZES]]#1
// CHECK:         %[[SOK:.*]] = arith.ori %[[UNIT]], %[[DENSE]]
// CHECK:         arith.cmpi eq, %[[DSTRIDES]]#0, %[[SIZES]]#1
// CHECK:         %[[DOK:.*]] = arith.ori
// CHECK:         %[[BOTH:.*]] = arith.andi %[[SOK]], %[[DOK]]
// CHECK:         scf.if %[[BOTH]] {
// CHECK:           %[[COUNT:.*]] = arith.muli %[[SIZES]]#0, %[[SIZES]]#1
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK:           arith.muli %[[COUNT]], %[[C2]]
// CHECK:           "llvm.intr.memcpy"
// CHECK:         } else {
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %[[SIZES]]#0
// CHECK:             %[[SROW:.*]] = arith.muli %[[ROW]], %[[SSTRIDES]]#0
// CHECK:             arith.addi %[[SOFF]], %[[SROW]]
// CHECK:             %[[DROW:.*]] = arith.muli %[[ROW]], %[[DSTRIDES]]#0
// CHECK:             arith.addi %[[DOFF]], %[[DROW]]
// CHECK:             arith.muli %[[SIZES]]#1, %{{.*}}
// CHECK:             "llvm.intr.memcpy"
// CHECK-NOT:     memref.copy
func.func @dynamic_block(%src: memref<?x?xf16, strided<[?, 1], offset: ?>>, %dst: memref<?x?xf16, strided<[?, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<?x?xf16, strided<[?, 1], offset: ?>> to memref<?x?xf16, strided<[?, 1], offset: ?>>
  return
}

// -----

// An innermost stride known at run time only (the view an scf.if yields
// from a slice or a new zero block, under fill): the memcpy where the
// views are contiguous with unit innermost strides, else loops of loads
// and stores (not upstream's memrefCopy, which only MLIR's C runner utils
// define).
// CHECK-LABEL: func.func @runtime_innermost_stride
// CHECK-SAME:    %[[SRC:[^:]*]]: memref<1x?xf32, strided<[?, ?], offset: ?>>, %[[DST:[^:]*]]: memref<1x?xf32, strided<[?, 1], offset: ?>>
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:2, %[[SSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:2, %[[DSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[DST]]
// CHECK:         %[[CONTIGUOUS:.*]] = arith.andi
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[SUNIT:.*]] = arith.cmpi eq, %[[SSTRIDES]]#1, %[[C1]]
// CHECK:         %[[DUNIT:.*]] = arith.cmpi eq, %[[DSTRIDES]]#1, %[[C1]]
// CHECK:         %[[UNIT:.*]] = arith.andi %[[SUNIT]], %[[DUNIT]]
// CHECK:         %[[BOTH:.*]] = arith.andi %[[CONTIGUOUS]], %[[UNIT]]
// CHECK:         scf.if %[[BOTH]] {
// CHECK:           "llvm.intr.memcpy"
// CHECK:         } else {
// CHECK:             %[[D0:.*]] = memref.dim %[[SRC]], %{{.*}}
// CHECK:             %[[D1:.*]] = memref.dim %[[SRC]], %{{.*}}
// CHECK:             scf.for %[[I:.*]] = %{{.*}} to %[[D0]]
// CHECK-NEXT:          scf.for %[[J:.*]] = %{{.*}} to %[[D1]]
// CHECK-NEXT:            %[[V:.*]] = memref.load %[[SRC]][%[[I]], %[[J]]]
// CHECK-NEXT:            memref.store %[[V]], %[[DST]][%[[I]], %[[J]]]
// CHECK-NOT:     memref.copy
func.func @runtime_innermost_stride(%src: memref<1x?xf32, strided<[?, ?], offset: ?>>, %dst: memref<1x?xf32, strided<[?, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<1x?xf32, strided<[?, ?], offset: ?>> to memref<1x?xf32, strided<[?, 1], offset: ?>>
  return
}

// -----

// i1 elements take a byte each in memory.
// CHECK-LABEL: func.func @bool_row
// CHECK:         %{{.*}}, %{{.*}}, %[[SIZE:.*]], %{{.*}} = memref.extract_strided_metadata
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         arith.muli %[[SIZE]], %[[C1]]
// CHECK:         "llvm.intr.memcpy"
func.func @bool_row(%src: memref<?xi1, strided<[1], offset: ?>>, %dst: memref<?xi1>) {
  memref.copy %src, %dst : memref<?xi1, strided<[1], offset: ?>> to memref<?xi1>
  return
}

// -----

// Left to upstream: identity layouts and static contiguous views (which it
// copies with memcpy itself), and device memory.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: memref.copy
// CHECK-NOT:     llvm.intr.memcpy
// CHECK-NOT:     scf.for
func.func @left_alone(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                      %c: memref<4x8xf32, strided<[8, 1], offset: ?>>, %d: memref<4x8xf32, strided<[8, 1], offset: ?>>,
                      %g: memref<?xf32, strided<[1], offset: ?>, 1>, %h: memref<?xf32, strided<[1], offset: ?>, 1>) {
  memref.copy %a, %b : memref<?x?xf32> to memref<?x?xf32>
  memref.copy %c, %d : memref<4x8xf32, strided<[8, 1], offset: ?>> to memref<4x8xf32, strided<[8, 1], offset: ?>>
  memref.copy %g, %h : memref<?xf32, strided<[1], offset: ?>, 1> to memref<?xf32, strided<[1], offset: ?>, 1>
  return
}

// -----

// Copied element by element, where upstream would call memrefCopy: a
// static non-unit innermost stride, element types without a whole number
// of bytes or that the data layout pads (f80 takes 16 bytes, not 10; i24
// takes 4).
// CHECK-LABEL: func.func @element_loops
// CHECK-SAME:    %[[E:[^:]*]]: memref<?xf32, strided<[2], offset: ?>>, %[[F:[^:]*]]: memref<?xf32, strided<[2], offset: ?>>
// CHECK:         %[[N:.*]] = memref.dim %[[E]], %{{.*}}
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[E]][%[[I]]]
// CHECK-NEXT:      memref.store %[[V]], %[[F]][%[[I]]]
// CHECK:         memref.load {{.*}} : memref<?xi4, strided<[1], offset: ?>>
// CHECK:         memref.load {{.*}} : memref<?xf80, strided<[1], offset: ?>>
// CHECK:         memref.load {{.*}} : memref<?xi24, strided<[1], offset: ?>>
// CHECK-NOT:     memref.copy
func.func @element_loops(%e: memref<?xf32, strided<[2], offset: ?>>, %f: memref<?xf32, strided<[2], offset: ?>>,
                         %i: memref<?xi4, strided<[1], offset: ?>>, %j: memref<?xi4, strided<[1], offset: ?>>,
                         %k: memref<?xf80, strided<[1], offset: ?>>, %l: memref<?xf80, strided<[1], offset: ?>>,
                         %m: memref<?xi24, strided<[1], offset: ?>>, %n: memref<?xi24, strided<[1], offset: ?>>) {
  memref.copy %e, %f : memref<?xf32, strided<[2], offset: ?>> to memref<?xf32, strided<[2], offset: ?>>
  memref.copy %i, %j : memref<?xi4, strided<[1], offset: ?>> to memref<?xi4, strided<[1], offset: ?>>
  memref.copy %k, %l : memref<?xf80, strided<[1], offset: ?>> to memref<?xf80, strided<[1], offset: ?>>
  memref.copy %m, %n : memref<?xi24, strided<[1], offset: ?>> to memref<?xi24, strided<[1], offset: ?>>
  return
}
