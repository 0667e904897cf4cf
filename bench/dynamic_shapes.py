#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What dynamic sizes cost the compiled code: workloads of bench/run.py
compiled with some of their sizes dynamic ("?" in the types; the program
takes the same arrays) against the static program, called in turn in one
process (each timed call after an untimed one of the same program, in
an order drawn afresh each turn), the results compared with numpy, written into one
64-byte aligned array. Prints the median time
of each variant and its ratio to the static one's (median over the turns
of variant / static). A/B of two builds: run once per build with
GATHER_CAPI_LIBRARY set to each build's lib/libGatherCAPI.so.

    /usr/bin/python3 bench/dynamic_shapes.py [--calls 40] [--threads 2] [--only W5,W1]

W5 and W5x64 (the default) take the variants of VARIANTS; the others
their indices' sizes dynamic, their data's but the last, and every size.
"""
import argparse
import os
import statistics
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
from gather.mlir_text import gather_op_text, output_shape, tensor_type  # noqa: E402
import run  # noqa: E402
from paired import DEFAULT_WARM, aligned_empty, time_in_turns  # noqa: E402

# Name: (the data's dynamic dimensions, the indices'), for W5 and W5x64.
VARIANTS = {
    "static": ((), ()),
    "index rows": ((), (0,)),
    "tuple dimension": ((), (3,)),
    "pixels (data H, W)": ((1, 2), ()),
    "images (data N)": ((0,), ()),
    "channels (data C)": ((3,), ()),
    "all data": ((0, 1, 2, 3), ()),
    "all indices": ((), (0, 1, 2, 3)),
    "everything": ((0, 1, 2, 3), (0, 1, 2, 3)),
}


# The other workloads' variants.
GENERAL = {
    "static": lambda rd, ri: ((), ()),
    "all indices": lambda rd, ri: ((), tuple(range(ri))),
    "data but the last": lambda rd, ri: (tuple(range(rd - 1)), ()),
    "everything": lambda rd, ri: (tuple(range(rd)), tuple(range(ri))),
}


def variants(w):
    if w["op"] == "multiaxis" and w["data"].ndim == 4:
        return VARIANTS
    rd, ri = w["data"].ndim, np.asarray(w["idx"]).ndim
    # (gather.nd's tuple length stays static: it sets the result's rank.)
    keep = (ri - 1,) if w["op"] == "nd" else ()
    return {k: (f(rd, ri)[0], tuple(d for d in f(rd, ri)[1] if d not in keep))
            for k, f in GENERAL.items()}


def variant_text(w, dynamic):
    value = w["attr"].split("=")[1].strip()
    args = ({"axes": [int(a) for a in value.strip("[]").split(",")]} if w["op"] == "multiaxis"
            else {"batch_dims": int(value)} if w["op"] == "nd" else {"axis": int(value)})
    ety, ity = w.get("ety", "f32"), w.get("ity", "i64")
    ds = [None if d in dynamic[0] else n for d, n in enumerate(w["data"].shape)]
    ids = [None if d in dynamic[1] else n for d, n in enumerate(np.asarray(w["idx"]).shape)]
    dt, it = tensor_type(ds, ety), tensor_type(ids, ity)
    ot = tensor_type(output_shape(w["op"], ds, ids, **args), ety)
    body = gather_op_text(w["op"], "%0", "%d", "%i", dt, it, ot, attrs=w["attr"], **args)
    return f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n{body}\n  return %0 : {ot}\n}}\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=40)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="W5,W5x64")
    args = p.parse_args()
    print(f"threads={args.threads}, {args.calls} turns; median ms [variant / static, median "
          "over the turns]")
    workloads = run.workloads(np.random.default_rng(0))
    names = args.only.split(",")
    rows = {}
    for name in names:
        w = workloads[name]
        kinds = variants(w)
        want = w["numpy"]()
        data, idx = np.ascontiguousarray(w["data"]), np.ascontiguousarray(w["idx"])
        # Where the compiled code's allocator would put a result (64-byte
        # aligned): numpy's address, 16 mod 64, kept the rows from
        # streaming stores (gather-streaming-stores checks the alignment).
        out = aligned_empty(want.shape, want.dtype)
        calls = []
        for dynamic in kinds.values():
            program = jit.compile(variant_text(w, dynamic), threads=args.threads,
                                  destination_entries=True)
            call = program.bind(data, idx, out=out)
            if not np.array_equal(out, want):
                sys.exit(f"{name} {dynamic}: differs from numpy")
            calls.append(call)
        # Each timed call after an untimed one of the same function.
        times = time_in_turns(calls, args.calls, warm=DEFAULT_WARM)
        for v, t in zip(kinds, times):
            ratio = statistics.median(a / b for a, b in zip(t, times[0]))
            rows.setdefault(v, {})[name] = f"{statistics.median(t) * 1e3:.3f} [{ratio:.2f}]"
    print("| variant | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for v, row in rows.items():
        print(f"| {v} | " + " | ".join(row.get(n, "-") for n in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
