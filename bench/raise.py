# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Gathers as frontends write them: W1-W4 as gather-like linalg.generic ops.

Each workload is the generic a frontend emits for it (W1: torch-mlir's
aten.embedding; W2: its aten.index_select on a middle axis; W3: its
aten.gather; W4: StableHLO's gather, batch dimension 0, the coordinates
read in the body from the indices' trailing dimension and clamped as
StableHLO clamps start indices; W1t and W3t: W1 and W3 as torch-mlir
writes them today, with its two bound asserts in the body), timed in one
run through the same runner
(gather-run --bench: the median of N calls, compilation excluded, the same
JIT and LLVM -O3):
  raised     --gather-cpu-pipeline, which raises the generic into the gather
             op first (its plain read checked: out_of_bounds = error);
  unchecked  the same raised with plain-reads=unchecked (what the source
             means: a plain read of a bad index is undefined there);
  unraised   --gather-cpu-pipeline with raise-linalg=false (upstream's
             lowering of the generic inside our pipeline);
  upstream   upstream MLIR's own route: a transform script that tiles the
             generic over the threads (scf.forall), tiles it again and
             vectorizes the tiles with vectorize_nd_extract, then upstream's
             usual passes to LLVM (one-shot-bufferize, scf-forall-to-parallel,
             convert-scf-to-openmp, vector and memref to LLVM). Several tile
             sizes are tried (and the tiled loops without vectorization); the
             best is kept and named.
Every result is compared with numpy. Rounds alternate the contenders; each
keeps its best median.

    /usr/bin/python3 bench/raise.py --runs 11 --rounds 3 --threads 2
"""

import argparse
import atexit
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# The upstream lowering after the transform script: upstream passes only.
UPSTREAM_PASSES = (
    "canonicalize,cse,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "func.func(convert-linalg-to-loops,scf-forall-to-parallel),"
    "convert-scf-to-openmp,canonicalize,"
    "func.func(expand-strided-metadata,convert-vector-to-scf,lower-affine,"
    "convert-scf-to-cf,convert-vector-to-llvm),"
    "convert-to-llvm,reconcile-unrealized-casts")

TRANSFORM = """module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %g = transform.structured.match ops{{["linalg.generic"]}} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %g num_threads [{threads}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
{inner}    transform.yield
  }}
}}
"""

INNER = """    %inner, {loops} = transform.structured.tile_using_for %tiled tile_sizes [{tile}] : (!transform.any_op) -> (!transform.any_op, {loop_types})
    transform.structured.vectorize %inner {{vectorize_nd_extract}} : !transform.any_op
    %f = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
"""


def generic(name, ins, maps, out_shape, body, loops, args):
    """A gather-like generic in a function @main(args) -> the output."""
    out = "tensor<" + "x".join(map(str, out_shape)) + "xf32>"
    dims = ", ".join(f"d{i}" for i in range(loops))
    amap = lambda r: f"affine_map<({dims}) -> ({r})>"
    ins_text = (f"ins({', '.join(v for v, _ in ins)} : {', '.join(t for _, t in ins)}) "
                if ins else "")
    bb = ", ".join([f"%in{i}: i64" for i in range(len(ins))] + ["%out: f32"])
    params = ", ".join(f"{v}: {t}" for v, t in args)
    iterators = ", ".join(['"parallel"'] * loops)
    return (f"// {name}\nfunc.func @main({params}) -> {out} {{\n"
            f"  %init = tensor.empty() : {out}\n"
            f"  %r = linalg.generic {{indexing_maps = [{', '.join(amap(m) for m in maps + [dims])}], "
            f"iterator_types = [{iterators}]}}\n"
            f"      {ins_text}outs(%init : {out}) {{\n  ^bb0({bb}):\n{body}"
            f"  }} -> {out}\n  return %r : {out}\n}}\n")


def workloads(rng):
    w = {}
    d = rng.standard_normal((50000, 768), dtype=np.float32)
    i = rng.integers(0, 50000, size=8192)
    t, it = "tensor<50000x768xf32>", "tensor<8192xi64>"
    w["W1"] = dict(
        what="embedding (torch-mlir aten.embedding): 50000x768 f32, 8192 i64 indices",
        args=[d, i], want=lambda d=d, i=i: np.take(d, i, axis=0),
        mlir=generic("W1", [("%idx", it)], ["d0"], (8192, 768),
                     "    %x = arith.index_cast %in0 : i64 to index\n"
                     "    %j = linalg.index 1 : index\n"
                     f"    %v = tensor.extract %t[%x, %j] : {t}\n"
                     "    linalg.yield %v : f32\n", 2, [("%t", t), ("%idx", it)]),
        tiles=[[1, 8], [1, 16], [1, 64]])
    # W1 and W3 as torch-mlir writes them today: its embedding and gather
    # bodies assert that the index is in range before the read.
    def asserted(base, op, after, size):
        asserts = ("    %xi = arith.index_cast %in0 : i64 to index\n"
                   f"    %size = arith.constant {size} : index\n"
                   "    %lt = arith.cmpi slt, %xi, %size : index\n"
                   '    cf.assert %lt, "index must be smaller than dim size"\n'
                   "    %zero = arith.constant 0 : i64\n"
                   "    %ge = arith.cmpi sge, %in0, %zero : i64\n"
                   '    cf.assert %ge, "index must be larger or equal to 0"\n')
        return dict(what=f"{base} as torch-mlir writes {op} today (bound asserts in the body)",
                    args=w[base]["args"], want=w[base]["want"], tiles=w[base]["tiles"],
                    mlir=w[base]["mlir"].replace(after, after + asserts))

    w["W1t"] = asserted("W1", "aten.embedding", "    %j = linalg.index 1 : index\n", 50000)
    d = rng.standard_normal((64, 1000, 256), dtype=np.float32)
    i = rng.integers(0, 1000, size=500)
    t, it = "tensor<64x1000x256xf32>", "tensor<500xi64>"
    w["W2"] = dict(
        what="index_select on axis 1 (torch-mlir aten.index_select): 64x1000x256 f32, 500 indices",
        args=[d, i], want=lambda d=d, i=i: np.take(d, i, axis=1),
        mlir=generic("W2", [("%idx", it)], ["d1"], (64, 500, 256),
                     "    %x = arith.index_cast %in0 : i64 to index\n"
                     "    %a = linalg.index 0 : index\n"
                     "    %b = linalg.index 2 : index\n"
                     f"    %v = tensor.extract %t[%a, %x, %b] : {t}\n"
                     "    linalg.yield %v : f32\n", 3, [("%t", t), ("%idx", it)]),
        tiles=[[1, 1, 8], [1, 1, 16], [1, 1, 64]])
    d = rng.standard_normal((4096, 4096), dtype=np.float32)
    i = rng.integers(0, 4096, size=(4096, 1024))
    t, it = "tensor<4096x4096xf32>", "tensor<4096x1024xi64>"
    w["W3"] = dict(
        what="torch.gather on axis 1 (torch-mlir aten.gather): 4096x4096 f32, indices 4096x1024",
        args=[d, i], want=lambda d=d, i=i: np.take_along_axis(d, i, axis=1),
        mlir=generic("W3", [("%idx", it)], ["d0, d1"], (4096, 1024),
                     "    %x = arith.index_cast %in0 : i64 to index\n"
                     "    %a = linalg.index 0 : index\n"
                     f"    %v = tensor.extract %t[%a, %x] : {t}\n"
                     "    linalg.yield %v : f32\n", 2, [("%t", t), ("%idx", it)]),
        tiles=[[1, 8], [1, 16], [1, 64]])
    w["W3t"] = asserted("W3", "aten.gather", "    %a = linalg.index 0 : index\n", 4096)
    d = rng.standard_normal((16, 512, 512, 4), dtype=np.float32)
    i = rng.integers(0, 512, size=(16, 65536, 2))
    b = np.arange(16)[:, None]
    t, it = "tensor<16x512x512x4xf32>", "tensor<16x65536x2xi64>"
    clamp = "".join(
        f"    %r{c} = tensor.extract %idx[%a, %p, %c{c}] : {it}\n"
        f"    %x{c} = arith.index_cast %r{c} : i64 to index\n"
        f"    %lo{c} = arith.maxsi %x{c}, %c0 : index\n"
        f"    %y{c} = arith.minsi %lo{c}, %c511 : index\n" for c in range(2))
    w["W4"] = dict(
        what="gather_nd, batch dimension 0 (StableHLO gather, clamped start indices): "
             "16x512x512x4 f32, indices 16x65536x2",
        args=[d, i], want=lambda d=d, i=i, b=b: d[b, i[..., 0], i[..., 1]],
        mlir=generic("W4", [], [], (16, 65536, 4),
                     "    %c0 = arith.constant 0 : index\n"
                     "    %c1 = arith.constant 1 : index\n"
                     "    %c511 = arith.constant 511 : index\n"
                     "    %a = linalg.index 0 : index\n"
                     "    %p = linalg.index 1 : index\n"
                     "    %e = linalg.index 2 : index\n" + clamp +
                     f"    %v = tensor.extract %t[%a, %y0, %y1, %e] : {t}\n"
                     "    linalg.yield %v : f32\n", 3, [("%t", t), ("%idx", it)]),
        tiles=[[1, 1, 4], [1, 16, 4], [1, 64, 4]])
    return w


def transform_script(loops, threads, tile):
    first = ", ".join([str(threads)] + ["0"] * (loops - 1))
    if tile is None:  # the tiled loops, not vectorized
        return TRANSFORM.format(threads=first, inner="")
    n = sum(1 for s in tile if s)
    inner = INNER.format(loops=", ".join(f"%l{k}" for k in range(n)),
                         tile=", ".join(map(str, tile)),
                         loop_types=", ".join(["!transform.any_op"] * n))
    return TRANSFORM.format(threads=first, inner=inner)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--only", default="", help="comma-separated workloads")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="gather-raise-bench-")
    atexit.register(shutil.rmtree, work, True)
    gather_run = os.path.join(args.bin, "gather-run")
    gather_opt = os.path.join(args.bin, "gather-opt")
    rng = np.random.default_rng(0)
    rows = []
    for name, w in workloads(rng).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["want"]()
        inputs = []
        for k, array in enumerate(w["args"]):
            path = os.path.join(work, f"{name}_{k}.npy")
            np.save(path, array)
            inputs += ["--input", path]
        src = os.path.join(work, f"{name}.mlir")
        with open(src, "w") as f:
            f.write(w["mlir"])
        unchecked = os.path.join(work, f"{name}.unchecked.mlir")
        subprocess.run([gather_opt, src, "--convert-linalg-to-gather=plain-reads=unchecked",
                        "-o", unchecked], check=True)
        loops = len(want.shape)
        contenders = {"raised": (src, []), "unchecked": (unchecked, []),
                      "unraised": (src, ["--no-raise"])}
        for tile in w["tiles"] + [None]:
            script = os.path.join(work, f"{name}_{'x'.join(map(str, tile)) if tile else 'loops'}.mlir")
            with open(script, "w") as f:
                f.write(transform_script(loops, args.threads, tile))
            pipeline = (f"builtin.module(transform-preload-library{{transform-library-paths={script}}},"
                        f"transform-interpreter,{UPSTREAM_PASSES})")
            label = "upstream " + ("vector " + "x".join(map(str, tile)) if tile else "tiled loops")
            contenders[label] = (src, ["--pipeline", pipeline])
        out = os.path.join(work, f"{name}_out.npy")
        best = {k: math.inf for k in contenders}
        failed = {}
        for _ in range(args.rounds):
            for label, (source, extra) in contenders.items():
                if label in failed:
                    continue
                if os.path.exists(out):
                    os.remove(out)
                r = subprocess.run([gather_run, source] + inputs + extra +
                                   ["--output", out, "--bench", str(args.runs),
                                    "--threads", str(args.threads)],
                                   capture_output=True, text=True)
                problem = None
                if r.returncode != 0:
                    problem = (f"gather-run exit status {r.returncode}: "
                               f"{r.stderr.strip().splitlines()[0] if r.stderr.strip() else ''}")
                elif not np.array_equal(np.load(out), want):
                    problem = "the result differs from numpy"
                if problem:
                    # Only upstream's routes may fail: they are the peers
                    # tried, and one that fails is reported, not timed.
                    if not label.startswith("upstream"):
                        sys.exit(f"{name} {label}: {problem}\n{r.stderr[-3000:]}")
                    failed[label] = problem
                    print(f"{name} {label}: {problem}", flush=True)
                    continue
                ms = float(re.search(r"median ([0-9.]+) ms", r.stdout).group(1))
                best[label] = min(best[label], ms)
        upstream = min((k for k in best if k.startswith("upstream") and k not in failed),
                       key=best.get)
        rows.append((name, w["what"], best, upstream))
        print(f"{name}: " + ", ".join(f"{k} {v:.3f} ms" for k, v in best.items()
                                      if k not in failed), flush=True)

    print()
    print("| workload | raised (ms) | raised, unchecked | unraised | best upstream (ms) | "
          "upstream / raised | unraised / raised |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    for name, what, best, upstream in rows:
        ratio = best[upstream] / best["raised"]
        ratios.append(ratio)
        print(f"| {name} | {best['raised']:.2f} | {best['unchecked']:.2f} | {best['unraised']:.2f} | "
              f"{best[upstream]:.2f} ({upstream[len('upstream '):]}) | {ratio:.2f} | "
              f"{best['unraised'] / best['raised']:.2f} |")
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\ngeometric mean of upstream / raised: {geomean:.2f} "
              f"(lowest {min(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
