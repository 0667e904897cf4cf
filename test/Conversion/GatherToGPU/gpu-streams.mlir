// RUN: gather-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(gather-gpu-streams))" -verify-diagnostics | FileCheck %s

// Two gathers under `error`, as the GPU pipeline lowers them: every GPU op
// on one stream; the flags' copies and checks move to the end, the copies
// before the trailing deallocations and one wait, the checks after it. The
// report's copy of the indices (a branch) waits for itself alone.
// CHECK-LABEL: func.func @two_checked
// CHECK:         %[[S:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.alloc async [%[[S]]]
// CHECK-NEXT:    gpu.memset async [%[[S]]]
// CHECK-NEXT:    gpu.launch_func async [%[[S]]] @k::@k
// CHECK-NEXT:    %[[H1:.*]] = memref.alloca
// CHECK-NEXT:    gpu.alloc async [%[[S]]]
// CHECK-NEXT:    gpu.memset async [%[[S]]]
// CHECK-NEXT:    gpu.launch_func async [%[[S]]] @k::@k
// CHECK-NEXT:    %[[H2:.*]] = memref.alloca
// CHECK-NEXT:    gpu.memcpy async [%[[S]]] %[[H1]], {{.*}} : memref<i32>, memref<i32> {gather.error_flag}
// CHECK-NEXT:    gpu.memcpy async [%[[S]]] %[[H2]], {{.*}} : memref<i32>, memref<i32> {gather.error_flag}
// CHECK-NEXT:    gpu.dealloc async [%[[S]]]
// CHECK-NEXT:    gpu.dealloc async [%[[S]]]
// CHECK-NEXT:    gpu.wait [%[[S]]]
// CHECK-NEXT:    memref.load %[[H1]]
// CHECK-NEXT:    arith.cmpi
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      memref.alloc
// CHECK-NEXT:      %[[F:.*]] = gpu.wait async
// CHECK-NEXT:      gpu.memcpy async [%[[F]]]
// CHECK-NEXT:      gpu.wait [%[[F]]]
// CHECK:         memref.load %[[H2]]
// CHECK:           gpu.wait [%{{.*}}]
// CHECK-NEXT:      memref.dealloc
// CHECK-NEXT:    }
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%f: memref<i32>) kernel {
      gpu.return
    }
  }
  func.func @two_checked(%ids: memref<8xi64>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %f1 = gpu.alloc () : memref<i32>
    gpu.memset %f1, %c0 : memref<i32>, i32
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f1 : memref<i32>)
    %h1 = memref.alloca() : memref<i32>
    gpu.memcpy %h1, %f1 : memref<i32>, memref<i32> {gather.error_flag}
    %v1 = memref.load %h1[] : memref<i32>
    %r1 = arith.cmpi ne, %v1, %c0 : i32
    scf.if %r1 {
      %copy = memref.alloc() : memref<8xi64>
      gpu.memcpy %copy, %ids : memref<8xi64>, memref<8xi64>
      memref.dealloc %copy : memref<8xi64>
    }
    %f2 = gpu.alloc () : memref<i32>
    gpu.memset %f2, %c0 : memref<i32>, i32
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f2 : memref<i32>)
    %h2 = memref.alloca() : memref<i32>
    gpu.memcpy %h2, %f2 : memref<i32>, memref<i32> {gather.error_flag}
    %v2 = memref.load %h2[] : memref<i32>
    %r2 = arith.cmpi ne, %v2, %c0 : i32
    scf.if %r2 {
      %copy = memref.alloc() : memref<8xi64>
      gpu.memcpy %copy, %ids : memref<8xi64>, memref<8xi64>
      memref.dealloc %copy : memref<8xi64>
    }
    gpu.dealloc %f1 : memref<i32>
    gpu.dealloc %f2 : memref<i32>
    return
  }
}

// -----

// A check whose report reads indices in device memory that the function
// computed (later code could overwrite them) stays in place: the host
// waits before reading its flag, and later ops go on a new stream.
// CHECK-LABEL: func.func @computed_indices
// CHECK:         %[[S:.*]] = gpu.wait async
// CHECK:         gpu.launch_func async [%[[S]]]
// CHECK:         gpu.memcpy async [%[[S]]] {{.*}} {gather.error_flag}
// CHECK-NEXT:    gpu.wait [%[[S]]]
// CHECK-NEXT:    memref.load
// CHECK:         scf.if
// CHECK:           gpu.wait [%{{.*}}]
// CHECK-NEXT:      memref.dealloc
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.launch_func async [%[[T]]]
// CHECK-NEXT:    gpu.dealloc async [%[[T]]]
// CHECK-NEXT:    gpu.dealloc async [%[[T]]]
// CHECK-NEXT:    gpu.wait [%[[T]]]
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%f: memref<i32>) kernel {
      gpu.return
    }
  }
  func.func @computed_indices() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %ids = gpu.alloc () : memref<8xi64>
    %f1 = gpu.alloc () : memref<i32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f1 : memref<i32>)
    %h1 = memref.alloca() : memref<i32>
    gpu.memcpy %h1, %f1 : memref<i32>, memref<i32> {gather.error_flag}
    %v1 = memref.load %h1[] : memref<i32>
    %r1 = arith.cmpi ne, %v1, %c0 : i32
    scf.if %r1 {
      %copy = memref.alloc() : memref<8xi64>
      gpu.memcpy %copy, %ids : memref<8xi64>, memref<8xi64>
      memref.dealloc %copy : memref<8xi64>
    }
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f1 : memref<i32>)
    gpu.dealloc %f1 : memref<i32>
    gpu.dealloc %ids : memref<8xi64>
    return
  }
}

// -----

// A launch in a branch (an empty-launch guard) goes on the function's
// stream; a copy into host memory in a branch while that stream is open
// forks from it; a call waits first (the callee runs its own streams).
// CHECK-LABEL: func.func @branches_and_calls
// CHECK:         %[[S:.*]] = gpu.wait async
// CHECK:         scf.if
// CHECK-NEXT:      gpu.launch_func async [%[[S]]]
// CHECK:         scf.if
// CHECK:           %[[F:.*]] = gpu.wait async [%[[S]]]
// CHECK-NEXT:      gpu.memcpy async [%[[F]]]
// CHECK-NEXT:      gpu.wait [%[[F]]]
// CHECK:         gpu.wait [%[[S]]]
// CHECK-NEXT:    call @callee
// CHECK-NEXT:    %[[T:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.launch_func async [%[[T]]]
// CHECK-NEXT:    gpu.wait [%[[T]]]
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%f: memref<i32>) kernel {
      gpu.return
    }
  }
  func.func private @callee()
  func.func @branches_and_calls(%b: i1, %f: memref<i32>) {
    %c1 = arith.constant 1 : index
    scf.if %b {
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<i32>)
    }
    scf.if %b {
      %h = memref.alloca() : memref<i32>
      gpu.memcpy %h, %f : memref<i32>, memref<i32>
      %v = memref.load %h[] : memref<i32>
    }
    call @callee() : () -> ()
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<i32>)
    return
  }
}

// -----

// Host code without GPU operations is left alone.
// CHECK-LABEL: func.func @host_only
// CHECK-NOT:     gpu.wait
func.func @host_only(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%f: memref<i32>) kernel {
      gpu.return
    }
  }
  // expected-error @below {{'func.func' op with GPU operations must have one block before gather-gpu-streams (structured control flow)}}
  func.func @unstructured(%f: memref<i32>) {
    %c1 = arith.constant 1 : index
    cf.br ^next
  ^next:
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<i32>)
    return
  }
}

// -----

// A report between a check and the end of the function (a later gather's
// shape check) would come first if the check moved: the check stays in
// place, so that the first error reported is the first in program order.
// CHECK-LABEL: func.func @report_in_between
// CHECK:         %[[S:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.launch_func async [%[[S]]]
// CHECK-NEXT:    memref.alloca
// CHECK-NEXT:    gpu.memcpy async [%[[S]]] {{.*}} {gather.error_flag}
// CHECK-NEXT:    gpu.wait [%[[S]]]
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    arith.cmpi
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      call @report_index
// CHECK:         scf.if
// CHECK-NEXT:      call @report_shape
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%f: memref<i32>) kernel {
      gpu.return
    }
  }
  func.func private @report_index()
  func.func private @report_shape()
  func.func @report_in_between(%f1: memref<i32>, %bad: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f1 : memref<i32>)
    %h1 = memref.alloca() : memref<i32>
    gpu.memcpy %h1, %f1 : memref<i32>, memref<i32> {gather.error_flag}
    %v1 = memref.load %h1[] : memref<i32>
    %r1 = arith.cmpi ne, %v1, %c0 : i32
    scf.if %r1 {
      func.call @report_index() : () -> ()
    }
    scf.if %bad {
      func.call @report_shape() : () -> ()
    }
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f1 : memref<i32>)
    return
  }
}
