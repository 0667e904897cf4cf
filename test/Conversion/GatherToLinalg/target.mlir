// The lowering plans with a target description (include/gather/Target/
// CpuTarget.h): the defaults (512-bit vectors, 64-byte lines, 32 KiB L1d,
// 1 MiB L2, 4 KiB pages), an x86-64 CPU name, or the vector width alone.
// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=x86-64-v3 --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: gather-opt %s --convert-gather-to-linalg=target-cpu=x86-64-v4 --split-input-file | FileCheck %s --check-prefix=DEFAULT
// The option vector-bits overrides the CPU's width.
// RUN: gather-opt %s --convert-gather-to-linalg="target-cpu=x86-64-v3 vector-bits=512" --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: gather-opt %s --convert-gather-to-linalg=vector-bits=256 --split-input-file | FileCheck %s --check-prefix=AVX2

// Element rows: one vector register of lanes per step.
// DEFAULT-LABEL: func.func @element_rows
// DEFAULT:         vector.gather {{.*}} into vector<16xf32>
// AVX2-LABEL:    func.func @element_rows
// AVX2:            vector.gather {{.*}} into vector<8xf32>
func.func @element_rows(%d: tensor<8x100xf32>, %i: tensor<8x32xi32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<8x100xf32>, tensor<8x32xi32> into tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Block rows under a page: copied in chunks of eight vector registers
// (512 bytes with AVX-512, 256 with AVX2), a register at a time, in a loop
// over the whole chunks, then the rest: 1000 f32 are 7 chunks of 8
// registers of 16 and 6 more plus one of 8 with AVX-512; 15 chunks of 8
// registers of 8 and 5 more with AVX2.
// DEFAULT-LABEL: func.func @block_rows
// DEFAULT:         scf.for
// DEFAULT-COUNT-8:   vector.transfer_read {{.*}} vector<16xf32>
// DEFAULT:           scf.yield
// DEFAULT-COUNT-6: vector.transfer_read {{.*}} vector<16xf32>
// DEFAULT-NEXT:    vector.transfer_read {{.*}} vector<8xf32>
// DEFAULT-NOT:     vector.transfer_read
// AVX2-LABEL:    func.func @block_rows
// AVX2:            scf.for
// AVX2-COUNT-8:      vector.transfer_read {{.*}} vector<8xf32>
// AVX2:              scf.yield
// AVX2-COUNT-5:    vector.transfer_read {{.*}} vector<8xf32>
// AVX2-NOT:        vector.transfer_read
func.func @block_rows(%d: tensor<100x1000xf32>, %i: tensor<4xi32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<100x1000xf32>, tensor<4xi32> into tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}
