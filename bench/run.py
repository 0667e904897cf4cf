#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Gather benchmark: compiled kernels (gather-run --bench
--destination-entries: each timed call writes into buffers allocated once,
as the C++ loops' do) against
hand-written C++ loops (g++ -O3 -march=TARGET -fopenmp; unchecked, and
checked in the same pass as the default policy, and unchecked with the
software prefetch the compiled CPU code does), numpy and torch (where
installed; the faster of its allocating call and its call with out= into a
tensor allocated once, where it has one) on the same data, in one run,
printing the ratios. Every result is compared with numpy.

    /usr/bin/python3 bench/run.py [--runs 15] [--threads 2] [--bin build/bin]
        [--policy error|clamp|fill|unchecked] [--other-bin DIR] [--ort DIR]
        [--target native|x86-64-v3|x86-64-v4|CPU]

--target compiles the gathers (gather-run --target-cpu, --other-bin's
too) and the C++ peers (g++ -march) for one CPU: native (the host, the default) or a CPU
name both know, such as x86-64-v3 (AVX2) on an AVX-512 machine. The first
line printed is the target description the gathers are planned with.

--other-bin times a second build's gather-run in the same alternating
rounds (an A/B of two builds on the same data, e.g. before and after a
change). --ort DIR adds ONNX Runtime (onnxruntime-node installed in DIR
with `npm install --ignore-scripts onnxruntime-node`; bench/ort_peer.js)
for the workloads that are one ONNX op: its profiler's kernel time of the
Gather, GatherElements or GatherND node.

Workloads:
  W1 embedding lookup: block, axis 0, data 50000x768 f32, 8192 i64 indices
  W2 block gather on a middle axis: 64x1000x256 f32, 500 indices, axis 1
  W3 elements: 4096x4096 f32, indices 4096x1024, axis 1
  W4 nd, batch_dims=1: 16x512x512x4 f32, indices 16x65536x2
  W5 multiaxis over axes [0, 3] of NHWC 32x56x56x64 f32, indices 8x1x1x32
     (16 (n, c) pairs per row), output 8x56x56x16
  W5x64 W5 with 64 index rows (indices 64x1x1x32, output 64x56x56x16)
  W1i32 W1 with int32 indices; W1f16 W1 with a float16 table
  W6 inference-sized lookup: 32 i64 indices into a 30000x768 f32 table
  W7 short rows: block, axis 0, data 100000x64 f32 (256-byte rows), 65536
     i64 indices (the tiled block copy of small blocks)
  W8 points of a 2-D table: multiaxis over axes [0, 1] of a 1024x1024 f32
     table, indices 1024x2048 i64 ((row, column) pairs interleaved), output
     1024x1024
  W9 long rows (a language model's token embedding): block, axis 0, data
     8192x4096 f32 (16 KiB rows), 2048 i64 indices, some negative (32 MiB
     output)

--chart PATH writes a bar chart of the ratios (matplotlib).
"""

import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from gather.mlir_text import gather_op_text, tensor_type as ttype  # noqa: E402
from gather.mlir_text import parse_cpu_entries, with_cpu_entries  # noqa: E402


def nhwc_lookup(d, n, c):
    """W5's lookup: `gather.multiaxis` over axes [0, 3] of the NHWC image
    `d`, each index row r the (n[r, p], c[r, p]) pairs, broadcast over the
    pixels."""
    rows, pairs = n.shape
    h, w = d.shape[1:3]
    i = np.stack([n, c], axis=-1).reshape(rows, 1, 1, 2 * pairs)
    return dict(data=d, idx=i, op="multiaxis", attr="axes = [0, 3]",
                numpy=lambda: d[n[:, None, None, :], :, :, c[:, None, None, :]]
                .reshape(rows, pairs, h, w).transpose(0, 2, 3, 1))


def workloads(rng):
    w = {}
    d = rng.standard_normal((50000, 768), dtype=np.float32)
    i = rng.integers(-50000, 50000, size=8192)
    w["W1"] = dict(data=d, idx=i, op="block", attr="axis = 0",
                   numpy=lambda d=d, i=i: np.take(d, i, axis=0))
    d = rng.standard_normal((64, 1000, 256), dtype=np.float32)
    i = rng.integers(0, 1000, size=500)
    w["W2"] = dict(data=d, idx=i, op="block", attr="axis = 1",
                   numpy=lambda d=d, i=i: np.take(d, i, axis=1))
    d = rng.standard_normal((4096, 4096), dtype=np.float32)
    i = rng.integers(0, 4096, size=(4096, 1024))
    w["W3"] = dict(data=d, idx=i, op="elements", attr="axis = 1",
                   numpy=lambda d=d, i=i: np.take_along_axis(d, i, axis=1))
    d = rng.standard_normal((16, 512, 512, 4), dtype=np.float32)
    i = rng.integers(0, 512, size=(16, 65536, 2))
    b = np.arange(16)[:, None]
    w["W4"] = dict(data=d, idx=i, op="nd", attr="batch_dims = 1",
                   numpy=lambda d=d, i=i, b=b: d[b, i[..., 0], i[..., 1]])
    d = rng.standard_normal((32, 56, 56, 64), dtype=np.float32)
    n = rng.integers(0, 32, size=(8, 16))
    c = rng.integers(0, 64, size=(8, 16))
    w["W5"] = nhwc_lookup(d, n, c)
    # W5 with 64 index rows: the lookup of each pixel is reused 64 times.
    n64 = rng.integers(0, 32, size=(64, 16))
    c64 = rng.integers(0, 64, size=(64, 16))
    w["W5x64"] = nhwc_lookup(d, n64, c64)
    i32 = w["W1"]["idx"].astype(np.int32)
    w["W1i32"] = dict(data=w["W1"]["data"], idx=i32, op="block", attr="axis = 0", ity="i32",
                      numpy=lambda d=w["W1"]["data"], i=i32: np.take(d, i, axis=0))
    h = w["W1"]["data"].astype(np.float16)
    w["W1f16"] = dict(data=h, idx=w["W1"]["idx"], op="block", attr="axis = 0", ety="f16",
                      numpy=lambda d=h, i=w["W1"]["idx"]: np.take(d, i, axis=0))
    d = rng.standard_normal((30000, 768), dtype=np.float32)
    i = rng.integers(0, 30000, size=32)
    w["W6"] = dict(data=d, idx=i, op="block", attr="axis = 0",
                   numpy=lambda d=d, i=i: np.take(d, i, axis=0))
    d = rng.standard_normal((100000, 64), dtype=np.float32)
    i = rng.integers(0, 100000, size=65536)
    w["W7"] = dict(data=d, idx=i, op="block", attr="axis = 0",
                   numpy=lambda d=d, i=i: np.take(d, i, axis=0))
    d = rng.standard_normal((1024, 1024), dtype=np.float32)
    i = rng.integers(0, 1024, size=(1024, 2048))
    w["W8"] = dict(data=d, idx=i, op="multiaxis", attr="axes = [0, 1]",
                   numpy=lambda d=d, i=i: d[i[:, 0::2], i[:, 1::2]])
    d = rng.standard_normal((8192, 4096), dtype=np.float32)
    i = rng.integers(-8192, 8192, size=2048)
    w["W9"] = dict(data=d, idx=i, op="block", attr="axis = 0",
                   numpy=lambda d=d, i=i: np.take(d, i, axis=0))
    return w


def torch_peer(torch, w, device="cpu"):
    """The workload in torch (on `device`), as its users write it: advanced
    indexing (negative indices wrap, as numpy's), torch.gather for the
    element gather; None where torch has no such op (its advanced indexing
    takes int64 indices only). A peer whose result has another layout than
    ours carries `as_ours`, applied only when checking it."""
    if np.asarray(w["idx"]).dtype != np.int64:
        return None
    d = torch.from_numpy(w["data"]).to(device)
    i = torch.from_numpy(np.asarray(w["idx"])).to(device)
    op = w["op"]
    if op == "block" and w["attr"] == "axis = 0":
        return lambda: d[i]
    if op == "block" and w["attr"] == "axis = 1":
        return lambda: d[:, i]
    if op == "elements":
        return lambda: torch.gather(d, 1, i)
    if op == "nd":
        b = torch.arange(d.shape[0], device=device)[:, None]
        return lambda: d[b, i[..., 0], i[..., 1]]
    if op == "multiaxis" and d.dim() == 2:
        # (row, column) pairs: the coordinates as two index tensors, split
        # outside the timed region.
        y, x = i[:, 0::2].contiguous(), i[:, 1::2].contiguous()
        return lambda: d[y, x]
    if op == "multiaxis":
        # One pass, as ours: (n, c) pairs index the leading dimensions of an
        # NCHW view of the NHWC data. The result is N x pairs x H x W, our
        # output transposed; making it contiguous in our layout would be a
        # second pass that ours does not make, so only the check transposes.
        pairs = i.reshape(i.shape[0], -1, 2)
        n, c = pairs[..., 0].contiguous(), pairs[..., 1].contiguous()
        nchw = d.permute(0, 3, 1, 2)
        fn = lambda: nchw[n, c]  # noqa: E731
        fn.as_ours = lambda r: r.permute(0, 2, 3, 1)
        return fn
    return None


def torch_into(torch, w, out):
    """Torch's call that writes the workload's result into `out` (a torch
    tensor, or a numpy array it shares), or None where torch has no such
    call: index_select (which takes int32 indices too: W1i32) and gather
    with out=."""
    d, i = torch.from_numpy(w["data"]), torch.from_numpy(np.asarray(w["idx"]))
    o = out if isinstance(out, torch.Tensor) else torch.from_numpy(out)
    if w["op"] == "block":
        # index_select takes no negative indices: W1's are wrapped here,
        # outside the timed calls (the gather wraps them in its own).
        axis = int(w["attr"].split("=")[1])
        i = torch.remainder(i, d.shape[axis])
        return lambda: torch.index_select(d, axis, i, out=o)
    if w["op"] == "elements" and i.dtype == torch.int64:
        return lambda: torch.gather(d, 1, i, out=o)
    return None


def torch_result(fn):
    """The peer's result in our output layout, as numpy (for the check)."""
    r = fn()
    return getattr(fn, "as_ours", lambda t: t)(r).cpu().numpy()


# The target description's entries that baseline.cpp's C++ loops follow
# (bench/host.h), so that they stream rows and prefetch by the compiled
# code's rules for the same target.
PEER_ENTRIES = ("streaming-store-min-bytes", "streaming-input-min-bytes", "l3-bytes", "prefetch-lines-ahead",
                "prefetch-offset-tables",
                "gather-offset-rows", "collect-offset-rows", "prefetch-index-streams", "prefetch-block-lines", "offset-tile-bytes",
                "offset-tile-bytes-few-reads", "offset-chunk-bytes")


def peer_environment(description):
    """Passes the PEER_ENTRIES of `description` (a dict of the target
    description) to the C++ loops, as GATHER_<ENTRY> variables."""
    for entry in PEER_ENTRIES:
        os.environ["GATHER_" + entry.upper().replace("-", "_")] = str(description[entry])


# --entry KEY=VALUE options as (key, integer) pairs, and a module's text
# with those entries of its CPU target description replaced.
parse_entries = parse_cpu_entries
with_target_entries = with_cpu_entries


def workload_text(w, want, policy=""):
    """The workload's gather as a one-op function @main(data, indices);
    `policy` is attribute text such as " out_of_bounds = unchecked"."""
    ety, ity = w.get("ety", "f32"), w.get("ity", "i64")
    dt, it = ttype(w["data"].shape, ety), ttype(w["idx"].shape, ity)
    ot = ttype(want.shape, ety)
    body = gather_op_text(w["op"], "%0", "%d", "%i", dt, it, ot, attrs=w["attr"] + policy)
    return f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n{body}\n  return %0 : {ot}\n}}\n"


def write_workload(work, name, w, want, policy=""):
    """The workload's inputs as NAME_d.npy / NAME_i.npy and its gather as a
    one-op function in NAME.mlir (returned)."""
    np.save(os.path.join(work, f"{name}_d.npy"), w["data"])
    np.save(os.path.join(work, f"{name}_i.npy"), w["idx"])
    src = os.path.join(work, f"{name}.mlir")
    with open(src, "w") as f:
        f.write(workload_text(w, want, policy))
    return src


# The ONNX op, attributes and index reshape of each workload that is one
# ONNX op (W5 and W5x64 are not: their two axes are not one ONNX gather).
ONNX_OPS = {
    "block": lambda w: ("Gather", {"axis": int(w["attr"].split("=")[1])}, None),
    "elements": lambda w: ("GatherElements", {"axis": int(w["attr"].split("=")[1])}, None),
    "nd": lambda w: ("GatherND", {"batch_dims": int(w["attr"].split("=")[1])}, None),
}


def onnx_form(w):
    """(op type, attributes, indices as ONNX takes them) or None."""
    if w["op"] in ONNX_OPS:
        op, attrs, _ = ONNX_OPS[w["op"]](w)
        return op, attrs, np.asarray(w["idx"])
    if w["op"] == "multiaxis" and w["data"].ndim == 2 and w["attr"] == "axes = [0, 1]":
        # Interleaved (row, column) pairs: GatherND's last index dimension
        # (a reshape of the same bytes).
        idx = np.asarray(w["idx"])
        return "GatherND", {"batch_dims": 0}, idx.reshape(idx.shape[0], -1, 2)
    return None


def ort_peer(ort_dir, work, name, w, want, runs, threads):
    """The median kernel time (ms) of the workload's ONNX op in ONNX Runtime
    (onnxruntime-node in `ort_dir`, its profiler's kernel times, the first
    run left out), its output checked against numpy; None where the
    workload is no single ONNX op."""
    form = onnx_form(w)
    if form is None:
        return None
    import glob
    import json
    import onnx
    from onnx import TensorProto, helper
    op, attrs, idx = form
    data = w["data"]
    types = {np.dtype(np.float32): (TensorProto.FLOAT, "float32"),
             np.dtype(np.float16): (TensorProto.FLOAT16, "float16"),
             np.dtype(np.int32): (TensorProto.INT32, "int32"),
             np.dtype(np.int64): (TensorProto.INT64, "int64")}
    node = helper.make_node(op, ["data", "indices"], ["out"], **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("data", types[data.dtype][0], list(data.shape)),
         helper.make_tensor_value_info("indices", types[idx.dtype][0], list(idx.shape))],
        [helper.make_tensor_value_info("out", types[want.dtype][0], list(want.shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    prefix = os.path.join(work, f"{name}_ort")
    onnx.save(model, prefix + ".onnx")
    data.tofile(prefix + "_data.bin")
    np.ascontiguousarray(idx).tofile(prefix + "_indices.bin")
    spec = {"model": prefix + ".onnx", "output": prefix + "_out.bin", "runs": runs,
            "threads": threads, "profile": prefix + "_profile",
            "inputs": [{"name": "data", "type": types[data.dtype][1], "dims": list(data.shape),
                        "file": prefix + "_data.bin"},
                       {"name": "indices", "type": types[idx.dtype][1], "dims": list(idx.shape),
                        "file": prefix + "_indices.bin"}]}
    with open(prefix + ".json", "w") as f:
        json.dump(spec, f)
    for old in glob.glob(prefix + "_profile*.json"):
        os.remove(old)
    env = dict(os.environ, NODE_PATH=os.path.join(os.path.abspath(ort_dir), "node_modules"))
    subprocess.run(["node", os.path.join(HERE, "ort_peer.js"), prefix + ".json"],
                   env=env, check=True)
    got = np.fromfile(prefix + "_out.bin", want.dtype)
    if not np.array_equal(got, want.reshape(-1)):
        sys.exit(f"{name}: ONNX Runtime's result differs from numpy")
    with open(glob.glob(prefix + "_profile*.json")[0]) as f:
        events = json.load(f)
    kernel = [e["dur"] / 1000 for e in events
              if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time")]
    if len(kernel) < 2:
        sys.exit(f"{name}: no kernel times in ONNX Runtime's profile")
    return statistics.median(kernel[1:])


def median_ms(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--only", default="", help="comma-separated workloads")
    p.add_argument("--rounds", type=int, default=3,
                   help="alternating rounds; each contender keeps its best median")
    p.add_argument("--policy", default="error", choices=["error", "clamp", "fill", "unchecked"],
                   help="out_of_bounds policy of the compiled gathers")
    p.add_argument("--other-bin", default="", help="a second build's bin directory, timed alongside")
    p.add_argument("--chart", default="", help="write a bar chart of the ratios to this PNG")
    p.add_argument("--ort", default=os.environ.get("GATHER_BENCH_ORT", ""),
                   help="a directory where `npm install --ignore-scripts onnxruntime-node` ran: "
                        "ONNX Runtime's CPU kernel times (its profiler) for the workloads that "
                        "are one ONNX op")
    p.add_argument("--target", default="native",
                   help="the CPU the gathers and the C++ peers are compiled for (native, "
                        "x86-64-v3, x86-64-v4, or another name both LLVM and g++ know)")
    args = p.parse_args()
    target_flags = [] if args.target == "native" else ["--target-cpu", args.target]
    described = subprocess.run([os.path.join(args.bin, "gather-run"), "--print-target"] + target_flags,
                               capture_output=True, text=True, check=True).stdout.strip()
    print(f"target: {described}")
    peer_environment(dict(item.split("=", 1) for item in described.split()))
    policy = "" if args.policy == "error" else f" out_of_bounds = {args.policy}"
    work = tempfile.mkdtemp(prefix="gather-bench-")
    atexit.register(shutil.rmtree, work, True)  # the inputs take gigabytes
    baseline = os.path.join(work, "baseline")
    subprocess.run(["g++", "-O3", f"-march={args.target}", "-fopenmp", "-std=c++17",
                    os.path.join(HERE, "baseline.cpp"), "-o", baseline], check=True)
    try:
        import torch
        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
        print("(torch not installed: no torch column)")
    rng = np.random.default_rng(0)
    rows = []
    for name, w in workloads(rng).items():
        if args.only and name not in args.only.split(","):
            continue
        data, idx = w["data"], w["idx"]
        want = w["numpy"]()
        src = write_workload(work, name, w, want, policy)
        # The same gather without checks, timed in the same rounds: the cost
        # of the default policy's checks is the ratio of the two.
        src_unchecked = (write_workload(work, name + "_unchecked", w, want,
                                        " out_of_bounds = unchecked")
                         if args.policy != "unchecked" else None)
        data.tofile(os.path.join(work, f"{name}_data.bin"))
        idx.tofile(os.path.join(work, f"{name}_idx.bin"))
        out = os.path.join(work, f"{name}_out.npy")
        # Rounds alternate the contenders so that a slow spell of the shared
        # machine hits all of them; each keeps its best median.
        best = {k: float("inf") for k in ("gather", "gather_unchecked", "other", "cpp",
                                          "cpp_checked", "cpp_prefetch",
                                          "cpp_checked_prefetch", "memcpy", "numpy", "torch",
                                          "torch_out", "ort")}
        # Torch's two forms, each checked: its allocating call as users
        # write it, and its call into a tensor allocated once (as the C++
        # loops' and the gather's timed calls write): the faster is the peer
        # (W2's index_select on axis 1 took twice as long as its indexing).
        torch_fn = torch_peer(torch, w) if torch else None
        if torch_fn and not np.array_equal(torch_result(torch_fn), want):
            sys.exit(f"{name}: torch's result differs from numpy")
        torch_out = torch.empty_like(torch.from_numpy(want)) if torch else None
        torch_into_fn = torch_into(torch, w, torch_out) if torch else None
        if torch_into_fn:
            torch_out.zero_()
            torch_into_fn()
            if not np.array_equal(torch_out.numpy(), want):
                sys.exit(f"{name}: torch's result (out=) differs from numpy")

        def time_gather(bin_dir, source):
            r = subprocess.run([os.path.join(bin_dir, "gather-run"), source,
                                "--input", os.path.join(work, f"{name}_d.npy"),
                                "--input", os.path.join(work, f"{name}_i.npy"),
                                "--output", out, "--bench", str(args.runs),
                                "--threads", str(args.threads),
                                # Timed writing into buffers it owns, as the
                                # C++ loops do (gather-run since 2026-11-28).
                                "--destination-entries"]
                               # --other-bin too: both builds for the same CPU.
                               + target_flags,
                               capture_output=True, text=True, check=True)
            if not np.array_equal(np.load(out), want):
                sys.exit(f"{name}: compiled result of {source} ({bin_dir}) differs from numpy")
            return float(re.search(r"median ([0-9.]+) ms", r.stdout).group(1))

        seen = {k: [] for k in best}  # each round's median, for paired ratios

        def keep(key, value):
            best[key] = min(best[key], value)
            seen[key].append(value)

        for _ in range(args.rounds):
            keep("gather", time_gather(args.bin, src))
            if src_unchecked:
                keep("gather_unchecked", time_gather(args.bin, src_unchecked))
            if args.other_bin:
                keep("other", time_gather(args.other_bin, src))
            r = subprocess.run([baseline, name, work, str(args.runs), str(args.threads)],
                               capture_output=True, text=True, check=True)
            unchecked, checked, copy, prefetched, checked_prefetched = map(float, r.stdout.split())
            for variant in ("unchecked", "checked", "prefetch", "checked_prefetch"):
                got = np.fromfile(os.path.join(work, f"{name}_cpp_{variant}_out.bin"), want.dtype)
                if not np.array_equal(got, want.reshape(-1)):
                    sys.exit(f"{name}: the C++ loop's result ({variant}) differs from numpy")
            keep("cpp", unchecked)
            keep("cpp_checked", checked)
            keep("cpp_prefetch", prefetched)
            keep("cpp_checked_prefetch", checked_prefetched)
            keep("memcpy", copy)
            keep("numpy", median_ms(w["numpy"], args.runs))
            if torch_fn:
                keep("torch", median_ms(torch_fn, args.runs))
            if torch_into_fn:
                keep("torch_out", median_ms(torch_into_fn, args.runs))
            if args.ort:
                ort_ms = ort_peer(args.ort, work, name, w, want, args.runs, args.threads)
                if ort_ms is not None:
                    keep("ort", ort_ms)
        # Torch's faster form (its best median; per round, GOALS takes the
        # faster of the two in that round).
        best["torch_best"] = min(best["torch"], best["torch_out"])
        best["name"] = name
        best["rounds"] = seen
        rows.append(best)
    print(f"threads={args.threads}, runs={args.runs}, rounds={args.rounds}, policy={args.policy}, "
          f"best median ms")
    if args.other_bin:
        print("| workload | gather (ms) | other build (ms) | other / gather |")
        print("| --- | ---: | ---: | ---: |")
        for row in rows:
            print(f"| {row['name']} | {row['gather']:.3f} | {row['other']:.3f} "
                  f"| {row['other'] / row['gather']:.2f} |")

    def ms(value):
        if value == float("inf"):
            return "-"
        return f"{value:.4f}" if value < 0.1 else f"{value:.3f}"

    def ratio(peer, ours):
        return f"{peer / ours:.2f}" if peer != float("inf") and ours != float("inf") else "-"

    print("| workload | gather (ms) | gather unchecked (ms) | C++ unchecked (ms) | C++ checked (ms) "
          "| C++ prefetch (ms) | C++ checked prefetch (ms) | memcpy (ms) | numpy (ms) "
          "| torch (ms) (form) | ORT (ms) | fastest C++ / gather | unchecked / gather "
          "| checked / gather | prefetch / gather | checked prefetch / gather "
          "| memcpy / gather | numpy / gather | torch / gather | ORT / gather "
          "| gather unchecked / gather |")
    print("| --- |" + " ---: |" * 20)
    for row in rows:
        g = row["gather"]
        fastest = min(row[k] for k in CPP_LOOPS)
        torch_form = ("" if row["torch_best"] == float("inf") else
                      " (out=)" if row["torch_best"] == row["torch_out"] else " (alloc)")
        print(f"| {row['name']} | {ms(g)} | {ms(row['gather_unchecked'])} | {ms(row['cpp'])} "
              f"| {ms(row['cpp_checked'])} | {ms(row['cpp_prefetch'])} "
              f"| {ms(row['cpp_checked_prefetch'])} | {ms(row['memcpy'])} "
              f"| {ms(row['numpy'])} | {ms(row['torch_best'])}{torch_form} | {ms(row['ort'])} "
              f"| {ratio(fastest, g)} "
              f"| {ratio(row['cpp'], g)} | {ratio(row['cpp_checked'], g)} "
              f"| {ratio(row['cpp_prefetch'], g)} | {ratio(row['cpp_checked_prefetch'], g)} "
              f"| {ratio(row['memcpy'], g)} | {ratio(row['numpy'], g)} | {ratio(row['torch_best'], g)} "
              f"| {ratio(row['ort'], g)} | {ratio(row['gather_unchecked'], g)} |")
    print("(ratios above 1: gather is faster; fastest C++ is the best of the four C++ loops; "
          "memcpy / gather is the fraction of the copy bandwidth reached; gather unchecked / "
          "gather is the cost of the policy's checks)")
    print_paired(rows, args.rounds)
    if args.chart:
        write_chart(args.chart, rows, args.threads)
    return 0


# The hand-written loops of baseline.cpp: unchecked, checked, and both with
# the compiled code's prefetch.
CPP_LOOPS = ("cpp", "cpp_checked", "cpp_prefetch", "cpp_checked_prefetch")

# Issue 36's goals, as (column, peer keys, least ratio, workloads or None for
# all): peer time / gather time in the same round.
GOALS = (("fastest C++ / gather", CPP_LOOPS, 1.0, None),
         ("unchecked / error time", ("gather_unchecked",), 1 / 1.05, None),
         ("torch / gather", ("torch", "torch_out"), 1.3, None),
         ("memcpy / gather", ("memcpy",), 0.8, ("W1", "W2")),
         ("ORT / gather", ("ort",), 1.0, None))


def print_paired(rows, rounds):
    """Each goal's ratio taken within each round (the contenders of a round
    run seconds apart, so a slow spell of the shared machine hits both
    sides), as median [least, greatest] over the rounds, and in how many
    rounds the goal held. The best-median table above pairs each side's
    best round, which may come from different spells."""
    if rounds < 2:
        return
    print(f"paired per round, median [least, greatest] of {rounds} rounds; "
          "(k/n): rounds in which the goal held")
    print("| workload | " + " | ".join(f"{c} (goal {g:.2f})" for c, _, g, _ in GOALS) + " |")
    print("| --- |" + " ---: |" * len(GOALS))
    for row in rows:
        g = row["rounds"]["gather"]
        cells = []
        for _, keys, goal, only in GOALS:
            peers = [row["rounds"][k] for k in keys if row["rounds"][k]]
            if not peers or (only and row["name"] not in only):
                cells.append("-")
                continue
            r = sorted(min(p[i] for p in peers) / g[i] for i in range(len(g)))
            held = sum(x >= goal for x in r)
            cells.append(f"{statistics.median(r):.2f} [{r[0]:.2f}, {r[-1]:.2f}] ({held}/{len(r)})")
        print(f"| {row['name']} | " + " | ".join(cells) + " |")


def write_chart(path, rows, threads):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["name"] for r in rows]

    def ratios(key):
        return [r[key] / r["gather"] if r[key] != float("inf") else 0 for r in rows]

    series = [("C++ unchecked / gather", ratios("cpp")),
              ("C++ checked / gather", ratios("cpp_checked")),
              ("C++ unchecked with prefetch / gather", ratios("cpp_prefetch")),
              ("memcpy of the output / gather", ratios("memcpy")),
              ("numpy / gather", ratios("numpy")),
              ("torch / gather (its faster form)", ratios("torch_best"))]
    fig, ax = plt.subplots(figsize=(10, 4))
    width = 0.8 / len(series)
    for s, (label, values) in enumerate(series):
        ax.bar([x + s * width for x in range(len(names))], values, width, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(names))])
    ax.set_xticklabels(names)
    ax.set_yscale("log")
    ax.set_ylabel("time of peer / time of gather (log)")
    ax.set_title(f"gather (default policy) against peers, {threads} threads; above 1: gather is faster")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
