// Empty axes: the input broadcast against the indices into a destination
// of 5 rows. The input's dynamic rows must be 5 (the indices have 1):
// an input of 1 row is an error, not a broadcast read past its end.
func.func @main(%d: tensor<?x1xi32>, %i: tensor<1x2xi16>, %e: tensor<5x?xi32>) -> tensor<5x?xi32> {
  %0 = gather.multiaxis %d[%i] axes = [] into %e : tensor<?x1xi32>, tensor<1x2xi16> into tensor<5x?xi32>
  return %0 : tensor<5x?xi32>
}
