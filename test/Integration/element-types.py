# Every element type and index type the verifier accepts, through every op,
# against the numpy reference: for each op, each element type in a small
# case and in one of the `large` size class (rows up to 1024, up to about a
# million elements: the vector and block-copy forms), and each index type
# in a small case; random shapes, dynamic sizes and policies
# (gather_testing.difftest). All in one module compiled once through the C
# API.
#
# Types the C API cannot pass as numpy arrays travel as integers and are
# converted in the function around the gather (which moves bits, so the
# reference runs on the integers): f16 and bf16 as i16 (any bits, NaN
# payloads included); the f8 types as i8
# (bitcasts); f6 and f4 through i6 and i4; i3 as i8 (trunci/extsi); f80
# and f128 as i64 widened to i80 and i128 (the upper bits zero); i128 as
# i64 sign-extended; index as i64 (index_cast). f80 found the memcpy of
# dynamic copies sizing an element by its width (10 bytes) instead of its
# storage (16). Not executed: tf32, which the verifier accepts but LLVM has
# no type for; the pipelines reject it with an error naming each value
# (Pipelines/unlowerable-element-type.mlir).
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK: element-types: 228 passed, 0 failed
import sys

import numpy as np

from gather import jit
from gather_testing import difftest

bin_dir = sys.argv[1]
rng = np.random.default_rng(11)

# Element type: (the integer type it travels as, numpy dtype, conversions in
# the function after the argument, conversions before the result).
ELEMENTS = {
    "f16": ("i16", np.int16, [("arith.bitcast", "f16")], [("arith.bitcast", "i16")]),
    "f32": None, "f64": None,
    "i1": None, "i8": None, "i16": None, "i32": None, "i64": None,
    "bf16": ("i16", np.int16, [("arith.bitcast", "bf16")], [("arith.bitcast", "i16")]),
    "f8E4M3FN": ("i8", np.int8, [("arith.bitcast", "f8E4M3FN")], [("arith.bitcast", "i8")]),
    "f8E5M2": ("i8", np.int8, [("arith.bitcast", "f8E5M2")], [("arith.bitcast", "i8")]),
    "f4E2M1FN": ("i8", np.int8, [("arith.trunci", "i4"), ("arith.bitcast", "f4E2M1FN")],
                 [("arith.bitcast", "i4"), ("arith.extui", "i8")]),
    "i3": ("i8", np.int8, [("arith.trunci", "i3")], [("arith.extsi", "i8")]),
    "i128": ("i64", np.int64, [("arith.extsi", "i128")], [("arith.trunci", "i64")]),
    "f8E4M3": ("i8", np.int8, [("arith.bitcast", "f8E4M3")], [("arith.bitcast", "i8")]),
    "f8E4M3FNUZ": ("i8", np.int8, [("arith.bitcast", "f8E4M3FNUZ")], [("arith.bitcast", "i8")]),
    "f8E4M3B11FNUZ": ("i8", np.int8, [("arith.bitcast", "f8E4M3B11FNUZ")],
                      [("arith.bitcast", "i8")]),
    "f8E5M2FNUZ": ("i8", np.int8, [("arith.bitcast", "f8E5M2FNUZ")], [("arith.bitcast", "i8")]),
    "f8E3M4": ("i8", np.int8, [("arith.bitcast", "f8E3M4")], [("arith.bitcast", "i8")]),
    "f8E8M0FNU": ("i8", np.int8, [("arith.bitcast", "f8E8M0FNU")], [("arith.bitcast", "i8")]),
    "f6E2M3FN": ("i8", np.int8, [("arith.trunci", "i6"), ("arith.bitcast", "f6E2M3FN")],
                 [("arith.bitcast", "i6"), ("arith.extui", "i8")]),
    "f6E3M2FN": ("i8", np.int8, [("arith.trunci", "i6"), ("arith.bitcast", "f6E3M2FN")],
                 [("arith.bitcast", "i6"), ("arith.extui", "i8")]),
    "f80": ("i64", np.int64, [("arith.extui", "i80"), ("arith.bitcast", "f80")],
            [("arith.bitcast", "i80"), ("arith.trunci", "i64")]),
    "f128": ("i64", np.int64, [("arith.extui", "i128"), ("arith.bitcast", "f128")],
             [("arith.bitcast", "i128"), ("arith.trunci", "i64")]),
    "index": ("i64", np.int64, [("arith.index_cast", "index")], [("arith.index_cast", "i64")]),
}
INDICES = {
    "i8": None, "i16": None, "i32": None, "i64": None,
    "index": ("i64", np.int64, [("arith.index_cast", "index")], None),
}
NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_, "i8": np.int8,
         "i16": np.int16, "i32": np.int32, "i64": np.int64}


def values(ety, shape):
    """Random values of `ety` as the array that carries them."""
    if ety == "f4E2M1FN":
        return rng.integers(0, 16, size=shape).astype(np.int8)
    if ety in ("f6E2M3FN", "f6E3M2FN"):
        return rng.integers(0, 64, size=shape).astype(np.int8)
    if ELEMENTS.get(ety) and ety != "i3":  # any bits of the carrying integer
        dtype = ELEMENTS[ety][1]
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if ety == "i3":
        return rng.integers(-4, 4, size=shape).astype(np.int8)
    if ety.startswith("f"):
        return (rng.standard_normal(shape) * 100).astype(NUMPY[ety])
    if ety == "i1":
        return rng.random(shape) < 0.5
    info = np.iinfo(NUMPY[ety])
    return rng.integers(info.min, info.max, size=shape, dtype=NUMPY[ety], endpoint=True)


def convert(dst, src, shape_text, from_type, to_type, dynamic, chain):
    """Lines that apply `chain` ((op, type) steps) to every element of
    %src, a tensor of `from_type` whose dimensions flagged in `dynamic` are
    read at run time, giving %dst of `to_type`."""
    rank = len(dynamic)
    lines, sizes = [], []
    for d, dyn in enumerate(dynamic):
        if dyn:
            lines.append(f"  %{dst}_c{d} = arith.constant {d} : index")
            lines.append(f"  %{dst}_d{d} = tensor.dim %{src}, %{dst}_c{d} : {shape_text(from_type)}")
            sizes.append(f"%{dst}_d{d}")
    dims = ", ".join(f"d{d}" for d in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join(['"parallel"'] * rank)
    src_type, dst_type = shape_text(from_type), shape_text(to_type)
    lines.append(f"  %{dst}_e = tensor.empty({', '.join(sizes)}) : {dst_type}")
    lines.append(f"  %{dst} = linalg.generic {{indexing_maps = [{identity}, {identity}], "
                 f"iterator_types = [{iterators}]}} ins(%{src} : {src_type}) "
                 f"outs(%{dst}_e : {dst_type}) {{")
    lines.append(f"  ^bb0(%x: {from_type}, %y: {to_type}):")
    value, value_type = "%x", from_type
    for step, (op, result_type) in enumerate(chain):
        lines.append(f"    %v{step} = {op} {value} : {value_type} to {result_type}")
        value, value_type = f"%v{step}", result_type
    lines.append(f"    linalg.yield {value} : {to_type}")
    lines.append(f"  }} -> {dst_type}")
    return lines


def function(name, case, out_shape, element, index):
    """@name: the case's gather between the carrying types of `element`
    and `index`."""
    inner = case.mlir(out_shape).splitlines()
    body = inner[1:-2]  # between the signature and `return`
    e_carry = ELEMENTS[element]
    i_carry = INDICES[index]
    data_type = lambda t: difftest.tensor_type(case.data.shape, t, case.data_dyn)
    idx_type = lambda t: difftest.tensor_type(case.indices.shape, t, case.idx_dyn)
    out_type = lambda t: difftest.tensor_type(out_shape, t, [True] * len(out_shape))
    e_arg = e_carry[0] if e_carry else element
    i_arg = i_carry[0] if i_carry else index
    lines = [f"func.func @{name}(%data_arg: {data_type(e_arg)}, %indices_arg: {idx_type(i_arg)})"
             f" -> {out_type(e_arg)} {{"]
    if e_carry:
        lines += convert("data", "data_arg", data_type, e_arg, element, case.data_dyn, e_carry[2])
    else:
        body = [line.replace("%data", "%data_arg") for line in body]
    if i_carry:
        lines += convert("indices", "indices_arg", idx_type, i_arg, index, case.idx_dyn,
                         i_carry[2])
    else:
        body = [line.replace("%indices", "%indices_arg") for line in body]
    lines += body
    result = "%0"
    if e_carry:
        lines += convert("res", "0", out_type, element, e_arg, [True] * len(out_shape),
                         e_carry[3])
        result = "%res"
    lines += [f"  return {result} : {out_type(e_arg)}", "}"]
    return "\n".join(lines)


cases, functions = [], []


def add(op, element, index, size_class, oob=None):
    case = difftest.make_case(op, rng, size_class=size_class)
    case.ety, case.ity = element, index
    if oob:
        case.oob = oob
    case.data = values(element, case.data.shape)
    case.indices = case.indices.astype({"i8": np.int8, "i16": np.int16, "i32": np.int32}.get(
        index, np.int64))
    want = difftest.reference_or_error(case.expected)
    out_shape = difftest.output_shape(case, None if isinstance(want, Exception) else want)
    name = f"{op}_{element}_{index}_{size_class}_{len(cases)}"
    functions.append(function(name, case, out_shape, element, index))
    cases.append((name, case, want))


for op in ("block", "elements", "nd", "multiaxis"):
    for element in ELEMENTS:
        add(op, element, "i64", "tiny")
        add(op, element, "i32", "large")
    # The half-width floats with any bits (NaN payloads included) and the
    # fill policy: LLVM selects them in f32 where it has no registers for
    # them, which would turn every NaN into the one quiet NaN.
    for element in ("f16", "bf16"):
        add(op, element, "i32", "large", oob="fill")
    for index in INDICES:
        # i8 indices hold the tiny sizes (1-4) and their out-of-range values.
        add(op, "f32", index, "tiny")

program = jit.compile("\n".join(functions), entry=cases[0][0], opt_level=0)
checks = difftest.CallChecks()
for name, case, want in cases:
    checks.check(name, program, name, (case.data, case.indices), want)
print(checks.summary("element-types"))
