// A module whose own LLVM function carries target attributes (ATTRS, set by
// the test's sed): gather-llvm-target adds only what a function lacks, so
// they reach the JIT as written.
func.func @main(%data: tensor<?x3xf32>, %indices: tensor<2xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<?x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

llvm.func @helper() attributes {ATTRS} {
  llvm.return
}
