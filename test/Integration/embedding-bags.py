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
# there).
# RUN: %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: embedding-bags: 22 passed, 0 failed
import numpy as np

from gather import jit

rng = np.random.default_rng(11)
passed = failed = 0


def check(ok, label, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {label} {detail}")


def generic_text(rows, dim, count, bags, ety="f32", swap_add=False, swap_and=False,
                 lower="or"):
    """torch-mlir's generic (ConvertAtenEmbeddingBagPaddingIdxOp); `?` sizes
    are dynamic, read with tensor.dim as torch-mlir's getDimOp does."""
    table, ids, offs = (f"tensor<{rows}x{dim}x{ety}>", f"tensor<{count}xi64>",
                        f"tensor<{bags}xi64>")
    out = f"tensor<{bags}x{dim}x{ety}>"
    zero = "0.0" if ety.startswith("f") else "0"
    add = "arith.addf" if ety.startswith("f") else "arith.addi"
    empty_sizes = ", ".join(v for v, s in (("%nb", bags), ("%nd", dim)) if s == "?")
    add_ops = "%acc, %w" if swap_add else "%w, %acc"
    in_ops = "%below, %le" if swap_and else "%le, %below"
    if lower == "or":
        lower_text = ("    %lt = arith.cmpi slt, %off, %j64 : i64\n"
                      "    %eq = arith.cmpi eq, %off, %j64 : i64\n"
                      "    %le = arith.ori %lt, %eq : i1\n")
    else:
        lower_text = "    %le = arith.cmpi sge, %j64, %off : i64\n"
    return f"""#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @main(%weight: {table}, %indices: {ids}, %offsets: {offs}) -> {out} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant {zero} : {ety}
  %nb = tensor.dim %offsets, %c0 : {offs}
  %nd = tensor.dim %weight, %c1 : {table}
  %nn = tensor.dim %indices, %c0 : {ids}
  %e = tensor.empty({empty_sizes}) : {out}
  %init = linalg.fill ins(%zero : {ety}) outs(%e : {out}) -> {out}
  %r = linalg.generic {{indexing_maps = [#map_i, #map_o, #map_out],
                       iterator_types = ["parallel", "reduction", "parallel"]}}
      ins(%indices, %offsets : {ids}, {offs}) outs(%init : {out}) {{
  ^bb0(%idx: i64, %off: i64, %acc: {ety}):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : {offs}
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
{lower_text}    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi {in_ops} : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : {table}
    %add = {add} {add_ops} : {ety}
    %sel = arith.select %in, %add, %acc : {ety}
    linalg.yield %sel : {ety}
  }} -> {out}
  return %r : {out}
}}
"""


def reference(table, indices, offsets, swap_add=False):
    """The generic's loops: bag b adds, in the order of j, the rows of the j
    in [0, n) with offsets[b] <= j < next(b)."""
    n = len(indices)
    out = np.zeros((len(offsets), table.shape[1]), table.dtype)
    for b, start in enumerate(offsets):
        stop = n if b + 1 == len(offsets) else offsets[b + 1]
        for j in range(max(start, 0), min(stop, n)):
            row = table[indices[j]]
            out[b] = (out[b] + row) if swap_add else (row + out[b])
    return out


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
            want = reference(table, indices, offsets, swap_add)
            same = got.dtype == want.dtype and np.array_equal(got, want)
            check(same, label, "" if same else f"max difference {np.abs(got - want).max()}")


table = rng.standard_normal((1000, 64), dtype=np.float32)
indices = rng.integers(0, 1000, 200)
# Bags of every kind: the first starts at 3 (indices 0-2 in no bag), bags
# of one row and of many, empty ones (a repeated offset; a decreasing one),
# and the last runs to the end.
offsets = np.array([3, 10, 11, 11, 40, 30, 60, 100, 101, 150, 150, 160, 170, 180, 190, 199])
run("static", generic_text(1000, 64, 200, 16), [(table, indices, offsets)])
run("static, sle and operands swapped",
    generic_text(1000, 64, 200, 16, swap_add=True, swap_and=True, lower="sge"),
    [(table, indices, offsets)], swap_add=True)
# Offsets below 0 (the bag starts at 0) and past the indices (empty bags,
# the last one empty).
wild = np.array([-5, 20, 500, 40, 250, 180, 180, 300, 0, 190, 210, 10, 10, 5, 199, 400])
run("static, offsets out of range", generic_text(1000, 64, 200, 16),
    [(table, indices, wild)])
run("static, i32 table", generic_text(1000, 64, 200, 16, ety="i32"),
    [(rng.integers(-1000, 1000, (1000, 64)).astype(np.int32), indices, offsets)])

# Dynamic sizes: one program, called with several.
dynamic = generic_text("?", "?", "?", "?")
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
run("static, 512 bags", generic_text(50000, 128, len(big_indices), 512),
    [(big_table, big_indices, big_offsets)], unraised=False)
run("dynamic, 512 bags", dynamic, [(big_table, big_indices, big_offsets)], unraised=False)

# An invalid index in a bag: reported with its position in all the indices.
# One in no bag (before the first offset) is never read.
program = jit.compile(generic_text(1000, 64, 200, 16), threads=2)
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
check(np.array_equal(got, reference(table, outside, offsets)), "invalid index in no bag")
print(f"embedding-bags: {passed} passed, {failed} failed")
