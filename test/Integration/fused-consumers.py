# Elementwise and reduction consumers of gathers, fused on the GPU
# (gather-fuse-device-consumers): each function's kernels are counted in the
# GPU pipeline's output with fusion and without (fuse-consumers=0), and
# every function runs through the C API against numpy, with valid indices
# and, under `error`, with an invalid one whose report must name its value,
# position and dimension (on the GPU the fused kernel raises the error flag,
# so the host reads it only after that kernel). `--device cpu` (any machine:
# the CPU pipeline's own fusion) or `--device gpu` (execution.test, on a
# GPU). With ptxas, the fused kernels also assemble for sm_80 and sm_90.
# RUN: %python %s %gather_bin cpu | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: fused-consumers (cpu): 28 functions, 50 runs passed, 0 failed
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather import jit
from gather import reference as ref
from gather.mlir_text import (gather_op_text, generic_text, identity_map, output_shape,
                               tensor_type)

rng = np.random.default_rng(5)
functions = []  # (name, text, kernels fused, kernels unfused, args, want, error args)
TOLERANCE = {}  # name: the absolute difference allowed from numpy (else 1e-6)


def generic(result, ins, out_type, payload, maps=None, ins_types=None, in_ety=None,
            out_ety=None):
    """`result` = a parallel linalg.generic over `out_type` reading `ins`
    (identity maps unless `maps`), its body `payload` lines over the block
    arguments %a, %b, ... (yielding %y)."""
    args = [f"%{chr(ord('a') + i)}: {t}" for i, t in enumerate(in_ety)] + [f"%o: {out_ety}"]
    lines = [f"  {result}_e = tensor.empty() : {out_type}"]
    lines += generic_text(result, ins, ins_types, f"{result}_e", out_type, args, payload, maps)
    return lines


def add(name, op, attrs, data, indices, consumers, extra=(), kernels=(1, 2), bad=None,
        ety="f32", shape_args=None):
    """@name: gather.`op` of data and indices, then `consumers`: a list of
    (payload lines, numpy function of (previous, *extra), output element
    type, maps or None); `extra` arrays are further arguments the first
    consumer reads (its maps say how). `kernels`: (fused, unfused) launch
    counts. `bad`: indices with an invalid value (under `error`)."""
    shape_args = shape_args or {}
    ity = {np.int64: "i64", np.int32: "i32"}[indices.dtype.type]
    dt, it = tensor_type(data.shape, ety), tensor_type(indices.shape, ity)
    out = output_shape(op, data.shape, indices.shape, **shape_args)
    ot = tensor_type(out, ety)
    negative = re.search(r"negative_indices = (\w+)", attrs)
    oob = re.search(r"out_of_bounds = (\w+)", attrs)
    kw = dict(negative=negative.group(1) if negative else "wrap",
              out_of_bounds=oob.group(1) if oob else "error")
    call = getattr(ref, op)
    want = call(data, indices, **shape_args, **kw)
    arg_types = [dt, it] + [tensor_type(e.shape, "f32") for e in extra]
    params = ", ".join(f"%x{i}: {t}" for i, t in enumerate(arg_types))
    lines = [gather_op_text(op, "%g", "%x0", "%x1", dt, it, ot, attrs=attrs, **shape_args)]
    value, value_type, element = "%g", ot, ety
    for k, (payload, fn, out_ety, maps) in enumerate(consumers):
        result, rt = f"%c{k}", tensor_type(out, out_ety)
        ins, types, etys = [value], [value_type], [element]
        if k == 0:
            ins += [f"%x{2 + i}" for i in range(len(extra))]
            types += arg_types[2:]
            etys += ["f32"] * len(extra)
        lines += generic(result, ins, rt, payload, maps=maps, ins_types=types, in_ety=etys,
                         out_ety=out_ety)
        want = fn(want, *extra) if k == 0 else fn(want)
        value, value_type, element = result, rt, out_ety
    text = (f"func.func @{name}({params}) -> {value_type} {{\n" + "\n".join(lines) +
            f"\n  return {value} : {value_type}\n}}\n")
    functions.append((name, text, kernels, [data, indices, *extra], want,
                      None if bad is None else [data, bad, *extra]))


TANH = (["%s = arith.addf %a, %b : f32", "%y = math.tanh %s : f32"],
        lambda g, bias: np.tanh(g + bias), "f32", None)
DOUBLE = (["%y = arith.addf %a, %a : f32"], lambda g: g + g, "f32", None)
table = rng.standard_normal((40, 16)).astype(np.float32)
bias = rng.standard_normal(16).astype(np.float32)
ids = rng.integers(-40, 40, size=(5, 3)).astype(np.int64)
bad = ids.copy()
bad[3, 1] = 40
bias_map = "affine_map<(d0, d1, d2) -> (d2)>"
tanh_bias = (TANH[0], TANH[1], "f32", [identity_map(3), bias_map])
# An embedding lookup, a bias and tanh: one kernel, under each policy.
for policy in ("", "out_of_bounds = clamp", "out_of_bounds = fill",
               "negative_indices = out_of_bounds out_of_bounds = fill"):
    name = "block_" + (policy.split("= ")[-1] + ("_negative" if "negative" in policy else "")
                       if policy else "error")
    add(name, "block", "axis = 0 " + policy, table, ids, [tanh_bias],
        extra=[bias], bad=None if policy else bad)
# A chain of two consumers: both fuse.
add("block_chain", "block", "axis = 0", table, ids, [tanh_bias, DOUBLE], extra=[bias],
    kernels=(1, 3), bad=bad)
# Unchecked (valid indices only).
add("block_unchecked", "block", "axis = 0 out_of_bounds = unchecked", table,
    np.abs(ids) % 40, [tanh_bias], extra=[bias])
# Element types: i32 data, a consumer that changes the type (f32 to f16).
itable = rng.integers(-1000, 1000, size=(40, 16)).astype(np.int32)
add("block_i32", "block", "axis = 0", itable, ids,
    [(["%s = arith.addi %a, %a : i32", "%y = arith.muli %s, %a : i32"],
      lambda g: (g + g) * g, "i32", None)], ety="i32", kernels=(1, 2), bad=bad)
data3 = rng.standard_normal((6, 5, 4)).astype(np.float32)
add("block_to_f16", "block", "axis = 1", data3, rng.integers(0, 5, size=(7,)).astype(np.int32),
    [(["%y = arith.truncf %a : f32 to f16"], lambda g: g.astype(np.float16), "f16", None)],
    shape_args={"axis": 1})
# Elements with a second operand of the consumer.
edata = rng.standard_normal((4, 6)).astype(np.float32)
eidx = rng.integers(0, 6, size=(4, 5)).astype(np.int64)
ebad = eidx.copy()
ebad[2, 4] = -7
scale = rng.standard_normal((4, 5)).astype(np.float32)
add("elements_mul", "elements", "axis = 1", edata, eidx,
    [(["%y = arith.mulf %a, %b : f32"], lambda g, s: g * s, "f32", None)], extra=[scale],
    bad=ebad, shape_args={"axis": 1})
# Two tiles on the CPU (16384 elements each): an invalid index in the second
# is reported at its position in the whole indices, not in the tile's.
ldata = rng.standard_normal((64, 512)).astype(np.float32)
lidx = rng.integers(0, 512, size=(64, 512)).astype(np.int64)
lbad = lidx.copy()
lbad[40, 7] = 600
add("elements_second_tile", "elements", "axis = 1", ldata, lidx, [DOUBLE], bad=lbad,
    shape_args={"axis": 1})
# Multiaxis (two axes) and nd.
mdata = rng.standard_normal((6, 8, 3)).astype(np.float32)
midx = rng.integers(0, 6, size=(5, 1, 2)).astype(np.int64)
mbad = midx.copy()
mbad[1, 0, 1] = 9
add("multiaxis_double", "multiaxis", "axes = [0, 1]", mdata, midx, [DOUBLE], bad=mbad,
    shape_args={"axes": (0, 1)})
ndata = rng.standard_normal((5, 4, 3)).astype(np.float32)
nidx = rng.integers(0, 4, size=(6, 2)).astype(np.int64)
nbad = nidx.copy()
nbad[4, 0] = 5
add("nd_double", "nd", "batch_dims = 0", ndata, nidx, [DOUBLE], bad=nbad)
# A 0-d result: the consumer has no loop to fuse into, so on the GPU its
# load of the gather's buffer, its add and its store run in a one-thread
# kernel of their own (gather-map-to-gpu; before, the pipeline rejected
# the function: a host load of device memory).
ndata0 = rng.standard_normal((4, 3)).astype(np.float32)
add("nd_rank0_double", "nd", "batch_dims = 0", ndata0, np.array([2, -1], np.int64), [DOUBLE],
    bad=np.array([2, 3], np.int64), kernels=(2, 2))
# Not fused: a consumer that reads the gather transposed (not at its own
# position) keeps two kernels.
add("block_transposed_read", "block", "axis = 0", table[:, :4].copy(),
    rng.integers(0, 40, size=(4,)).astype(np.int64),
    [(["%y = arith.addf %a, %a : f32"], lambda g: (g + g).T, "f32",
      ["affine_map<(d0, d1) -> (d1, d0)>"])], kernels=(2, 2))

# A consumer of two gathers: the GPU fuses the second into it (the first's
# kernel stays), the CPU the first into its tiles (the second is read
# whole); an invalid index in the second under `error`.
ids2 = rng.integers(-40, 40, size=(5, 3)).astype(np.int64)
bad2 = ids2.copy()
bad2[0, 2] = -41
tt, it = tensor_type(table.shape, "f32"), tensor_type(ids.shape, "i64")
ot = tensor_type((5, 3, 16), "f32")
two = [gather_op_text("block", "%g", "%x0", "%x1", tt, it, ot, attrs="axis = 0"),
       gather_op_text("block", "%h", "%x0", "%x2", tt, it, ot, attrs="axis = 0")]
two += generic("%c0", ["%g", "%h"], ot, ["%y = arith.subf %a, %b : f32"], ins_types=[ot, ot],
               in_ety=["f32", "f32"], out_ety="f32")
functions.append(("two_gathers",
                  f"func.func @two_gathers(%x0: {tt}, %x1: {it}, %x2: {it}) -> {ot} {{\n" +
                  "\n".join(two) + f"\n  return %c0 : {ot}\n}}\n", (2, 3),
                  [table, ids, ids2], ref.block(table, ids) - ref.block(table, ids2),
                  [table, ids, bad2]))


# Indices that a linalg.generic computes (the argument plus one): the CPU
# fuses only the gather into the consumer's tiles, the producer stays whole,
# and an invalid value in the second tile is reported at its position in
# the producer's result.
it2 = tensor_type(lidx.shape, "i64")
dt2, ot2 = tensor_type(ldata.shape, "f32"), tensor_type(lidx.shape, "f32")
computed = generic("%idx", ["%x1"], it2, ["%one = arith.constant 1 : i64",
                                          "%y = arith.addi %a, %one : i64"],
                   ins_types=[it2], in_ety=["i64"], out_ety="i64")
computed.append(gather_op_text("elements", "%g", "%x0", "%idx", dt2, it2, ot2,
                               attrs="axis = 1"))
computed += generic("%c0", ["%g"], ot2, ["%y = arith.addf %a, %a : f32"], ins_types=[ot2],
                    in_ety=["f32"], out_ety="f32")
functions.append(("computed_indices_second_tile",
                  f"func.func @computed_indices_second_tile(%x0: {dt2}, %x1: {it2}) -> {ot2} {{\n"
                  + "\n".join(computed) + f"\n  return %c0 : {ot2}\n}}\n", (2, 3),
                  [ldata, lidx - 1], 2 * np.take_along_axis(ldata, lidx, axis=1),
                  [ldata, lbad - 1]))


def reduction(name, op, attrs, data, indices, dims, combiner, start, fn, kernels, bad=None,
              shape_args=None, generic_form=False, dynamic=False):
    """@name: gather.`op`, then a reduction of its result over `dims` into a
    fill of `start` (f32), combining by `combiner` (an arith op on f32):
    linalg.reduce, or with `generic_form` the linalg.generic torch-mlir
    writes. `fn`: numpy's reduction of the gathered values over `dims`.
    `dynamic`: every size known at run time only (the result's read from
    the gather's)."""
    shape_args = shape_args or {}
    out = output_shape(op, data.shape, indices.shape, **shape_args)
    kept = [n for d, n in enumerate(out) if d not in dims]
    if dynamic:
        data_shape, indices_shape = [None] * data.ndim, [None] * indices.ndim
        out, kept = [None] * len(out), [None] * len(kept)
    else:
        data_shape, indices_shape = data.shape, indices.shape
    dt, it = tensor_type(data_shape, "f32"), tensor_type(indices_shape, "i64")
    ot, rt = tensor_type(out, "f32"), tensor_type(kept, "f32")
    lines = [gather_op_text(op, "%g", "%x0", "%x1", dt, it, ot, attrs=attrs, **shape_args),
             f"  %z = arith.constant {start} : f32"]
    sizes = []
    if dynamic:
        for d in (d for d in range(len(out)) if d not in dims):
            lines += [f"  %k{d} = arith.constant {d} : index",
                      f"  %n{d} = tensor.dim %g, %k{d} : {ot}"]
            sizes.append(f"%n{d}")
    lines += [f"  %o = tensor.empty({', '.join(sizes)}) : {rt}",
              f"  %f = linalg.fill ins(%z : f32) outs(%o : {rt}) -> {rt}"]
    if generic_form:
        loops = ", ".join(f"d{d}" for d in range(len(out)))
        kept_loops = ", ".join(f"d{d}" for d in range(len(out)) if d not in dims)
        iterators = ", ".join('"reduction"' if d in dims else '"parallel"'
                              for d in range(len(out)))
        lines += [f"  %r = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({loops})>, "
                  f"affine_map<({loops}) -> ({kept_loops})>], iterator_types = [{iterators}]}} "
                  f"ins(%g : {ot}) outs(%f : {rt}) {{",
                  "  ^bb0(%a: f32, %b: f32):",
                  f"    %s = {combiner} %a, %b : f32",
                  "    linalg.yield %s : f32",
                  f"  }} -> {rt}"]
    else:
        lines += [f"  %r = linalg.reduce ins(%g : {ot}) outs(%f : {rt}) "
                  f"dimensions = [{', '.join(map(str, dims))}]",
                  "    (%a: f32, %b: f32) {",
                  f"      %s = {combiner} %a, %b : f32",
                  "      linalg.yield %s : f32",
                  "    }"]
    want = fn(getattr(ref, op)(data, indices, **shape_args).astype(np.float64),
              axis=tuple(dims)).astype(np.float32)
    # Sums in another order than numpy's (up to 240 values here).
    TOLERANCE[name] = 1e-4
    functions.append((name, f"func.func @{name}(%x0: {dt}, %x1: {it}) -> {rt} {{\n" +
                      "\n".join(lines) + f"\n  return %r : {rt}\n}}\n", kernels,
                      [data, indices], want, None if bad is None else [data, bad]))


# Reductions of gathers (an embedding bag's sum over its rows): on the GPU
# the gather fuses into the reduction's kernel, one thread per result that
# gathers and adds its elements (the fill of the start values keeps its
# own kernel); unfused, the gather, the fill and the reduction are three.
reduction("bag_sum", "block", "axis = 0", table, ids, [1], "arith.addf", "0.0", np.sum,
          (2, 3), bad=bad)
reduction("bag_max", "block", "axis = 0", table, ids, [1], "arith.maximumf", "-1.0e+30",
          np.max, (2, 3), bad=bad)
reduction("bag_sum_generic", "block", "axis = 0", table, ids, [1], "arith.addf", "0.0",
          np.sum, (2, 3), bad=bad, generic_form=True)
# Sums over the innermost dimension and over the outermost.
reduction("elements_row_sums", "elements", "axis = 1", edata, eidx, [1], "arith.addf", "0.0",
          np.sum, (2, 3), bad=ebad, shape_args={"axis": 1})
reduction("bag_column_sums", "block", "axis = 0", table, ids, [0], "arith.addf", "0.0",
          np.sum, (2, 3), bad=bad)
# Dimensions of 1: bags of one row (the sum over them is one addition to
# the fill), rows of one element, one bag. The gather's lowering drops them,
# the reduction reads it through reshapes; both run without those loops
# and fuse.
ids1 = rng.integers(-40, 40, size=(5, 1)).astype(np.int64)
bad1 = ids1.copy()
bad1[2, 0] = -41
reduction("bag_of_one_row_sum", "block", "axis = 0", table, ids1, [1], "arith.addf", "0.0",
          np.sum, (2, 3), bad=bad1)
column = rng.standard_normal((40, 1)).astype(np.float32)
reduction("bag_of_one_element_rows_max", "block", "axis = 0", column, ids, [1],
          "arith.maximumf", "-1.0e+30", np.max, (2, 3), bad=bad)
one_bag = ids[1:2]
bad_bag = one_bag.copy()
bad_bag[0, 2] = 40
reduction("one_bag_sum", "block", "axis = 0", table, one_bag, [0, 1], "arith.addf", "0.0",
          np.sum, (2, 3), bad=bad_bag)
# Sizes known at run time only: the gather's loop sits in the branch of its
# shape check; the reduction goes into both branches and fuses in the
# first. The code holds each branch's kernels, each in a 32-bit and a
# 64-bit index form: fused, the fill, the fused loop, and in the other
# branch the zero output's fill and its reduction (8); unfused, the gather
# instead of the fused loop and the reduction after the branch (8, and 2
# more for the bag's row copies). That the gather fuses is checked by
# reduction-loops-host.py and fuse-device-consumers.mlir; these run it.
reduction("dynamic_bag_sum", "block", "axis = 0", table, ids, [1], "arith.addf", "0.0",
          np.sum, (8, 10), bad=bad, dynamic=True)
reduction("dynamic_elements_row_max", "elements", "axis = 1", edata, eidx, [1],
          "arith.maximumf", "-1.0e+30", np.max, (8, 8), bad=ebad, shape_args={"axis": 1},
          dynamic=True)
# Not fused: a sum over a dimension that only the gather's output spans
# (the data's last, which no index reads): fused, no operand would give
# that loop its length (linalg's fusion refuses it). Three kernels, the
# reduction's one thread per result.
reduction("multiaxis_two_dim_sums", "multiaxis", "axes = [0, 1]", mdata, midx, [0, 2],
          "arith.addf", "0.0", np.sum, (3, 3), bad=mbad, shape_args={"axes": (0, 1)})
# A sum of everything gathered: not fused either (the row again), and its
# one result in a one-thread kernel (the GPU pipeline rejected it before).
reduction("bag_total", "block", "axis = 0", table, ids, [0, 1, 2], "arith.addf", "0.0",
          np.sum, (3, 3), bad=bad)


def count_kernels(opt, text, fuse):
    """{function: gpu.launch_func count} in the GPU pipeline's output."""
    r = subprocess.run([opt, f"--gather-gpu-pipeline=format=isa fuse-consumers={int(fuse)}"],
                       input=text, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"FAIL: the GPU pipeline failed: {r.stderr.strip()}")
    counts, current = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"\s*llvm\.func @(\w+)\(", line)
        if m:
            current = m.group(1)
            counts.setdefault(current, 0)
        elif current and "gpu.launch_func" in line:
            counts[current] += 1
    return counts, r.stdout


def main():
    bin_dir, device = sys.argv[1], sys.argv[2]
    opt = os.path.join(bin_dir, "gather-opt")
    module = "\n".join(text for _, text, *_ in functions)
    failed = passed = 0
    fused, fused_text = count_kernels(opt, module, True)
    unfused, _ = count_kernels(opt, module, False)
    for name, _, (want_fused, want_unfused), *_ in functions:
        if (fused.get(name), unfused.get(name)) != (want_fused, want_unfused):
            print(f"FAIL {name}: kernels fused/unfused {fused.get(name)}/{unfused.get(name)}, "
                  f"expected {want_fused}/{want_unfused}")
            failed += 1
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if os.path.exists(ptxas):
        from gather_testing import ptxcheck
        work = tempfile.mkdtemp(prefix="gather-fused-")
        path = os.path.join(work, "fused.mlir")
        with open(path, "w") as f:
            f.write(module)
        kernels, problems = ptxcheck.check_file(path, ["sm_80", "sm_90"],
                                                {"gather-opt": opt, "ptxas": ptxas}, work)
        print(f"ptxas: {kernels} kernels assembled for sm_80 and sm_90")
        for problem in problems:
            print(f"FAIL {problem}")
        failed += len(problems)
        shutil.rmtree(work, ignore_errors=True)
    program = jit.compile(module, entry=functions[0][0], device=device)
    for name, _, _, args, want, bad_args in functions:
        program.select(name)
        got = program(*args)
        close = (np.allclose(got, want, rtol=0, atol=TOLERANCE.get(name, 1e-6))
                 if want.dtype.kind == "f"
                 else np.array_equal(got, want))
        if got.shape != want.shape or got.dtype != want.dtype or not close:
            print(f"FAIL {name}: got {got.tolist()}\n  want {want.tolist()}")
            failed += 1
        else:
            passed += 1
        if bad_args is None:
            continue
        try:
            program(*bad_args)
            print(f"FAIL {name}: an invalid index gave no error")
            failed += 1
        except jit.GatherError as e:
            # The one value that differs, at its position as written.
            which = 1 if name != "two_gathers" else 2
            position = tuple(int(p) for p in
                             np.argwhere(bad_args[which] != args[which])[0])
            # (The computed indices are the argument plus one.)
            value = int(bad_args[which][position]) + (name == "computed_indices_second_tile")
            expected = (f"index {value} at indices[{', '.join(map(str, position))}] "
                        f"is out of range")
            if expected not in str(e):
                print(f"FAIL {name}: expected {expected!r} in the error, got {e}")
                failed += 1
            else:
                passed += 1
    print(f"fused-consumers ({device}): {len(functions)} functions, {passed} runs passed, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
