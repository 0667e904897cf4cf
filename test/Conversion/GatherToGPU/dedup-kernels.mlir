// RUN: gather-opt %s --split-input-file --gather-dedup-gpu-kernels | FileCheck %s

// Kernel modules with the same contents, outlined from two host functions
// (so their kernels' names differ too), become one: both launches use the
// first module's kernel, and the copy is gone. The module whose kernel
// stores another constant stays, as does the one whose kernel has another
// known block size.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         func.func @f
// CHECK:           gpu.launch_func @f_kernel::@f_kernel
// CHECK:           gpu.launch_func @f_kernel_0::@f_kernel
// CHECK:           gpu.launch_func @f_kernel_1::@f_kernel
// CHECK:         func.func @g
// CHECK:           gpu.launch_func @f_kernel::@f_kernel
// CHECK-DAG:     gpu.module @f_kernel {
// CHECK-DAG:     gpu.module @f_kernel_0 {
// CHECK-DAG:     gpu.module @f_kernel_1 {
// CHECK-NOT:     gpu.module @g_kernel
module attributes {gpu.container_module} {
  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  func.func @g(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel(%arg0: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%arg0: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = arith.constant 2.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%arg0: memref<4xf32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @g_kernel {
    gpu.func @g_kernel(%arg0: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Modules that differ only in an attribute of their own (here a target)
// stay apart; a module with the same contents under another name is still
// a duplicate when nothing launches it.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @a::@k
// CHECK:         gpu.launch_func @b::@k
// CHECK:         gpu.module @a [#nvvm.target<chip = "sm_80">]
// CHECK:         gpu.module @b [#nvvm.target<chip = "sm_90">]
// CHECK-NOT:     gpu.module @c
module attributes {gpu.container_module} {
  func.func @h(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @c [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A kernel module that also holds a device function: the kernels map by
// position and the helper's calls stay as they are.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @p::@first
// CHECK:         gpu.launch_func @p::@second
// CHECK:         gpu.launch_func @p::@first
// CHECK:         gpu.launch_func @p::@second
// CHECK:         gpu.module @p
// CHECK-NOT:     gpu.module @q
module attributes {gpu.container_module} {
  func.func @two(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @p::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @p::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @q::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @q::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @p {
    func.func @helper(%arg0: memref<4xf32>) {
      return
    }
    gpu.func @first(%arg0: memref<4xf32>) kernel {
      func.call @helper(%arg0) : (memref<4xf32>) -> ()
      gpu.return
    }
    gpu.func @second(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @q {
    func.func @helper(%arg0: memref<4xf32>) {
      return
    }
    gpu.func @one(%arg0: memref<4xf32>) kernel {
      func.call @helper(%arg0) : (memref<4xf32>) -> ()
      gpu.return
    }
    gpu.func @two(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A function's second kernel module is named after its first (@b_kernel_0
// holds the kernel @b_kernel): when @b_kernel is a duplicate, the launch of
// @b_kernel_0::@b_kernel keeps its kernel name (only whole references are
// redirected, not the module name that a kernel name happens to equal).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         func.func @a
// CHECK:           gpu.launch_func @a_kernel::@a_kernel
// CHECK:         func.func @b
// CHECK:           gpu.launch_func @a_kernel::@a_kernel
// CHECK:           gpu.launch_func @b_kernel_0::@b_kernel
// CHECK-DAG:     gpu.module @a_kernel {
// CHECK-DAG:     gpu.module @b_kernel_0 {
// CHECK-NOT:     gpu.module @b_kernel {
module attributes {gpu.container_module} {
  func.func @a(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a_kernel::@a_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  func.func @b(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @b_kernel::@b_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @b_kernel_0::@b_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @a_kernel {
    gpu.func @a_kernel(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @b_kernel {
    gpu.func @b_kernel(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @b_kernel_0 {
    gpu.func @b_kernel(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 2.0 : f32
      memref.store %v, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
