# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential testing of the compiled gathers against the numpy reference.

Generates random cases for one op (ranks 1-6, axes in any order, broadcast
dimensions, batch_dims, negative indices, i32/i64 indices, several element
types, dynamic dimensions, empty dimensions, every index policy with
out-of-range indices where the policy defines them), runs each through
the compiled code both as written and after `gather-opt --canonicalize`
(the multiaxis form), and compares bit for bit with gather.reference.
Cases run in batches: one module of `--batch` functions, canonicalized by
one gather-opt call and compiled once through the C API, each function
called in this process (`--canonical-cases N`: only the batches that start
before case N run after --canonicalize too); `--batch 0` runs every case in its own gather-run
process (the error exit status and message of the tool included).

    /usr/bin/python3 -m gather_testing.difftest --op block --cases 300 --seed 1 \\
        --bin build/bin

Prints "N passed, M failed" and exits with 1 on any failure.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from gather import reference as ref
from gather.mlir_text import gather_op_text, generic_text, identity_map
from gather.mlir_text import output_shape as mlir_output_shape
from gather.mlir_text import tensor_type as mlir_tensor_type
from gather.mlir_text import parse_cpu_entries, with_cpu_entries

ELEMENT_TYPES = {
    "f32": np.float32, "f64": np.float64, "f16": np.float16,
    "i8": np.int8, "i32": np.int32, "i64": np.int64, "i1": np.bool_,
}
INDEX_TYPES = {"i32": np.int32, "i64": np.int64}
POLICIES = ["error", "clamp", "fill", "unchecked"]

# Elementwise consumers of the gather's result (a linalg.generic the CPU
# pipeline fuses into the gather's loops and the GPU one into its kernel),
# each exact in numpy: by kind and element type, (payload lines from %x (and
# %b, a second operand) to %y, result element type, the numpy function of
# the result and the second operand). `double` adds the value to itself
# (integers wrap; i1 negates), `convert` widens or narrows, `compare` tests
# x > 0, `bias` adds a vector along the last dimension (a further argument,
# read through slices of its own in the fused tiles).
_FLOAT_WIDER = {"f16": "f32", "f32": "f64", "f64": "f32"}
_INT_OTHER = {"i8": "i32", "i32": "i64", "i64": "i32", "i1": "i8"}


def consumer(kind, ety):
    """(payload lines, result element type, numpy function) of a consumer
    of `kind` on `ety` values."""
    floating = ety.startswith("f")
    if kind == "double" and ety == "i1":
        return (["%t = arith.constant true", "%y = arith.xori %x, %t : i1"], "i1",
                lambda a, b: np.logical_not(a))
    if kind == "double":
        op = "arith.addf" if floating else "arith.addi"
        return [f"%y = {op} %x, %x : {ety}"], ety, lambda a, b: a + a
    if kind == "bias" and ety != "i1":
        op = "arith.addf" if floating else "arith.addi"
        return [f"%y = {op} %x, %b : {ety}"], ety, lambda a, b: a + b
    if kind == "convert" and floating:
        to = _FLOAT_WIDER[ety]
        op = "arith.extf" if int(to[1:]) > int(ety[1:]) else "arith.truncf"
        return ([f"%y = {op} %x : {ety} to {to}"], to,
                lambda a, b: a.astype(ELEMENT_TYPES[to]))
    if kind == "convert":
        to = _INT_OTHER[ety]
        op = ("arith.extui" if ety == "i1" else
              "arith.extsi" if int(to[1:]) > int(ety[1:]) else "arith.trunci")
        return ([f"%y = {op} %x : {ety} to {to}"], to,
                lambda a, b: a.astype(ELEMENT_TYPES[to]))
    if kind == "compare" and ety != "i1":
        zero = "0.0" if floating else "0"
        test = "arith.cmpf ogt" if floating else "arith.cmpi sgt"
        return ([f"%z = arith.constant {zero} : {ety}", f"%y = {test}, %x, %z : {ety}"], "i1",
                lambda a, b: a > 0)
    raise ValueError(f"no {kind} consumer of {ety}")


# Reduction consumers: a linalg.reduce of one dimension of the result (sum,
# max), which gather-fuse-consumers fuses into its steps where a parallel
# dimension is left; the reference reduces in order along that dimension
# (the fused and the unfused code add each output element's values in
# that order: exact for floats too).
REDUCTIONS = ("sum", "max")


def reduction_payload(kind, ety):
    """(payload line from %x and %acc to %y, the identity's MLIR literal)."""
    floating = ety.startswith("f")
    if kind == "sum":
        return (f"%y = {'arith.addf' if floating else 'arith.addi'} %x, %acc : {ety}",
                "0.0" if floating else "0")
    if floating:
        negative_infinity = {"f16": "0xFC00", "f32": "0xFF800000",
                             "f64": "0xFFF0000000000000"}[ety]
        return f"%y = arith.maximumf %x, %acc : {ety}", negative_infinity
    return f"%y = arith.maxsi %x, %acc : {ety}", str(np.iinfo(ELEMENT_TYPES[ety]).min)


def reduce_in_order(values, dim, kind):
    """`values` reduced along `dim` one index after the other."""
    if kind == "sum":
        acc = np.zeros(values.shape[:dim] + values.shape[dim + 1:], values.dtype)
    elif values.dtype.kind == "f":
        acc = np.full(values.shape[:dim] + values.shape[dim + 1:], -np.inf, values.dtype)
    else:
        acc = np.full(values.shape[:dim] + values.shape[dim + 1:],
                      np.iinfo(values.dtype).min, values.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(values.shape[dim]):
            x = np.take(values, k, axis=dim)
            acc = np.asarray(acc + x if kind == "sum" else np.maximum(acc, x), values.dtype)
    return acc


def consumer_kinds(ety, rank):
    """The kinds of consumer of a result of `ety` and `rank`: a bias needs a
    dimension to run along, a reduction one to reduce."""
    return (["double", "convert"] + ([] if ety == "i1" else ["compare"]) +
            (["bias"] if ety != "i1" and rank else []) +
            (list(REDUCTIONS) if ety != "i1" and rank else []))


def tensor_type(shape, ety, dynamic):
    """`shape` with the dimensions flagged in `dynamic` written `?`."""
    return mlir_tensor_type([None if dyn else d for d, dyn in zip(shape, dynamic)], ety)


class Case:
    def __init__(self, op, data, indices, attrs, ety, ity, negative, oob, rng):
        self.op, self.data, self.indices, self.attrs = op, data, indices, attrs
        self.ety, self.ity, self.negative, self.oob = ety, ity, negative, oob
        self.consumer = None  # a kind of consumer() applied to the result, if any
        self.bias = None  # the consumer's second operand (kind `bias`)
        self.reduce_dim = None  # the dimension a reduction consumer reduces
        self.data_dyn = [bool(rng.random() < 0.3) for _ in data.shape]
        self.idx_dyn = [bool(rng.random() < 0.3) for _ in indices.shape]
        if op == "nd" and indices.ndim:
            self.idx_dyn[-1] = False  # the coordinate size must be static

    def expected(self):
        kw = dict(negative=self.negative, out_of_bounds=self.oob)
        if self.op == "multiaxis":
            result = ref.multiaxis(self.data, self.indices, self.attrs["axes"], **kw)
        elif self.op == "block":
            result = ref.block(self.data, self.indices, self.attrs["axis"], **kw)
        elif self.op == "elements":
            result = ref.elements(self.data, self.indices, self.attrs["axis"], **kw)
        else:
            result = ref.nd(self.data, self.indices, self.attrs["batch_dims"], **kw)
        if self.consumer in REDUCTIONS:
            return reduce_in_order(np.asarray(result), self.reduce_dim, self.consumer)
        if self.consumer:
            result = np.asarray(consumer(self.consumer, self.ety)[2](result, self.bias))
        return result

    def arguments(self):
        """The arrays the function takes."""
        return [self.data, self.indices] + ([self.bias] if self.bias is not None else [])

    def result_dtype(self):
        """The numpy type of the function's result."""
        if self.consumer and self.consumer not in REDUCTIONS:
            return ELEMENT_TYPES[consumer(self.consumer, self.ety)[1]]
        return self.data.dtype

    def mlir(self, out_shape, attributes=""):
        """@main with the case's gather; `attributes`: text of its attribute
        dictionary (`{llvm.emit_c_interface}`), if any. `out_shape`: the
        result's (every size is dynamic: only the rank counts)."""
        result_shape = tuple(out_shape)
        if self.consumer in REDUCTIONS:
            d = self.reduce_dim
            out_shape = result_shape[:d] + (1,) + result_shape[d:]
        dt = tensor_type(self.data.shape, self.ety, self.data_dyn)
        it = tensor_type(self.indices.shape, self.ity, self.idx_dyn)
        ot = tensor_type(out_shape, self.ety, [True] * len(out_shape))
        if self.op == "multiaxis":
            attr = "axes = [" + ", ".join(map(str, self.attrs["axes"])) + "]"
        elif self.op == "nd":
            attr = f"batch_dims = {self.attrs['batch_dims']}"
        else:
            attr = f"axis = {self.attrs['axis']}"
        policy = ""
        if self.negative != "wrap":
            policy += f" negative_indices = {self.negative}"
        if self.oob != "error":
            policy += f" out_of_bounds = {self.oob}"
        body = gather_op_text(self.op, "%0", "%data", "%indices", dt, it, ot, attrs=attr + policy,
                              axis=self.attrs.get("axis", 0), axes=self.attrs.get("axes", ()),
                              batch_dims=self.attrs.get("batch_dims", 0))
        attrs_text = f" attributes {attributes}" if attributes else ""
        result, rt, args = "%0", ot, f"%data: {dt}, %indices: {it}"
        if self.consumer in REDUCTIONS:
            rt = tensor_type(result_shape, self.ety, [True] * len(result_shape))
            body += "\n" + self.reduction_text(len(out_shape), ot, rt)
            result = "%1"
        elif self.consumer:
            body += "\n" + self.consumer_text(out_shape, ot)
            result = "%1"
            rt = tensor_type(out_shape, consumer(self.consumer, self.ety)[1],
                             [True] * len(out_shape))
        if self.bias is not None:
            args += f", %bias: {self.bias_type()}"
        return (f"func.func @main({args}) -> {rt}{attrs_text} {{\n"
                f"{body}\n  return {result} : {rt}\n}}\n")

    def reduction_text(self, rank, ot, rt):
        """%1 = the linalg.reduce of %0 (of type `ot`, `rank` dimensions)
        along reduce_dim into a linalg.fill of the identity (of type `rt`)."""
        d = self.reduce_dim
        line, identity = reduction_payload(self.consumer, self.ety)
        text = []
        for k in range(rank):
            if k != d:
                text += [f"  %cd{k} = arith.constant {k} : index",
                         f"  %sz{k} = tensor.dim %0, %cd{k} : {ot}"]
        sizes = ", ".join(f"%sz{k}" for k in range(rank) if k != d)
        text += [f"  %e1 = tensor.empty({sizes}) : {rt}",
                 f"  %id = arith.constant {identity} : {self.ety}",
                 f"  %f1 = linalg.fill ins(%id : {self.ety}) outs(%e1 : {rt}) -> {rt}",
                 f"  %1 = linalg.reduce ins(%0 : {ot}) outs(%f1 : {rt}) dimensions = [{d}]",
                 f"    (%x: {self.ety}, %acc: {self.ety}) {{",
                 f"      {line}",
                 f"      linalg.yield %y : {self.ety}",
                 "    }"]
        return "\n".join(text)

    def bias_type(self):
        # Dynamic where the indices' last size is (a choice that draws no
        # random number).
        return tensor_type(self.bias.shape, self.ety, [self.idx_dyn[-1] if self.idx_dyn
                                                       else False])

    def consumer_text(self, out_shape, ot):
        """%1 = the consumer's linalg.generic over %0 (of type `ot`, every
        size dynamic), into a tensor.empty of %0's sizes."""
        lines, to, _ = consumer(self.consumer, self.ety)
        rank = len(out_shape)
        rt = tensor_type(out_shape, to, [True] * rank)
        text = []
        for d in range(rank):
            text += [f"  %cd{d} = arith.constant {d} : index",
                     f"  %sz{d} = tensor.dim %0, %cd{d} : {ot}"]
        sizes = ", ".join(f"%sz{d}" for d in range(rank))
        dims = ", ".join(f"d{d}" for d in range(rank))
        maps, ins, types, block = [identity_map(rank)], ["%0"], [ot], [f"%x: {self.ety}"]
        if self.bias is not None:
            maps.append(f"affine_map<({dims}) -> (d{rank - 1})>")
            ins.append("%bias")
            types.append(self.bias_type())
            block.append(f"%b: {self.ety}")
        text.append(f"  %e1 = tensor.empty({sizes}) : {rt}")
        text += generic_text("%1", ins, types, "%e1", rt, block + [f"%o: {to}"], lines, maps)
        return "\n".join(text)

    def describe(self):
        return (f"gather.{self.op} {self.attrs} data {self.data.shape} {self.ety} "
                f"indices {self.indices.shape} {self.ity} policy {self.negative}/{self.oob} "
                f"dynamic {self.data_dyn}/{self.idx_dyn}"
                + (f" consumer {self.consumer}" if self.consumer else "")
                + (f" of dimension {self.reduce_dim}" if self.reduce_dim is not None else ""))


def random_values(rng, shape, ety):
    if ety == "i1":
        return rng.random(shape) < 0.5
    if ety.startswith("f"):
        return (rng.standard_normal(shape) * 100).astype(ELEMENT_TYPES[ety])
    info = np.iinfo(ELEMENT_TYPES[ety])
    return rng.integers(info.min, info.max, size=shape, dtype=ELEMENT_TYPES[ety], endpoint=True)


# The `large` size class: each dimension log-uniform in 1..ROW_LIMIT, the
# product of a case's dimensions at most SIZE_BUDGET (so every array, the
# output included, has at most about a million elements).
ROW_LIMIT = 1024
SIZE_BUDGET = 1 << 20


def large_dim_source(rng):
    """A dim() for make_case's `large` size class: sizes log-uniform in
    1..1024 within what is left of the case's element budget, so that rows
    of a cache line and more, tiles of many blocks, reused index tuples and
    outputs of up to about a million elements all come up; now and then 0."""
    left = [SIZE_BUDGET]

    def dim():
        if rng.random() < 0.01:
            return 0
        high = max(1, min(ROW_LIMIT, left[0]))
        size = int(np.exp(rng.uniform(0, np.log(high + 1))))
        size = max(1, min(size, high))
        left[0] //= size
        return size
    return dim


def random_dim(rng, allow_empty=True, large=0.0):
    """Mostly 1-4; 0 at times; with probability `large` 16-40, long enough
    for the lowering's vector forms (block rows of a cache line, full tiles
    of blocks, several vector steps per row)."""
    r = rng.random() if allow_empty or large else 1.0
    if allow_empty and r < 0.04:
        return 0
    if r > 1 - large:
        return int(rng.integers(16, 41))
    return int(rng.integers(1, 5))


def index_values(rng, shape, sizes, negative, oob):
    """Index values for a dimension of each size in `sizes` (a list the
    length of the last dimension's period, or one size): in range, with
    negatives where they wrap, and out-of-range values where the policy
    defines them."""
    sizes = np.broadcast_to(np.asarray(sizes), shape) if shape else np.asarray(sizes)
    low = np.where(negative == "wrap", -sizes, 0)
    values = np.floor(rng.random(shape) * (sizes - low)).astype(np.int64) + low
    values = np.where(sizes > 0, values, 0)
    if oob != "unchecked" and rng.random() < 0.35:
        bad = rng.random(shape) < 0.2
        far = rng.integers(1, 4, size=shape) + sizes
        values = np.where(bad, np.where(rng.random(shape) < 0.5, far, -far - 1), values)
    if oob == "unchecked":
        values = np.where(sizes > 0, values, 0)
    return values


def gen_multiaxis(rng, dim, limit=4096):
    rank = int(rng.integers(1, 7))
    naxes = int(rng.integers(0, min(rank, 3) + 1))
    axes = [int(a) for a in rng.permutation(rank)[:naxes]]
    k = max(naxes, 1)
    in_shape, logical = [], []
    for d in range(rank):
        if d in axes:
            in_shape.append(dim())
            logical.append(dim())
        else:
            size = dim()
            choice = rng.random()
            # Larger cases broadcast the indices more often: the block copies.
            if choice < (0.5 if limit <= 4096 else 0.3):
                in_shape.append(size); logical.append(size)
            elif choice < (0.75 if limit <= 4096 else 0.8):
                in_shape.append(size); logical.append(1)
            else:
                in_shape.append(1); logical.append(size)
    # Keep cases small.
    while np.prod(in_shape) > limit or np.prod(logical) > limit:
        d = int(np.argmax(np.maximum(in_shape, logical)))
        in_shape[d] = max(1, in_shape[d] // 2); logical[d] = max(1, logical[d] // 2)
    idx_shape = list(logical)
    idx_shape[-1] *= k
    sizes = [in_shape[a] for a in axes] or [1]
    period = np.tile(np.array(sizes), idx_shape[-1] // k if idx_shape[-1] else 0)
    return in_shape, idx_shape, {"axes": axes}, np.reshape(period, (-1,)) if idx_shape[-1] else np.zeros((0,), np.int64)


def make_case(op, rng, large_dims=0.0, size_class="tiny", consumers=0.0):
    """A random valid case of `op`; `large_dims`: the probability of a
    dimension of 16-40 (random_dim), at most two per case (the arrays stay
    under a few MB). `size_class` "large": every dimension from
    large_dim_source(), up to 1024 and about a million elements in all.
    `consumers`: the probability that a consumer of a random kind
    (elementwise, or a reduction of one dimension) reads the result (no
    random draw for it at 0, so the cases of a seed stay as they were)."""
    large_left = [2]

    def dim():
        size = random_dim(rng, large=large_dims if large_left[0] else 0.0)
        large_left[0] -= size >= 16
        return size
    if size_class == "large":
        dim = large_dim_source(rng)
    ety = str(rng.choice(list(ELEMENT_TYPES)))
    ity = str(rng.choice(list(INDEX_TYPES)))
    negative = "wrap" if rng.random() < 0.75 else "out_of_bounds"
    oob = str(rng.choice(POLICIES))
    if op == "multiaxis":
        in_shape, idx_shape, attrs, period = gen_multiaxis(
            rng, dim, SIZE_BUDGET if size_class == "large" else 4096)
        data = random_values(rng, in_shape, ety)
        if not attrs["axes"]:
            values = rng.integers(-5, 5, size=idx_shape)
        else:
            values = index_values(rng, idx_shape, period if idx_shape[-1] else 1, negative, oob)
    elif op == "block":
        rank = int(rng.integers(1, 5))
        data_shape = [dim() for _ in range(rank)]
        q = int(rng.integers(0, 4))
        idx_shape = [dim() for _ in range(q)]
        axis = int(rng.integers(-rank, rank))
        data = random_values(rng, data_shape, ety)
        values = index_values(rng, idx_shape, data_shape[axis], negative, oob)
        attrs = {"axis": axis}
    elif op == "elements":
        rank = int(rng.integers(1, 5))
        data_shape = [dim() for _ in range(rank)]
        axis = int(rng.integers(-rank, rank))
        idx_shape = []
        for d in range(rank):
            if d == axis % rank:
                idx_shape.append(dim())
            else:  # equal, or smaller (torch.gather)
                idx_shape.append(data_shape[d] if rng.random() < 0.7 else int(rng.integers(0, data_shape[d] + 1)))
        data = random_values(rng, data_shape, ety)
        values = index_values(rng, idx_shape, data_shape[axis], negative, oob)
        attrs = {"axis": axis}
    else:
        rank = int(rng.integers(1, 6))
        data_shape = [dim() for _ in range(rank)]
        q = int(rng.integers(1, 5))
        b = int(rng.integers(0, min(q, rank)))
        k = int(rng.integers(1, rank - b + 1))
        idx_shape = []
        for d in range(q - 1):
            if d < b:
                if rng.random() < 0.2:
                    data_shape[d] = 1
                    idx_shape.append(dim())
                else:
                    idx_shape.append(data_shape[d])
            else:
                idx_shape.append(dim())
        idx_shape.append(k)
        data = random_values(rng, data_shape, ety)
        sizes = [data_shape[b + j] for j in range(k)]
        values = index_values(rng, idx_shape, np.array(sizes), negative, oob)
        attrs = {"batch_dims": b}
    indices = np.asarray(values).astype(INDEX_TYPES[ity])
    case = Case(op, np.asarray(data), indices, attrs, ety, ity, negative, oob, rng)
    if oob == "unchecked":
        # `unchecked` has no defined result for a bad index (an indexed
        # dimension of size 0 makes every index bad): test it with fill.
        try:
            case.expected()
        except ref.GatherIndexError:
            case.oob = "fill"
    if consumers and rng.random() < consumers:
        # The output's sizes by the shape rules (also where an index is bad).
        shape = mlir_output_shape(op, data.shape, indices.shape, axis=attrs.get("axis", 0),
                                  axes=attrs.get("axes", ()),
                                  batch_dims=attrs.get("batch_dims", 0))
        case.consumer = str(rng.choice(consumer_kinds(ety, len(shape))))
        if case.consumer == "bias":
            case.bias = random_values(rng, (shape[-1],), ety)
        if case.consumer in REDUCTIONS:
            case.reduce_dim = int(rng.integers(len(shape)))
    return case


def same_bits(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.dtype.kind == "f":
        view = {2: np.uint16, 4: np.uint32, 8: np.uint64}[want.dtype.itemsize]
        # -0.0 and 0.0 from a zero fill compare by value; everything else by bits.
        return np.array_equal(got.view(view), want.view(view)) or (
            np.array_equal(got, want) and not np.any(np.isnan(want)))
    return np.array_equal(got, want)


def call_problem(program, entry, args, want):
    """Runs @entry of a compiled program on `args`: None when it gives
    `want` (an array, bit for bit), or, where `want` is the reference's
    GatherIndexError, when it fails with the precise out-of-range report;
    else what went wrong."""
    from gather import jit
    program.select(entry)
    try:
        got = program(*args)
    except jit.GatherError as e:
        if isinstance(want, Exception) and "is out of range" in str(e):
            return None
        return f"failed: {e}"
    if isinstance(want, Exception):
        return "no error for an invalid index"
    if not same_bits(got, want):
        return f"result differs from numpy: {difference(got, want)}"
    return None


def reference_or_error(fn, *args, **kw):
    """The reference's result, or the GatherIndexError it raises (what
    call_problem expects of an invalid index)."""
    try:
        return fn(*args, **kw)
    except ref.GatherIndexError as e:
        return e


class CallChecks:
    """call_problem over many calls of compiled functions: prints a FAIL
    line per problem and counts."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, program, entry, args, want):
        problem = call_problem(program, entry, args, want)
        if problem:
            print(f"FAIL {name}: {problem}")
            self.failed += 1
        else:
            self.passed += 1

    def summary(self, label):
        return f"{label}: {self.passed} passed, {self.failed} failed"


def difference(got, want):
    """Where `got` and `want` differ, briefly: whole arrays of a large
    result would bury the report."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"got {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}"
    if got.size <= 16:
        return f"got {got.tolist()}, want {want.tolist()}"
    differs = ~((got == want) | (np.isnan(got) & np.isnan(want))
                if want.dtype.kind == "f" else got == want)
    first = tuple(int(i) for i in np.argwhere(differs)[0]) if differs.any() else None
    if first is None:  # equal values, different bits (a NaN payload, -0.0)
        return "equal values with different bits"
    return (f"{int(differs.sum())} of {got.size} elements, the first at {list(first)}: "
            f"got {got[first]}, want {want[first]}")


# The out_of_bounds and negative_indices pairs the in-process suites run.
POLICY_PAIRS = [("error", "wrap"), ("fill", "wrap"), ("clamp", "wrap"),
                ("fill", "out_of_bounds"), ("unchecked", "wrap")]


def policy_indices(rng, shape, size, oob, every=7):
    """Index values of `shape` into a dimension of `size`: in range
    (negatives count from the end), and where the policy `oob` defines
    others (fill, clamp) every `every`-th value past the end and the one 3
    after it before the start."""
    values = rng.integers(-size, size, shape)
    if oob not in ("unchecked", "error"):
        flat = values.reshape(-1)
        flat[::every] = size + rng.integers(0, 9, flat[::every].size)
        flat[3::every] = -size - 1 - rng.integers(0, 9, flat[3::every].size)
    return values


def policy_text(oob, negative):
    """The op's policy attributes for (out_of_bounds, negative_indices)."""
    text = "" if negative == "wrap" else f" negative_indices = {negative}"
    return text + ("" if oob == "error" else f" out_of_bounds = {oob}")


def expected(fn, *args, **kw):
    """The reference's result, or its GatherIndexError (an expected error)."""
    try:
        return fn(*args, **kw)
    except ref.GatherIndexError as e:
        return e


class FunctionCases:
    """One-op functions with their inputs and expected results, compiled
    as one module and run in process through the C API."""

    ELEMENT = {np.float32: "f32", np.float16: "f16", np.int8: "i8"}

    def __init__(self, attributes=""):
        """`attributes`: text of every function's attribute dictionary
        (`{llvm.emit_c_interface}` for callers of the C interface)."""
        self.functions, self.cases = [], []
        self.attributes = f" attributes {attributes}" if attributes else ""

    def add(self, name, op, attrs, data, indices, out_shape, want, dynamic=()):
        """@name: gather.`op` with `attrs` on `data` and `indices` (i64, or
        i32 where the array is), `want` its result (an exception: an
        error). `dynamic`: (data dims, indices dims, output dims) made
        dynamic, the output's sizes then read from the operands as
        (operand, dim) pairs."""
        tensor = mlir_tensor_type

        element = self.ELEMENT[data.dtype.type]
        index_element = "i32" if indices.dtype == np.int32 else "i64"
        data_dyn, index_dyn, out_dyn = dynamic or ((), (), ())
        hide = lambda shape, dims: ["?" if d in dims else s for d, s in enumerate(shape)]
        dt = tensor(hide(data.shape, data_dyn), element)
        it = tensor(hide(indices.shape, index_dyn), index_element)
        ot = tensor(hide(out_shape, [d for d, _ in out_dyn]), element)
        sizes = "".join(f"  %s{k} = tensor.dim %{src}, %c{dim} : {dt if src == 'd' else it}\n"
                        for k, (_, (src, dim)) in enumerate(out_dyn))
        consts = "".join(f"  %c{dim} = arith.constant {dim} : index\n"
                         for dim in sorted({dim for _, (_, dim) in out_dyn}))
        args = ", ".join(f"%s{k}" for k in range(len(out_dyn)))
        self.functions.append(f"""
func.func @{name}(%d: {dt}, %i: {it}) -> {ot}{self.attributes} {{
{consts}{sizes}  %e = tensor.empty({args}) : {ot}
  %r = gather.{op} %d[%i] {attrs} into %e : {dt}, {it} into {ot}
  return %r : {ot}
}}""")
        self.cases.append((name, data, indices, want))

    def module(self, cpu_entries=None, names=None):
        """The functions (those of `names` where given) as one module;
        `cpu_entries` ({key: integer}), a #dlti.target_system_spec for
        device "CPU" on it that the lowering plans with (docs/Lowering.md,
        "Target description")."""
        body = "\n".join(text for text, case in zip(self.functions, self.cases)
                         if names is None or case[0] in names)
        return with_cpu_entries(body, cpu_entries)

    def lacking(self, bin_dir, marker, cpu_entries=None, target_cpu=None):
        """The functions whose --convert-gather-to-linalg form (the pass's
        default target, or `target_cpu`'s instruction set on this host) has
        no match of `marker` (a regular expression for the path a suite
        means to test)."""
        option = f"=target-cpu={target_cpu} on-host=1" if target_cpu else ""
        lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"),
                                  "--convert-gather-to-linalg" + option],
                                 input=self.module(cpu_entries), capture_output=True, text=True,
                                 check=True).stdout
        bodies = re.split(r"\n  func\.func ", lowered)
        return [name for name, *_ in self.cases
                if not re.search(marker,
                                 next((b for b in bodies if b.startswith(f"@{name}(")), ""))]

    def report(self, title, bin_dir, marker, missing, cpu_entries=None, target_cpu=None):
        """Checks that every function takes the path `marker` matches (else
        prints FAIL with `missing`), runs them all, prints each problem and
        the line "TITLE: P passed, F failed". `cpu_entries`: as module's;
        `target_cpu`: as jit.compile's."""
        failed = 0
        for name in self.lacking(bin_dir, marker, cpu_entries, target_cpu):
            print(f"FAIL {name}: {missing}")
            failed += 1
        problems = self.run(cpu_entries=cpu_entries, target_cpu=target_cpu or "native")
        for name, problem in problems:
            print(f"FAIL {name}: {problem}")
        failed += len(problems)
        print(f"{title}: {len(self.cases) - len(problems)} passed, {failed} failed")

    def run(self, opt_level=3, cpu_entries=None, target_cpu="native"):
        """Compiles the module once and calls every function: the list of
        (name, problem) that did not give the expected result."""
        from gather import jit
        program = jit.compile(self.module(cpu_entries), entry=self.cases[0][0],
                              opt_level=opt_level, target_cpu=target_cpu)
        problems = []
        for name, data, indices, want in self.cases:
            problem = call_problem(program, name, (data, indices), want)
            if problem:
                problems.append((name, problem))
        return problems


def output_shape(case, want):
    """The result shape to declare: the reference's, or any shape of the
    right rank where the reference raises (the run must fail anyway)."""
    if want is not None:
        return want.shape
    reduced = 1 if case.consumer in REDUCTIONS else 0
    if case.op == "nd":
        return (1,) * (case.indices.ndim - 1 + case.data.ndim - case.attrs["batch_dims"]
                       - case.indices.shape[-1] - reduced)
    return (1,) * ({"multiaxis": case.data.ndim, "block": case.data.ndim + case.indices.ndim - 1,
                    "elements": case.data.ndim}[case.op] - reduced)


def run_case(case, tools, work, index, device="cpu", verify_each=False, target_cpu="native",
             cpu_entries=None, timeout=None):
    """Runs `case` in gather-run processes, as written and after
    --canonicalize; `cpu_entries` as FunctionCases.module's; a run longer
    than `timeout` seconds is a problem (code that corrupted its memory
    can hang). Returns the problem, or None."""
    try:
        want = case.expected()
        want_error = None
    except ref.GatherIndexError as e:
        want, want_error = None, e
    except Exception as e:  # a bug in the reference or the generator
        return f"reference failed: {type(e).__name__}: {e}"
    inputs = []
    for name, array in zip(("data", "idx", "bias"), case.arguments()):
        path = os.path.join(work, f"c{index}_{name}.npy")
        np.save(path, array)
        inputs += ["--input", path]
    out_shape = output_shape(case, want)
    src = os.path.join(work, f"c{index}.mlir")
    with open(src, "w") as f:
        f.write(with_cpu_entries(case.mlir(out_shape), cpu_entries))
    canon = os.path.join(work, f"c{index}.canon.mlir")
    r = subprocess.run([tools["gather-opt"], src, "--canonicalize", "-o", canon],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return f"gather-opt --canonicalize failed: {r.stderr.strip()}"
    for label, path in (("direct", src), ("canonical", canon)):
        out = os.path.join(work, f"c{index}_{label}.npy")
        try:
            r = subprocess.run([tools["gather-run"], path, "--device", device] + inputs
                               + ["--output", out]
                               + (["--verify-each"] if verify_each else [])
                               + (["--target-cpu", target_cpu] if target_cpu != "native" else []),
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"{label}: gather-run timed out after {timeout} s"
        if want_error is not None:
            # Both runs name the op as written (canonicalization records it
            # in gather.origin), with the value, position and dimension.
            if r.returncode != 1 or len(r.stderr.strip().splitlines()) != 1:
                return f"{label}: expected exit status 1 and one line, got rc={r.returncode} {r.stderr.strip()!r}"
            problem = expect_error_text(case, r.stderr)
            if problem:
                return f"{label}: {problem}"
            if os.path.exists(out):
                return f"{label}: an output was written despite the error"
            continue
        if r.returncode != 0:
            return f"{label}: gather-run failed: {r.stderr.strip()}"
        got = np.load(out)
        if not same_bits(got, want):
            return f"{label}: mismatch\n  got  {got.tolist()}\n  want {want.tolist()}"
    return None


def expect_error_text(case, text, position=True):
    """None when `text` is the out-of-bounds error the case must give,
    naming the op as written (also after canonicalization, which records it
    in gather.origin) with a value that is invalid at the reported position
    and dimension of the op as written. Without `position`, a value of the
    indices that is invalid for the reported size, at any position (a tile
    of computed indices names its own slice's: docs/Composing.md)."""
    op_name = f"gather.{case.op}"
    if "index out of bounds" not in text and "is out of range" not in text:
        return f"expected an out-of-bounds error naming {op_name}, got {text!r}"
    if op_name not in text:
        return f"expected an out-of-bounds error naming {op_name}, got {text!r}"
    # The reported value must be at the reported position of the
    # indices as written, and invalid for the reported size.
    m = _PRECISE.search(text)
    if not m:
        return f"expected the value, position and dimension in {text!r}"
    value, size = int(m.group(1)), int(m.group(4))
    at = tuple(int(p) for p in m.group(2).split(",")) if m.group(2).strip() else ()
    if position and (len(at) != case.indices.ndim or int(case.indices[at]) != value):
        return f"the reported position does not hold the reported value: {text!r}"
    if not position and value not in case.indices:
        return f"the reported value is not in the indices: {text!r}"
    low = -size if case.negative == "wrap" else 0
    if low <= value < size:
        return f"the reported value is valid for the reported size: {text!r}"
    return None


_PRECISE = re.compile(r"index (-?\d+) at indices\[([-\d, ]*)\] is out of range "
                      r"(\[-?\d+, -?\d+\]|\(no valid index\)) for dimension \d+ \(size (\d+)\)")


def function_text(case, name, out_shape, attributes=""):
    return case.mlir(out_shape, attributes).replace("func.func @main(", f"func.func @{name}(", 1)


def split_functions(module_text):
    """The text of each top-level func.func of a printed module, by name."""
    functions, name, lines = {}, None, []
    for line in module_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("func.func @"):
            name, lines = stripped[len("func.func @"):].split("(", 1)[0], []
        if name is not None:
            lines.append(line)
            if line.startswith("  }") and len(line.rstrip()) == 3:
                functions[name] = "\n".join(lines)
                name = None
    return functions


_REMARK = re.compile(r"^<stdin>:(\d+):\d+: remark: lowered as (.*)$", re.M)


def lowered_forms(bin_dir, module_text, target="native"):
    """{function name: the form its gather is lowered to} as the CPU
    pipeline lowers `module_text` for `target` (native: this host, as the
    JIT does; or an x86-64 CPU name): canonicalized, then
    convert-gather-to-linalg with that target description, whose
    report-forms remarks name the form ("folded" where no gather is left
    to lower)."""
    r = subprocess.run([os.path.join(bin_dir, "gather-opt"), "--gather-canonicalize",
                        f"--convert-gather-to-linalg=report-forms target-cpu={target}",
                        "-o", os.devnull], input=module_text, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"gather-opt failed: {r.stderr.strip()}")
    starts = [(i + 1, m.group(1)) for i, line in enumerate(module_text.splitlines())
              for m in [re.match(r"func\.func @([\w.]+)\(", line)] if m]
    forms = {name: "folded" for _, name in starts}
    for m in _REMARK.finditer(r.stderr):
        line = int(m.group(1))
        name = [n for start, n in starts if start <= line][-1]
        forms[name] = m.group(2)
    return forms


def run_into(program, case, want):
    """The case run with out= on `program` (made with destination entries):
    the array must receive the reference's result, or, where the reference
    raises, the call must raise the error of the plain call (or, for a
    result of dynamic size, reject the arbitrary array's size)."""
    from gather import jit
    if not program.writes_in_place:
        return "no destination entry was compiled"
    shape = want.shape if want is not None else output_shape(case, None)
    out = np.empty(shape, case.result_dtype())
    out.reshape(-1).view(np.uint8)[...] = 0xA5
    try:
        got = program(*case.arguments(), out=out)
    except jit.GatherError as e:
        if want is not None:
            return f"failed: {e}"
        try:
            program(*case.arguments())
            return "raised where the plain call did not"
        except jit.GatherError as plain:
            if str(e) != str(plain) and not str(e).startswith("output 0: dimension"):
                return f"error text {e} differs from the plain call's {plain}"
        return None
    if want is None:
        return "expected an out-of-bounds error, got a result"
    if got is not out or not same_bits(out, want):
        return f"mismatch\n  got  {out.tolist()}\n  want {want.tolist()}"
    return None


def run_batch(cases, first, tools, work, device, opt_level, canonical=True, into=False,
              verify_each=False, target_cpu="native", cpu_entries=None):
    """Runs cases[i] as function @c<first+i> of one module, compiled once as
    written and (with `canonical`) once after --canonicalize, in this
    process through the C API. With `into` (CPU), the form as written is
    compiled with destination entries and every case also runs with out=
    (the compiled code writing into an array filled with garbage first).
    `verify_each` verifies the IR after every pass of the pipeline (the
    fuzzer's setting); `target_cpu` as jit.compile's; `cpu_entries` as
    FunctionCases.module's. Returns {case number: problem} for the
    failures."""
    from gather import jit
    problems, wants, names, written = {}, {}, [], {}
    parts = []
    for offset, case in enumerate(cases):
        index = first + offset
        try:
            want, want_error = case.expected(), None
        except ref.GatherIndexError as e:
            want, want_error = None, e
        except Exception as e:  # a bug in the reference or the generator
            problems[index] = f"reference failed: {type(e).__name__}: {e}"
            continue
        wants[index] = (want, want_error)
        names.append(index)
        written[index] = function_text(case, f"c{index}", output_shape(case, want))
        parts.append(written[index])
    if not names:
        return problems
    src = os.path.join(work, f"batch{first}.mlir")
    direct = with_cpu_entries("\n".join(parts), cpu_entries)
    with open(src, "w") as f:
        f.write(direct)
    forms = [("direct", direct, None)]
    if canonical:
        canon = os.path.join(work, f"batch{first}.canon.mlir")
        r = subprocess.run([tools["gather-opt"], src, "--canonicalize", "-o", canon],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None  # the caller runs the cases one by one to find the culprit
        with open(canon) as f:
            canon_text = f.read()
        forms.append(("canonical", canon_text, split_functions(canon_text)))
    for label, text, per_function in forms:
        try:
            in_place = into and label == "direct" and device == "cpu"
            program = jit.compile(text, entry=f"c{names[0]}", device=device, opt_level=opt_level,
                                  destination_entries=in_place, verify_each=verify_each,
                                  target_cpu=target_cpu)
        except jit.GatherError:
            return None
        for index in names:
            if index in problems:
                continue
            case = cases[index - first]
            want, want_error = wants[index]
            program.select(f"c{index}")
            if in_place:
                problem = run_into(program, case, want)
                if problem:
                    problems[index] = f"out=: {problem}"
                    continue
            try:
                got = program(*case.arguments())
            except jit.GatherError as e:
                if want_error is None:
                    problems[index] = f"{label}: failed: {e}"
                else:
                    problem = expect_error_text(case, str(e))
                    if problem:
                        problems[index] = f"{label}: {problem}"
                continue
            if want_error is not None:
                problems[index] = f"{label}: expected an out-of-bounds error, got a result"
            elif not same_bits(got, want):
                problems[index] = (f"{label}: mismatch\n  got  {got.tolist()}\n"
                                   f"  want {want.tolist()}")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", required=True, choices=["multiaxis", "block", "elements", "nd"])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bin", default="build/bin", help="directory with gather-opt and gather-run")
    parser.add_argument("--target-cpu", default="native",
                        help="the CPU the cases are compiled for on this host (as gather-run's "
                             "--target-cpu: x86-64-v3 runs AVX2 code on an AVX-512 host)")
    parser.add_argument("--cpu-entry", action="append", default=[], metavar="KEY=VALUE",
                        help="an integer entry of the CPU's target description the cases are "
                             "planned with (docs/Lowering.md; repeated: all of them), as the "
                             "fuzzer's executed cases on other targets' plans print it")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu",
                        help="where the compiled functions run")
    parser.add_argument("--batch", type=int, default=250,
                        help="cases per module, compiled once and run in this process through "
                             "the C API (libGatherCAPI.so); 0: one gather-run process per case")
    parser.add_argument("--opt-level", type=int, default=3, choices=[0, 1, 2, 3],
                        help="LLVM optimization level of the batched compilations")
    parser.add_argument("--sizes", choices=["tiny", "large"], default="tiny",
                        help="tiny: dimensions of 1-4 (and 0); large: dimensions up to 1024 and "
                             "outputs up to about a million elements, each case also run with "
                             "out= and the form each is lowered to counted")
    parser.add_argument("--require-forms", default="",
                        help="comma-separated forms (report-forms names, or words of them: "
                             "tiles, coordinate-table) that some case must be lowered to, else "
                             "the run fails (with --sizes large)")
    parser.add_argument("--forms-target", default="native",
                        help="the CPU whose lowering the forms are counted for (native: this "
                             "host's, the one the cases run with; x86-64-v3, x86-64-v4: AVX2 and "
                             "AVX-512 on any host)")
    parser.add_argument("--forms-only", action="store_true",
                        help="count the forms (--sizes large) without running the cases: the "
                             "coverage of another target's forms on any host")
    parser.add_argument("--canonical-cases", type=int, default=-1,
                        help="batches that start before this case also run after "
                             "--canonicalize (default: all); the CPU pipeline canonicalizes "
                             "as its first step, so the form as written runs the same "
                             "rewrites, and the extra form adds the printed round trip")
    parser.add_argument("--consumers", type=float, default=0.0,
                        help="share of the cases whose result an elementwise linalg.generic "
                             "reads (doubled, converted, compared with 0 or plus a bias "
                             "vector; fused into the gather's loops)")
    args = parser.parse_args(argv)
    try:
        entries = dict(parse_cpu_entries(args.cpu_entry))
    except ValueError as e:
        parser.error(f"--cpu-entry: {e}")
    tools = {t: os.path.join(args.bin, t) for t in ("gather-opt", "gather-run")}
    rng = np.random.default_rng(args.seed)
    work = tempfile.mkdtemp(prefix=f"gather-diff-{args.op}-")
    passed = failed = 0
    cases = [make_case(args.op, rng, size_class=args.sizes, consumers=args.consumers)
             for _ in range(args.cases)]
    into = args.sizes == "large" and args.device == "cpu"
    forms = {}
    if args.sizes == "large":
        texts = []
        for index, case in enumerate(cases):
            want = reference_or_error(case.expected)
            texts.append(function_text(case, f"c{index}", output_shape(
                case, None if isinstance(want, Exception) else want)))
        names = lowered_forms(args.bin, "\n".join(texts), args.forms_target)
        for name, form in names.items():
            forms[form] = forms.get(form, 0) + 1

    def report(i, problem):
        nonlocal passed, failed
        if problem:
            failed += 1
            print(f"FAIL case {i}: {cases[i].describe()}\n  {problem}\n  files: {work}/c{i}.* "
                  f"or {work}/batch*.mlir")
        else:
            passed += 1

    step = args.batch if args.batch > 0 else 1
    for first in range(0, 0 if args.forms_only else len(cases), step):
        chunk = cases[first:first + step]
        canonical = args.canonical_cases < 0 or first < args.canonical_cases
        problems = (run_batch(chunk, first, tools, work, args.device, args.opt_level, canonical,
                              into=into, target_cpu=args.target_cpu, cpu_entries=entries)
                    if args.batch > 0 else None)
        if problems is None:
            # One case at a time, each in its own gather-run process: a
            # batch that does not compile is narrowed down to its cases.
            for offset, case in enumerate(chunk):
                report(first + offset, run_case(case, tools, work, first + offset, args.device,
                                                target_cpu=args.target_cpu, cpu_entries=entries))
            continue
        for offset in range(len(chunk)):
            report(first + offset, problems.get(first + offset))
    if not args.keep and not failed:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    if args.sizes == "large":
        print("forms: " + ", ".join(f"{form} {count}" for form, count in sorted(forms.items())))
        for form in filter(None, args.require_forms.split(",")):
            # "tiles" or "coordinate-table" is any form that says it.
            taken = re.compile(rf"(^| ){re.escape(form)}( |$)")
            if not any(taken.search(name) for name in forms):
                print(f"FAIL: no case was lowered as {form}")
                failed += 1
    device = "" if args.device == "cpu" else f" ({args.device})"
    print(f"difftest {args.op}{device}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
