// Debian's own mlir-opt runs our dialect and passes through the plugin.
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --pass-pipeline="builtin.module(func.func(convert-gather-to-linalg))" | FileCheck %s --check-prefix=LINALG
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --pass-pipeline="builtin.module(gather-cpu-pipeline{parallel=false})" | FileCheck %s --check-prefix=LLVM
// And the result runs: upstream mlir-opt + mlir-runner, our runtime library
// for the error hook.
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --pass-pipeline="builtin.module(gather-cpu-pipeline{parallel=false})" | %mlir_runner -e main -entry-point-result=void -shared-libs=%llvm_lib/libmlir_c_runner_utils.so,%llvm_lib/libmlir_runner_utils.so,%gather_lib/libgather_runtime.so | FileCheck %s --check-prefix=EXEC

// CANON-LABEL: func.func @lookup
// CANON:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] into %{{.*}} {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [3], indices_dims = [0]>}
// CANON-NOT:     = gather.block

// LINALG-LABEL: func.func @lookup
// LINALG-NOT:    = gather.
// LINALG:        scf.forall

// LLVM-LABEL:  llvm.func @lookup
// LLVM-NOT:    gather.

// EXEC: Unranked Memref {{.*}} rank = 2 offset = 0 sizes = [3, 2] strides = [2, 1] data =
// EXEC-NEXT: [4,   5],
// EXEC-NEXT: [0,   1],
// EXEC-NEXT: [4,   5]
func.func @lookup(%table: tensor<?x2xf32>, %ids: tensor<3xi64>) -> tensor<3x2xf32> {
  %init_0 = tensor.empty() : tensor<3x2xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init_0 : tensor<?x2xf32>, tensor<3xi64> into tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %table = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %dyn = tensor.cast %table : tensor<3x2xf32> to tensor<?x2xf32>
  // -1 wraps to the last row.
  %ids = arith.constant dense<[2, 0, -1]> : tensor<3xi64>
  // An opaque call so that nothing folds at compile time.
  %out = func.call @lookup(%dyn, %ids) : (tensor<?x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  %unranked = tensor.cast %out : tensor<3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  return
}
