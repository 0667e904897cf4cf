# gather.nd with dynamic indices into the caller's buffer (the `__into`
# entry of destination_entries=True, which takes the caller's array for the
# tensor.empty of dynamic sizes). Its IR (no cast of the caller's buffer to
# the sizes the data fix, which bufferized into two copies of the whole
# output a call) is checked by Pipelines/cpu-destination-entries.mlir
# (@nd_dynamic_indices); this runs it. For index arrays
# of several shapes and every policy, the result is written in place into
# an array of garbage and compared with the numpy reference; an array of
# the wrong size is an error naming the output and the dimension, written
# before anything is touched.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# CHECK: nd into caller buffers: 24 cases equal, 24 in place
# CHECK: wrong size: error: output 0: dimension 1 is 4 but the result's is 3, untouched True
# CHECK-NOT: False
import numpy as np

from gather import GatherError, reference
from gather.jit import Program

rng = np.random.default_rng(11)
TEXT = """func.func @f(%d: tensor<5x7x6xf32>, %i: tensor<?x?x2xi64>) -> tensor<?x?x6xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c0 : tensor<?x?x2xi64>
  %m = tensor.dim %i, %c1 : tensor<?x?x2xi64>
  %e = tensor.empty(%n, %m) : tensor<?x?x6xf32>
  %0 = gather.nd %d[%i] batch_dims = 0{policy} into %e : tensor<5x7x6xf32>, tensor<?x?x2xi64> into tensor<?x?x6xf32>
  return %0 : tensor<?x?x6xf32>
}}
"""


def garbage(shape):
    out = np.empty(shape, np.float32)
    out.reshape(-1).view(np.uint8)[...] = 0xA5
    return out


data = rng.standard_normal((5, 7, 6)).astype(np.float32)
equal = in_place = cases = 0
for policy in ("error", "clamp", "fill", "unchecked"):
    text = TEXT.format(policy="" if policy == "error" else f" out_of_bounds = {policy}")
    program = Program(text, destination_entries=True)
    for shape in ((1, 1), (3, 4), (8, 1), (2, 9), (6, 5), (0, 3)):
        low, high = (-5, 5) if policy in ("error", "unchecked") else (-8, 8)
        rows = rng.integers(low, high, size=shape)
        cols = rng.integers(-7, 7, size=shape) if policy in ("error", "unchecked") else \
            rng.integers(-10, 10, size=shape)
        idx = np.stack([rows, cols], axis=-1)
        want = reference.nd(data, idx, 0, "wrap", policy)
        out = garbage(shape + (6,))
        got = program(data, idx, out=out)
        cases += 1
        equal += np.array_equal(out, want, equal_nan=True)
        in_place += got is out and program.writes_in_place
print(f"nd into caller buffers: {cases} cases equal, {in_place} in place"
      if equal == cases else f"nd into caller buffers: {equal} of {cases} equal: False")

program = Program(TEXT.format(policy=""), destination_entries=True)
idx = np.zeros((2, 3, 2), np.int64)
out = garbage((2, 4, 6))
before = out.copy()
try:
    program(data, idx, out=out)
    print("wrong size: no error: False")
except (GatherError, ValueError) as e:
    untouched = np.array_equal(out.view(np.uint8), before.view(np.uint8))
    print(f"wrong size: error: {e}, untouched {untouched}")
