# Reductions of gathers that the CPU pipeline fuses (gather-fuse-consumers:
# the reduction tiled along its parallel loops, the gather fused into each
# tile, the tile's reduction as vector steps): an embedding bag's sum,
# row maxima, an integer sum, a sum over a batch dimension, sums of
# gather.elements rows, long rows (vector steps of 1024 elements, and a
# size they do not divide, left scalar), a weighted bag (a weight per
# row, broadcast along it), dynamic bags called with five shapes (a full
# and a partial tile; empty bags; no bags), a bag compiled without
# LLVM's optimizations, and short bags of a table over 1 MiB whose steps
# read the index 16 rows ahead from the indices as one row, or from
# computed indices by dividing by the bag's length. Each program runs fused
# and unfused (jit.compile(..., fuse_consumers=False)) through the JIT;
# both results must equal numpy's sequential reduction bit for bit (the
# tiles add a bag's rows in the same order), and an invalid index under
# `error` must be reported by both with the same message. gather-opt
# --gather-fuse-consumers must show each static program tiled
# (scf.forall) with its reduction in vector form, where the rows allow it.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: fused-reductions: 65 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather import jit

GATHER_OPT = os.path.join(sys.argv[1], "gather-opt")
rng = np.random.default_rng(9)
passed = failed = 0


def check(ok, label, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {label} {detail}")


def reduce_text(dims, in_type, out_type, combiner, ety):
    return (f"  %r = linalg.reduce ins(%g : {in_type}) outs(%init : {out_type}) "
            f"dimensions = [{dims}]\n"
            f"    (%x: {ety}, %acc: {ety}) {{\n"
            f"      %s = {combiner} %x, %acc : {ety}\n"
            f"      linalg.yield %s : {ety}\n    }}\n")


def program(gather, args, gather_type, dims, out_type, combiner="arith.addf", ety="f32"):
    empty = gather_type.replace("tensor<", "").rstrip(">")
    dynamic = [i for i, s in enumerate(empty.split("x")[:-1]) if s == "?"]
    sizes = ", ".join(f"%n{d}" for d in dynamic)
    dims_text = "".join(f"  %c{d} = arith.constant {d} : index\n"
                        f"  %n{d} = tensor.dim %i, %c{d} : {args['i']}\n" for d in dynamic)
    head = ", ".join(f"%{k}: {v}" for k, v in args.items())
    return (f"func.func @main({head}, %init: {out_type}) -> {out_type} {{\n" + dims_text
            + f"  %e = tensor.empty({sizes}) : {gather_type}\n"
            + f"  %g = {gather} into %e : {args['d']}, {args['i']} into {gather_type}\n"
            + reduce_text(dims, gather_type, out_type, combiner, ety)
            + f"  return %r : {out_type}\n}}\n")


def sequential(gathered, axis, combine, init):
    """numpy's reduction in the loops' order: one slice at a time."""
    acc = init.copy()
    for k in range(gathered.shape[axis]):
        acc = combine(acc, np.take(gathered, k, axis=axis))
    return acc


def fused_form(name, text, vector):
    out = subprocess.run([GATHER_OPT, "-", "--gather-fuse-consumers"], input=text,
                         capture_output=True, text=True)
    tiles = out.stdout.split("scf.forall", 1)[-1]
    check(out.returncode == 0 and "scf.forall" in out.stdout
          and ("vector.multi_reduction" in tiles) == vector
          and ("linalg.reduce" in tiles) != vector,
          f"{name} (fused form)", out.stderr[:300])


def run(name, text, arrays, want=None, want_error=None, vector=True, static=True, opt_level=2):
    if static:
        fused_form(name, text, vector)
    results, errors = [], []
    for fuse in (True, False):
        label = f"{name} ({'fused' if fuse else 'unfused'})"
        program_ = jit.compile(text, threads=2, fuse_consumers=fuse, opt_level=opt_level)
        for args in arrays:
            try:
                got = program_(*args)
            except jit.GatherError as e:
                errors.append(str(e))
                check(want_error is not None and want_error in str(e), label, str(e))
                continue
            if want_error:
                check(False, label, "no error reported")
                continue
            expected = want(*args)
            same = (got.dtype == expected.dtype and got.shape == expected.shape
                     and np.array_equal(got, expected, equal_nan=True))
            check(same, label, "" if same else f"{got} differs from numpy's {expected}")
            results.append(got)
    if want_error:
        check(len(errors) == 2 and errors[0] == errors[1], f"{name} (same report)", errors)


def wrap(i, n):
    return np.where(i < 0, i + n, i)


# An embedding bag: sums of 8 rows of 16 floats, negative indices wrapped.
table = rng.standard_normal((1000, 16), dtype=np.float32)
bags = rng.integers(-1000, 1000, (64, 8))
bag_args = {"d": "tensor<1000x16xf32>", "i": "tensor<64x8xi64>"}
bag = program("gather.block %d[%i] axis = 0", bag_args, "tensor<64x8x16xf32>", "1",
              "tensor<64x16xf32>")
zeros = np.zeros((64, 16), np.float32)
run("bag_sum", bag, [(table, bags, zeros)],
    want=lambda d, i, z: sequential(d[wrap(i, 1000)], 1, np.add, z))
bad = bags.copy()
bad[5, 3] = 1000
run("bag_sum_invalid", bag, [(table, bad, zeros)],
    want_error="index 1000 at indices[5, 3] is out of range [-1000, 999] for dimension 0")
# Invalid indices in many bags, on both threads: every step that reads one
# reports it, and the message is the first in the whole indices' order
# (the reports after the first skip their scan).
many_bad = bags.copy()
many_bad[40:, 1] = 2000
many_bad[5, 3] = 1000
run("bag_sum_many_invalid", bag, [(table, many_bad, zeros)],
    want_error="index 1000 at indices[5, 3] is out of range [-1000, 999] for dimension 0")

# Without LLVM's optimizations (opt level 0), 524288 steps: each step's
# transfers of several dimensions have a buffer of vector-to-scf's, which
# in the step loop grew the stack every iteration until it overflowed
# (found by the fuzzer's reduction consumers at opt level 0).
many = rng.integers(-1000, 1000, (65536, 8))
many_text = program("gather.block %d[%i] axis = 0",
                    {"d": "tensor<1000x16xf32>", "i": "tensor<65536x8xi64>"},
                    "tensor<65536x8x16xf32>", "1", "tensor<65536x16xf32>")
run("bag_sum_opt0", many_text, [(table, many, np.zeros((65536, 16), np.float32))],
    want=lambda d, i, z: sequential(d[wrap(i, 1000)], 1, np.add, z), opt_level=0)

# Long rows: 2048 floats (two vector steps of 1024) and 1030 (no step size
# divides it: scalar loops).
for width, vector in ((2048, True), (1030, False)):
    wide = rng.standard_normal((300, width), dtype=np.float32)
    ids = rng.integers(0, 300, (16, 4))
    text = program("gather.block %d[%i] axis = 0",
                   {"d": f"tensor<300x{width}xf32>", "i": "tensor<16x4xi64>"},
                   f"tensor<16x4x{width}xf32>", "1", f"tensor<16x{width}xf32>")
    run(f"bag_sum_{width}", text, [(wide, ids, np.zeros((16, width), np.float32))],
        want=lambda d, i, z: sequential(d[i], 1, np.add, z), vector=vector)

# Row maxima (the innermost dimension reduced), a NaN in the table.
table_nan = table.copy()
table_nan[7, 3] = np.nan
rows = rng.integers(0, 1000, (256,))
rows[10] = 7
maxima = program("gather.block %d[%i] axis = 0",
                 {"d": "tensor<1000x16xf32>", "i": "tensor<256xi64>"}, "tensor<256x16xf32>",
                 "1", "tensor<256xf32>", combiner="arith.maximumf")
run("row_maxima", maxima, [(table_nan, rows, np.full(256, -np.inf, np.float32))],
    want=lambda d, i, z: sequential(d[i], 1, np.maximum, z))

# An integer sum (i32 table, i32 indices).
itable = rng.integers(-2**20, 2**20, (500, 32)).astype(np.int32)
iids = rng.integers(0, 500, (40, 6)).astype(np.int32)
isum = program("gather.block %d[%i] axis = 0", {"d": "tensor<500x32xi32>", "i": "tensor<40x6xi32>"},
               "tensor<40x6x32xi32>", "1", "tensor<40x32xi32>", combiner="arith.addi", ety="i32")
run("int_bag_sum", isum, [(itable, iids, np.zeros((40, 32), np.int32))],
    want=lambda d, i, z: sequential(d[i], 1, np.add, z))

# A sum over the batch dimension of a gather along a middle axis: the
# gathered dimension and the rows stay parallel.
cube = rng.standard_normal((8, 1000, 16), dtype=np.float32)
mids = rng.integers(0, 1000, (32,))
batch = program("gather.block %d[%i] axis = 1", {"d": "tensor<8x1000x16xf32>", "i": "tensor<32xi64>"},
                "tensor<8x32x16xf32>", "0", "tensor<32x16xf32>")
run("batch_sum", batch, [(cube, mids, np.zeros((32, 16), np.float32))],
    want=lambda d, i, z: sequential(np.take(d, i, axis=1), 0, np.add, z))

# Sums of gather.elements rows (take_along_axis, then each row's sum).
grid = rng.standard_normal((128, 64), dtype=np.float32)
picks = rng.integers(0, 64, (128, 24))
elements = program("gather.elements %d[%i] axis = 1",
                   {"d": "tensor<128x64xf32>", "i": "tensor<128x24xi64>"}, "tensor<128x24xf32>",
                   "1", "tensor<128xf32>")
run("elements_row_sums", elements, [(grid, picks, np.zeros(128, np.float32))],
    want=lambda d, i, z: sequential(np.take_along_axis(d, i, axis=1), 1, np.add, z))

# Dynamic bags, called with two shapes.
dyn = program("gather.block %d[%i] axis = 0", {"d": "tensor<1000x16xf32>", "i": "tensor<?x?xi64>"},
              "tensor<?x?x16xf32>", "1", "tensor<?x16xf32>")
shapes = [(table, rng.integers(0, 1000, (33, 5)), np.zeros((33, 16), np.float32)),
          (table, rng.integers(0, 1000, (7, 19)), np.zeros((7, 16), np.float32)),
          # 585 bags a tile (65536 / (7 * 16)): a full tile and a partial one.
          (table, rng.integers(-1000, 1000, (1000, 7)), np.zeros((1000, 16), np.float32)),
          # Empty bags (the sums stay the init's), and no bags.
          (table, rng.integers(0, 1000, (5, 0)), np.ones((5, 16), np.float32)),
          (table, rng.integers(0, 1000, (0, 7)), np.zeros((0, 16), np.float32))]
run("dynamic_bag_sum", dyn, shapes,
    want=lambda d, i, z: sequential(d[wrap(i, 1000)], 1, np.add, z),
    static=False)

# The sums' init a linalg.fill of 2.5, not the sum's identity: the fill is
# fused into each tile of the bags (gather-fuse-consumers), each bag's sum
# starting from 2.5 (static and dynamic bag counts; an empty bag's sum is
# the fill's value).
def filled(text):
    out_type = text.split("%init: ")[1].split(")")[0]
    dims = "".join(f"  %m{d} = tensor.dim %i, %c{d} : tensor<?x?xi64>\n" for d in (0,)) \
        if out_type.startswith("tensor<?") else ""
    empty = "%m0" if dims else ""
    return (text.replace(f", %init: {out_type})", ")")
                .replace("  %e = tensor.empty(",
                         dims + f"  %o = tensor.empty({empty}) : {out_type}\n"
                         f"  %v = arith.constant 2.5 : f32\n"
                         f"  %init = linalg.fill ins(%v : f32) outs(%o : {out_type}) -> {out_type}\n"
                         "  %e = tensor.empty(", 1))


filled_bags = filled(program("gather.block %d[%i] axis = 0", {"d": "tensor<1000x16xf32>", "i": "tensor<64x8xi64>"},
                             "tensor<64x8x16xf32>", "1", "tensor<64x16xf32>"))
run("filled_bag_sum", filled_bags, [(table, bags)],
    want=lambda d, i: sequential(d[wrap(i, 1000)], 1, np.add, np.full((64, 16), 2.5, np.float32)))
filled_dyn = filled(dyn)
run("filled_dynamic_bag_sum", filled_dyn,
    [(table, rng.integers(-1000, 1000, (1000, 7))), (table, rng.integers(0, 1000, (5, 0)))],
    want=lambda d, i: sequential(d[wrap(i, 1000)], 1, np.add,
                                 np.full((i.shape[0], 16), 2.5, np.float32)),
    static=False)

# A weighted bag (torch's per_sample_weights): a generic that reads the
# gathered rows and a weight per row, broadcast along the row.
weighted = """func.func @main(%d: tensor<1000x16xf32>, %i: tensor<64x8xi64>, %w: tensor<64x8xf32>,
                 %init: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %e = tensor.empty() : tensor<64x8x16xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<1000x16xf32>, tensor<64x8xi64> into tensor<64x8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>,
                                        affine_map<(a, b, c) -> (a, c)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %w : tensor<64x8x16xf32>, tensor<64x8xf32>) outs(%init : tensor<64x16xf32>) {
  ^bb0(%x: f32, %s: f32, %acc: f32):
    %m = arith.mulf %x, %s : f32
    %y = arith.addf %m, %acc : f32
    linalg.yield %y : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
"""
weights = rng.standard_normal((64, 8), dtype=np.float32)


def weighted_sums(d, i, w, z):
    acc = z.copy()
    for k in range(i.shape[1]):
        acc = acc + d[wrap(i[:, k], 1000)] * w[:, k:k + 1]
    return acc


run("weighted_bag_sum", weighted, [(table, bags, weights, zeros)], want=weighted_sums)

# Short bags of a table over 1 MiB (4096 rows of 128 floats), which the
# steps prefetch 16 rows ahead, past the next bag of 8: the index ahead read
# from the function's indices as one row (static and dynamic sizes, up to
# the last bags, where the read is clamped to the last index), or, from
# indices the function computes, by dividing the position by the bag's
# length. The lowering must take each path; the sums must equal numpy's.
def read_ahead_form(name, text, one_row):
    out = subprocess.run([GATHER_OPT, "-", "--gather-cpu-pipeline=target-cpu=znver4 parallel "
                          "fuse-consumers", "--mlir-print-ir-after=convert-gather-to-linalg",
                          "-o", os.devnull], input=text, capture_output=True, text=True)
    lowered = out.stderr
    as_row = "tensor.collapse_shape %arg1 [[0, 1]]" in lowered
    check(out.returncode == 0 and "memref.prefetch" in lowered and as_row == one_row
          and ("arith.remui" in lowered) != one_row, f"{name} (read-ahead form)", lowered[-300:])


big = rng.standard_normal((4096, 128), dtype=np.float32)
short = rng.integers(-4096, 4096, (300, 8))
short_args = {"d": "tensor<4096x128xf32>", "i": "tensor<300x8xi64>"}
short_bags = program("gather.block %d[%i] axis = 0", short_args, "tensor<300x8x128xf32>", "1",
                     "tensor<300x128xf32>")
read_ahead_form("short_bags", short_bags, one_row=True)
run("short_bag_sum", short_bags, [(big, short, np.zeros((300, 128), np.float32))],
    want=lambda d, i, z: sequential(d[wrap(i, 4096)], 1, np.add, z))
short_dynamic = program("gather.block %d[%i] axis = 0",
                        {"d": "tensor<4096x128xf32>", "i": "tensor<?x?xi64>"},
                        "tensor<?x?x128xf32>", "1", "tensor<?x128xf32>")
read_ahead_form("short_dynamic_bags", short_dynamic, one_row=True)
run("short_dynamic_bag_sum", short_dynamic,
    [(big, short, np.zeros((300, 128), np.float32)),
     (big, rng.integers(0, 4096, (41, 3)), np.zeros((41, 128), np.float32))],
    want=lambda d, i, z: sequential(d[wrap(i, 4096)], 1, np.add, z), static=False)
computed = short_bags.replace(
    "  %e = tensor.empty",
    "  %ie = tensor.empty() : tensor<300x8xi64>\n"
    "  %twice = linalg.map { arith.addi } ins(%i, %i : tensor<300x8xi64>, tensor<300x8xi64>) "
    "outs(%ie : tensor<300x8xi64>)\n  %e = tensor.empty", 1).replace(
    "gather.block %d[%i]", "gather.block %d[%twice]")
half = rng.integers(-2048, 2048, (300, 8))
read_ahead_form("short_computed_bags", computed, one_row=False)
run("short_computed_bag_sum", computed, [(big, half, np.zeros((300, 128), np.float32))],
    want=lambda d, i, z: sequential(d[wrap(2 * i, 4096)], 1, np.add, z))

print(f"fused-reductions: {passed} passed, {failed} failed")
