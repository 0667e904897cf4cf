# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential testing of --convert-linalg-to-gather.

Generates random gather-like linalg.generic ops as frontends write them (a
tensor.extract of a table at positions read from an index operand, or, as
StableHLO's lowering does, from a trailing indices dimension read in the
body), with every index idiom the raising recognizes (integer casts of any
width, signed and unsigned; the select that wraps negative values; the
max/min clamp; the select of zero for an invalid index; wrap inside clamp
and fill; asserts that a plain read is in range, as torch-mlir writes
them), random shapes (empty ones included, dynamic dimensions), table
dimensions larger than the output reads, and bodies that compute more
after the read. Each function runs
  - unraised (the pipelines with raising off: upstream's lowering of the
    generic),
  - raised by the pipeline (plain reads checked: `error`),
  - raised with plain-reads=unchecked,
and is compared bit for bit with a numpy interpretation of the generic
(written here from the body's semantics, not from the gather reference).
An index a plain or wrapping read takes out of range is undefined in the
source: only the checked form runs such a case, and must report it. An
asserted read stops the program: the unraised form runs it too, and must
fail with the assert's message (a GatherError, also where the generic's
loops run in parallel). Every
function must also raise, into the op its form names, with no
tensor.extract left.

    /usr/bin/python3 -m gather_testing.raisetest --cases 300 --seed 1 --bin build/bin

Prints the counts per op and idiom and "raisetest: N passed, M failed";
exits with 1 on any failure.
"""

import argparse
import collections
import os
import subprocess
import sys

import numpy as np

from gather_testing.difftest import difference, same_bits, split_functions

ELEMENTS = {"f32": np.float32, "f16": np.float16, "f64": np.float64,
            "i8": np.int8, "i32": np.int32, "i64": np.int64}
INDEX_WIDTHS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
IDIOMS = ["plain", "wrap", "clamp", "wrap_clamp", "fill", "wrap_fill", "assert"]
KINDS = ["block", "elements", "multiaxis", "nd"]
# The forms generated: the kinds, and elements without an output dimension
# for the axis (x[b, idx[b]]), where a table dimension may be read through
# an arange operand (torch's x[arange(n), idx]).
FORMS = KINDS + ["squeezed"]
# The result type of the `extend` rest (a cast after the read).
EXTENDED = {"f16": "f32", "f32": "f64", "i8": "i32", "i32": "i64"}


def mlir_type(shape, dynamic, element):
    dims = "".join(("?" if dyn else str(s)) + "x" for s, dyn in zip(shape, dynamic))
    return f"tensor<{dims}{element}>"


class Case:
    """One gather-like generic: the loops (the output's dimensions), the
    table, the indices and how the body reads them."""

    def __init__(self, rng, kind, large):
        self.rng, self.kind = rng, kind
        self.arange_dim = None
        self.large_left = 2 if large else 0
        self.idiom = str(rng.choice(IDIOMS))
        self.width = int(rng.choice(list(INDEX_WIDTHS)))
        # Asserts test the value as signed: an unsigned read keeps them.
        self.unsigned = self.width < 64 and rng.random() < 0.25 and self.idiom != "assert"
        # The domain of the idiom: index, or i64 (then cast to index).
        self.domain = "i64" if rng.random() < 0.35 else "index"
        self.element = str(rng.choice(list(ELEMENTS)))
        choice = rng.random()
        self.rest = ("none" if choice < 0.6 else "scale_bias" if choice < 0.8
                     else "extend" if self.element in EXTENDED else "none")
        getattr(self, "_gen_" + kind)()
        if kind == "nd" and self.components > 1 and "fill" in self.idiom:
            self.idiom = self.idiom.replace("fill", "clamp")
        self.table_dyn = [bool(rng.random() < 0.3) for _ in self.table_shape]
        self.idx_dyn = [bool(rng.random() < 0.3) for _ in self.idx_shape]
        if kind == "nd":
            self.idx_dyn[-1] = False
        self.table = self._values(self.table_shape)
        self.indices = self._index_values()
        self.bias = self._values(self.out_shape[-1:]) if self.rest == "scale_bias" and self.out_shape else None
        if self.rest == "scale_bias" and not self.out_shape:
            self.rest = "none"

    # Shapes ----------------------------------------------------------------

    def _dim(self, low=0):
        r = self.rng.random()
        if self.large_left and r > 0.85:
            self.large_left -= 1
            return int(self.rng.integers(16, 41))
        if low == 0 and r < 0.05:
            return 0
        return int(self.rng.integers(max(low, 1), 5))

    def _cut(self, size):
        """An output size for a table dimension of `size`: mostly the same,
        at times smaller (the generic reads a part of the table)."""
        return size if self.rng.random() < 0.8 else int(self.rng.integers(0, size + 1))

    def _gen_block(self):
        rank = int(self.rng.integers(1, 5))
        self.axis = int(self.rng.integers(0, rank))
        self.table_shape = [self._dim(low=1 if d == self.axis else 0) for d in range(rank)]
        q = int(self.rng.integers(0, 4))
        self.idx_shape = [self._dim() for _ in range(q)]
        a = self.axis
        self.out_shape = ([self._cut(s) for s in self.table_shape[:a]] + self.idx_shape
                          + [self._cut(s) for s in self.table_shape[a + 1:]])
        self.idx_map = list(range(a, a + q))
        self.follows = [t if t < a else -1 if t == a else t + q - 1 for t in range(rank)]
        self.gathered = [a]

    def _gen_elements(self):
        rank = int(self.rng.integers(1, 5))
        self.axis = int(self.rng.integers(0, rank))
        self.table_shape = [self._dim(low=1 if d == self.axis else 0) for d in range(rank)]
        self.idx_shape = [self._dim() if d == self.axis else self._cut(s)
                          for d, s in enumerate(self.table_shape)]
        self.out_shape = list(self.idx_shape)
        self.idx_map = list(range(rank))
        self.follows = [-1 if t == self.axis else t for t in range(rank)]
        self.gathered = [self.axis]

    def _gen_squeezed(self):
        # The table's other dimensions follow the loops in order; the
        # gathered one has no loop. One followed dimension may be read
        # through an arange of its loop's length.
        rank = int(self.rng.integers(2, 5))
        self.axis = a = int(self.rng.integers(0, rank))
        self.table_shape = [self._dim(low=1 if d == a else 0) for d in range(rank)]
        self.out_shape = [self._cut(s) for t, s in enumerate(self.table_shape) if t != a]
        self.idx_shape = list(self.out_shape)
        self.idx_map = list(range(rank - 1))
        self.follows = [t if t < a else -1 if t == a else t - 1 for t in range(rank)]
        self.gathered = [a]
        followed = [t for t in range(rank) if t != a]
        self.arange_dim = int(self.rng.choice(followed)) if self.rng.random() < 0.7 else None

    def _gen_multiaxis(self):
        # Indices broadcast along the loops their map drops or pins to 0.
        rank = int(self.rng.integers(2, 5))
        self.axis = int(self.rng.integers(0, rank))
        self.table_shape = [self._dim(low=1 if d == self.axis else 0) for d in range(rank)]
        self.out_shape, self.idx_shape, self.idx_map = [], [], []
        for d in range(rank):
            if d == self.axis:
                size = self._dim()
                self.out_shape.append(size); self.idx_shape.append(size); self.idx_map.append(d)
                continue
            size = self._cut(self.table_shape[d])
            self.out_shape.append(size)
            choice = self.rng.random()
            if choice < 0.4:
                self.idx_shape.append(size); self.idx_map.append(d)
            elif choice < 0.6:
                self.idx_shape.append(1); self.idx_map.append("0")
            # else: dropped
        if self.idx_map == list(range(rank)) and self.out_shape == self.table_shape:
            # The identity is torch.gather's form: drop one loop to broadcast.
            d = (self.axis + 1) % rank
            j = self.idx_map.index(d)
            del self.idx_map[j]; del self.idx_shape[j]
        self.follows = [-1 if t == self.axis else t for t in range(rank)]
        self.gathered = [self.axis]

    def _gen_nd(self):
        rank = int(self.rng.integers(1, 5))
        m = int(self.rng.integers(1, 4))
        b = int(self.rng.integers(0, min(m - 1, rank - 1) + 1))
        k = int(self.rng.integers(1, rank - b + 1))
        self.table_shape = [self._dim(low=1 if b <= d < b + k else 0) for d in range(rank)]
        lead = [self._cut(self.table_shape[d]) if d < b else self._dim() for d in range(m - 1)]
        self.idx_shape = lead + [k]
        self.components, self.batch = k, b
        self.out_shape = lead + [self._cut(s) for s in self.table_shape[b + k:]]
        self.idx_map = None
        self.follows = [t if t < b else -1 if t < b + k else t - b - k + m - 1 for t in range(rank)]
        self.gathered = list(range(b, b + k))
        self.axis = b

    # Values ----------------------------------------------------------------

    def _values(self, shape):
        dtype = ELEMENTS[self.element]
        if self.element.startswith("f"):
            return (self.rng.standard_normal(shape) * 100).astype(dtype)
        info = np.iinfo(dtype)
        return self.rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)

    def _index_values(self):
        """Raw index values: in range for the dimensions they address, and
        where the idiom defines them (clamp, fill) or at times where it does
        not (plain, wrap: only the checked form runs those), out of range."""
        shape = self.idx_shape
        if self.kind == "nd":
            sizes = np.broadcast_to(np.array([self.table_shape[t] for t in self.gathered]), shape)
        else:
            sizes = np.full(shape, self.table_shape[self.axis])
        low = -sizes if "wrap" in self.idiom else np.zeros_like(sizes)
        values = np.floor(self.rng.random(shape) * (sizes - low)).astype(np.int64) + low
        if self.idiom in ("clamp", "wrap_clamp", "fill", "wrap_fill") or self.rng.random() < 0.3:
            bad = self.rng.random(shape) < 0.25
            far = self.rng.integers(0, 4, size=shape) + sizes
            values = np.where(bad, np.where(self.rng.random(shape) < 0.5, far, -far - 1), values)
        return values.astype(INDEX_WIDTHS[self.width])

    # The generic's semantics, in numpy ------------------------------------

    def expected(self):
        """(result, reads_invalid): the generic's result where every read is
        defined, and whether some read is out of range (undefined in the
        source)."""
        out = tuple(self.out_shape)
        coords = np.indices(out, dtype=np.int64) if out else np.zeros((0,), np.int64)
        raw = self.indices
        if self.unsigned:
            raw = raw.view(np.dtype(f"u{self.width // 8}"))
        raw = raw.astype(np.int64)
        positions, valid = [], np.ones(out, bool)
        for c, t in enumerate(self.gathered):
            if self.kind == "nd":
                at = tuple(coords[j] for j in range(len(self.idx_shape) - 1)) + (np.full(out, c),)
            else:
                at = tuple(coords[d] if isinstance(d, int) else np.zeros(out, np.int64)
                           for d in self.idx_map)
            x = np.broadcast_to(raw[at] if at else raw[()], out).astype(np.int64)
            size = self.table_shape[t]
            if "wrap" in self.idiom:
                x = np.where(x < 0, x + size, x)
            if "clamp" in self.idiom:
                x = np.clip(x, 0, size - 1)
            ok = (x >= 0) & (x < size)
            if "fill" in self.idiom:
                x = np.where(ok, x, 0)
            else:
                valid &= ok
            positions.append((t, x, ok))
        # A read out of range that the generic takes: its asserts fail.
        self.asserts_fail = self.idiom == "assert" and not valid.all()
        if not valid.all() or (valid.size == 0 and self.raised_kind()
                               and self._consumes_invalid(raw)):
            return None, True
        index = []
        for t in range(len(self.table_shape)):
            if self.follows[t] >= 0:
                index.append(np.broadcast_to(coords[self.follows[t]], out))
            else:
                index.append(next(x for tt, x, _ in positions if tt == t))
        value = self.table[tuple(index)] if out else self.table[tuple(int(i) for i in index)]
        value = np.asarray(value, dtype=self.table.dtype).reshape(out)
        if "fill" in self.idiom:
            ok = positions[0][2]
            value = np.where(ok, value, np.zeros((), self.table.dtype)).astype(self.table.dtype)
        return self._rest(value, coords), False

    def _consumes_invalid(self, raw):
        """Whether an index the gather op takes is invalid (plain and wrap
        reads). The op checks them all, also where the output is empty and
        the generic reads none: as torch and ONNX do, which report such an
        index."""
        if "clamp" in self.idiom or "fill" in self.idiom:
            return False
        if self.kind != "nd":
            rows = tuple(0 if m == "0" else slice(None) for m in self.idx_map)
            raw = raw[rows] if rows else raw
        if self.kind == "nd":
            sizes = np.array([self.table_shape[t] for t in self.gathered])
        else:
            sizes = self.table_shape[self.axis]
        x = np.where(raw < 0, raw + sizes, raw) if "wrap" in self.idiom else raw
        return bool(np.any((x < 0) | (x >= sizes)))

    def _rest(self, value, coords):
        dtype = self.table.dtype
        if self.rest == "scale_bias":
            bias = self.bias[coords[-1]] if value.size else np.zeros(value.shape, dtype)
            if self.element.startswith("f"):
                return ((value * dtype.type(2)).astype(dtype) + bias).astype(dtype)
            return (value * dtype.type(3) + bias).astype(dtype)
        if self.rest == "extend":
            return value.astype(ELEMENTS[EXTENDED[self.element]])
        return value

    # The generic, in MLIR --------------------------------------------------

    def output_sources(self):
        """Per output dimension, the (operand, dimension) whose dynamic size
        it takes, or None: static."""
        sources = []
        for d, size in enumerate(self.out_shape):
            source = None
            if self.idx_map is not None:
                for j, m in enumerate(self.idx_map):
                    if m == d and self.idx_dyn[j]:
                        source = ("%idx", j)
            elif d < len(self.idx_shape) - 1 and self.idx_dyn[d]:
                source = ("%idx", d)
            for t, f in enumerate(self.follows):
                if f == d and self.table_dyn[t] and self.table_shape[t] == size and source is None:
                    source = ("%t", t)
            sources.append(source)
        return sources

    def raised_kind(self):
        """The op the raising must make, or None where it must leave the
        generic: a static size 0 in the table or the output."""
        static_zero = lambda shape, dynamic: any(s == 0 and not dyn for s, dyn in zip(shape, dynamic))
        if (static_zero(self.table_shape, self.table_dyn)
                or static_zero(self.out_shape, [s is not None for s in self.output_sources()])):
            return None
        rank = len(self.table_shape)
        if self.kind == "squeezed":
            return "elements"
        # The identity map with every other position its own loop is
        # torch.gather's form, whatever the generator meant.
        if self.idx_map == list(range(rank)) and self.follows == [
                -1 if t == self.axis else t for t in range(rank)]:
            return "elements"
        # Indices along loops [a, a + q), the table around them: a block.
        if self.idx_map is not None:
            a, q = self.axis, len(self.idx_map)
            if (self.idx_map == list(range(a, a + q)) and rank - 1 + q == len(self.out_shape)
                    and self.follows == [t if t < a else -1 if t == a else t + q - 1
                                         for t in range(rank)]):
                return "block"
        return self.kind

    def arguments(self):
        args = [self.table, self.indices]
        if self.rest == "scale_bias":
            args.append(self.bias)
        return args

    def function(self, name):
        rng = self.rng
        loops = len(self.out_shape)
        out_element = EXTENDED[self.element] if self.rest == "extend" else self.element
        tt = mlir_type(self.table_shape, self.table_dyn, self.element)
        it = mlir_type(self.idx_shape, self.idx_dyn, f"i{self.width}")
        lines, consts = [], {}

        def const(value, type_="index"):
            key = (value, type_)
            if key not in consts:
                consts[key] = f"%k{len(consts)}"
                lines.append(f"  {consts[key]} = arith.constant {value} : {type_}")
            return consts[key]

        out_dyn, sizes = [], []
        for d, source in enumerate(self.output_sources()):
            out_dyn.append(source is not None)
            if source:
                operand, dim = source
                type_ = tt if operand == "%t" else it
                lines.append(f"  %s{d} = tensor.dim {operand}, {const(dim)} : {type_}")
                sizes.append(f"%s{d}")
        ot = mlir_type(self.out_shape, out_dyn, out_element)
        lines.append(f"  %e = tensor.empty({', '.join(sizes)}) : {ot}")
        # The sizes of the gathered dimensions, as the idioms use them.
        size_of = {}
        for t in self.gathered:
            if self.table_dyn[t] or rng.random() < 0.3:
                lines.append(f"  %n{t} = tensor.dim %t, {const(t)} : {tt}")
                size_of[t] = f"%n{t}"
            else:
                size_of[t] = None
        ins, in_types, maps, bb = [], [], [], []
        affine = lambda results: f"affine_map<({', '.join(f'd{i}' for i in range(loops))}) -> ({', '.join(results)})>"
        if self.idx_map is not None:
            ins.append("%idx"); in_types.append(it)
            maps.append(affine([f"d{m}" if isinstance(m, int) else "0" for m in self.idx_map]))
            bb.append(f"%in: i{self.width}")
        if self.rest == "scale_bias":
            bt = mlir_type(self.out_shape[-1:], [False], self.element)
            ins.append("%bias"); in_types.append(bt)
            maps.append(affine([f"d{loops - 1}"]))
            bb.append(f"%b: {self.element}")
        if self.arange_dim is not None:
            # torch-mlir's arange: a generic yielding its loop's index as i64.
            d = self.follows[self.arange_dim]
            at = mlir_type([self.out_shape[d]], [out_dyn[d]], "i64")
            lines.append(f"  %are = tensor.empty({f'%s{d}' if out_dyn[d] else ''}) : {at}")
            lines += [f"  %ar = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>], "
                      f'iterator_types = ["parallel"]}} outs(%are : {at}) {{',
                      "  ^bb0(%ao: i64):",
                      "    %ai = linalg.index 0 : index",
                      "    %ac = arith.index_cast %ai : index to i64",
                      "    linalg.yield %ac : i64",
                      f"  }} -> {at}"]
            ins.append("%ar"); in_types.append(at)
            maps.append(affine([f"d{d}"]))
            bb.append("%arv: i64")
        maps.append(affine([f"d{i}" for i in range(loops)]))
        bb.append(f"%o: {out_element}")
        body = []
        counter = [0]

        def fresh():
            counter[0] += 1
            return f"%v{counter[0]}"

        def emit(text):
            name = fresh()
            body.append(f"    {name} = {text}")
            return name

        def size_value(t, delta=0):
            """The size of table dimension t (plus delta) in the domain."""
            dom = self.domain
            if size_of[t] is None:
                return const(self.table_shape[t] + delta, dom)
            value = size_of[t]
            if dom == "i64":
                value = emit(f"arith.index_cast {value} : index to i64")
            if delta:
                value = emit(f"arith.subi {value}, {const(-delta, dom)} : {dom}")
            return value

        def size_value_index(t):
            """The size of table dimension t as an index."""
            return const(self.table_shape[t]) if size_of[t] is None else size_of[t]

        positions, ok = {}, None
        for c, t in enumerate(self.gathered):
            if self.kind == "nd":
                at = [emit(f"linalg.index {j} : index") for j in range(len(self.idx_shape) - 1)]
                raw = emit(f"tensor.extract %idx[{', '.join(at + [const(c)])}] : {it}")
            else:
                raw = "%in"
            dom, w = self.domain, self.width
            if dom == "index":
                cast = "arith.index_castui" if self.unsigned else "arith.index_cast"
                x = emit(f"{cast} {raw} : i{w} to index")
            elif w < 64:
                cast = "arith.extui" if self.unsigned else "arith.extsi"
                x = emit(f"{cast} {raw} : i{w} to i64")
            else:
                x = raw
            zero = const(0, dom)
            if "wrap" in self.idiom:
                size = size_value(t)
                if rng.random() < 0.5:
                    neg = emit(f"arith.cmpi slt, {x}, {zero} : {dom}")
                    plus = emit(f"arith.addi {x}, {size} : {dom}" if rng.random() < 0.5
                                else f"arith.addi {size}, {x} : {dom}")
                    x = emit(f"arith.select {neg}, {plus}, {x} : {dom}")
                else:
                    nonneg = emit(f"arith.cmpi sge, {x}, {zero} : {dom}")
                    plus = emit(f"arith.addi {x}, {size} : {dom}")
                    x = emit(f"arith.select {nonneg}, {x}, {plus} : {dom}")
            if "clamp" in self.idiom:
                high = size_value(t, -1)
                if rng.random() < 0.5:
                    lo = emit(f"arith.maxsi {x}, {zero} : {dom}")
                    x = emit(f"arith.minsi {lo}, {high} : {dom}")
                else:
                    hi = emit(f"arith.minsi {high}, {x} : {dom}")
                    x = emit(f"arith.maxsi {zero}, {hi} : {dom}")
            if "fill" in self.idiom:
                size = size_value(t)
                if rng.random() < 0.5:
                    ok = emit(f"arith.cmpi ult, {x}, {size} : {dom}")
                else:
                    ge = emit(f"arith.cmpi sge, {x}, {zero} : {dom}")
                    lt = emit(f"arith.cmpi slt, {x}, {size} : {dom}")
                    ok = emit(f"arith.andi {ge}, {lt} : i1")
                x = emit(f"arith.select {ok}, {x}, {zero} : {dom}")
            if self.idiom == "assert":
                # torch-mlir's two asserts (the upper bound on the value cast
                # again to index, the lower on the raw value), or one of the
                # other forms of a bound.
                size = size_value(t)
                form = rng.random()
                if form < 0.5:
                    again = emit(f"arith.index_cast {raw} : i{w} to index")
                    upper = emit(f"arith.cmpi slt, {again}, {size_value_index(t)} : index")
                    lower = emit(f"arith.cmpi sge, {raw}, {const(0, f'i{w}')} : i{w}")
                    checks = [upper, lower]
                elif form < 0.75:
                    checks = [emit(f"arith.cmpi ult, {x}, {size} : {dom}")]
                else:
                    checks = [emit(f"arith.cmpi sgt, {size}, {x} : {dom}"),
                              emit(f"arith.cmpi sgt, {x}, {const(-1, dom)} : {dom}")]
                for check in checks:
                    body.append(f'    cf.assert {check}, "index out of range"')
            if dom == "i64":
                x = emit(f"arith.index_cast {x} : i64 to index")
            positions[t] = x
        def followed(t, f):
            if t != self.arange_dim:
                return emit(f"linalg.index {f} : index")
            value = "%arv"
            if rng.random() < 0.5 and not self.table_dyn[t]:
                # The wrap torch-mlir puts on every index (a no-op here).
                neg = emit(f"arith.cmpi slt, {value}, {const(0, 'i64')} : i64")
                plus = emit(f"arith.addi {value}, {const(self.table_shape[t], 'i64')} : i64")
                value = emit(f"arith.select {neg}, {plus}, {value} : i64")
            return emit(f"arith.index_cast {value} : i64 to index")

        at = [positions[t] if f < 0 else followed(t, f) for t, f in enumerate(self.follows)]
        value = emit(f"tensor.extract %t[{', '.join(at)}] : {tt}")
        e = self.element
        if ok is not None:
            zero_value = "0.0" if e.startswith("f") else "0"
            value = emit(f"arith.select {ok}, {value}, {const(zero_value, e)} : {e}")
        if self.rest == "scale_bias":
            if e.startswith("f"):
                scaled = emit(f"arith.mulf {value}, {const('2.0', e)} : {e}")
                value = emit(f"arith.addf {scaled}, %b : {e}")
            else:
                scaled = emit(f"arith.muli {value}, {const(3, e)} : {e}")
                value = emit(f"arith.addi {scaled}, %b : {e}")
        elif self.rest == "extend":
            op = "arith.extf" if e.startswith("f") else "arith.extsi"
            value = emit(f"{op} {value} : {e} to {out_element}")
        params = [f"%t: {tt}", f"%idx: {it}"]
        if self.rest == "scale_bias":
            params.append(f"%bias: {in_types[ins.index('%bias')]}")
        ins_text = f"ins({', '.join(ins)} : {', '.join(in_types)}) " if ins else ""
        iterators = ", ".join(['"parallel"'] * loops)
        return "\n".join(
            [f"func.func @{name}({', '.join(params)}) -> {ot} {{"] + lines
            + [f"  %r = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
               f"iterator_types = [{iterators}]}}",
               f"      {ins_text}outs(%e : {ot}) {{",
               f"  ^bb0({', '.join(bb)}):"] + body
            + [f"    linalg.yield {value} : {out_element}",
               f"  }} -> {ot}", f"  return %r : {ot}", "}"])

    def describe(self):
        return (f"{self.kind} idiom {self.idiom} i{self.width}{' unsigned' if self.unsigned else ''} "
                f"in {self.domain} table {self.table_shape}{self.table_dyn} indices "
                f"{self.idx_shape}{self.idx_dyn} map {self.idx_map} out {self.out_shape} "
                f"{self.element} rest {self.rest}"
                + (f" arange for table dimension {self.arange_dim}"
                   if self.arange_dim is not None else ""))


def call(program, name, args, want, invalid, report="is out of range"):
    """None when @name gives `want` (bit for bit), or, for an invalid read,
    fails with `report` (the out-of-range report, or the failed assert's);
    else the problem."""
    from gather import jit
    program.select(name)
    try:
        got = program(*args)
    except jit.GatherError as e:
        if invalid and report in str(e):
            return None
        return f"failed: {e}"
    if invalid:
        return "no error for an index out of range"
    if not same_bits(got, want):
        return f"result differs from numpy: {difference(got, want)}"
    return None


def run_batch(cases, first, bin_dir, opt_level, canonicalize=False):
    """The problems of cases[i] (function @r<first+i>) as {number: text}.
    With `canonicalize`, the module goes through --canonicalize first, as a
    frontend's output does (it folds linalg.index of a loop of size 1 to 0,
    moves constants, merges casts)."""
    from gather import jit
    names = [f"r{first + i}" for i in range(len(cases))]
    module = "\n\n".join(case.function(name) for case, name in zip(cases, names))
    problems = {}
    gather_opt = os.path.join(bin_dir, "gather-opt")
    if canonicalize:
        r = subprocess.run([gather_opt, "--canonicalize"], input=module,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return {first + i: f"gather-opt --canonicalize: {r.stderr.strip()[:2000]}"
                    for i in range(len(cases))}
        module = r.stdout
    forms = {}
    for label, option in (("raised", ""), ("unchecked", "=plain-reads=unchecked")):
        r = subprocess.run([gather_opt, "--convert-linalg-to-gather" + option],
                           input=module, capture_output=True, text=True)
        if r.returncode != 0:
            return {first + i: f"gather-opt {label}: {r.stderr.strip()[:2000]}"
                    for i in range(len(cases))}
        forms[label] = r.stdout
    raised = split_functions(forms["raised"])
    unchecked = split_functions(forms["unchecked"])
    stayed = set()
    for i, (case, name) in enumerate(zip(cases, names)):
        text = raised.get(name, "")
        kind = case.raised_kind()
        # Asserted reads are defined where out of range: checked either way.
        if case.idiom == "assert" and "unchecked" in unchecked.get(name, ""):
            problems[first + i] = f"an asserted read raised unchecked:\n{unchecked[name]}"
            continue
        if kind is None:
            if "gather." in text:
                problems[first + i] = f"raised, where the generic should stay:\n{text}"
        elif canonicalize and 0 in case.out_shape + case.table_shape and "gather." not in text:
            # Canonicalization makes a size 0 static where it can (from
            # the indices' static 0): such a generic stays.
            stayed.add(i)
        elif "tensor.extract " in text or f"gather.{kind} " not in text:
            problems[first + i] = f"not raised into gather.{kind}:\n{text}"
    wants = [case.expected() for case in cases]
    programs = [("unraised", module, False), ("raised", module, True),
                ("unchecked", forms["unchecked"], False)]
    for label, text, raise_linalg in programs:
        try:
            program = jit.compile(text, entry=names[0], opt_level=opt_level,
                                  raise_linalg=raise_linalg)
        except jit.GatherError as e:
            for i in range(len(cases)):
                problems.setdefault(first + i, f"{label}: compilation failed: {str(e)[:2000]}")
            continue
        for i, (case, name) in enumerate(zip(cases, names)):
            want, invalid = wants[i]
            # An out-of-range read is undefined in the source and in the
            # unchecked form: only the checked form runs it, and a generic
            # left with its asserts, whose failure is the call's error.
            asserted = case.asserts_fail and (label == "unraised" or i in stayed)
            if invalid and (label != "raised" or i in stayed) and not asserted:
                continue
            problem = call(program, name, case.arguments(), want, invalid,
                           "assertion failed: index out of range" if asserted
                           else "is out of range")
            if problem:
                problems.setdefault(first + i, f"{label}: {problem}")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--opt-level", type=int, default=1)
    parser.add_argument("--large", type=float, default=0.3,
                        help="share of cases with a dimension of 16-40 (vector paths)")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--canonicalize", action="store_true",
                        help="canonicalize each module before raising it")
    parser.add_argument("--show", type=int, default=-1, help="print the MLIR of case N and exit")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    cases = [Case(rng, FORMS[i % len(FORMS)], rng.random() < args.large) for i in range(args.cases)]
    if args.show >= 0:
        print(cases[args.show].function(f"r{args.show}"))
        print("//", cases[args.show].describe())
        return 0
    counts = collections.Counter()
    invalid = 0
    for case in cases:
        counts[(case.raised_kind() or "generic", case.idiom)] += 1
        invalid += case.expected()[1]
    failed = 0
    for first in range(0, len(cases), args.batch):
        problems = run_batch(cases[first:first + args.batch], first, args.bin, args.opt_level,
                             args.canonicalize)
        for number, problem in sorted(problems.items()):
            print(f"FAIL case {number} ({cases[number].describe()}): {problem}")
        failed += len(problems)
    for kind in KINDS + ["generic"]:
        print(f"{kind}: " + ", ".join(f"{idiom} {counts[(kind, idiom)]}" for idiom in IDIOMS))
    squeezed = [case for case in cases if case.kind == "squeezed"]
    print(f"without an output dimension for the axis: {len(squeezed)} "
          f"(through an arange: {sum(case.arange_dim is not None for case in squeezed)})")
    print(f"cases reading out of range (checked form only): {invalid}")
    print(f"of which asserted (the unraised form too): "
          f"{sum(case.asserts_fail for case in cases)}")
    print(f"raisetest: {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
