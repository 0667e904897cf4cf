#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The compiled gathers against the hand-written C++ loops, call by call in
one process: each workload of bench/run.py compiled with the JIT (default
policy, results written in place) and baseline.cpp built as a shared library
(g++ -O3 -march=TARGET -fopenmp, linked against LLVM's libomp, the compiled
code's OpenMP runtime, so that one thread pool serves both), then the gather,
the four C++ loops (unchecked, checked, each with the compiled code's
prefetch) and the memcpy of the output's bytes called in turn, `--calls`
times, in an order drawn afresh each turn (so that no contender always
follows the same one). The contenders of one turn run within a few
milliseconds of each other, so a slow spell of a shared machine hits them
all; each ratio is the median over the turns of peer time / gather time
(above 1: the gather is faster), with its quartiles. "fastest C++" is
the loop of the lowest median time. Every output is compared with
numpy before the timed turns and after them. Every contender reads the
same input arrays and writes the same output array. Each timed call follows
`--warm` untimed calls of the same contender (default 4), so that its data
is in the caches as in bench/run.py's repeated runs: without them each
contender starts from the caches the one before left, and the workloads
whose data fits the L3 cache (W3, W8: 24-80 MB of it in a 32 MiB L3) ran
2-3x slower on both sides.

    /usr/bin/python3 bench/paired.py [--calls 60] [--threads 2] [--warm 4]
        [--only W1,W3] [--target native|x86-64-v3|CPU]
        [--libomp /usr/lib/llvm-22/lib/libomp.so.5] [--torch] [--entry KEY=VALUE]
        [--from-c [--offset 16]]

--from-c runs the same turns (no torch, no memory floor) in bench/paired_c.c, a
C program that calls the gather through the C API: no Python between the
calls. On the model 167 VM (2026-11-28) the two agreed within the
turns' spread but for W5, 0.98-1.01 from C where this script read 0.97,
and W1, W1i32 and W1f16, 0-3% further ahead of the C++ loops from C
(bench/README.md).

For W3, W5 and W5x64 the turns also time the memory floor (baseline.cpp's
W3Floor and W5Floor, in each of their forms): the lines the call must read,
each loaded once, and the output stored, with no gather. A second table
gives its fastest form's time, floor / gather and torch / floor: while the
gather is no faster than the floor, torch / gather cannot exceed torch /
floor on this machine (for W5 and W5x64, whose torch allocates, the floor
writes in place), and no gather, compiled or written in C++, can be faster
than the floor.

--torch adds torch, in the same turns, in each of its forms: where torch
writes into a given tensor (index_select and gather with out=: W1, W2,
W1i32, W1f16, W7, W3; W1's negative indices wrapped before the turns, since
index_select takes none), that call against the gather written in place;
where it has advanced indexing (run.py's peer, which allocates its result:
all but W1i32), that call against the gather called as Python users call
it, which also returns a new array from the compiled code's allocation. The
column is torch's stronger form (the lower median torch / gather; the other
form's ratio follows it): W2's index_select along axis 1 took twice as long
as its indexing. For the out= form it adds torch / memcpy: the most torch /
gather can be while the gather copies its bytes no faster than the memcpy
of the output's bytes, and torch / fastest C++: the most torch / gather
can be while the gather is no faster than the best C++ loop. Torch's
OpenMP calls go to LLVM's libomp too (preloaded: libomp implements
libgomp's entry points, as Intel's runtime, which PyTorch's tuning guides
preload, does; on the Emerald Rapids VM of 2026-12-02 torch's W1, W2 and
W7 took the same time, within the spread, with its own libgomp in a
process of its own), so that one thread pool
serves every contender: two runtimes' threads would spin against each
other on a 2-core machine. The script re-executes itself with LD_PRELOAD
set for that.

bench/run.py times each contender in a process of its own (gather-run, the
baseline program, torch), seconds apart: on the 2-core VM of 2026-11-26 the
same kernel's medians moved 20-40% between such runs. W6 (a 2-microsecond
lookup) is left to run.py: here the ctypes calls around it would weigh on it.
"""
import argparse
import ctypes
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
import run  # noqa: E402

# Untimed calls of each contender right before its timed one. On the
# Emerald Rapids VM of 2026-12-02 (a non-inclusive L3 that fills from the L2s'
# evictions) a contender that stores normally (torch, the C++ loops without
# prefetch, memcpy) took several calls to get back to its repeated-call time
# after one whose streaming stores had pushed the shared output out of the
# caches: torch's W1 index_select after one gather call took 2.5, 2.3, 1.9,
# 1.5, 1.4, 1.3 ms against 1.15 ms called alone. With one warm call the paired
# turns had put torch / gather at 2.25 and memcpy / gather at 1.10 for W1;
# with 3, 5 and 8 both settled at 1.24 and 0.85-0.89.
DEFAULT_WARM = 4

# baseline_call's modes, in its order; mode len(CPP) is the memcpy reference.
CPP = ("C++ unchecked", "C++ checked", "C++ prefetch", "C++ checked prefetch")


def build_library(work, target, libomp):
    obj, lib = os.path.join(work, "baseline.o"), os.path.join(work, "libbaseline.so")
    subprocess.run(["g++", "-O3", f"-march={target}", "-fopenmp", "-fPIC", "-std=c++17",
                    "-DBASELINE_LIBRARY", "-c", os.path.join(HERE, "baseline.cpp"), "-o", obj],
                   check=True)
    # The run path finds libomp where the loader's search would not (the
    # lent GPU machine has LLVM's libraries at their Debian paths only).
    subprocess.run(["g++", "-shared", obj, "-o", lib, libomp,
                    f"-Wl,-rpath,{os.path.dirname(libomp)}"], check=True)
    return lib


def load_library(path):
    """The C++ library at `path` (build_library's), its entries typed."""
    lib = ctypes.CDLL(path)
    lib.baseline_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                  ctypes.c_void_p, ctypes.c_void_p]
    lib.baseline_call.argtypes = [ctypes.c_int]
    lib.baseline_output.restype = ctypes.c_void_p
    lib.baseline_floor.argtypes = [ctypes.c_int]
    lib.baseline_floor_name.argtypes = [ctypes.c_int]
    lib.baseline_floor_name.restype = ctypes.c_char_p
    return lib


def open_workload(lib, name, work, threads, data, idx, want):
    """The library's loops bound to workload `name` on these very arrays:
    its output array (64-byte aligned, advised for huge pages), shaped as
    `want`."""
    if lib.baseline_open(name.encode(), work.encode(), threads, data.ctypes.data,
                         idx.ctypes.data):
        sys.exit(f"{name}: the C++ library does not know this workload")
    return np.ctypeslib.as_array(
        ctypes.cast(lib.baseline_output(), ctypes.POINTER(ctypes.c_uint8)),
        shape=(want.nbytes,)).view(want.dtype).reshape(want.shape)


_libc = ctypes.CDLL(None, use_errno=True)
MADV_HUGEPAGE = 14


def aligned_empty(shape, dtype):
    """An uninitialized array at a 64-byte aligned address, its whole pages
    advised for transparent huge pages from 4 MiB on: what the compiled
    code's allocator gives its results and baseline.cpp its outputs (numpy
    returned addresses 16 mod 64, and W5's 64-byte output rows then spanned
    two cache lines each)."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.empty(nbytes + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    array = raw[start:start + nbytes].view(dtype).reshape(shape)
    if nbytes >= 4 << 20:
        begin = (array.ctypes.data + 4095) & ~4095
        end = (array.ctypes.data + nbytes) & ~4095
        if end > begin:
            _libc.madvise(ctypes.c_void_p(begin), ctypes.c_size_t(end - begin), MADV_HUGEPAGE)
    return array


def placed_copy(array, page_offset):
    """A copy of `array` at an address `page_offset` bytes past a 4 KiB page
    boundary, advised for huge pages as aligned_empty's (--data-page-offset)."""
    raw = np.empty(array.nbytes + 8192, np.uint8)
    start = (page_offset - raw.ctypes.data) % 4096
    copy = raw[start:start + array.nbytes].view(array.dtype).reshape(array.shape)
    begin = (copy.ctypes.data + 4095) & ~4095
    end = (copy.ctypes.data + array.nbytes) & ~4095
    if end > begin:
        _libc.madvise(ctypes.c_void_p(begin), ctypes.c_size_t(end - begin), MADV_HUGEPAGE)
    copy[...] = array
    return copy


def time_in_turns(calls, turns, warm=0):
    """Each of `calls` timed once a turn, in an order drawn afresh each turn
    (seeded), each timed call after `warm` untimed ones of the same
    function: per call, its times in seconds. A rotating order kept the
    cycle itself (after the last call the first), so each call always
    followed the same one: the gather always came after torch's allocating
    call or the memcpy, whose traffic had pushed its data out of the
    caches, while each C++ loop came after another that had read the same
    data (W8 with torch: 1.84 ms against 1.28 alone)."""
    times = [[] for _ in calls]
    order = random.Random(0)
    for turn in range(turns):
        for c in order.sample(range(len(calls)), len(calls)):
            for _ in range(warm):
                calls[c]()
            t0 = time.perf_counter()
            calls[c]()
            times[c].append(time.perf_counter() - t0)
    return times


def quartiles(values):
    values = sorted(values)
    q = len(values) // 4
    return statistics.median(values), values[q], values[-1 - q]


def compare_programs(name, w, want, progs, turns, warm=1):
    """Two programs of workload `w` written in place, both results compared
    with numpy before and after, called alternately `turns` times, each
    timed call after `warm` untimed ones of the same program (as in
    main's turns): each one's median time in seconds and the median
    [quartiles] over the pairs of the first's time / the second's."""
    outs = [aligned_empty(want.shape, want.dtype) for _ in progs]
    # The C call alone in the timed region.
    calls = [prog.bind(w["data"], w["idx"], out=out) for prog, out in zip(progs, outs)]
    for out in outs:
        if not np.array_equal(out, want):
            sys.exit(f"{name}: compiled result differs from numpy")
    # Each pair starts with the other program in turn.
    times = time_in_turns(calls, turns, warm)
    for out in outs:
        if not np.array_equal(out, want):
            sys.exit(f"{name}: compiled result differs from numpy")
    medians = [statistics.median(t) for t in times]
    return medians, quartiles([a / b for a, b in zip(*times)])


def from_c(args):
    """--from-c: each workload's files written for bench/paired_c.c, which
    is built against libGatherCAPI.so and run on them (after main has
    printed the target and set the peers' environment)."""
    print(f"threads={args.threads}, {args.calls} turns, policy=error, from C (inputs "
          f"{args.offset} bytes past a 64-byte boundary); peer time / gather time, "
          "median over the turns [quartiles]")
    capi = os.path.dirname(os.path.abspath(jit._library()._name))
    with tempfile.TemporaryDirectory(prefix="gather-paired-c-") as work:
        library = build_library(work, args.target, args.libomp)
        program = os.path.join(work, "paired_c")
        subprocess.run(["cc", "-O2", "-std=c11", "-D_GNU_SOURCE",
                        "-I", os.path.join(HERE, "..", "include"), "-I", "/usr/lib/llvm-22/include",
                        os.path.join(HERE, "paired_c.c"), "-o", program, "-L", capi,
                        "-lGatherCAPI", f"-Wl,-rpath,{capi}", "-ldl"], check=True)
        names = []
        for name, w in run.workloads(np.random.default_rng(0)).items():
            if name == "W6" or (args.only and name not in args.only.split(",")):
                continue
            want = np.ascontiguousarray(w["numpy"]())
            with open(os.path.join(work, f"{name}.mlir"), "w") as f:
                f.write(run.workload_text(w, want))
            np.ascontiguousarray(w["data"]).tofile(os.path.join(work, f"{name}_data.bin"))
            np.ascontiguousarray(w["idx"]).tofile(os.path.join(work, f"{name}_idx.bin"))
            want.tofile(os.path.join(work, f"{name}_want.bin"))
            with open(os.path.join(work, f"{name}.txt"), "w") as f:
                f.write(" ".join(str(d) for d in want.shape))
            names.append(name)
        env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
        return subprocess.run([program, library, work, str(args.threads), str(args.calls),
                               str(args.warm), str(args.offset), args.target] + names,
                              env=env).returncode


def preload_libomp(libomp):
    """Re-executes this script with `libomp` preloaded, unless it already
    is, so that torch's OpenMP calls and the compiled code's share one
    runtime (two runtimes' threads spin against each other on 2 cores)."""
    if libomp not in os.environ.get("LD_PRELOAD", ""):
        os.environ["LD_PRELOAD"] = " ".join(filter(None, [libomp, os.environ.get("LD_PRELOAD")]))
        os.execv(sys.executable, [sys.executable] + sys.argv)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=60)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--warm", type=int, default=DEFAULT_WARM,
                   help="untimed calls of each contender right before its timed one: its data "
                        "back in the caches, as in repeated runs (0: each timed call finds the "
                        "caches holding the previous contender's data)")
    p.add_argument("--only", default="", help="comma-separated workload names")
    p.add_argument("--target", default="native")
    p.add_argument("--entry", action="append", default=[],
                   help="KEY=VALUE: the gathers planned with this integer entry of the CPU's "
                        "description replaced (bench/target_ab.py's form; repeated: all of them); "
                        "the C++ loops keep the host's")
    p.add_argument("--libomp", default="/usr/lib/llvm-22/lib/libomp.so.5")
    p.add_argument("--torch", action="store_true",
                   help="time torch too (its OpenMP calls on the preloaded libomp)")
    p.add_argument("--from-c", action="store_true",
                   help="the same turns run by bench/paired_c.c, a C program: the gather "
                        "through the C API, no Python between the calls (no torch, no "
                        "memory floor)")
    p.add_argument("--data-page-offset", type=int, default=None,
                   help="every contender reads a copy of the data placed this many bytes past a "
                        "4 KiB page boundary (numpy's large arrays sit 16 past one, the shared "
                        "output 64 past one; with AVX2, W2's compiled row copies ran 8-30%% "
                        "slower with the data there than 0, 32, 48, 64 or 80 past one until "
                        "their rows' last lines were prefetched too: bench/placement.py)")
    p.add_argument("--offset", type=int, default=16,
                   help="with --from-c: the inputs' bytes past a 64-byte boundary (numpy's "
                        "arrays of these sizes: 16)")
    args = p.parse_args()
    torch = None
    if args.torch:
        preload_libomp(args.libomp)
        import torch
        torch.set_num_threads(args.threads)
    described = jit.target_description(args.target)
    print(f"target: {' '.join(f'{k}={v}' for k, v in described.items())}")
    run.peer_environment(described)
    entries = run.parse_entries(args.entry)
    if args.from_c:
        if args.data_page_offset is not None:
            sys.exit("--data-page-offset applies to the Python turns only")
        if entries:
            sys.exit("--entry applies to the Python turns only")
        return from_c(args)
    print(f"threads={args.threads}, {args.calls} turns, policy=error; "
          "peer time / gather time, median over the turns [quartiles]"
          + ("; torch on libomp (preloaded)" if torch else "")
          + "".join(f"; gathers planned with {k}={v}" for k, v in entries))
    with tempfile.TemporaryDirectory(prefix="gather-paired-") as work:
        lib = load_library(build_library(work, args.target, args.libomp))
        torch_columns = (" torch form | torch (ms) | torch / gather | torch / memcpy "
                         "| torch / fastest C++ |"
                         if torch else "")
        print("| workload | gather (ms) | fastest C++ / gather | "
              + " | ".join(f"{c} / gather" for c in CPP) + " | memcpy / gather |"
              + torch_columns)
        print("| --- | ---: | ---: |" + " ---: |" * (len(CPP) + 1 + (5 if torch else 0)))
        floors, placements = [], []
        for name, w in run.workloads(np.random.default_rng(0)).items():
            if name == "W6" or (args.only and name not in args.only.split(",")):
                continue
            data, idx = w["data"], w["idx"]
            want = w["numpy"]()
            gather = jit.compile(run.with_target_entries(run.workload_text(w, want), entries),
                                 threads=args.threads,
                                 destination_entries=True, target_cpu=args.target)
            # The C++ loops read these very arrays (a copy of their own
            # would sit elsewhere in the caches: the four C++ loops then
            # shared one copy and the gather another, which for the
            # workloads whose data fits the L3 cache favoured whichever
            # side ran more contenders).
            data, idx = np.ascontiguousarray(data), np.ascontiguousarray(idx)
            if args.data_page_offset is not None:
                data = placed_copy(data, args.data_page_offset)
            # Every contender writes the C++ library's output array (64-byte
            # aligned, advised for huge pages): with an array of its own the
            # gather found its output lines colder than the C++ loops, which
            # follow one another on theirs (W1 and W5 at one thread: fastest
            # C++ / gather 0.88-0.89 with two arrays, 0.94-0.99 with one).
            out = open_workload(lib, name, work, args.threads, data, idx, want)
            placements.append(f"{name} {data.ctypes.data % 4096}/{out.ctypes.data % 4096}")

            def run_and_check(call, who, label):
                out.view(np.uint8)[...] = 0xA5  # what is compared is this call's
                call()
                if not np.array_equal(out, want):
                    sys.exit(f"{name}: {who} differs from numpy ({label})")

            bound = gather.bind(data, idx, out=out)  # the C call alone in the timed region
            checked = [(bound, "the compiled result")]
            checked += [(lambda m=m: lib.baseline_call(m), CPP[m]) for m in range(len(CPP))]
            calls = [bound] + [lambda m=m: lib.baseline_call(m) for m in range(len(CPP) + 1)]
            # Torch's forms: into the shared output (out=) against the bound
            # gather, and allocating (run.py's peer) against the gather's
            # allocating call; the stronger of the two is its column.
            torch_forms = []  # (form, torch's call, the gather's call)
            if torch:
                into = run.torch_into(torch, w, out)
                if into:
                    checked.append((into, "torch (out=)"))
                    calls.append(into)
                    torch_forms.append(("out=", len(calls) - 1, 0))
                alloc = run.torch_peer(torch, w)
                if alloc:
                    if not np.array_equal(run.torch_result(alloc), want):
                        sys.exit(f"{name}: torch's result differs from numpy")
                    if not np.array_equal(gather(data, idx), want):
                        sys.exit(f"{name}: compiled result differs from numpy (allocating call)")
                    calls += [lambda: gather(data, idx), alloc]
                    torch_forms.append(("alloc", len(calls) - 1, len(calls) - 2))
            # The memory floor in each of its forms, where baseline.cpp has
            # one (it writes the output, but no gather's values).
            floor_at = len(calls)
            floor_forms = []
            while (lib.baseline_floor_name(len(floor_forms))
                   and lib.baseline_floor(len(floor_forms))):
                calls.append(lambda f=len(floor_forms): lib.baseline_floor(f))
                floor_forms.append(lib.baseline_floor_name(len(floor_forms)).decode())
            for call, who in checked:  # (the C++ loops' first call reads the data)
                run_and_check(call, who, "before the turns")
            times = time_in_turns(calls, args.calls, args.warm)
            for call, who in checked:
                run_and_check(call, who, "after the turns")
            g = times[0]
            cells = [quartiles([times[1 + m][t] / g[t] for t in range(len(g))])
                     for m in range(len(CPP) + 1)]
            # The fastest loop is the one of the lowest median time (the
            # fastest of each turn would favour the C++ side: where the
            # loops are the same code, W5's and W8's prefetch variants, it
            # takes the least of several draws of the same time).
            fastest = min(range(len(CPP)), key=lambda m: statistics.median(times[1 + m]))
            extra = ""
            torch_at = None
            if torch:
                extra = " - | - | - | - | - |"
                forms = {}
                for form, t_at, g_at in torch_forms:
                    t, a = times[t_at], times[g_at]
                    forms[form] = (quartiles([t[k] / a[k] for k in range(len(a))]), t_at, g_at)
                if forms:
                    form = min(forms, key=lambda f: forms[f][0][0])
                    (m, lo, hi), torch_at, g_at = forms[form]
                    t = times[torch_at]
                    label = form if form == "out=" else (
                        f"alloc (gather {statistics.median(times[g_at]) * 1e3:.3f} ms)")
                    label += "".join(f"; {f} {r[0][0]:.2f}" for f, r in forms.items() if f != form)
                    # Torch against the memcpy of the output's bytes: what
                    # torch / gather can reach while the gather moves its
                    # bytes no faster than memcpy does (out= forms only:
                    # the allocating ones also pay for their allocation).
                    # And against the fastest C++ loop, which writes the
                    # same output in place: what torch / gather can reach
                    # while the gather is no faster than that loop.
                    def against(c):
                        return "{:.2f} [{:.2f}, {:.2f}]".format(
                            *quartiles([t[k] / c[k] for k in range(len(c))]))

                    bound, loop = "-", "-"
                    if form == "out=":
                        bound = against(times[1 + len(CPP)])
                        loop = against(times[1 + fastest])
                    extra = (f" {label} | {statistics.median(t) * 1e3:.3f} "
                             f"| {m:.2f} [{lo:.2f}, {hi:.2f}] | {bound} | {loop} |")
            print(f"| {name} | {statistics.median(g) * 1e3:.3f} | "
                  + " | ".join(f"{m:.2f} [{lo:.2f}, {hi:.2f}]"
                               for m, lo, hi in [cells[fastest]] + cells) + " |" + extra)
            if len(calls) > floor_at:
                # The fastest form of the floor (lowest median).
                best = min(range(floor_at, len(calls)),
                           key=lambda c: statistics.median(times[c]))
                f = times[best]
                row = (f"| {name} | {floor_forms[best - floor_at]} "
                       f"| {statistics.median(f) * 1e3:.3f} | "
                       + "{:.2f} [{:.2f}, {:.2f}]".format(
                           *quartiles([f[k] / g[k] for k in range(len(g))])))
                if torch_at is not None:
                    row += " | {:.2f} [{:.2f}, {:.2f}]".format(
                        *quartiles([times[torch_at][k] / f[k] for k in range(len(g))]))
                floors.append(row + " |")
    print("\nData / output bytes past a 4 KiB page boundary: " + ", ".join(placements))
    if floors:
        print("\nThe memory floor (baseline.cpp's W3Floor and W5Floor: each needed line "
              "of the input (and of W3's indices) loaded once, the output stored; "
              "its fastest form), "
              "in the same turns; torch / floor bounds torch / gather from above while the "
              "gather is no faster than the floor:")
        print("| workload | fastest form | floor (ms) | floor / gather |"
              + (" torch / floor |" if torch else ""))
        print("| --- | --- | ---: | ---: |" + (" ---: |" if torch else ""))
        print("\n".join(floors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
