# Embedding bags with offsets as torch-mlir writes them (aten.embedding_bag,
# mode sum: one linalg.generic over (bags, every index, row) that adds row
# indices[j] of the table into bag b where offsets[b] <= j < next(b)),
# raised by convert-linalg-to-gather into a loop over the bags of gathers and
# sums, and left unraised (jit.compile(..., raise_linalg=False): upstream's
# own lowering of the generic). Both run through the JIT and must equal a
# numpy interpretation of the generic bit for bit (each bag adds its rows in
# the order of j). The offsets take every shape the generic defines: bags
# of one and many rows, empty bags (repeated and decreasing offsets),
# indices before the first bag and after the last offset, offsets below 0
# and past the indices; static and dynamic sizes (one program called with
# several), f32 and i32 tables, the body's operands in either order. An
# invalid index in a bag is reported with its position in all the indices;
# one outside every bag is never read (the generic reads it, undefined
# there). Then 60 random generics in one module (random sizes, 0 included,
# static or dynamic; offsets drawn sorted or not, some below 0 or past the
# indices; f32 or i32; the body's operands either way), each run raised
# and unraised, a third of them canonicalized first as a frontend's output
# is.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: embedding-bags: 164 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather import jit
from gather_testing.torch_mlir import (EMBEDDING_BAG_MAPS, embedding_bag_reference,
                                       embedding_bag_text, random_embedding_bag)

rng = np.random.default_rng(11)
passed = failed = 0


def check(ok, label, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {label} {detail}")


def run(name, text, calls, swap_add=False, unraised=True):
    forms = [("raised", True)] + ([("unraised", False)] if unraised else [])
    for form, raise_linalg in forms:
        program = jit.compile(text, threads=2, raise_linalg=raise_linalg)
        for table, indices, offsets in calls:
            label = f"{name} ({form}, {len(offsets)} bags of {len(indices)} indices)"
            try:
                got = program(table, indices, offsets)
            except jit.GatherError as e:
                check(False, label, str(e))
                continue
            want = embedding_bag_reference(table, indices, offsets, swap_add)
            same = got.dtype == want.dtype and np.array_equal(got, want)
            check(same, label, "" if same else f"max difference {np.abs(got - want).max()}")


table = rng.standard_normal((1000, 64), dtype=np.float32)
indices = rng.integers(0, 1000, 200)
# Bags of every kind: the first starts at 3 (indices 0-2 in no bag), bags
# of one row and of many, empty ones (a repeated offset; a decreasing one),
# and the last runs to the end.
offsets = np.array([3, 10, 11, 11, 40, 30, 60, 100, 101, 150, 150, 160, 170, 180, 190, 199])
run("static", embedding_bag_text(1000, 64, 200, 16), [(table, indices, offsets)])
run("static, sle and operands swapped",
    embedding_bag_text(1000, 64, 200, 16, swap_add=True, swap_and=True, lower="sge"),
    [(table, indices, offsets)], swap_add=True)
# Offsets below 0 (the bag starts at 0) and past the indices (empty bags,
# the last one empty).
wild = np.array([-5, 20, 500, 40, 250, 180, 180, 300, 0, 190, 210, 10, 10, 5, 199, 400])
run("static, offsets out of range", embedding_bag_text(1000, 64, 200, 16),
    [(table, indices, wild)])
run("static, i32 table", embedding_bag_text(1000, 64, 200, 16, ety="i32"),
    [(rng.integers(-1000, 1000, (1000, 64)).astype(np.int32), indices, offsets)])

# Dynamic sizes: one program, called with several.
dynamic = embedding_bag_text("?", "?", "?", "?")
run("dynamic", dynamic, [
    (table, indices, offsets),
    (table[:, :48].copy(), indices[:37], np.array([0, 5, 5, 36])),
    (table, indices[:0], np.array([0, 0])),
    (table[:, :17].copy(), indices, np.array([0])),
    (table, indices, np.zeros(0, np.int64)),
])

# A larger bag set, raised only (the unraised generic visits every index for
# every bag): 512 bags of 0 to 63 rows of 128 floats.
big_table = rng.standard_normal((50000, 128), dtype=np.float32)
lengths = rng.integers(0, 64, 512)
big_offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
big_indices = rng.integers(0, 50000, int(lengths.sum()))
run("static, 512 bags", embedding_bag_text(50000, 128, len(big_indices), 512),
    [(big_table, big_indices, big_offsets)], unraised=False)
run("dynamic, 512 bags", dynamic, [(big_table, big_indices, big_offsets)], unraised=False)

# An invalid index in a bag: reported with its position in all the indices.
# One in no bag (before the first offset) is never read.
program = jit.compile(embedding_bag_text(1000, 64, 200, 16), threads=2)
bad = indices.copy()
bad[42] = 1000
try:
    program(table, bad, offsets)
    check(False, "invalid index in a bag", "no error reported")
except jit.GatherError as e:
    check("index 1000 at indices[42] is out of range [0, 999] for dimension 0" in str(e),
          "invalid index in a bag", str(e))
outside = indices.copy()
outside[1] = -7
got = program(table, outside, offsets)
check(np.array_equal(got, embedding_bag_reference(table, outside, offsets)),
      "invalid index in no bag")

cases = [random_embedding_bag(rng, f"bag{k}")[:3] for k in range(60)]
module = EMBEDDING_BAG_MAPS + "\n".join(text for text, _, _ in cases)
canonical = subprocess.run([os.path.join(sys.argv[1], "gather-opt"), "-", "--canonicalize"],
                           input=module, capture_output=True, text=True, check=True).stdout
for form, text in (("as written", module), ("canonicalized", canonical)):
    raised = subprocess.run([os.path.join(sys.argv[1], "gather-opt"), "-",
                             "--convert-linalg-to-gather"], input=text, capture_output=True,
                            text=True, check=True).stdout
    check(raised.count("scf.forall (") == 60 and "linalg.generic" not in raised,
          f"every random bag raised ({form})")
for form, text, raise_linalg in (("raised", module, True), ("unraised", module, False),
                                 ("canonicalized, raised", canonical, True)):
    program = jit.compile(text, entry="bag0", threads=2, raise_linalg=raise_linalg, opt_level=0)
    for k, (_, args, swap_add) in enumerate(cases):
        if form.startswith("canonicalized") and k % 3:
            continue
        program.select(f"bag{k}")
        got = program(*args)
        want = embedding_bag_reference(*args, swap_add)
        check(got.dtype == want.dtype and np.array_equal(got, want), f"random bag{k} ({form})",
              f"{len(args[2])} bags, offsets {args[2]} of {len(args[1])} indices")
print(f"embedding-bags: {passed} passed, {failed} failed")
