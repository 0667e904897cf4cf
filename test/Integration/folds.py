# Execution of the folds and simplifications that need constant indices or
# data (test/Dialect/Gather/canonicalize.mlir shows their IR): each function
# is checked to have no gather op left after --canonicalize, then run with
# gather-run and compared with the numpy reference.
# RUN: %python %s %gather_bin %t | FileCheck %s
# CHECK: folds: 8 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather import reference

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(3)

MODULE = """
func.func @single_coordinate(%d: tensor<5x?x7xf32>) -> tensor<1x?x1xf32> {
  %i = arith.constant dense<[[[-1, 3]]]> : tensor<1x1x2xi64>
  %init_0_c1 = arith.constant 1 : index
  %init_0_d1 = tensor.dim %d, %init_0_c1 : tensor<5x?x7xf32>
  %init_0 = tensor.empty(%init_0_d1) : tensor<1x?x1xf32>
  %0 = gather.multiaxis %d[%i] axes = [2, 0] into %init_0 : tensor<5x?x7xf32>, tensor<1x1x2xi64> into tensor<1x?x1xf32>
  return %0 : tensor<1x?x1xf32>
}
func.func @block_scalar(%d: tensor<4x?xf32>) -> tensor<?xf32> {
  %i = arith.constant dense<-2> : tensor<i64>
  %init_0_c0 = arith.constant 1 : index
  %init_0_d0 = tensor.dim %d, %init_0_c0 : tensor<4x?xf32>
  %init_0 = tensor.empty(%init_0_d0) : tensor<?xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x?xf32>, tensor<i64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @nd_single_coordinate(%d: tensor<3x4x5xi32>) -> tensor<1x5xi32> {
  %i = arith.constant dense<[[2, 1]]> : tensor<1x2xi64>
  %init_0 = tensor.empty() : tensor<1x5xi32>
  %0 = gather.nd %d[%i] batch_dims = 0 into %init_0 : tensor<3x4x5xi32>, tensor<1x2xi64> into tensor<1x5xi32>
  return %0 : tensor<1x5xi32>
}
func.func @iota(%d: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %j = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %init_0_c1 = arith.constant 1 : index
  %init_0_d1 = tensor.dim %d, %init_0_c1 : tensor<4x?xf32>
  %init_0 = tensor.empty(%init_0_d1) : tensor<4x?xf32>
  %0 = gather.block %d[%j] axis = 0 into %init_0 : tensor<4x?xf32>, tensor<4xi32> into tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
func.func @empty_axes_broadcast(%d: tensor<1x3xf32>, %i: tensor<4x1xi64>) -> tensor<4x3xf32> {
  %init_0 = tensor.empty() : tensor<4x3xf32>
  %0 = gather.multiaxis %d[%i] axes = [] into %init_0 : tensor<1x3xf32>, tensor<4x1xi64> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @splat_clamp(%i: tensor<5xi64>) -> tensor<5x3xf32> {
  %d = arith.constant dense<7.0> : tensor<4x3xf32>
  %init_0 = tensor.empty() : tensor<5x3xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %init_0 : tensor<4x3xf32>, tensor<5xi64> into tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
func.func @constant_fill() -> tensor<2x4xi32> {
  %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = arith.constant dense<[[0, -1, 3, -4], [2, 1, -3, 7]]> : tensor<2x4xi64>
  %init_0 = tensor.empty() : tensor<2x4xi32>
  %0 = gather.elements %d[%i] axis = 1 out_of_bounds = fill into %init_0 : tensor<2x3xi32>, tensor<2x4xi64> into tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
func.func @constant_clamp_no_wrap() -> tensor<5xi32> {
  %d = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %i = arith.constant dense<[-1, 0, 2, 3, 9]> : tensor<5xi64>
  %init_0 = tensor.empty() : tensor<5xi32>
  %0 = gather.block %d[%i] axis = 0 negative_indices = out_of_bounds out_of_bounds = clamp into %init_0 : tensor<3xi32>, tensor<5xi64> into tensor<5xi32>
  return %0 : tensor<5xi32>
}
"""

d5 = rng.standard_normal((5, 6, 7)).astype(np.float32)
d4 = rng.standard_normal((4, 9)).astype(np.float32)
d3 = rng.integers(-100, 100, (3, 4, 5)).astype(np.int32)
d13 = rng.standard_normal((1, 3)).astype(np.float32)
cases = {
    "single_coordinate": ([d5], reference.multiaxis(d5, np.array([[[-1, 3]]]), (2, 0))),
    "block_scalar": ([d4], reference.block(d4, np.array(-2), 0)),
    "nd_single_coordinate": ([d3], reference.nd(d3, np.array([[2, 1]]), 0)),
    "iota": ([d4], d4),
    "empty_axes_broadcast": ([d13, np.zeros((4, 1), np.int64)], np.broadcast_to(d13, (4, 3))),
    "splat_clamp": ([np.array([0, -9, 3, 100, 2], np.int64)], np.full((5, 3), 7, np.float32)),
    "constant_fill": ([], reference.elements(np.array([[1, 2, 3], [4, 5, 6]], np.int32),
                                           np.array([[0, -1, 3, -4], [2, 1, -3, 7]]), 1, out_of_bounds="fill")),
    "constant_clamp_no_wrap": ([], reference.block(np.array([10, 20, 30], np.int32), np.array([-1, 0, 2, 3, 9]), 0,
                                                  negative="out_of_bounds", out_of_bounds="clamp")),
}

src = os.path.join(work, "folds.mlir")
with open(src, "w") as f:
    f.write(MODULE)
canon = subprocess.run([os.path.join(bin_dir, "gather-opt"), src, "--canonicalize"],
                       capture_output=True, text=True, check=True).stdout
passed = 0
for name, (inputs, want) in cases.items():
    body = canon.split(f"func.func @{name}(")[1].split("func.func @")[0]
    if "gather." in body:
        print(f"FAIL {name}: not folded:\n{body}")
        continue
    args = []
    for k, array in enumerate(inputs):
        path = os.path.join(work, f"{name}_{k}.npy")
        np.save(path, array)
        args += ["--input", path]
    out = os.path.join(work, f"{name}_out.npy")
    r = subprocess.run([os.path.join(bin_dir, "gather-run"), src, "--entry", name, *args,
                        "--output", out], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL {name}: {r.stderr.strip()}")
        continue
    got = np.load(out)
    if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
        print(f"FAIL {name}: got {got.tolist()} want {np.asarray(want).tolist()}")
        continue
    passed += 1
print(f"folds: {passed} passed, {len(cases) - passed} failed")
