# Copies whose sizes are known at run time only are memcpy calls
# (gather-copies-to-memcpy), not upstream's element-by-element memrefCopy:
# block gathers with every size dynamic (rows of 768 f32 under every policy,
# a 2-D block, a middle axis, gather.nd, i8 rows, an invalid index under
# error) against the numpy reference, and copies between views that are not
# contiguous (two columns of a table: one memcpy per row) or contiguous
# (whole rows: one memcpy), or whose innermost stride is not 1 (loops of
# loads and stores), through the C API at -O3. Every lowered function
# copies with memcpy and never calls memrefCopy (under fill, a view whose
# innermost stride is not 1 at run time is copied by loops of loads and
# stores), and every gather prefetches
# its blocks (the plan computed at run time; under fill a miss fills a new
# block with zeros).
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: dynamic-copies: 15 passed, 0 failed
import os
import re
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, call_problem, expected,
                             policy_indices, policy_text)

bin_dir = sys.argv[1]
rng = np.random.default_rng(17)
suite = FunctionCases()
add = suite.add


def all_dynamic(data, indices, out_shape, sizes):
    """Every dimension dynamic; the output's sizes read as (operand, dim)."""
    return (tuple(range(data.ndim)), tuple(range(indices.ndim)),
            [(d, size) for d, size in enumerate(sizes)])


table = rng.standard_normal((300, 768)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 40, 300, oob)
    add(f"rows_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative), table, ids,
        (40, 768), expected(ref.block, table, ids, 0, negative, oob),
        dynamic=all_dynamic(table, ids, (40, 768), [("i", 0), ("d", 1)]))
ids = rng.integers(0, 300, 40)
ids[17] = -301
add("rows_error_invalid", "block", "axis = 0", table, ids, (40, 768),
    expected(ref.block, table, ids, 0),
    dynamic=all_dynamic(table, ids, (40, 768), [("i", 0), ("d", 1)]))
volume = rng.standard_normal((2, 9, 3, 64)).astype(np.float32)
ids = rng.integers(-9, 9, 5)
add("block_2d", "block", "axis = 1", volume, ids, (2, 5, 3, 64),
    expected(ref.block, volume, ids, 1),
    dynamic=all_dynamic(volume, ids, (2, 5, 3, 64), [("d", 0), ("i", 0), ("d", 2), ("d", 3)]))
mid = rng.standard_normal((4, 30, 256)).astype(np.float32)
ids = rng.integers(-30, 30, 11)
add("middle_axis", "block", "axis = 1 out_of_bounds = clamp", mid, ids, (4, 11, 256),
    expected(ref.block, mid, ids, 1, "wrap", "clamp"),
    dynamic=all_dynamic(mid, ids, (4, 11, 256), [("d", 0), ("i", 0), ("d", 2)]))
cube = rng.standard_normal((6, 7, 128)).astype(np.float32)
coords = np.stack([rng.integers(-6, 6, 10), rng.integers(-7, 7, 10)], -1)
add("nd_rows", "nd", "batch_dims = 0", cube, coords, (10, 128),
    expected(ref.nd, cube, coords, 0),
    dynamic=((0, 1, 2), (0,), [(0, ("i", 0)), (1, ("d", 2))]))
bytes_ = rng.integers(-128, 127, (10, 100)).astype(np.int8)
ids = np.array([3, -2, 9, 0, 5])
add("rows_i8", "block", "axis = 0", bytes_, ids, (5, 100), expected(ref.block, bytes_, ids, 0),
    dynamic=all_dynamic(bytes_, ids, (5, 100), [("i", 0), ("d", 1)]))

# Plain copies between views with run-time sizes.
COPIES = """
func.func @columns(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %s = tensor.extract_slice %a[0, 1] [%n, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>
  %r = tensor.insert_slice %s into %b[0, 2] [%n, 2] [1, 1] : tensor<?x2xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
func.func @rows(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %m = arith.subi %n, %c1 : index
  %s = tensor.extract_slice %a[1, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %r = tensor.insert_slice %s into %b[0, 0] [%m, 4] [1, 1] : tensor<?x4xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
"""
# Copies no memcpy can do, which upstream leaves to memrefCopy: every other
# element (a static stride of 2) and a view whose stride is 2 or 1 as the
# size decides (known at run time only: the memcpy below 9 elements, else
# the loops of loads and stores).
STRIDED = """
func.func @every_other(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %h = arith.divui %n, %c2 : index
  %s = tensor.extract_slice %a[0] [%h] [2] : tensor<?xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}
func.func @either_stride(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %h = arith.divui %n, %c2 : index
  %big = arith.cmpi ugt, %n, %c8 : index
  %s = scf.if %big -> tensor<?xf32> {
    %t = tensor.extract_slice %a[0] [%h] [2] : tensor<?xf32> to tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  } else {
    %t = tensor.extract_slice %a[1] [%h] [1] : tensor<?xf32> to tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  }
  return %s : tensor<?xf32>
}
"""
a = rng.standard_normal((7, 4)).astype(np.float32)
b = rng.standard_normal((7, 4)).astype(np.float32)
want_columns = b.copy()
want_columns[:, 2:] = a[:, 1:3]
want_rows = b.copy()
want_rows[:6] = a[1:]
program = jit.compile(COPIES, entry="columns")
copy_problems = [(name, problem) for name, want in (("columns", want_columns), ("rows", want_rows))
                 if (problem := call_problem(program, name, (a, b), want))]
strided = jit.compile(STRIDED, entry="every_other")
long_row = rng.standard_normal(13).astype(np.float32)
short_row = rng.standard_normal(6).astype(np.float32)
for name, row, want in (("every_other", long_row, long_row[0:12:2]),
                        ("either_stride", long_row, long_row[0:12:2]),
                        ("either_stride", short_row, short_row[1:4])):
    if problem := call_problem(strided, name, (row,), want):
        copy_problems.append((f"{name} of {row.size}", problem))

lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), "--gather-cpu-pipeline"],
                         input=suite.module() + COPIES + STRIDED, capture_output=True, text=True,
                         check=True).stdout
failed = 0
for name in suite.lacking(bin_dir, r"memref\.prefetch"):
    print(f"FAIL {name}: the blocks of dynamic size are not prefetched")
    failed += 1
# Each function copies with memcpy and none calls memrefCopy, which only
# MLIR's C runner utils define (under fill a miss's zero block makes the
# row's view of run-time layout: loops copy it where its innermost stride
# is not 1 at run time).
# Identical gathers in several functions (rows_error_wrap and
# rows_error_invalid) are one outlined function that each calls.
bodies = {part.split("(", 1)[0]: part for part in lowered.split("llvm.func @")[1:]}
for name in [name for name, *_ in suite.cases] + ["columns", "rows"]:
    body = bodies.get(name, "")
    for callee in re.findall(r"llvm\.call @(__gather_(?:block|elements|nd|multiaxis)\w*)\(", body):
        body += bodies.get(callee, "")
    if "llvm.intr.memcpy" not in body or "memrefCopy" in body:
        print(f"FAIL {name}: copied without memcpy")
        failed += 1
# The strided copies: loops of loads and stores, no memrefCopy.
for name in ("every_other", "either_stride"):
    body = bodies.get(name, "")
    if "memrefCopy" in body or "llvm.load" not in body:
        print(f"FAIL {name}: not copied by loads and stores")
        failed += 1
problems = suite.run() + copy_problems
for name, problem in problems:
    print(f"FAIL {name}: {problem}")
failed += len(problems)
total = len(suite.cases) + 5
print(f"dynamic-copies: {total - len(problems)} passed, {failed} failed")
