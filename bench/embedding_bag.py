#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""An embedding bag (the sum of each bag's rows: torch's EmbeddingBag with
mode="sum", a recommender model's lookup) written as frontends write it, a
gather.block of the [bags, length] indices followed by a linalg.reduce
over the bag dimension, compiled by the CPU pipeline with its consumer
fusion (gather-fuse-consumers tiles the reduction and fuses the gather
into each step of a tile: one row gathered and added into the bag's sum,
which stays in registers) and without it (jit.compile(..., fuse_consumers=False): the
[bags, length, dim] intermediate written and read again), against the C++
loop a performance engineer would write (bench/embedding_bag.cpp: the same
checks and prefetch, each bag's sum in registers; "C++ after a fill" is
that loop after a parallel pass zeroing the output, its sums starting from
it, as the compiled bag ran before its fill moved into its tiles) and
against
torch.nn.functional.embedding_bag, all called in turns in one process
(paired.time_in_turns; each timed call after paired.DEFAULT_WARM untimed
ones of its own).

The same bags as torch-mlir writes aten.embedding_bag with offsets (the
flat indices and each bag's first position: one linalg.generic over
(bags, every index, row), which convert-linalg-to-gather raises into a loop
over the bags of gathers and sums, fused as above) run in the same turns
("offsets"), and torch's embedding_bag with offsets beside it. The
unraised generic visits every index for every bag (bags x indices x row
additions and selects): it is timed apart, on the first --unraised-bags
bags only, against the raised form on the same bags.

    /usr/bin/python3 bench/embedding_bag.py [--calls 40] [--threads 2]
        [--rows 200000] [--dim 128] [--bags 2048] [--length 32] [--no-torch]
        [--target native|x86-64-v3|CPU] [--unraised-bags 64] [--table-pages huge|4k]

--table-pages huge (the default) puts the table in an array advised for
transparent huge pages, as bench/paired.py's inputs and gather-run's are;
4k leaves it on numpy's 4 KiB pages (this script's table before the
seventy-second session), where every contender's random rows miss the TLB.

--target compiles the gathers for that CPU (jit.compile's target_cpu) and
the C++ loop with -march=TARGET; --threads is the thread count of all three
(the C++ loop's num_threads).

The compiled function and the C++ loop write one preallocated array in
place (the compiled one through its destination entry); torch allocates
its result, so its column is against the compiled function called as
Python users call it, which returns a new array too. Every result is
compared with numpy's sum of each bag's rows in order (bit for bit for the
compiled and C++ results, which add in that order too; torch within 1e-5)
before and after the turns. The indices are drawn uniformly over the table,
a tenth of them negative (wrapped).

libomp (ours, and the C++ loop's) and torch's OpenMP calls share one
runtime: the script re-executes itself with LLVM's libomp preloaded, as
bench/paired.py --torch does.
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "test", "lib"))
from gather import jit  # noqa: E402
from gather_testing.torch_mlir import embedding_bag_text  # noqa: E402
import paired  # noqa: E402

LIBOMP = "/usr/lib/llvm-22/lib/libomp.so.5"


def program_text(rows, dim, bags, length):
    table, ids = f"tensor<{rows}x{dim}xf32>", f"tensor<{bags}x{length}xi64>"
    gathered, out = f"tensor<{bags}x{length}x{dim}xf32>", f"tensor<{bags}x{dim}xf32>"
    return (f"func.func @main(%t: {table}, %i: {ids}) -> {out} {{\n"
            f"  %e = tensor.empty() : {gathered}\n"
            f"  %g = gather.block %t[%i] axis = 0 into %e : {table}, {ids} into {gathered}\n"
            f"  %zero = arith.constant 0.0 : f32\n"
            f"  %o = tensor.empty() : {out}\n"
            f"  %f = linalg.fill ins(%zero : f32) outs(%o : {out}) -> {out}\n"
            f"  %r = linalg.reduce ins(%g : {gathered}) outs(%f : {out}) dimensions = [1]\n"
            f"    (%x: f32, %acc: f32) {{\n"
            f"      %s = arith.addf %x, %acc : f32\n"
            f"      linalg.yield %s : f32\n    }}\n"
            f"  return %r : {out}\n}}\n")


def build_peer(work, dim, target):
    source = os.path.join(HERE, "embedding_bag.cpp")
    library = os.path.join(work, "libembedding_bag.so")
    subprocess.run(["g++", "-O3", f"-march={target}", "-fopenmp", "-fPIC", "-shared",
                    f"-DBAG_D={dim}", source, "-o", library, LIBOMP,
                    f"-Wl,-rpath,{os.path.dirname(LIBOMP)}"], check=True)
    peer = ctypes.CDLL(library)
    for entry in (peer.bag_sum, peer.bag_sum_after_fill):
        entry.restype = ctypes.c_long
        entry.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_long] * 5
    return peer


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=40)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rows", type=int, default=200000)
    p.add_argument("--dim", type=int, default=128)
    p.add_argument("--bags", type=int, default=2048)
    p.add_argument("--length", type=int, default=32)
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--target", default="native")
    p.add_argument("--unraised-bags", type=int, default=64)
    p.add_argument("--table-pages", choices=("huge", "4k"), default="huge")
    args = p.parse_args()
    torch = None
    if not args.no_torch:
        paired.preload_libomp(LIBOMP)
        try:
            import torch
            torch.set_num_threads(args.threads)
        except ImportError:
            print("(torch not installed: no torch column)")
    rng = np.random.default_rng(0)
    table = rng.standard_normal((args.rows, args.dim), dtype=np.float32)
    if args.table_pages == "huge":
        table = paired.placed_copy(table, 0)
    ids = rng.integers(0, args.rows, (args.bags, args.length))
    negative = rng.random(ids.shape) < 0.1
    ids[negative] -= args.rows
    gathered = table[np.where(ids < 0, ids + args.rows, ids)]
    want = np.zeros((args.bags, args.dim), np.float32)
    for k in range(args.length):
        want += gathered[:, k]
    del gathered

    described = jit.target_description(args.target)
    lines = -(-args.dim * 4 // described["cache-line-bytes"])
    distance = max(1, described["prefetch-lines-ahead"] // lines)
    text = program_text(args.rows, args.dim, args.bags, args.length)
    fused = jit.compile(text, threads=args.threads, destination_entries=True,
                        target_cpu=args.target)
    unfused = jit.compile(text, threads=args.threads, destination_entries=True,
                          fuse_consumers=False, target_cpu=args.target)
    # The offsets form reads the indices as torch's are (no negative values:
    # its plain read of one is an error).
    flat = np.where(ids < 0, ids + args.rows, ids).reshape(-1)
    offsets = np.arange(args.bags, dtype=np.int64) * args.length
    bag_text = embedding_bag_text(args.rows, args.dim, flat.size, args.bags)
    segments = jit.compile(bag_text, threads=args.threads, destination_entries=True,
                           target_cpu=args.target)
    outs = {name: paired.aligned_empty(want.shape, want.dtype)
            for name in ("fused", "unfused", "C++", "C++ after a fill", "offsets")}
    calls = {"fused": fused.bind(table, ids, out=outs["fused"]),
             "unfused": unfused.bind(table, ids, out=outs["unfused"]),
             "offsets": segments.bind(table, flat, offsets, out=outs["offsets"])}
    results = {"fused allocating": None, "torch": None, "offsets allocating": None,
               "torch offsets": None}

    def allocating():
        results["fused allocating"] = fused(table, ids)
    calls["fused allocating"] = allocating

    def offsets_allocating():
        results["offsets allocating"] = segments(table, flat, offsets)
    calls["offsets allocating"] = offsets_allocating
    with tempfile.TemporaryDirectory(prefix="gather-bag-") as work:
        peer = build_peer(work, args.dim, args.target)

        def cpp():
            if peer.bag_sum(table.ctypes.data, ids.ctypes.data, outs["C++"].ctypes.data,
                            args.rows, args.bags, args.length, distance, args.threads):
                sys.exit("the C++ loop found an invalid index")
        calls["C++"] = cpp

        def cpp_after_fill():
            if peer.bag_sum_after_fill(table.ctypes.data, ids.ctypes.data,
                                       outs["C++ after a fill"].ctypes.data, args.rows,
                                       args.bags, args.length, distance, args.threads):
                sys.exit("the C++ loop found an invalid index")
        calls["C++ after a fill"] = cpp_after_fill
        if torch is not None:
            tt, ti = torch.from_numpy(table), torch.from_numpy(np.where(ids < 0, ids + args.rows,
                                                                       ids))

            def torch_bag():
                results["torch"] = torch.nn.functional.embedding_bag(ti, tt, mode="sum")
            calls["torch"] = torch_bag
            tf, to = torch.from_numpy(flat), torch.from_numpy(offsets)

            def torch_offsets():
                results["torch offsets"] = torch.nn.functional.embedding_bag(
                    tf, tt, to, mode="sum")
            calls["torch offsets"] = torch_offsets

        def verify(when):
            for name, call in calls.items():
                call()
            for name, got in list(outs.items()) + [
                    (name, results[name]) for name in ("fused allocating",
                                                       "offsets allocating")]:
                if not np.array_equal(got, want):
                    sys.exit(f"{name} differs from numpy {when} the turns")
            for name in ("torch", "torch offsets"):
                if torch is not None and not np.allclose(results[name].numpy(), want,
                                                         rtol=1e-5, atol=1e-4):
                    sys.exit(f"{name} differs from numpy {when} the turns")
        verify("before")
        names = list(calls)
        times = dict(zip(names, paired.time_in_turns([calls[n] for n in names], args.calls,
                                                     warm=paired.DEFAULT_WARM)))
        verify("after")
    print(f"embedding bag: table {args.rows}x{args.dim} f32, {args.bags} bags of {args.length} "
          f"i64 indices (a tenth negative), sum; table on {args.table_pages} pages; "
          f"target {args.target}, "
          f"threads={args.threads}, {args.calls} turns, "
          f"prefetch {distance} rows ahead; median ms, and the median over the turns of "
          "time / fused time [quartiles]")
    print("| contender | median (ms) | time / fused |")
    print("| --- | ---: | ---: |")
    bases = {"torch": "fused allocating", "torch offsets": "offsets allocating"}
    for name in names:
        base = bases.get(name, "fused")
        ratio = paired.quartiles([a / b for a, b in zip(times[name], times[base])])
        label = f"{name} / {base}" if name in bases else name
        print(f"| {label} | {statistics.median(times[name]) * 1e3:.3f} | "
              f"{ratio[0]:.2f} [{ratio[1]:.2f}, {ratio[2]:.2f}] |")
    if args.unraised_bags:
        time_unraised(args, table, flat, offsets, want)
    return 0


def time_unraised(args, table, flat, offsets, want):
    """The torch-mlir generic raised and unraised on the first bags only."""
    bags = min(args.unraised_bags, args.bags)
    count = bags * args.length
    few_flat, few_offsets = flat[:count].copy(), offsets[:bags].copy()
    text = embedding_bag_text(args.rows, args.dim, count, bags)
    times = {}
    for name, raise_linalg in (("raised", True), ("unraised", False)):
        program = jit.compile(text, threads=args.threads, destination_entries=True,
                              raise_linalg=raise_linalg, target_cpu=args.target)
        out = paired.aligned_empty((bags, args.dim), np.float32)
        call = program.bind(table, few_flat, few_offsets, out=out)
        call()
        if not np.array_equal(out, want[:bags]):
            sys.exit(f"the {name} generic differs from numpy")
        times[name] = call
    turns = paired.time_in_turns([times["raised"], times["unraised"]], 5, warm=1)
    raised, unraised = (statistics.median(t) * 1e3 for t in turns)
    print(f"torch-mlir's generic on the first {bags} bags ({count} indices): raised "
          f"{raised:.3f} ms, unraised {unraised:.3f} ms, unraised / raised "
          f"{unraised / raised:.0f}")


if __name__ == "__main__":
    sys.exit(main())
