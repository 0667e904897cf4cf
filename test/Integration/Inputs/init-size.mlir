// The destination is an argument of dynamic size: its size must be the
// output's (2 rows), which the static operands fix (@static: the check the
// canonicalization makes where it casts the destination) or the run time
// decides (@dynamic: the lowering's check).
func.func @static(%d: tensor<4x3xf32>, %i: tensor<2xi64>, %e: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

func.func @dynamic(%d: tensor<4x3xf32>, %i: tensor<?xi64>, %e: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
