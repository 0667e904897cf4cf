"""Execution tests of tiling and fusion: random gathers of one op (the
differential tests' generator: ranks, broadcasts, dynamic sizes, every
policy, out-of-range indices) are tiled with upstream's
`transform.structured.tile_using_forall` at random tile sizes (some not
dividing the sizes), or fused as producers into the tiled loop of an
elementwise consumer (`transform.structured.fuse_into_containing_op`), then
compiled and run in process. Each result is compared bit for bit with the
untiled program and with the numpy reference; an out-of-range index under
`error` must fail both.

    /usr/bin/python3 -m gather.tiletest --op block --cases 20 --seed 1 \\
        --bin build/bin

With --bufferize the gather is instead bufferized by upstream
one-shot-bufferize (the function boundaries stay tensors) and its buffer
form runs, lowered with the scalar semantics.

Prints "N passed, M failed" and exits with 1 on any failure. A tiled op whose
output is empty has no tile and reads no index: such cases are skipped
(see run_case).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from gather import difftest, jit
from gather import reference as ref

# The consumer's payload and its numpy form, per element type.
CONSUMERS = {
    "f": ("arith.addf %x, %x : {t}", lambda a: a + a),
    "i": ("arith.addi %x, %x : {t}", lambda a: a + a),
    "b": ("arith.xori %x, %true : {t}", lambda a: np.logical_not(a)),
}


def consumer_kind(ety):
    return "b" if ety == "i1" else ety[0]


def with_consumer(text, ety, rank):
    """`text` (a @main returning %0) with an elementwise consumer of %0."""
    ot = text.split("-> ")[1].split(" {")[0]
    body, _ = text.rsplit("  return %0", 1)
    dims = []
    lines = []
    for d in range(rank):
        lines.append(f"  %cd{d} = arith.constant {d} : index")
        lines.append(f"  %d{d} = tensor.dim %0, %cd{d} : {ot}")
        dims.append(f"%d{d}")
    lines.append(f"  %e = tensor.empty({', '.join(dims)}) : {ot}")
    ident = "affine_map<(" + ", ".join(f"i{d}" for d in range(rank)) + ") -> (" + \
        ", ".join(f"i{d}" for d in range(rank)) + ")>"
    payload, _ = CONSUMERS[consumer_kind(ety)]
    lines.append(f"  %1 = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = ["
                 + ", ".join(['"parallel"'] * rank) + f"]}} ins(%0 : {ot}) outs(%e : {ot}) {{")
    lines.append(f"  ^bb0(%x: {ety}, %o: {ety}):")
    if ety == "i1":
        lines.append("    %true = arith.constant true")
    lines.append("    %y = " + payload.format(t=ety))
    lines.append(f"    linalg.yield %y : {ety}")
    lines.append(f"  }} -> {ot}")
    lines.append(f"  return %1 : {ot}\n}}\n")
    return body + "\n".join(lines)


def transform_script(tile_sizes, fuse):
    sizes = ", ".join(map(str, tile_sizes))
    if fuse:
        steps = (
            '    %c = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op\n'
            '    %gathers = transform.structured.match ops{["gather.multiaxis", "gather.block", "gather.elements", "gather.nd"]} in %root : (!transform.any_op) -> !transform.any_op\n'
            f"    %t, %loop = transform.structured.tile_using_forall %c tile_sizes [{sizes}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n"
            "    %f, %l2 = transform.structured.fuse_into_containing_op %gathers into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n")
    else:
        steps = (
            '    %gathers = transform.structured.match ops{["gather.multiaxis", "gather.block", "gather.elements", "gather.nd"]} in %root : (!transform.any_op) -> !transform.any_op\n'
            f"    %t, %loop = transform.structured.tile_using_forall %gathers tile_sizes [{sizes}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n")
    return ("module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n"
            + steps + "    transform.yield\n  }\n}\n")


def fill_shape(case):
    """The output shape where the reference raises: the same case under
    `fill`, which never does."""
    policy = case.oob
    case.oob = "fill"
    try:
        return case.expected().shape
    finally:
        case.oob = policy


OPT_LEVEL = 3


def run(program_text, case):
    """(result, None) or (None, error text)."""
    try:
        program = jit.compile(program_text, entry="main", opt_level=OPT_LEVEL)
        return program(case.data, case.indices), None
    except jit.GatherError as e:
        return None, str(e)


def run_case(case, rng, opt, work, index, bufferize=False):
    try:
        want = case.expected()
        want_error = False
    except ref.GatherIndexError:
        want, want_error = None, True
    out_shape = difftest.output_shape(case, want)
    rank = len(out_shape)
    if rank == 0 and not bufferize:
        return "skipped", None
    true_shape = want.shape if want is not None else fill_shape(case)
    if 0 in true_shape and not bufferize:
        # An empty output has no tile. (The CPU pipeline's canonicalization
        # of a tiled loop nest whose output has an empty dimension also
        # makes its tensor.parallel_insert_slice invalid: offset 0 into a
        # dimension of size 0.)
        return "skipped", None
    fuse = bool(rng.random() < 0.5) and not bufferize
    text = case.mlir(out_shape)
    if fuse:
        text = with_consumer(text, case.ety, rank)
        if want is not None:
            want = CONSUMERS[consumer_kind(case.ety)][1](want)
    sizes = [int(rng.integers(0, 6)) for _ in range(rank)]
    if rank and not any(sizes):
        sizes[int(rng.integers(0, rank))] = int(rng.integers(1, 6))
    src = os.path.join(work, f"t{index}.mlir")
    script = os.path.join(work, f"t{index}.transform.mlir")
    with open(src, "w") as f:
        f.write(text)
    with open(script, "w") as f:
        f.write(transform_script(sizes, fuse))
    if bufferize:
        # Upstream one-shot-bufferize inside the function (its boundaries
        # stay tensors): the gather becomes the buffer form, which the
        # pipeline lowers with the scalar semantics.
        r = subprocess.run([opt, src, "--one-shot-bufferize"], capture_output=True, text=True)
        if r.returncode != 0:
            return "failed", f"one-shot-bufferize failed: {r.stderr.strip()}"
        # Each to_tensor wraps a buffer nothing else writes: the remaining
        # bufferization (the pipeline's) may take it as is.
        tiled_text = re.sub(r"(bufferization\.to_tensor %[\w.]+) :", r"\1 restrict :", r.stdout)
        if not any(f"gather.{case.op} " in line and "memref<" in line
                   for line in tiled_text.splitlines()):
            return "failed", "no buffer-form gather after one-shot-bufferize"
        label = "bufferized"
    else:
        r = subprocess.run([opt, src, f"--transform-preload-library=transform-library-paths={script}",
                            "--transform-interpreter"], capture_output=True, text=True)
        if r.returncode != 0:
            return "failed", f"tiling (sizes {sizes}, fuse {fuse}) failed: {r.stderr.strip()}"
        tiled_text = r.stdout
        if "scf.forall" not in tiled_text and 0 not in out_shape:
            return "failed", f"no scf.forall after tiling (sizes {sizes})"
        label = f"sizes {sizes}, fuse {fuse}"
    for name, program_text in (("untiled", text), ("tiled", tiled_text)):
        got, error = run(program_text, case)
        if want_error:
            if error is None or ("out of bounds" not in error and "is out of range" not in error):
                return "failed", f"{name} ({label}): expected an out-of-bounds error, got {error!r}"
            continue
        if error is not None:
            return "failed", f"{name} ({label}): {error}"
        if not difftest.same_bits(np.asarray(got), np.asarray(want)):
            return "failed", (f"{name} ({label}): mismatch\n  got  {np.asarray(got).tolist()}\n"
                              f"  want {np.asarray(want).tolist()}")
    return "passed", None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", required=True, choices=["multiaxis", "block", "elements", "nd"])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--bufferize", action="store_true",
                        help="instead of tiling, bufferize the gather with one-shot-bufferize "
                             "and run its buffer form")
    parser.add_argument("--opt-level", type=int, default=3, choices=[0, 1, 2, 3],
                        help="LLVM optimization level of the compiled programs")
    args = parser.parse_args(argv)
    global OPT_LEVEL
    OPT_LEVEL = args.opt_level
    opt = os.path.join(args.bin, "gather-opt")
    rng = np.random.default_rng(args.seed)
    work = tempfile.mkdtemp(prefix=f"gather-tile-{args.op}-")
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for i in range(args.cases):
        case = difftest.make_case(args.op, rng)
        status, problem = run_case(case, rng, opt, work, i, args.bufferize)
        counts[status] += 1
        if problem:
            print(f"FAIL case {i}: {case.describe()}: {problem}")
    mode = " (bufferized)" if args.bufferize else ""
    print(f"tiletest {args.op}{mode}: {counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
