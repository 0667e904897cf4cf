# The GPU pipeline's reductions run on the host without a GPU, against
# numpy: the loops that gather-gpu-reduction-loops makes of bufferized
# reductions (one iteration of an scf.parallel per result, the reduction
# dimensions in scf.for loops carrying the results), and the gathers that
# gather-fuse-device-consumers fuses into them.
# - 40 random linalg.generic reductions (sums and maxima over one or two
#   dimensions anywhere in the loop order or over all of them, a second
#   result, an input broadcast along some loops, the loop position read in
#   the body, static and dynamic sizes); every one rewritten by the pass.
# - 32 random gathers reduced by linalg.reduce (embedding bags' sums and
#   maxima over their rows, over the bags, or both; element gathers' row
#   sums; two in five with a dimension of 1, three in seven of run-time
#   sizes, whose reduction goes into the shape check's branch) under
#   `clamp`, `fill` and `unchecked`, one in six squared elementwise
#   instead, each in a function of its own called with constants: every
#   one fused (one loop reads and combines, none only reads) by
#   --convert-gather-to-gpu --gather-fuse-device-consumers.
# - 16 more under `error`, whose fused loops raise the device error flag:
#   its memset and copies become host operations (the host runs what the
#   device would), the flag is read after the fused loop, the results
#   match numpy; and 4 with an index out of range, reported with its value
#   and position (exit 1, no result).
# Each module is bufferized, rewritten by the pass, lowered for the CPU and
# run by mlir-runner; each printed result is compared with numpy's.
# RUN: %python %s %gather_bin %mlir_runner %llvm_lib | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: reduction loops on the host: 40 reductions, 40 passed, 0 failed
# CHECK: fused gather reductions under `error` on the host: 16 reductions and 4 invalid indices, 20 passed, 0 failed
# CHECK: fused gather reductions on the host: 32 reductions, 32 passed, 0 failed
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from gather import reference as ref
from gather_testing import hostrun
from gather.mlir_text import gather_op_text, output_shape, tensor_type

bin_dir, runner, llvm_lib = sys.argv[1:4]
opt = os.path.join(bin_dir, "gather-opt")
runtime_lib = os.path.join(bin_dir, os.pardir, "lib", "libgather_runtime.so")
rng = np.random.default_rng(74)


def dense(a):
    return "dense<" + np.array2string(a, separator=", ", threshold=1 << 30,
                                      floatmode="unique").replace("\n", "") + ">"


def ttype(shape, dynamic):
    return "tensor<" + "".join(("?" if dynamic else str(n)) + "x" for n in shape) + "f32>"


def case(k):
    """One function @r{k} printing its results; returns (text, wants)."""
    rank = int(rng.integers(2, 5))
    shape = [int(n) for n in rng.integers(1, 6, size=rank)]
    # One or two reduced dimensions, or (one case in six) all of them.
    count = rank if rng.integers(0, 6) == 0 else int(rng.integers(1, min(2, rank - 1) + 1))
    reduced = sorted(int(d) for d in rng.choice(rank, size=count, replace=False))
    kept = [d for d in range(rank) if d not in reduced]
    # The results' dimensions in any order of the kept loops.
    order = [kept[i] for i in rng.permutation(len(kept))]
    dynamic = bool(rng.integers(0, 2))
    use_index = bool(rng.integers(0, 2))
    broadcast = bool(rng.integers(0, 2))
    two = bool(rng.integers(0, 2))
    x = rng.standard_normal(shape).astype(np.float32)
    v = rng.standard_normal(shape[-1]).astype(np.float32)
    loops = ", ".join(f"d{d}" for d in range(rank))
    out_shape = [shape[d] for d in order]
    xt = ttype(shape, dynamic)
    if dynamic:
        lines = [f"  %x{k}s = arith.constant {dense(x)} : {ttype(shape, False)}",
                 f"  %x{k} = tensor.cast %x{k}s : {ttype(shape, False)} to {xt}"]
    else:
        lines = [f"  %x{k} = arith.constant {dense(x)} : {xt}"]
    ot = ttype(out_shape, dynamic)
    sizes = []
    if dynamic:
        for d in order:
            lines.append(f"  %n{k}_{d} = tensor.dim %x{k}, %c{d} : {xt}")
            sizes.append(f"%n{k}_{d}")
    empty = f"tensor.empty({', '.join(sizes)}) : {ot}"
    ins, in_types, maps, args = [f"%x{k}"], [xt], [f"affine_map<({loops}) -> ({loops})>"], ["%a: f32"]
    if broadcast:
        lines.append(f"  %v{k} = arith.constant {dense(v)} : tensor<{shape[-1]}xf32>")
        ins.append(f"%v{k}")
        in_types.append(f"tensor<{shape[-1]}xf32>")
        maps.append(f"affine_map<({loops}) -> (d{rank - 1})>")
        args.append("%b: f32")
    out_map = f"affine_map<({loops}) -> ({', '.join(f'd{d}' for d in order)})>"
    outs, out_types = [], []
    starts = [0.0, -1.0e30]
    for j in range(2 if two else 1):
        lines.append(f"  %e{k}_{j} = {empty}")
        lines.append(f"  %s{k}_{j} = arith.constant {starts[j]:e} : f32")
        lines.append(f"  %f{k}_{j} = linalg.fill ins(%s{k}_{j} : f32) outs(%e{k}_{j} : {ot}) -> {ot}")
        outs.append(f"%f{k}_{j}")
        out_types.append(ot)
        maps.append(out_map)
        args.append(f"%o{j}: f32")
    iterators = ", ".join('"reduction"' if d in reduced else '"parallel"' for d in range(rank))
    body = ["    %t = arith.addf %a, %a : f32"] if not broadcast else ["    %t = arith.mulf %a, %b : f32"]
    if use_index:
        last = reduced[-1]
        body += [f"    %i = linalg.index {last} : index",
                 "    %ii = arith.index_cast %i : index to i64",
                 "    %if = arith.sitofp %ii : i64 to f32",
                 "    %u = arith.addf %t, %if : f32"]
    else:
        body.append("    %u = arith.addf %t, %t : f32")
    body.append("    %y0 = arith.addf %u, %o0 : f32")
    if two:
        body.append("    %y1 = arith.maximumf %u, %o1 : f32")
    yields = ", ".join(f"%y{j}" for j in range(len(outs)))
    lines.append(f"  %r{k}:{len(outs)} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                 f"iterator_types = [{iterators}]}} ins({', '.join(ins)} : {', '.join(in_types)}) "
                 f"outs({', '.join(outs)} : {', '.join(out_types)}) {{")
    lines.append(f"  ^bb0({', '.join(args)}):")
    lines += body
    lines.append(f"    linalg.yield {yields} : {', '.join(['f32'] * len(outs))}")
    lines.append(f"  }} -> ({', '.join(out_types)})")
    for j in range(len(outs)):
        lines.append(f"  %p{k}_{j} = tensor.cast %r{k}#{j} : {ot} to tensor<*xf32>")
        lines.append(f"  call @printMemrefF32(%p{k}_{j}) : (tensor<*xf32>) -> ()")
    # numpy: the same values, reduced, then put in the results' order.
    t = x * v if broadcast else x + x
    if use_index:
        pos = np.arange(shape[reduced[-1]], dtype=np.float32).reshape(
            [shape[d] if d == reduced[-1] else 1 for d in range(rank)])
        u = t + pos
    else:
        u = t + t
    want = [np.sum(u, axis=tuple(reduced), dtype=np.float64)]
    if two:
        want.append(np.maximum(np.max(u, axis=tuple(reduced)), -1.0e30))
    perm = [kept.index(d) for d in order]
    return lines, [np.transpose(w, perm).astype(np.float32) for w in want]


def consumer_lines(out, ot):
    """%r: the square of each element of %g (type `ot`, shape `out`) into %e."""
    loops = ", ".join(f"d{d}" for d in range(len(out)))
    identity = f"affine_map<({loops}) -> ({loops})>"
    iterators = ", ".join(['"parallel"'] * len(out))
    return [f"  %r = linalg.generic {{indexing_maps = [{identity}, {identity}], "
            f"iterator_types = [{iterators}]}} "
            f"ins(%g : {ot}) outs(%e : {ot}) {{",
            "  ^bb0(%a: f32, %b: f32):",
            "    %s = arith.mulf %a, %a : f32",
            "    linalg.yield %s : f32",
            f"  }} -> {ot}"]


def gather_case(k, policy=None, invalid=False):
    """@main's lines of one gather reduced into a fill, numpy's result, the
    function and its combiner. `policy`: `error` (valid indices), or by
    default `clamp`, `fill` and `unchecked` in turn. `invalid` (under
    `error`): one index out of range, and instead of numpy's result the
    report expected."""
    policy = policy or ["clamp", "fill", "unchecked"][k % 3]
    combiner, start, fn = [("arith.addf", 0.0, np.sum),
                           ("arith.maximumf", -1.0e30, np.max)][(k // 3) % 2]
    # Two cases in five have a dimension of 1 (a bag of one row, rows of one
    # element, one bag): the gather's lowering drops it, and the reduction
    # reads the gather through an expand_shape that adds it back.
    unit = k % 5 < 2
    if k % 4 == 3:
        # An element gather's rows summed (indices and output (R, K)).
        op, axis = "elements", 1
        rows, cols, width = (int(n) for n in rng.integers(2, 7, size=3))
        if unit:
            rows, width = [(1, width), (rows, 1), (1, 1)][int(rng.integers(0, 3))]
        data = rng.standard_normal((rows, cols)).astype(np.float32)
        ids = rng.integers(-cols, cols, size=(rows, width))
        dims = [1]
    else:
        # An embedding bag: (bags, length, row) reduced over the bags'
        # rows, over the bags, or both (never over the row: no index read
        # spans that loop, so it would not fuse).
        op, axis = "block", 0
        rows, width = int(rng.integers(2, 30)), int(rng.integers(2, 9))
        bags, length = (int(n) for n in rng.integers(2, 6, size=2))
        if unit:
            # One of the bags, their length or the row of one element, or
            # all three.
            which = int(rng.integers(0, 4))
            bags, length, width = [1 if which in (j, 3) else n
                                   for j, n in enumerate((bags, length, width))]
        data = rng.standard_normal((rows, width)).astype(np.float32)
        ids = rng.integers(-rows, rows, size=(bags, length))
        dims = [[1], [0], [0, 1]][int(rng.integers(0, 3))]
    report = None
    if invalid:
        position = tuple(int(n) // 2 for n in ids.shape)
        ids[position] = data.shape[axis] + 3
        report = (f"index {data.shape[axis] + 3} at indices[{', '.join(map(str, position))}] "
                  "is out of range")
    if policy == "unchecked":
        ids = np.where(ids < 0, ids + data.shape[axis], ids)
    elif policy == "clamp" or policy == "fill":
        # Some out of range.
        ids[rng.random(ids.shape) < 0.2] += 2 * data.shape[axis]
    # One in six an elementwise consumer (the gather's values squared)
    # instead of the reduction.
    elementwise = k % 6 == 5
    if elementwise:
        dims, combiner, fn = [], "arith.mulf", None
    shape_args = {"axis": axis} if op == "elements" else {}
    out = output_shape(op, data.shape, ids.shape, **shape_args)
    kept = [n for d, n in enumerate(out) if d not in dims]
    # Some with run-time sizes: the gather's loop then sits in the branch of
    # its shape check, and the reduction goes into that branch to fuse.
    dynamic = k % 7 in (2, 3, 6)
    dt, it = tensor_type(data.shape, "f32"), tensor_type(ids.shape, "i64")
    ot, rt = tensor_type(out, "f32"), tensor_type(kept, "f32")
    fdt, fit, fot, frt = dt, it, ot, rt
    sizes = []
    if dynamic:
        fdt, fit = (tensor_type([None] * len(s), t) for s, t in ((data.shape, "f32"),
                                                               (ids.shape, "i64")))
        fot, frt = tensor_type([None] * len(out), "f32"), tensor_type([None] * len(kept), "f32")
        sizes = [(f"%n{j}", d) for j, d in enumerate(d for d in range(len(out))
                                                     if d not in dims)]
    # The gather and its reduction in a function of their own, called with
    # the constants: in @main the gather of constants would fold away.
    function = "\n".join([
        f"func.func @g{k}(%d: {fdt}, %i: {fit}) -> {frt} {{",
        gather_op_text(op, "%g", "%d", "%i", fdt, fit, fot,
                       attrs=f"axis = {axis} out_of_bounds = {policy}", **shape_args),
        f"  %z = arith.constant {start:e} : f32",
        *[line for n, d in sizes for line in (f"  {n}c = arith.constant {d} : index",
                                              f"  {n} = tensor.dim %g, {n}c : {fot}")],
        f"  %e = tensor.empty({', '.join(n for n, _ in sizes)}) : {frt}",
        *(consumer_lines(out, fot) if elementwise else [
            f"  %f = linalg.fill ins(%z : f32) outs(%e : {frt}) -> {frt}",
            f"  %r = linalg.reduce ins(%g : {fot}) outs(%f : {frt}) "
            f"dimensions = [{', '.join(map(str, dims))}]",
            "    (%a: f32, %b: f32) {",
            f"      %s = {combiner} %a, %b : f32",
            "      linalg.yield %s : f32",
            "    }"]),
        f"  return %r : {frt}",
        "}"])
    lines = [f"  %gd{k} = arith.constant {dense(data)} : {dt}",
             f"  %gi{k} = arith.constant {dense(ids)} : {it}",
             f"  %gdc{k} = tensor.cast %gd{k} : {dt} to {fdt}",
             f"  %gic{k} = tensor.cast %gi{k} : {it} to {fit}",
             f"  %gr{k} = call @g{k}(%gdc{k}, %gic{k}) : ({fdt}, {fit}) -> {frt}",
             f"  %gp{k} = tensor.cast %gr{k} : {frt} to tensor<*xf32>",
             f"  call @printMemrefF32(%gp{k}) : (tensor<*xf32>) -> ()"]
    if invalid:
        return lines, report, function, combiner
    gathered = getattr(ref, op)(data, ids, out_of_bounds=policy, **shape_args)
    if elementwise:
        return lines, [gathered * gathered], function, combiner
    want = fn(gathered.astype(np.float64), axis=tuple(dims))
    if fn is np.max:
        want = np.maximum(want, start)
    return lines, [want.astype(np.float32)], function, combiner


def module_text(lines, functions):
    consts = [f"  %c{d} = arith.constant {d} : index" for d in range(4)]
    return ("func.func private @printMemrefF32(tensor<*xf32>)\n" +
            "".join(f + "\n" for f in functions) + "func.func @main() {\n" +
            "\n".join(consts + lines) + "\n  return\n}\n")


def lower_and_run(text):
    return hostrun.lower_and_run(opt, runner, llvm_lib, runtime_lib, text)


def run_module(work, name, lines, wants, before=(), functions=(), host=False, loops=None):
    """Runs @main of `lines` (after the passes `before`, if any, and
    bufferization and the pass; with `host`, the device's memset and copies
    made host operations first); returns (problems, per-case verdicts) and
    the IR right after `before`."""
    src = os.path.join(work, f"{name}.mlir")
    with open(src, "w") as f:
        f.write(module_text(lines, functions))
    staged = subprocess.run([opt, src, *before], capture_output=True, text=True)
    if staged.returncode:
        sys.exit(f"FAIL: {' '.join(before)}: {staged.stderr}")
    rewritten = hostrun.bufferize(opt, staged.stdout, host)
    left = len(re.findall(r'"reduction"', rewritten)) + rewritten.count(
        "linalg.reduce")
    if left:
        print(f"FAIL {name}: {left} reductions left after the pass")
    made = len(re.findall(r"scf\.parallel", rewritten))
    loops = len(wants) if loops is None else loops
    if made < loops:
        print(f"FAIL {name}: {made} scf.parallel loops made, expected {loops} or more")
    run = lower_and_run(rewritten)
    if run.returncode:
        sys.exit(f"FAIL: mlir-runner: {run.stderr}")
    printed = hostrun.printed_arrays(run.stdout)
    flat = [w for want in wants for w in want]
    if len(printed) != len(flat):
        sys.exit(f"FAIL: {len(printed)} results printed, expected {len(flat)}")
    passed = failed = 0
    results = iter(printed)
    for k, want in enumerate(wants):
        ok = True
        for w in want:
            got = np.array(next(results), np.float32)
            if got.size != w.size or not np.allclose(got, w.reshape(-1), rtol=1e-4, atol=1e-4):
                print(f"FAIL {name} {k}: got {got.tolist()}\n  want {w.reshape(-1).tolist()}")
                ok = False
        passed += ok
        failed += not ok
    return passed, failed, staged.stdout


def check_fused(text, combiners, under):
    """The number of functions @g<k> of `text` in which the gather's loop
    is not fused into its reduction: one loop reads the data (tensor.extract)
    and combines (a reduction over dimensions of 1 only is all-parallel), no
    loop only reads. With run-time sizes a second loop applies the
    reduction to the zero output of the shape check's other branch. Under
    `error`, the host reads the device flag after the fused loop."""
    failed = 0
    for name, body in re.findall(r"func\.func @g(\d+)\((.*?)\n  }", text, re.S):
        combiner = combiners.get(int(name))
        if combiner is None:
            continue
        loops = [(m.start(), body[m.start():body.find("} ->", m.start())])
                 for m in re.finditer(r"linalg\.(generic|reduce) ", body)]
        fused = [at for at, loop in loops if "tensor.extract" in loop and combiner in loop]
        gathers = [at for at, loop in loops if "tensor.extract" in loop and combiner not in loop]
        flag = body.find("{gather.error_flag}")
        if len(fused) != 1 or gathers or (under and flag < fused[0]):
            print(f"FAIL: @g{name}{under}: {len(fused)} fused loops, {len(gathers)} gather "
                  f"loops not fused, the flag read at {flag}, loops at {[a for a, _ in loops]}")
            failed += 1
    return failed


def main():
    work = tempfile.mkdtemp(prefix="gather-reduction-loops-")
    count = 40
    lines, wants = [], []
    for k in range(count):
        text, want = case(k)
        lines += text
        wants.append(want)
    passed, failed, _ = run_module(work, "reductions", lines, wants)
    print(f"reduction loops on the host: {count} reductions, {passed} passed, {failed} failed")
    gathers = 32
    lines, wants, functions, combiners = [], [], [], []
    for k in range(gathers):
        text, want, function, combiner = gather_case(k)
        lines += text
        wants.append(want)
        functions.append(function)
        combiners.append(combiner)
    gpassed, gfailed, fused = run_module(
        work, "gathers", lines, wants,
        before=["--convert-gather-to-gpu", "--gather-fuse-device-consumers"],
        functions=functions, loops=combiners.count("arith.addf") +
        combiners.count("arith.maximumf"))
    gfailed += check_fused(fused, dict(enumerate(combiners)), "")
    # Under `error` with valid indices (their loops raise the device error
    # flag, zeroed, raised and copied back by host operations here): fused,
    # the flag read after the fused loop, results against numpy.
    errors = 16
    lines, wants, functions, combiners = [], [], [], {}
    for k in range(gathers, gathers + errors):
        text, want, function, combiners[k] = gather_case(k, policy="error")
        lines += text
        wants.append(want)
        functions.append(function)
    epassed, efailed, checked = run_module(
        work, "errors", lines, wants,
        before=["--convert-gather-to-gpu", "--gather-fuse-device-consumers"],
        functions=functions, host=True,
        loops=sum(c != "arith.mulf" for c in combiners.values()))
    efailed += check_fused(checked, combiners, " under `error`")
    # And with an index out of range: the host reads the flag that the fused
    # loop raised, scans the indices and reports the invalid one.
    invalid = 4
    for k in range(gathers + errors, gathers + errors + invalid):
        text, report, function, _ = gather_case(k, policy="error", invalid=True)
        staged = subprocess.run(
            [opt, "--convert-gather-to-gpu", "--gather-fuse-device-consumers"],
            input=module_text(text, [function]), capture_output=True, text=True)
        run = lower_and_run(hostrun.bufferize(opt, staged.stdout))
        if run.returncode != 1 or report not in run.stderr or "Unranked" in run.stdout:
            print(f"FAIL: @g{k} under `error` with an invalid index: exit {run.returncode}, "
                  f"expected {report!r} in {run.stderr.strip()!r}, no result")
            efailed += 1
        else:
            epassed += 1
    print(f"fused gather reductions under `error` on the host: {errors} reductions and "
          f"{invalid} invalid indices, {epassed} passed, {efailed} failed")
    print(f"fused gather reductions on the host: {gathers} reductions, {gpassed} passed, "
          f"{gfailed} failed")
    return 1 if failed or gfailed or efailed else 0


if __name__ == "__main__":
    sys.exit(main())
