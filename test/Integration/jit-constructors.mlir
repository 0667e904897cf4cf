// The JIT runs a module's constructors before its first call: the GPU
// pipeline's host code loads its kernels from one (gpu.binary's
// translation adds it to llvm.global_ctors), and lib/Runner/Jit.cpp keeps
// such a module whole so that LLJIT's IR platform finds it. This module's
// constructor writes 42 into a global that @main then reads; without it
// the global stays 0.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(4, dtype=np.float32) + 1)"
// RUN: gather-run %s --input %t/x.npy --output %t/o.npy --compile-times 2>&1 | FileCheck %s --check-prefix=TIMES
// RUN: %python -c "import numpy as np; print(np.load('%t/o.npy').tolist())" | FileCheck %s
// RUN: gather-run %s --input %t/x.npy --output %t/o.npy --compile-threads 2
// RUN: %python -c "import numpy as np; print(np.load('%t/o.npy').tolist())" | FileCheck %s
// TIMES: compile: pipeline {{.*}} (
// TIMES-SAME: LLVM instructions in 1 module)
// CHECK: [42.0, 2.0, 3.0, 4.0]

llvm.mlir.global internal @seed(0.0 : f32) : f32
llvm.func @set_seed() {
  %p = llvm.mlir.addressof @seed : !llvm.ptr
  %v = llvm.mlir.constant(42.0 : f32) : f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.mlir.global_ctors ctors = [@set_seed], priorities = [0 : i32], data = [#llvm.zero]

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %p = llvm.mlir.addressof @seed : !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> f32
  %r = tensor.insert %v into %x[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
