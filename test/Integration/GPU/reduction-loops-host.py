# The loops that gather-gpu-reduction-loops makes of bufferized reductions
# (one iteration of an scf.parallel per result, the reduction dimensions in
# scf.for loops carrying the results), run on the host without a GPU: random
# linalg.generic reductions (sums and maxima over one or two dimensions
# anywhere in the loop order or over all of them, a second result, an input broadcast along
# some loops, the loop position read in the body, static and dynamic
# sizes) are bufferized, rewritten by the pass, lowered for the CPU and run
# by mlir-runner, and each printed result is compared with numpy's. Every
# reduction must have been rewritten (none left for
# convert-linalg-to-loops).
# RUN: %python %s %gather_bin %mlir_runner %llvm_lib | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: reduction loops on the host: 40 reductions, 40 passed, 0 failed
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

bin_dir, runner, llvm_lib = sys.argv[1:4]
opt = os.path.join(bin_dir, "gather-opt")
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


def main():
    count = 40
    lines, wants = [], []
    for k in range(count):
        text, want = case(k)
        lines += text
        wants.append(want)
    consts = [f"  %c{d} = arith.constant {d} : index" for d in range(4)]
    module = ("func.func private @printMemrefF32(tensor<*xf32>)\nfunc.func @main() {\n" +
              "\n".join(consts + lines) + "\n  return\n}\n")
    work = tempfile.mkdtemp(prefix="gather-reduction-loops-")
    src = os.path.join(work, "reductions.mlir")
    with open(src, "w") as f:
        f.write(module)
    rewritten = subprocess.run(
        [opt, src, "--one-shot-bufferize=bufferize-function-boundaries",
         "--gather-gpu-reduction-loops"], capture_output=True, text=True)
    if rewritten.returncode:
        sys.exit(f"FAIL: gather-gpu-reduction-loops: {rewritten.stderr}")
    left = len(re.findall(r'"reduction"', rewritten.stdout))
    if left:
        print(f"FAIL: {left} reduction iterators left after the pass")
    made = len(re.findall(r"scf\.parallel", rewritten.stdout))
    if made != count:
        print(f"FAIL: {made} scf.parallel loops made, expected {count}")
    lowered = subprocess.run(
        [opt, "--convert-linalg-to-loops", "--convert-scf-to-cf", "--expand-strided-metadata",
         "--lower-affine", "--finalize-memref-to-llvm", "--convert-to-llvm",
         "--reconcile-unrealized-casts"], input=rewritten.stdout, capture_output=True, text=True)
    if lowered.returncode:
        sys.exit(f"FAIL: lowering: {lowered.stderr}")
    libs = ",".join(os.path.join(llvm_lib, n) for n in
                    ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))
    run = subprocess.run([runner, "-e", "main", "-entry-point-result=void",
                          f"-shared-libs={libs}"], input=lowered.stdout, capture_output=True,
                         text=True)
    if run.returncode:
        sys.exit(f"FAIL: mlir-runner: {run.stderr}")
    printed = run.stdout.split("Unranked Memref")[1:]
    flat = [w for want in wants for w in want]
    if len(printed) != len(flat):
        sys.exit(f"FAIL: {len(printed)} results printed, expected {len(flat)}")
    passed = failed = 0
    results = iter(printed)
    for k, want in enumerate(wants):
        ok = True
        for w in want:
            data = next(results).split("data =", 1)[1]
            got = np.array([float(n) for n in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?|-?inf|nan",
                                                         data)], np.float32)
            if got.size != w.size or not np.allclose(got, w.reshape(-1), rtol=1e-4, atol=1e-4):
                print(f"FAIL r{k}: got {got.tolist()}\n  want {w.reshape(-1).tolist()}")
                ok = False
        passed += ok
        failed += not ok
    print(f"reduction loops on the host: {count} reductions, {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
