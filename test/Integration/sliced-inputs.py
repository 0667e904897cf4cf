# Element gathers on slices of their input, executed through the C API and
# compared with numpy: the vectorized rows address the slice's strided view
# (gather.elements with dynamic sizes and indices smaller than the data, a
# producer's slice at an offset), and a slice of innermost stride 2 takes
# the scalar form. Every out_of_bounds policy, negative indices wrapped.
# RUN: %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: sliced-inputs: 11 passed, 0 failed
import numpy as np

from gather import jit, reference as ref
from gather_testing.difftest import CallChecks, reference_or_error

rng = np.random.default_rng(3)
checks = CallChecks()
check = checks.check


def expected(*args, **kw):
    return reference_or_error(ref.elements, *args, **kw)


POLICIES = ["error", "fill", "clamp"]
text = "\n".join(f"""
func.func @dynamic_{oob}(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %i, %c0 : tensor<?x?xi64>
  %n1 = tensor.dim %i, %c1 : tensor<?x?xi64>
  %e = tensor.empty(%n0, %n1) : tensor<?x?xf32>
  %r = gather.elements %d[%i] axis = 1 out_of_bounds = {oob} into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}}""" for oob in POLICIES) + """
func.func @offset_slice(%d: tensor<64x64xf32>, %i: tensor<64x8xi64>) -> tensor<64x8xf32> {
  %s = tensor.extract_slice %d[0, 3] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x8xf32>
  %r = gather.elements %s[%i] axis = 1 into %e : tensor<64x32xf32>, tensor<64x8xi64> into tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}
func.func @strided_slice(%d: tensor<64x64xf32>, %i: tensor<64x8xi64>) -> tensor<64x8xf32> {
  %s = tensor.extract_slice %d[0, 0] [64, 32] [1, 2] : tensor<64x64xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x8xf32>
  %r = gather.elements %s[%i] axis = 1 into %e : tensor<64x32xf32>, tensor<64x8xi64> into tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}
"""
program = jit.compile(text, entry="offset_slice", opt_level=3)
data = rng.standard_normal((50, 300)).astype(np.float32)
for oob in POLICIES:
    # Indices smaller than the data in the non-axis dimension (37 of 50
    # rows), rows of 19 (not a multiple of the vector width), and 100.
    for rows, cols in ((37, 19), (50, 100)):
        idx = rng.integers(-300, 300, (rows, cols))
        if oob != "error":
            idx[::5, ::3] = rng.integers(300, 900)
        check(f"dynamic_{oob}_{rows}x{cols}", program, f"dynamic_{oob}", (data, idx),
              expected(data[:rows], idx, 1, "wrap", oob))
idx = rng.integers(0, 300, (37, 19))
idx[36, 18] = -301
check("dynamic_error_invalid", program, "dynamic_error", (data, idx), expected(data[:37], idx, 1))
square = rng.standard_normal((64, 64)).astype(np.float32)
for name, view in (("offset_slice", square[:, 3:35]), ("strided_slice", square[:, ::2])):
    idx = rng.integers(-32, 32, (64, 8))
    check(name, program, name, (square, idx), expected(view, idx, 1))
idx = rng.integers(0, 32, (64, 8))
idx[5, 5] = 32
check("offset_slice_invalid", program, "offset_slice", (square, idx), expected(square[:, 3:35], idx, 1))
check("strided_slice_invalid", program, "strided_slice", (square, idx), expected(square[:, ::2], idx, 1))
print(checks.summary("sliced-inputs"))
