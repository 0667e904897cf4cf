# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Programs as torch-mlir writes them, for the tests and benchmarks of the
forms convert-linalg-to-gather raises beyond single gathers."""
import numpy as np


EMBEDDING_BAG_MAPS = """#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
"""


def embedding_bag_text(rows, dim, count, bags, ety="f32", swap_add=False, swap_and=False,
                       lower="or", name="main", maps=True):
    """@name(weight, indices, offsets) as torch-mlir's TorchToLinalg writes
    aten.embedding_bag (mode sum, offsets; ConvertAtenEmbeddingBagPaddingIdxOp):
    a fill of zero, then one generic over (bags, every index, row). `?` sizes
    are dynamic, read with tensor.dim as torch-mlir's getDimOp does.
    `swap_add`, `swap_and` and `lower="sge"` write the body's operands the
    other way round and its lower bound as one compare. Without `maps`,
    the function alone (for a module of several, after EMBEDDING_BAG_MAPS)."""
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
    return (EMBEDDING_BAG_MAPS if maps else "") + f"""func.func @{name}(%weight: {table}, %indices: {ids}, %offsets: {offs}) -> {out} {{
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


def embedding_bag_reference(table, indices, offsets, swap_add=False):
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


def random_embedding_bag(rng, name, least=0):
    """A random embedding bag generic @name (sizes from `least`, 0 included
    by default: no bags, no indices; offsets drawn sorted or not, some below
    0 or past the indices; an f32 or i32 table; sizes static or dynamic; the
    body's operands either way): (its text without the maps, the arguments
    (table, indices, offsets), whether the body adds the sum first, the
    table's element type)."""
    count, bags = int(rng.integers(least, 40)), int(rng.integers(least, 10))
    rows, dim = int(rng.integers(1, 50)), int(rng.integers(1, 40))
    ety = "f32" if rng.random() < 0.7 else "i32"
    offsets = rng.integers(-3, count + 4, bags)
    if rng.random() < 0.7:
        offsets.sort()
    sizes = [s if rng.random() < 0.6 else "?" for s in (rows, dim, count, bags)]
    variant = dict(swap_add=bool(rng.random() < 0.5), swap_and=bool(rng.random() < 0.5),
                   lower="or" if rng.random() < 0.5 else "sge")
    if ety == "f32":
        table = rng.standard_normal((rows, dim)).astype(np.float32)
    else:
        table = rng.integers(-100, 100, (rows, dim)).astype(np.int32)
    args = (table, rng.integers(0, rows, count), offsets)
    text = embedding_bag_text(*sizes, ety=ety, name=name, maps=False, **variant)
    return text, args, variant["swap_add"], ety
