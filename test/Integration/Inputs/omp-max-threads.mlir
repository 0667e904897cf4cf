// The threads the OpenMP loops of a call would start (libomp's
// omp_get_max_threads, called inside the compiled function).
func.func private @omp_get_max_threads() -> i32
func.func @main(%d: tensor<4xf32>) -> tensor<1xi32> {
  %n = func.call @omp_get_max_threads() : () -> i32
  %t = tensor.from_elements %n : tensor<1xi32>
  return %t : tensor<1xi32>
}
