#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A structured fuzzer for the gather dialect and its lowerings.

Each round makes inputs of three kinds and pushes them through every pass
and pipeline of gather-opt:

  * valid programs, built by the ops' shape rules: the four ops, every
    attribute and policy, all element and index types the dialect takes,
    static, dynamic, zero and huge sizes (up to 2^62), tensor and memref
    forms, custom and generic syntax, constant indices and data, written
    result types as precise or as dynamic as allowed;
  * invalid programs: a valid one with one rule broken (an axis out of
    range or repeated, a negative batch_dims, a wrong init size, rank or
    element type, a rejected index type, a byte size over 2^63, a constant
    index out of range under `error`, mixed tensors and memrefs, a generic
    result type that differs from init, a malformed attribute);
  * mutations of the lit test corpus (test/**/*.mlir, one split chunk
    each): numbers, types, attribute values and lines changed at random.

A failure is
  * a crash (a signal or an exit status other than 0 or 1, or a stack dump)
    or a hang (no answer within --timeout seconds) of any tool;
  * a valid program that does not verify, or a pass or pipeline that must
    accept every valid program and fails on one;
  * an invalid program that verifies, or whose diagnostic does not name
    the op;
  * output of a pass that does not parse and verify again.

Inputs run in batches: one file of `// -----` chunks per gather-opt call
(--split-input-file), narrowed down to single inputs when a call crashes
or hangs. Every round also executes random valid programs (gather_testing.difftest's
generator: all four ops, random policies, out-of-range indices, dynamic and
empty sizes, now and then a dimension of 16-40 for the vector forms)
compiled through the C API (each also with out=, through the compiled
destination entry) and one gather-run process per case, compared with the
numpy reference (python/gather/reference.py). Half of these batches
(--other-targets) are planned for another CPU: an x86-64 level this host
runs and random entries of the target description (caches down to 1 KiB,
lines of 8-256 bytes, 1-64 cores, vector widths of 64-1024 bits, every
threshold and switch), so that the plans other machines get are run here
too; a failure prints the difftest options that reproduce it.

    PYTHONPATH=python /usr/bin/python3 utils/gather_fuzz.py --bin build/bin \\
        --inputs 2000 --seed 1
    scripts/fuzz.sh --minutes 10 [--seed S]

Prints one line per failure (with the input saved under --failures) and a
summary `fuzz: N inputs, E executed, F failures`; exits 1 on a failure.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))

from gather_testing import difftest, tiletest  # noqa: E402
from gather.mlir_text import output_dim_sources, tensor_type  # noqa: E402

OPS = ("multiaxis", "block", "elements", "nd")
DATA_ELEMENTS = ("f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "index",
                 "f8E4M3FN", "i3")
BAD_DATA_ELEMENTS = ("ui32", "si8", "complex<f32>", "vector<2xf32>")
INDEX_ELEMENTS = ("i8", "i16", "i32", "i64", "index")
BAD_INDEX_ELEMENTS = ("i1", "f32", "ui32", "si64", "i128", "f16")
NEGATIVE = ("wrap", "out_of_bounds")
OUT_OF_BOUNDS = ("error", "clamp", "fill", "unchecked")
DYN = None  # a dynamic size in a shape

# Passes and pipelines. `must_pass`: every valid program must get through
# (a failure with a diagnostic is a bug), "tensors": every valid program on
# tensors (the GPU lowering takes no buffers and says so); otherwise only a
# crash, a hang or unparsable output is. The transform script is preloaded
# from a file; it only sees generated programs of rank >= 1 (upstream
# tile_using_forall crashes on rank-0 ops: mlir-opt does the same on a
# rank-0 linalg.copy).
TRANSFORM_TILE = tiletest.transform_module(
    tiletest.transform_steps([2], fuse=False) +
    f"    %f = transform.structured.match ops{{[\"func.func\"]}} in %root : {tiletest.ANY}\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.gather.canonicalization\n"
    "      transform.apply_patterns.gather.to_multiaxis\n"
    "      transform.apply_patterns.gather.lower_to_linalg\n"
    "    } : !transform.any_op\n")

PIPELINES = [
    # (name, gather-opt arguments, must_pass)
    ("parse", [], True),
    ("generic", ["--mlir-print-op-generic"], True),
    # gather-canonicalize: --canonicalize with the expand_shape refinement
    # MLIR 22 needs on the reshapes the gather rewrites make.
    ("canonicalize", ["--gather-canonicalize"], True),
    ("to-multiaxis", ["--gather-to-multiaxis"], True),
    ("refine-result-types", ["--gather-refine-result-types"], True),
    ("to-linalg", ["--convert-gather-to-linalg"], True),
    ("to-linalg-scalar", ["--convert-gather-to-linalg=vectorize=false"], True),
    # Other targets' plans: AVX2 (8-lane rows, 8-block tiles) and the
    # x86-64 baseline's 128-bit vectors (4 lanes, 4-block tiles).
    ("to-linalg-avx2", ["--convert-gather-to-linalg=target-cpu=x86-64-v3"], True),
    ("cpu-pipeline-sse2", ["--gather-cpu-pipeline=target-cpu=x86-64"], True),
    # Other architectures' plans: NEON (128 bits, no non-temporal stores),
    # SVE registers of 256 bits (vscale_range) and RISC-V V at 512 bits
    # with mask registers.
    ("cpu-pipeline-aarch64", ["--gather-cpu-pipeline=target-cpu=neoverse-n1"], True),
    ("cpu-pipeline-sve", ["--gather-cpu-pipeline=target-cpu=neoverse-v1 vector-bits=256"], True),
    ("cpu-pipeline-rvv", ["--gather-cpu-pipeline=target-cpu=sifive-x280"], True),
    ("to-scf", ["--convert-gather-to-scf"], True),
    ("to-tensor", ["--convert-gather-to-tensor"], False),
    ("to-gpu", ["--convert-gather-to-gpu"], "tensors"),
    ("to-gpu-fused", ["--convert-gather-to-gpu", "--gather-fuse-device-consumers"], "tensors"),
    ("bufferize", ["--one-shot-bufferize=bufferize-function-boundaries"], False),
    ("transform-tile", ["--transform-interpreter"], False),
    ("transform-tile-cpu", ["--transform-interpreter", "--gather-cpu-pipeline"], False),
    ("cpu-pipeline", ["--gather-cpu-pipeline"], True),
    ("cpu-pipeline-fused", ["--gather-cpu-pipeline=fuse-consumers=true"], True),
    ("destination-entries", ["--gather-destination-entries"], True),
    ("gpu-pipeline", ["--gather-gpu-pipeline=format=isa"], "tensors"),
]


# The elementwise op of a consumer, by element type (an add of the value to
# itself; i1 an xor). f8E4M3FN has no arithmetic the CPU lowering takes.
CONSUMERS = {"f16": "arith.addf", "bf16": "arith.addf", "f32": "arith.addf", "f64": "arith.addf",
             "i1": "arith.xori", "i8": "arith.addi", "i16": "arith.addi", "i32": "arith.addi",
             "i64": "arith.addi", "index": "arith.addi", "i3": "arith.addi"}

# The plans for other targets than the host's: with --variant-stride N an
# input goes through every Nth of them, in turn (its position in the
# batch picks which), instead of through all.
TARGET_VARIANTS = ("to-linalg-avx2", "cpu-pipeline-sse2", "cpu-pipeline-aarch64",
                   "cpu-pipeline-sve", "cpu-pipeline-rvv")


class Input:
    """One module's text and what the verifier must say about it:
    expect "valid", "invalid" (then `op` is the op the diagnostic must
    name) or "any" (corpus mutations: no crash, no hang)."""

    def __init__(self, text, expect, origin, op=None, tensors=True, tileable=False,
                 skip=frozenset()):
        self.text, self.expect, self.origin, self.op = text, expect, origin, op
        self.tensors, self.tileable = tensors, tileable
        # Passes in which Debian's MLIR itself crashes on it.
        self.skip = skip


#===------------------------------------------------------------------------===#
# Valid programs by the shape rules
#===------------------------------------------------------------------------===#

def element_bytes(element):
    """Bytes per element as the verifier counts them: integers and floats by
    their width, anything else 8."""
    m = re.fullmatch(r"[a-z]+?(\d+)[A-Z0-9]*", element)
    if not m or element == "index":
        return 8
    return (int(m.group(1)) + 7) // 8


def byte_size(shape, element):
    total = element_bytes(element)
    for s in shape:
        total *= s
    return total


LIMIT = 2**63 - 1


def sample_size(rng, big):
    """A static size: mostly small, sometimes 0, sometimes large or huge."""
    r = rng.random()
    if r < 0.05:
        return 0
    if big and r < 0.12:
        return int(2 ** int(rng.integers(8, 33)) + rng.integers(-2, 3))
    if big and r < 0.17:
        return int(2 ** int(rng.integers(40, 63)) - rng.integers(0, 3))
    return int(rng.integers(1, 6))


def fit(shapes, elements):
    """Shrinks the largest sizes until every byte size fits in 2^63, zero
    sizes counted as one (a dynamic size leaves the static ones to check)."""
    for shape, element in zip(shapes, elements):
        while byte_size([max(s, 1) for s in shape], element) > LIMIT:
            d = int(np.argmax(shape))
            shape[d] = max(1, shape[d] // 1024)


def gen_shapes(op, rng, big):
    """(data shape, indices shape, attributes) following the op's rules."""
    if op == "multiaxis":
        rank = int(rng.integers(0, 6))
        naxes = int(rng.integers(0, min(rank, 3) + 1))
        axes = [int(a) for a in rng.permutation(rank)[:naxes]]
        data, logical = [], []
        for d in range(rank):
            size = sample_size(rng, big)
            if d in axes:
                data.append(size); logical.append(sample_size(rng, big))
            else:
                r = rng.random()
                data.append(size if r < 0.7 else 1)
                logical.append(size if r < 0.5 else (1 if r < 0.7 else size))
        indices = list(logical)
        if rank:
            indices[-1] *= max(naxes, 1)
        return data, indices, {"axes": axes}
    if op == "block":
        rank = int(rng.integers(1, 5))
        data = [sample_size(rng, big) for _ in range(rank)]
        indices = [sample_size(rng, big) for _ in range(int(rng.integers(0, 4)))]
        return data, indices, {"axis": int(rng.integers(-rank, rank))}
    if op == "elements":
        rank = int(rng.integers(1, 5))
        data = [sample_size(rng, big) for _ in range(rank)]
        axis = int(rng.integers(-rank, rank))
        indices = [sample_size(rng, big) if d == axis % rank else
                   (data[d] if rng.random() < 0.7 else int(rng.integers(0, data[d] + 1)))
                   for d in range(rank)]
        return data, indices, {"axis": axis}
    rank = int(rng.integers(1, 6))
    data = [sample_size(rng, big) for _ in range(rank)]
    q = int(rng.integers(1, 5))
    b = int(rng.integers(0, min(q, rank)))
    k = int(rng.integers(1, rank - b + 1))
    indices = []
    for d in range(q - 1):
        if d < b:
            if rng.random() < 0.2:
                data[d] = 1
            indices.append(data[d] if data[d] != 1 or rng.random() < 0.5 else sample_size(rng, big))
        else:
            indices.append(sample_size(rng, big))
    indices.append(k)
    return data, indices, {"batch_dims": b}


def output_sizes(op, data, indices, attrs):
    """Per output dimension, its size by the op's shape rules
    (mlir_text.output_dim_sources) from shapes whose dynamic sizes are DYN:
    DYN where the verifier cannot infer it. A broadcast takes the indices
    side unless it is 1; it is known when that side is a static size other
    than 1, or both sides are static."""
    sources = output_dim_sources(op, len(data), indices, axis=attrs.get("axis", 0),
                                 axes=attrs.get("axes", ()), batch_dims=attrs.get("batch_dims", 0))
    shapes = {"data": data, "indices": indices}

    def size(source):
        operand, dim, divisor = source
        value = shapes[operand][dim]
        return DYN if value is DYN else value // divisor

    sizes = []
    for candidates in sources:
        first = size(candidates[0])
        if len(candidates) == 1 or (first is not DYN and first != 1):
            sizes.append(first)
        else:
            other = size(candidates[1])
            sizes.append(other if first == 1 else DYN)
    return sizes


def type_text(shape, element, tensors):
    text = tensor_type(shape, element)
    return text if tensors else "memref" + text[len("tensor"):]


def attr_text(op, attrs, negative, oob, generic):
    if generic:
        parts = []
        if op == "multiaxis":
            parts.append("axes = array<i64" + "".join(f", {a}" if i else f": {a}"
                                                       for i, a in enumerate(attrs["axes"])) + ">")
        elif op == "nd":
            parts.append(f"batch_dims = {attrs['batch_dims']} : i64")
        else:
            parts.append(f"axis = {attrs['axis']} : i64")
        parts.append(f"negative_indices = #gather<negative_indices {negative}>")
        parts.append(f"out_of_bounds = #gather<out_of_bounds {oob}>")
        return "<{" + ", ".join(parts) + "}>"
    if op == "multiaxis":
        text = "axes = [" + ", ".join(map(str, attrs["axes"])) + "]"
    elif op == "nd":
        text = f"batch_dims = {attrs['batch_dims']}"
    else:
        text = f"axis = {attrs['axis']}"
    if negative != "wrap":
        text += f" negative_indices = {negative}"
    if oob != "error":
        text += f" out_of_bounds = {oob}"
    return text


def addressed_sizes(op, data, indices, attrs):
    """The data size each position of the last indices dimension addresses
    (a list to tile along that dimension), or None when no index is read."""
    if op == "multiaxis":
        return [data[a] for a in attrs["axes"]] or None
    if op in ("block", "elements"):
        return [data[attrs["axis"] % len(data)]]
    b = attrs["batch_dims"]
    return [data[b + j] for j in range(indices[-1])]


def constant_text(values, shape, element):
    def nested(flat, shape):
        if not shape:
            return str(flat[0])
        step = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        return "[" + ", ".join(nested(flat[i * step:(i + 1) * step], shape[1:])
                               for i in range(shape[0])) + "]"
    return f"dense<{nested(list(values), list(shape))}> : tensor<{''.join(f'{s}x' for s in shape)}{element}>"


class Program:
    """A valid gather program before rendering; mutations change fields."""

    def __init__(self, rng, big=None):
        self.op = str(rng.choice(OPS))
        self.big = bool(rng.random() < 0.3) if big is None else big
        self.element = str(rng.choice(DATA_ELEMENTS))
        self.index_element = str(rng.choice(INDEX_ELEMENTS))
        # Shapes whose byte sizes fit as drawn (shrinking one operand would
        # break the sizes the rules tie together).
        while True:
            self.data, self.indices, self.attrs = gen_shapes(self.op, rng, self.big)
            drawn = (list(self.data), list(self.indices))
            fit([self.data, self.indices], [self.element, self.index_element])
            if (self.data, self.indices) == drawn:
                break
        self.negative = str(rng.choice(NEGATIVE))
        self.oob = str(rng.choice(OUT_OF_BOUNDS))
        self.tensors = bool(rng.random() < 0.8)
        self.generic = bool(rng.random() < 0.25)
        self.output = output_sizes(self.op, self.data, self.indices, self.attrs)
        if byte_size([max(s, 1) for s in self.output], self.element) > LIMIT:
            # A broadcast can make the output the largest: start again small.
            self.big = False
            self.data, self.indices, self.attrs = gen_shapes(self.op, rng, False)
            self.output = output_sizes(self.op, self.data, self.indices, self.attrs)
        self.data_dyn = [bool(rng.random() < 0.25) for _ in self.data]
        self.idx_dyn = [bool(rng.random() < 0.25) for _ in self.indices]
        if self.op == "nd":
            self.idx_dyn[-1] = False  # the coordinate size must be static
        self.out_dyn = [bool(rng.random() < 0.4) for _ in self.output]
        self.result_type = None  # generic form: the init type unless broken
        self.consumer = None  # an elementwise op on the result (valid programs: make_inputs)
        self.const_indices = None
        self.const_data = None
        n_idx = int(np.prod(self.indices)) if self.indices else 1
        if self.tensors and 0 < n_idx <= 64 and 0 not in self.data and rng.random() < 0.25:
            self.idx_dyn = [False] * len(self.indices)
            self.const_indices = self.index_values(rng, in_range=True)
            n_data = int(np.prod(self.data)) if self.data else 1
            if n_data <= 256 and self.element in ("f32", "i32", "i64") and rng.random() < 0.5:
                self.data_dyn = [False] * len(self.data)
                values = rng.integers(-50, 50, size=n_data).tolist()
                self.const_data = [f"{v}.0" if self.element == "f32" else v for v in values]
        bits = {"i8": 8, "i16": 16, "i32": 32}.get(self.index_element)
        if bits and self.const_indices and max(abs(v) for v in self.const_indices) >= 2 ** (bits - 1) - 4:
            self.index_element = "i64"  # keep constant indices representable

    def index_values(self, rng, in_range):
        sizes = addressed_sizes(self.op, self.data, self.indices, self.attrs)
        n = int(np.prod(self.indices)) if self.indices else 1
        last = self.indices[-1] if self.indices else 1
        values = []
        for p in range(n):
            size = sizes[(p % last) % len(sizes)] if sizes and last else 0
            low = -size if self.negative == "wrap" else 0
            if in_range and size > 0:
                values.append(int(rng.integers(low, size)))
            elif in_range:
                values.append(0)  # no valid index exists: only under clamp/fill
            else:
                values.append(int(size + rng.integers(0, 3)) if rng.random() < 0.5
                              else int(low - 1 - rng.integers(0, 3)))
        return values

    def render(self):
        shape = lambda s, dyn: [DYN if d else v for v, d in zip(s, dyn)]  # noqa: E731
        dt = type_text(shape(self.data, self.data_dyn), self.element, self.tensors)
        # A broken program may declare its indices in the other form.
        it = type_text(shape(self.indices, self.idx_dyn), self.index_element,
                       self.tensors != getattr(self, "mixed", False))
        ot = type_text(shape(self.output, self.out_dyn),
                       getattr(self, "init_element_override", None) or self.element, self.tensors)
        args, lines = [], []
        data, indices = "%data", "%indices"
        if self.const_data is not None:
            lines.append(f"  %data = arith.constant {constant_text(self.const_data, self.data, self.element)}")
        else:
            args.append(f"%data: {dt}")
        if self.const_indices is not None:
            element = self.index_element
            lines.append(f"  %indices = arith.constant "
                         f"{constant_text(self.const_indices, self.indices, element)}")
        else:
            args.append(f"%indices: {it}")
        args.append(f"%init: {ot}")
        attrs = attr_text(self.op, self.attrs, self.negative, self.oob, self.generic)
        result = (self.result_type or ot) if self.tensors else None
        if self.generic:
            lhs = "%0 = " if self.tensors else ""
            lines.append(f"  {lhs}\"gather.{self.op}\"({data}, {indices}, %init) {attrs} : "
                         f"({dt}, {it}, {ot}) -> {result if result else '()'}")
        else:
            lhs = "%0 = " if self.tensors else ""
            lines.append(f"  {lhs}gather.{self.op} {data}[{indices}] {attrs} into %init : "
                         f"{dt}, {it} into {ot}")
        if self.tensors and self.consumer:
            # The result read by an elementwise linalg.generic (what
            # --gather-cpu-pipeline=fuse-consumers=true fuses into the
            # gather's tiles), which the function returns instead.
            args.append(f"%init2: {result}")
            rank = len(self.output)
            dims = ", ".join(f"d{d}" for d in range(rank))
            identity = f"affine_map<({dims}) -> ({dims})>"
            iterators = ", ".join(['"parallel"'] * rank)
            element = self.element
            lines += [f"  %1 = linalg.generic {{indexing_maps = [{identity}, {identity}], "
                      f"iterator_types = [{iterators}]}} ins(%0 : {result}) outs(%init2 : {result}) {{",
                      f"  ^bb0(%x: {element}, %o: {element}):",
                      f"    %y = {self.consumer} %x, %x : {element}",
                      f"    linalg.yield %y : {element}",
                      f"  }} -> {result}",
                      f"  return %1 : {result}"]
            signature = f"({', '.join(args)}) -> {result}"
        elif self.tensors:
            lines.append(f"  return %0 : {result}")
            signature = f"({', '.join(args)}) -> {result}"
        else:
            lines.append("  return")
            signature = f"({', '.join(args)})"
        return f"func.func @fuzz{signature} {{\n" + "\n".join(lines) + "\n}\n"


#===------------------------------------------------------------------------===#
# Breaking one rule
#===------------------------------------------------------------------------===#

def static_dims(shape, dyn):
    return [d for d, (s, dy) in enumerate(zip(shape, dyn)) if not dy]


def break_rule(p, rng):
    """Breaks one verifier rule of the valid program `p` in place; returns
    the rule's name, or None when `p` has nothing this rule can break."""
    rules = ["axis_out_of_range", "repeated_axis", "negative_batch_dims", "init_size",
             "init_rank", "init_element", "index_element", "data_element", "byte_size",
             "const_index",
             "mixed_forms", "result_type", "rank_mismatch", "bad_policy"]
    rule = str(rng.choice(rules))
    rank = len(p.data)
    if rule == "axis_out_of_range":
        bad = int(rng.choice([rank, rank + int(rng.integers(1, 5)), -rank - 1, 2**40]))
        if p.op == "multiaxis":
            if not p.attrs["axes"]:
                return None
            p.attrs["axes"][int(rng.integers(0, len(p.attrs["axes"])))] = bad if bad >= 0 or rng.random() < 0.5 else -1
        elif p.op in ("block", "elements"):
            p.attrs["axis"] = bad
        else:
            return None
        return rule
    if rule == "repeated_axis":
        if p.op != "multiaxis" or len(p.attrs["axes"]) < 2:
            return None
        p.attrs["axes"][1] = p.attrs["axes"][0]
        return rule
    if rule == "negative_batch_dims":
        if p.op != "nd":
            return None
        p.attrs["batch_dims"] = -int(rng.integers(1, 4))
        return rule
    if rule == "init_size":
        dims = [d for d in static_dims(p.output, p.out_dyn)
                if not infers_dynamic(p, d)]
        if not dims:
            return None
        d = int(rng.choice(dims))
        p.output = list(p.output)
        p.output[d] = p.output[d] + int(rng.integers(1, 4))
        return rule if byte_size(p.output, p.element) <= LIMIT else None
    if rule == "init_rank":
        p.output = list(p.output) + [1]
        p.out_dyn = list(p.out_dyn) + [False]
        return rule
    if rule == "init_element":
        p.init_element_override = "f32" if p.element != "f32" else "i32"
        return rule
    if rule == "index_element":
        if p.const_indices is not None:
            return None
        p.index_element = str(rng.choice(BAD_INDEX_ELEMENTS))
        return rule
    if rule == "data_element":
        if p.const_data is not None:
            return None
        p.element = str(rng.choice(BAD_DATA_ELEMENTS))
        return rule
    if rule == "byte_size":
        shape = p.data if rng.random() < 0.5 else p.indices
        if not shape:
            return None
        d = int(rng.integers(0, len(shape)))
        element = p.element if shape is p.data else p.index_element
        shape[:] = [max(s, 1) for s in shape]
        # Over 2^63 bytes with every size a valid int64.
        if element_bytes(element) > 1:
            shape[d] = LIMIT // element_bytes(element) + 1 + int(rng.integers(0, 4))
        elif len(shape) > 1:
            shape[d] = 2**62 + int(rng.integers(0, 4))
            shape[(d + 1) % len(shape)] = int(rng.integers(2, 5))
        else:
            return None
        dyn = p.data_dyn if shape is p.data else p.idx_dyn
        dyn[d] = dyn[(d + 1) % len(shape)] = False
        if shape is p.indices and p.op == "nd" and d == len(shape) - 1:
            return None  # the coordinate-size rule fires first
        p.out_dyn = [True] * len(p.output)  # only the byte size is wrong
        if p.const_data is not None or p.const_indices is not None:
            return None
        return rule
    if rule == "const_index":
        if p.const_indices is None or p.oob != "error":
            return None
        p.data_dyn = [False] * len(p.data)  # the addressed size is known
        sizes = addressed_sizes(p.op, p.data, p.indices, p.attrs)
        if not sizes or not p.indices and p.op != "block" or 0 in p.indices:
            return None
        values = p.index_values(rng, in_range=False)
        if not values:
            return None
        position = int(rng.integers(0, len(values)))
        p.const_indices[position] = values[position]
        bits = {"i8": 8, "i16": 16, "i32": 32}.get(p.index_element, 64)
        if not -2 ** (bits - 1) <= values[position] < 2 ** (bits - 1):
            return None  # not representable: the parser would reject it
        return rule
    if rule == "mixed_forms":
        if p.const_indices is not None or p.const_data is not None:
            return None
        p.mixed = True
        return rule
    if rule == "result_type":
        if not p.tensors or not p.generic:
            return None
        other = list(p.output) + [2]
        p.result_type = type_text(other, p.element, True)
        return rule
    if rule == "rank_mismatch":
        if p.op not in ("multiaxis", "elements") or p.const_indices is not None:
            return None
        p.indices = list(p.indices) + [1]
        p.idx_dyn = list(p.idx_dyn) + [False]
        return rule
    if rule == "bad_policy":
        if p.generic:
            return None
        p.oob = str(rng.choice(["clip", "wrap", "zero", "errors"]))
        return rule
    return None


def infers_dynamic(p, d):
    """Whether the verifier's inferred output dim `d` is dynamic (a wrong
    written size there cannot be detected)."""
    data = [DYN if dy else v for v, dy in zip(p.data, p.data_dyn)]
    indices = [DYN if dy else v for v, dy in zip(p.indices, p.idx_dyn)]
    return output_sizes(p.op, data, indices, p.attrs)[d] is DYN


#===------------------------------------------------------------------------===#
# Corpus mutations
#===------------------------------------------------------------------------===#

def load_corpus():
    chunks = []
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
        if "Inputs" in path.split(os.sep) and path.endswith(".transform.mlir"):
            continue
        with open(path) as f:
            text = f.read()
        # Known upstream crashes (tests that assert them with not --crash,
        # and the upstream-*.mlir reproducers whose outcome is undefined)
        # would only be found again.
        if (os.path.basename(path).startswith("upstream-")
                or re.search(r"^// RUN: (not --crash|%not_crash) ", text, re.MULTILINE)):
            continue
        for chunk in text.split("// -----"):
            lines = [ln for ln in chunk.splitlines() if not ln.lstrip().startswith("//")]
            body = "\n".join(lines).strip()
            if body and "transform.with_named_sequence" not in body:
                chunks.append(body + "\n")
    return chunks


INTERESTING_NUMBERS = [0, 1, -1, 2, 3, 7, 64, 2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, -2**63]
TYPES = ["f32", "f16", "i1", "i8", "i32", "i64", "index", "bf16", "complex<f32>", "ui32"]


EVERY_PASS = frozenset(name for name, _, _ in PIPELINES)


def known_upstream_crash(text):
    """The passes (PIPELINES names) in which a mutation hits a crash of
    Debian's MLIR 22 itself, not of gather (each reproduces with mlir-opt);
    empty when none:
      * `array<index: ...>`: the builtin attribute parser crashes on a dense
        array of `index` (even on an unregistered op);
      * `tensor.concat dim(-N)`: its verifier indexes the shape with the
        negative dim while the parsed module is verified, before any pass
        (test/Fuzz/upstream-concat-negative-dim-crash.mlir);
      * memref.dim of a constant negative dimension (undefined behaviour)
        with the GPU dialect loaded: its canonicalization pattern crashes
        (llvm/llvm-project#205073; test/Fuzz/upstream-negative-dim-crash.mlir).
        Only the canonicalization step is skipped (corpus files with gpu ops
        load the dialect): the pipelines reject such dims first
        (gather-check-input), which the fuzzer checks;
      * an affine map that divides by a constant below 1 (`ceildiv 0`,
        `floordiv -2`, `mod 0`): applied to a constant it folds to poison,
        and an scf.forall canonicalization reading that bound as an integer
        segfaults or not, by the heap's contents
        (test/Fuzz/upstream-forall-zero-divisor-crash.mlir). Only the
        canonicalization step is skipped: the pipelines reject such maps first
        (gather-check-input), which the fuzzer checks.
      * a reshape whose reassociation holds an index of 2^32 or more or
        a negative one, which MLIR 22's verifier reads as a 32-bit position:
        one-shot-bufferize segfaults making the memref form of such a
        tensor.collapse_shape
        (test/Fuzz/upstream-bufferize-reassociation-crash.mlir). Only
        plain `--one-shot-bufferize` is skipped: the pipelines reject such
        reshapes first (gather-check-input), which the fuzzer checks.
    (expand-strided-metadata's crash on an expand_shape with two dynamic
    sizes in a group is not skipped: the pipelines lower such reshapes
    first, gather-expand-shapes-to-reinterpret-casts.)"""
    if "array<index" in text or re.search(r"tensor\.concat dim\(-", text):
        return EVERY_PASS
    negative = set(re.findall(r"(%[\w.-]+) = arith.constant -\d+ : index", text))
    skip = set()
    if any(m in negative for m in re.findall(r"(?:tensor|memref)\.dim %[\w.-]+, (%[\w.-]+)", text)):
        skip.add("canonicalize")
    if re.search(r"\b(?:ceildiv|floordiv|mod) (?:0|-\d+)\b", text):
        skip.add("canonicalize")
    for line in text.splitlines():
        if "_shape" in line and any(not 0 <= int(n) < 2**32
                                    for group in re.findall(r"\[\[[-\d,\s\[\]]*\]\]", line)
                                    for n in re.findall(r"-?\d+", group)):
            skip.add("bufferize")
    return frozenset(skip)


def mutate(text, rng):
    for _ in range(int(rng.integers(1, 4))):
        choice = rng.random()
        if choice < 0.35:
            numbers = list(re.finditer(r"(?<![%#@\w])-?\d+(?![\w.])", text))
            if numbers:
                m = numbers[int(rng.integers(0, len(numbers)))]
                new = rng.choice(INTERESTING_NUMBERS) if rng.random() < 0.6 else int(m.group(0)) + int(rng.integers(-2, 3))
                text = text[:m.start()] + str(new) + text[m.end():]
        elif choice < 0.5:
            types = list(re.finditer(r"\b(f16|f32|f64|bf16|i1|i8|i16|i32|i64|index)\b", text))
            if types:
                m = types[int(rng.integers(0, len(types)))]
                text = text[:m.start()] + str(rng.choice(TYPES)) + text[m.end():]
        elif choice < 0.6:
            dims = list(re.finditer(r"(?<=[<x])(\d+|\?)(?=x)", text))
            if dims:
                m = dims[int(rng.integers(0, len(dims)))]
                new = "?" if m.group(0) != "?" else str(int(rng.integers(0, 5)))
                text = text[:m.start()] + new + text[m.end():]
        elif choice < 0.7:
            policies = list(re.finditer(r"\b(error|clamp|fill|unchecked|wrap|out_of_bounds)\b", text))
            if policies:
                m = policies[int(rng.integers(0, len(policies)))]
                text = text[:m.start()] + str(rng.choice(["error", "clamp", "fill", "unchecked",
                                                          "wrap", "out_of_bounds"])) + text[m.end():]
        elif choice < 0.8:
            lines = text.splitlines()
            if len(lines) > 2:
                i = int(rng.integers(0, len(lines)))
                if rng.random() < 0.5:
                    del lines[i]
                else:
                    lines.insert(i, lines[int(rng.integers(0, len(lines)))])
                text = "\n".join(lines) + "\n"
        elif choice < 0.9:
            tokens = list(re.finditer(r"axes = \[[^\]]*\]|axis = -?\d+|batch_dims = -?\d+", text))
            if tokens:
                m = tokens[int(rng.integers(0, len(tokens)))]
                key = m.group(0).split("=")[0].strip()
                if key == "axes":
                    new = "axes = [" + ", ".join(str(int(v)) for v in rng.integers(-2, 6, size=int(rng.integers(0, 4)))) + "]"
                else:
                    new = f"{key} = {int(rng.integers(-4, 7))}"
                text = text[:m.start()] + new + text[m.end():]
        else:
            if len(text) > 10:
                i = int(rng.integers(0, len(text)))
                j = min(len(text), i + int(rng.integers(1, 8)))
                text = text[:i] + text[j:]
    return text


#===------------------------------------------------------------------------===#
# Running
#===------------------------------------------------------------------------===#

SEPARATOR = "// -----"
CRASH_MARKERS = ("Stack dump", "PLEASE submit", "LLVM ERROR", "Assertion", "AddressSanitizer",
                 "runtime error:", "UndefinedBehaviorSanitizer", "Segmentation fault")


def crashed(returncode, stderr):
    return returncode not in (0, 1) or any(m in stderr for m in CRASH_MARKERS)


class Runner:
    def __init__(self, args, work):
        self.opt = os.path.join(args.bin, "gather-opt")
        self.timeout = args.timeout
        self.work = work
        self.failures_dir = args.failures
        self.failures = []
        self.variant_stride = max(1, args.variant_stride)
        self.calls = 0
        self.transform_script = os.path.join(work, "tile.transform.mlir")
        with open(self.transform_script, "w") as f:
            f.write(TRANSFORM_TILE)

    def arguments(self, name, extra):
        if name.startswith("transform-tile"):
            return [f"--transform-preload-library=transform-library-paths={self.transform_script}"] + extra
        return extra

    def run(self, texts, extra, name):
        """gather-opt over `texts` as split chunks. Returns (status,
        outputs, stderr): status "ok", "crash" or "hang"; outputs one text
        per chunk ("" where the chunk failed)."""
        path = os.path.join(self.work, f"in{self.calls}.mlir")
        self.calls += 1
        with open(path, "w") as f:
            f.write(f"\n{SEPARATOR}\n".join(texts))
        command = [self.opt, path, "--split-input-file"] + self.arguments(name, extra)
        try:
            r = subprocess.run(command, capture_output=True, text=True,
                               timeout=self.timeout * max(1, len(texts) // 8))
        except subprocess.TimeoutExpired:
            return "hang", None, ""
        if crashed(r.returncode, r.stderr):
            return "crash", None, r.stderr
        outputs = r.stdout.split(SEPARATOR)
        if len(outputs) != len(texts):
            return "crash", None, f"{len(outputs)} output chunks for {len(texts)} inputs\n{r.stderr}"
        return "ok", [o.strip() for o in outputs], r.stderr

    @staticmethod
    def errors_by_chunk(texts, stderr):
        """Diagnostic texts per chunk, by the line numbers of the split file
        (chunks are joined with a separator line)."""
        starts, line = [], 1
        for t in texts:
            starts.append(line)
            line += t.count("\n") + 2
        per_chunk = [[] for _ in texts]
        for m in re.finditer(r"^\S+?\.mlir:(\d+):\d+: error: (.*)$", stderr, re.M):
            n = int(m.group(1))
            per_chunk[max(j for j, s in enumerate(starts) if s <= n) if n >= 1 else 0].append(m.group(2))
        return per_chunk

    def fail(self, kind, inp, name, detail):
        index = len(self.failures)
        saved = ""
        if self.failures_dir:
            os.makedirs(self.failures_dir, exist_ok=True)
            saved = os.path.join(self.failures_dir, f"failure{index}.mlir")
            with open(saved, "w") as f:
                f.write(f"// {kind} in {name} ({inp.origin}, expect {inp.expect})\n")
                f.write("".join(f"// {line}\n" for line in detail.strip().splitlines()[:30]))
                f.write(inp.text)
        self.failures.append((kind, name, inp.origin))
        first = detail.strip().splitlines()[:3]
        print(f"FAIL {kind} in {name} ({inp.origin}): {' | '.join(first)}"
              + (f" [{saved}]" if saved else ""), flush=True)

    def run_isolating(self, inputs, extra, name):
        """Runs the batch; when it crashes or hangs, reports the inputs that
        do so on their own (by bisection) and runs the rest. Returns
        (inputs that ran, their outputs, stderr)."""
        if not inputs:
            return [], [], ""
        texts = [i.text for i in inputs]
        status, outputs, stderr = self.run(texts, extra, name)
        if status == "ok":
            return inputs, outputs, stderr
        bad = self.bisect(inputs, extra, name, status, stderr)
        rest = [i for i in inputs if i not in bad]
        if not rest:
            return [], [], ""
        status, outputs, stderr = self.run([i.text for i in rest], extra, name)
        if status != "ok":  # only together: report the whole batch
            for i in rest:
                self.fail(status, i, name, "in a batch only\n" + stderr[-3000:])
            return [], [], ""
        return rest, outputs, stderr

    def bisect(self, inputs, extra, name, status, stderr):
        if len(inputs) == 1:
            self.fail(status, inputs[0], name, stderr[-3000:] or status)
            return inputs
        bad, half = [], len(inputs) // 2
        for part in (inputs[:half], inputs[half:]):
            s, _, e = self.run([i.text for i in part], extra, name)
            if s != "ok":
                bad += self.bisect(part, extra, name, s, e)
        return bad

    def check_batch(self, inputs):
        """Every pass over every input; then every output parsed again."""
        # The verifier's verdict, from a plain parse.
        inputs, outputs, stderr = self.run_isolating(inputs, [], "parse")
        errors = self.errors_by_chunk([i.text for i in inputs], stderr)
        accepted = []
        for inp, out, errs in zip(inputs, outputs, errors):
            if inp.expect == "valid" and not out:
                self.fail("rejected-valid", inp, "parse", "\n".join(errs) or "no output")
            elif inp.expect == "invalid" and out:
                self.fail("accepted-invalid", inp, "parse", "verified without an error")
            elif inp.expect == "invalid" and not any(f"gather.{inp.op}" in e for e in errs):
                self.fail("unnamed-op", inp, "parse", "\n".join(errs) or "no diagnostic")
            if out:
                accepted.append(inp)
        for name, extra, must_pass in PIPELINES[1:]:
            batch = [i for i in accepted if name not in i.skip
                     and (not name.startswith("transform-tile") or i.tileable)]
            if name == "cpu-pipeline-fused":
                # Fusion rewrites only linalg ops and the gathers they read:
                # on an input without one this is cpu-pipeline again.
                batch = [i for i in batch if "linalg." in i.text]
            if name in TARGET_VARIANTS and self.variant_stride > 1:
                turn = TARGET_VARIANTS.index(name) % self.variant_stride
                batch = [i for k, i in enumerate(batch) if k % self.variant_stride == turn]
            if batch:
                produced = self.check_pipeline(batch, name, extra, must_pass)
                # Every output must parse and verify again. (One call per
                # pass: gather-opt's --split-input-file costs the chunk
                # count times the file size.)
                ran, again, stderr = self.run_isolating(produced, [], name + " output")
                errors = self.errors_by_chunk([i.text for i in ran], stderr)
                for inp, out, errs in zip(ran, again, errors):
                    if not out:
                        self.fail("bad-output", inp, name + " output",
                                  "\n".join(errs) or stderr[-2000:])

    def check_pipeline(self, inputs, name, extra, must_pass):
        """Runs one pass or pipeline; returns its outputs as inputs to parse
        again."""
        inputs, outputs, stderr = self.run_isolating(inputs, extra, name)
        errors = self.errors_by_chunk([i.text for i in inputs], stderr)
        produced = []
        for inp, out, errs in zip(inputs, outputs, errors):
            if out:
                produced.append(Input(out, "valid", f"{inp.origin} after {name}", inp.op))
            elif inp.expect == "valid" and (must_pass is True or must_pass == "tensors" and inp.tensors):
                self.fail("pass-failed", inp, name, "\n".join(errs) or stderr[-2000:])
        return produced


def make_inputs(rng, count, corpus):
    inputs = []
    while len(inputs) < count:
        r = rng.random()
        if r < 0.45:
            p = Program(rng)
            if p.tensors and p.element in CONSUMERS and rng.random() < 0.25:
                p.consumer = CONSUMERS[p.element]
            inputs.append(Input(p.render(), "valid", f"valid {p.op}"
                                + (" with a consumer" if p.consumer else ""), p.op, p.tensors,
                                tileable=len(p.output) > 0))
        elif r < 0.8:
            p = Program(rng)
            rule = break_rule(p, rng)
            if rule is None:
                continue
            text = p.render()
            inputs.append(Input(text, "invalid", f"invalid {p.op} {rule}", p.op, p.tensors))
        else:
            base = corpus[int(rng.integers(0, len(corpus)))]
            text = mutate(base, rng)
            skip = known_upstream_crash(text)
            if skip == EVERY_PASS:
                continue
            inputs.append(Input(text, "any", "corpus mutation", skip=skip))
    return inputs


#===------------------------------------------------------------------------===#
# Other CPUs' plans, executed here
#===------------------------------------------------------------------------===#

# Each entry of the CPU target description (lib/Target/CpuTarget.cpp,
# applyDltiCpuSpec) with values to draw from: the machines' own, the
# extremes its bounds allow where they still compile quickly, and odd ones
# (a vector width of 3 lanes of 64 bits, caches smaller than a tile). Small
# caches and thresholds put the tiny executed programs on the paths that
# only large inputs take with this host's description.
TARGET_ENTRIES = {
    "max_vector_op_width": (64, 128, 192, 256, 512, 1024),
    "vector_unit_width": (64, 128, 256, 512),
    "cache_line_size_in_bytes": (8, 32, 64, 128, 256),
    "page_size_in_bytes": (256, 4096, 2 << 20),
    "L1_cache_size_in_bytes": (1024, 4096, 32 << 10, 48 << 10),
    "L2_cache_size_in_bytes": (1024, 8192, 512 << 10, 2 << 20),
    "L3_cache_size_in_bytes": (1024, 16384, 32 << 20, 512 << 20),
    "cores": (1, 2, 3, 16, 64),
    "prefetch_lines_ahead": (1, 3, 128, 4096),
    "parallel_min_bytes": (0, 64, 160 << 10, 1 << 30),
    "tile_blocks": (1, 2, 3, 4, 8, 64),
    "prefetch_block_lines": (1, 2, 16, 4096),
    "offset_tile_bytes": (1, 64, 4096, 96 << 10),
    "offset_chunk_bytes": (8, 24, 256, 4096),
    "streamed_vector_copy_bytes": (1, 64, 8192, 1 << 20),
    "long_offset_tiles": (0, 1),
    "tile_max_block_lines": (1, 2, 4, 64),
    "prefetch_offset_tables": (0, 1, 2),
    "mesh_l3": (0, 1),
    "gather_offset_rows": (0, 1),
    "collect_offset_rows": (0, 1),
    "prefetch_index_streams": (0, 1, 2),
    "nontemporal_stores": (0, 1),
}

# The CPU flags (/proc/cpuinfo) an x86-64 microarchitecture level needs:
# code compiled for a level runs here only where the host has them all.
X86_LEVELS = (
    ("x86-64", ()),
    ("x86-64-v2", ("cx16", "popcnt", "sse4_1", "sse4_2", "ssse3")),
    ("x86-64-v3", ("avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe")),
    ("x86-64-v4", ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")),
)


def host_target_cpus():
    """The target CPUs whose code runs on this host: "native" and, on
    x86-64, each microarchitecture level whose flags the host has."""
    cpus = ["native"]
    if os.uname().machine != "x86_64":
        return cpus
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(next(line for line in f if line.startswith("flags")).split(":")[1].split())
    except (OSError, StopIteration):
        return cpus
    need = set()
    for name, level in X86_LEVELS:
        need |= set(level)
        if need <= flags:
            cpus.append(name)
    return cpus


def random_target(rng, cpus):
    """(target CPU, {entry: value}): a CPU of `cpus` and each entry of the
    target description replaced with probability 0.4."""
    entries = {key: int(rng.choice(values)) for key, values in TARGET_ENTRIES.items()
               if rng.random() < 0.4}
    return str(rng.choice(cpus)), entries


def target_text(cpu, entries):
    """The target as difftest's options: how a failure is reproduced."""
    return " ".join([f"--target-cpu {cpu}"] + [f"--cpu-entry {k}={v}" for k, v in entries.items()])


def make_batch(rng, op, cases, large_dims, large_cases):
    """The executed batch: `cases` random programs of `op` (a `large_cases`
    share from the large size class), a quarter returning the gather
    through an elementwise consumer, which the JIT fuses into its tiles."""
    return [difftest.make_case(op, rng, large_dims,
                               "large" if rng.random() < large_cases else "tiny",
                               consumers=0.25)
            for _ in range(cases)]


def execute(rng, cases, tools, work, process_cases, large_dims, large_cases=0.0,
            other_targets=0.0, cpus=("native",), failures_dir=""):
    """Random valid programs run and compared with numpy (a `large_cases`
    share of the batch from difftest's large size class: rows up to 1024,
    up to about a million elements). With probability `other_targets` the
    batch is planned for another CPU's description (random_target over
    `cpus`): every plan a description can give must compute the same
    result. The batch runs in this process, where code that corrupts
    memory can end it without a word: while it runs, `failures_dir` holds
    inflight.json, what --replay needs to run the batch again case by case,
    each in its own process. Returns (executed, failure messages)."""
    problems, executed = [], 0
    op = str(rng.choice(OPS))
    cpu, entries = random_target(rng, cpus) if rng.random() < other_targets else ("native", {})
    where = f" [{target_text(cpu, entries)}]" if cpu != "native" or entries else ""
    inflight = os.path.join(failures_dir, "inflight.json") if failures_dir else ""
    if inflight:
        os.makedirs(failures_dir, exist_ok=True)
        with open(inflight, "w") as f:
            json.dump(dict(state=rng.bit_generator.state, op=op, cases=cases,
                           large_dims=large_dims, large_cases=large_cases, cpu=cpu,
                           entries=entries), f)
    batch = make_batch(rng, op, cases, large_dims, large_cases)
    # Every pass's output verified: a pass that breaks the IR is a finding
    # even where the code it ends in runs right.
    result = difftest.run_batch(batch, 0, tools, work, "cpu", 0, into=True, verify_each=True,
                                target_cpu=cpu, cpu_entries=entries)
    if result is None:
        result = {i: difftest.run_case(c, tools, work, i, verify_each=True, target_cpu=cpu,
                                       cpu_entries=entries)
                  for i, c in enumerate(batch)}
    executed += len(batch)
    problems += [f"execute {op} case{where}: {batch[i].describe()}: {p}"
                 for i, p in result.items() if p]
    if inflight:
        os.remove(inflight)
    for i in range(process_cases):
        case = difftest.make_case(op, rng, large_dims, consumers=0.25)
        p = difftest.run_case(case, tools, work, 10**6 + i, verify_each=True)
        executed += 1
        if p:
            problems.append(f"execute {op} process case: {case.describe()}: {p}")
    return executed, problems


def replay(path, tools, timeout):
    """Runs the batch `path` (an inflight.json that execute left behind)
    case by case, each in gather-run processes (a run over `timeout`
    seconds fails); prints each failing case.
    Returns the number of failures."""
    with open(path) as f:
        spec = json.load(f)
    rng = np.random.default_rng()
    rng.bit_generator.state = spec["state"]
    batch = make_batch(rng, spec["op"], spec["cases"], spec["large_dims"], spec["large_cases"])
    where = target_text(spec["cpu"], spec["entries"])
    work = tempfile.mkdtemp(prefix="gather-replay-")
    failed = 0
    for i, case in enumerate(batch):
        p = difftest.run_case(case, tools, work, i, target_cpu=spec["cpu"],
                              cpu_entries=spec["entries"], timeout=timeout)
        if p:
            failed += 1
            print(f"FAIL replay case {i} [{where}]: {case.describe()}: {p}\n  files: {work}/c{i}.*",
                  flush=True)
    print(f"replay: {len(batch)} cases, {failed} failures")
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inputs", type=int, default=1000, help="structured inputs to run")
    parser.add_argument("--minutes", type=float, default=0,
                        help="run rounds until this much time has passed (then --inputs is ignored)")
    parser.add_argument("--batch", type=int, default=500,
                        help="inputs per gather-opt call (a call costs ~0.1 s to start)")
    parser.add_argument("--execute", type=int, default=40,
                        help="programs executed per round through the C API")
    parser.add_argument("--execute-processes", type=int, default=2,
                        help="programs executed per round in gather-run processes")
    parser.add_argument("--large-dims", type=float, default=0.15,
                        help="probability of a dimension of 16-40 in an executed program "
                             "(the vector forms of the lowering need long rows)")
    parser.add_argument("--large-cases", type=float, default=0.1,
                        help="share of the executed programs from the large size class "
                             "(difftest --sizes large: the block copies, tiles, offset tables)")
    parser.add_argument("--other-targets", type=float, default=0.5,
                        help="share of the executed batches planned for another CPU's target "
                             "description (a CPU whose code runs here, random entries: cache "
                             "sizes, cores, vector widths, thresholds, the plans' switches)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per input before a hang")
    parser.add_argument("--variant-stride", type=int, default=1,
                        help="each input through every Nth of the other targets' plans "
                             f"({', '.join(TARGET_VARIANTS)}), in turn; 1: through all")
    parser.add_argument("--failures", default="", help="directory for failing inputs")
    parser.add_argument("--replay", default="",
                        help="an inflight.json left in the failures directory by a run that "
                             "ended while executing: its batch case by case, in processes")
    args = parser.parse_args(argv)
    if args.replay:
        tools = {t: os.path.join(args.bin, t) for t in ("gather-opt", "gather-run")}
        return 1 if replay(args.replay, tools, args.timeout) else 0

    rng = np.random.default_rng(args.seed)
    corpus = load_corpus()
    work = tempfile.mkdtemp(prefix="gather-fuzz-")
    runner = Runner(args, work)
    tools = {t: os.path.join(args.bin, t) for t in ("gather-opt", "gather-run")}
    cpus = host_target_cpus()
    deadline = time.monotonic() + args.minutes * 60
    done = executed = 0
    exec_failures = []
    counts = {"valid": 0, "invalid": 0, "any": 0}
    while (time.monotonic() < deadline) if args.minutes else (done < args.inputs):
        n = args.batch if args.minutes else min(args.batch, args.inputs - done)
        inputs = make_inputs(rng, n, corpus)
        runner.check_batch(inputs)
        for i in inputs:
            counts[i.expect] += 1
        done += len(inputs)
        if args.execute:
            e, problems = execute(rng, args.execute, tools, work, args.execute_processes,
                                  args.large_dims, args.large_cases, args.other_targets, cpus,
                                  args.failures)
            executed += e
            for p in problems:
                print(f"FAIL {p}", flush=True)
            exec_failures += problems
        # Keep the work directory small on long runs.
        for name in os.listdir(work):
            if name != os.path.basename(runner.transform_script):
                os.remove(os.path.join(work, name))
    shutil.rmtree(work, ignore_errors=True)
    failures = len(runner.failures) + len(exec_failures)
    print(f"fuzz: {done} inputs ({counts['valid']} valid, {counts['invalid']} invalid, "
          f"{counts['any']} corpus mutations) through {len(PIPELINES)} passes and pipelines, "
          f"{executed} executed, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
