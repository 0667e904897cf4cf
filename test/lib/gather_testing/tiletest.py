# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Execution tests of tiling and fusion: random gathers of one op (the
differential tests' generator: ranks, broadcasts, dynamic sizes, every
policy, out-of-range indices) are tiled with upstream's
`transform.structured.tile_using_forall` at random tile sizes (some not
dividing the sizes), or fused as producers into the tiled loop of an
elementwise consumer (`transform.structured.fuse_into_containing_op`), then
compiled and run in process. Each result is compared bit for bit with the
untiled program and with the numpy reference; an out-of-range index under
`error` must fail both.

    /usr/bin/python3 -m gather_testing.tiletest --op block --cases 20 --seed 1 \\
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
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather import jit
from gather_testing import difftest
from gather import reference as ref
from gather.mlir_text import generic_text

def with_consumer(text, ety, rank):
    """`text` (a @main returning %0) with difftest's `double` consumer of %0
    (x + x; i1 negated)."""
    ot = text.split("-> ")[1].split(" {")[0]
    body, _ = text.rsplit("  return %0", 1)
    lines = []
    for d in range(rank):
        lines.append(f"  %cd{d} = arith.constant {d} : index")
        lines.append(f"  %d{d} = tensor.dim %0, %cd{d} : {ot}")
    lines.append(f"  %e = tensor.empty({', '.join(f'%d{d}' for d in range(rank))}) : {ot}")
    payload, _, _ = difftest.consumer("double", ety)
    lines += generic_text("%1", ["%0"], [ot], "%e", ot, [f"%x: {ety}", f"%o: {ety}"], payload)
    lines.append(f"  return %1 : {ot}\n}}\n")
    return body + "\n".join(lines)


GATHER_OPS = '["gather.multiaxis", "gather.block", "gather.elements", "gather.nd"]'
ANY = "(!transform.any_op) -> !transform.any_op"
TWO = "(!transform.any_op) -> (!transform.any_op, !transform.any_op)"


def with_index_producer(text, ity, rank):
    """`text` (a @main of %data and %indices, static sizes) whose indices an
    elementwise producer computes: the function takes them less one and
    adds one back."""
    it = text.split("%indices: ")[1].split(")")[0]
    head, body = text.split(" {\n", 1)
    head = head.replace("%indices: ", "%indices_m1: ", 1)
    lines = [f"  %pe = tensor.empty() : {it}"]
    lines += generic_text("%indices", ["%indices_m1"], [it], "%pe", it,
                          [f"%pa: {ity}", f"%po: {ity}"],
                          [f"%pone = arith.constant 1 : {ity}", f"%y = arith.addi %pa, %pone : {ity}"])
    return head + " {\n" + "\n".join(lines) + "\n" + body


def transform_steps(tile_sizes, fuse, scope="%root", tag="", producer=False):
    """Tiles the gathers in `scope` (or fuses them into the tiled consumer;
    with `producer`, then fuses the indices' producer into their loop)."""
    sizes = ", ".join(map(str, tile_sizes))
    if producer:
        return (f"    %g{tag} = transform.structured.match ops{{{GATHER_OPS}}} in {scope} : {ANY}\n"
                f"    %t{tag}, %loop{tag} = transform.structured.tile_using_forall %g{tag} tile_sizes [{sizes}] : {TWO}\n"
                f'    %p{tag} = transform.structured.match ops{{["linalg.generic"]}} in {scope} : {ANY}\n'
                f"    %f{tag}, %l{tag} = transform.structured.fuse_into_containing_op %p{tag} into %loop{tag} : "
                "(!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n")
    if fuse:
        return (f'    %c{tag} = transform.structured.match ops{{["linalg.generic"]}} in {scope} : {ANY}\n'
                f"    %g{tag} = transform.structured.match ops{{{GATHER_OPS}}} in {scope} : {ANY}\n"
                f"    %t{tag}, %loop{tag} = transform.structured.tile_using_forall %c{tag} tile_sizes [{sizes}] : {TWO}\n"
                f"    %f{tag}, %l{tag} = transform.structured.fuse_into_containing_op %g{tag} into %loop{tag} : "
                "(!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n")
    return (f"    %g{tag} = transform.structured.match ops{{{GATHER_OPS}}} in {scope} : {ANY}\n"
            f"    %t{tag}, %loop{tag} = transform.structured.tile_using_forall %g{tag} tile_sizes [{sizes}] : {TWO}\n")


def transform_module(steps):
    return ("module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n"
            + steps + "    transform.yield\n  }\n}\n")


def transform_script(tile_sizes, fuse, producer=False):
    return transform_module(transform_steps(tile_sizes, fuse, producer=producer))


def batch_transform_script(prepared):
    """One script for a module of cases: each function's gathers tiled with
    that case's sizes."""
    steps = ""
    for p in prepared:
        steps += (f'    %fn{p.index} = transform.structured.match ops{{["func.func"]}} '
                  f'attributes{{sym_name = "t{p.index}"}} in %root : {ANY}\n')
        steps += transform_steps(p.sizes, p.fuse, scope=f"%fn{p.index}", tag=str(p.index),
                                 producer=p.producer)
    return transform_module(steps)


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


class Prepared:
    """A case's program, tile sizes, consumer and expected result."""

    def __init__(self, case, index, text, sizes, fuse, want, want_error, rank, producer=False):
        self.case, self.index, self.text, self.sizes, self.fuse = case, index, text, sizes, fuse
        self.want, self.want_error, self.rank = want, want_error, rank
        self.producer = producer

    def arguments(self):
        """The function's arguments: the indices less one where a producer
        adds it back."""
        if self.producer:
            return self.case.data, (self.case.indices - 1).astype(self.case.indices.dtype)
        return self.case.data, self.case.indices

    def label(self):
        return f"sizes {self.sizes}, fuse {self.fuse}" + (", index producer" if self.producer
                                                          else "")


def prepare(case, rng, index, bufferize):
    """The case's program as function @t<index>, or None when it is skipped
    (rank 0 or an empty output: no tile)."""
    try:
        want = case.expected()
        want_error = False
    except ref.GatherIndexError:
        want, want_error = None, True
    out_shape = difftest.output_shape(case, want)
    rank = len(out_shape)
    if rank == 0 and not bufferize:
        return None
    true_shape = want.shape if want is not None else fill_shape(case)
    if 0 in true_shape and not bufferize:
        # An empty output has no tile. (The CPU pipeline's canonicalization
        # of a tiled loop nest whose output has an empty dimension also
        # makes its tensor.parallel_insert_slice invalid: offset 0 into a
        # dimension of size 0.)
        return None
    fuse = bool(rng.random() < 0.5) and not bufferize
    text = case.mlir(out_shape)
    if fuse:
        text = with_consumer(text, case.ety, rank)
        if want is not None:
            want = difftest.consumer("double", case.ety)[2](want, None)
    sizes = [int(rng.integers(0, 6)) for _ in range(rank)]
    if rank and not any(sizes):
        sizes[int(rng.integers(0, rank))] = int(rng.integers(1, 6))
    # Else, half the time where the sizes are static, the indices come from
    # an elementwise producer fused into the tiled loop, each tile computing
    # its slice. (With dynamic sizes each tile checks the whole op's sizes,
    # a tensor.dim of the producer's result in the loop, and upstream's
    # fuse_into_containing_op crashed: MLIR 22.)
    static = not any(case.data_dyn) and not any(case.idx_dyn)
    producer = (not fuse and not bufferize and case.indices.ndim > 0 and static and
                bool(rng.random() < 0.5))
    if producer:
        text = with_index_producer(text, case.ity, case.indices.ndim)
    text = text.replace("func.func @main(", f"func.func @t{index}(", 1)
    return Prepared(case, index, text, sizes, fuse, want, want_error, rank, producer)


def bufferized_text(opt, src):
    """(text, None) after upstream one-shot-bufferize inside the functions
    (their boundaries stay tensors): the gathers become the buffer form,
    which the pipeline lowers with the scalar semantics; or (None, error)."""
    r = subprocess.run([opt, src, "--one-shot-bufferize"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"one-shot-bufferize failed: {r.stderr.strip()}"
    # Each to_tensor wraps a buffer nothing else writes: the remaining
    # bufferization (the pipeline's) may take it as is.
    return re.sub(r"(bufferization\.to_tensor %[\w.]+) :", r"\1 restrict :", r.stdout), None


def check_transformed(p, function_text, bufferize):
    """None when the transformed function has the expected form."""
    if bufferize:
        if not any(f"gather.{p.case.op} " in line and "memref<" in line
                   for line in function_text.splitlines()):
            return "no buffer-form gather after one-shot-bufferize"
    elif "scf.forall" not in function_text:
        return f"no scf.forall after tiling (sizes {p.sizes})"
    return None


_LOCATION = re.compile(r" at .*?:\d+:\d+:")


def compare(p, label, name, got, error, untiled_error=None):
    """None when the run of one program (tiled or not) is right. An error
    must name an invalid value, its position and its dimension, and a tiled
    program's the same as the untiled one's (the first invalid value in
    row-major order, whichever tile meets one first): `untiled_error`."""
    if p.want_error:
        if error is None:
            return f"{name} ({label}): expected an out-of-bounds error, got a result"
        # A tile of computed indices reports the position in its own slice
        # (docs/Composing.md): the value and the dimension only.
        tile_of_computed = p.producer and untiled_error is not None
        problem = difftest.expect_error_text(p.case, error, position=not tile_of_computed)
        if problem:
            return f"{name} ({label}): {problem}"
        if (not tile_of_computed and untiled_error is not None and
                _LOCATION.sub(":", error) != _LOCATION.sub(":", untiled_error)):
            return f"{name} ({label}): error {error!r} differs from the untiled {untiled_error!r}"
        return None
    if error is not None:
        return f"{name} ({label}): {error}"
    if not difftest.same_bits(np.asarray(got), np.asarray(p.want)):
        return (f"{name} ({label}): mismatch\n  got  {np.asarray(got).tolist()}\n"
                f"  want {np.asarray(p.want).tolist()}")
    return None


def run_case(p, opt, work, bufferize=False):
    """One prepared case on its own: its gather-opt call and compilations."""
    src = os.path.join(work, f"t{p.index}.mlir")
    script = os.path.join(work, f"t{p.index}.transform.mlir")
    with open(src, "w") as f:
        f.write(p.text)
    with open(script, "w") as f:
        f.write(transform_script(p.sizes, p.fuse, p.producer))
    if bufferize:
        transformed, error = bufferized_text(opt, src)
        if error:
            return error
        label = "bufferized"
    else:
        r = subprocess.run([opt, src, f"--transform-preload-library=transform-library-paths={script}",
                            "--transform-interpreter"], capture_output=True, text=True)
        if r.returncode != 0:
            return f"tiling ({p.label()}) failed: {r.stderr.strip()}"
        transformed = r.stdout
        label = p.label()
    problem = check_transformed(p, transformed, bufferize)
    if problem:
        return problem
    untiled_error = None
    for name, program_text in (("untiled", p.text), ("tiled", transformed)):
        try:
            program = jit.compile(program_text, entry=f"t{p.index}", opt_level=OPT_LEVEL)
            got, error = program(*p.arguments()), None
        except jit.GatherError as e:
            got, error = None, str(e)
        problem = compare(p, label, name, got, error, untiled_error)
        if problem:
            return problem
        untiled_error = error
    return None


def run_batch(prepared, opt, work, bufferize=False):
    """The cases as functions of one module: one transform (or bufferize)
    call and one compilation of the module before and after. Returns
    {index: problem or None}, or None when the batch does not get through
    (the caller then runs the cases one by one)."""
    first = prepared[0].index
    src = os.path.join(work, f"batch{first}.mlir")
    module = "\n".join(p.text for p in prepared)
    with open(src, "w") as f:
        f.write(module)
    if bufferize:
        transformed, error = bufferized_text(opt, src)
        if error:
            return None
    else:
        script = os.path.join(work, f"batch{first}.transform.mlir")
        with open(script, "w") as f:
            f.write(batch_transform_script(prepared))
        r = subprocess.run([opt, src, f"--transform-preload-library=transform-library-paths={script}",
                            "--transform-interpreter"], capture_output=True, text=True)
        if r.returncode != 0:
            return None
        transformed = r.stdout
    functions = difftest.split_functions(transformed)
    try:
        programs = {name: jit.compile(text, entry=f"t{first}", opt_level=OPT_LEVEL)
                    for name, text in (("untiled", module), ("tiled", transformed))}
    except jit.GatherError:
        return None
    results = {}
    for p in prepared:
        label = "bufferized" if bufferize else p.label()
        problem = check_transformed(p, functions.get(f"t{p.index}", ""), bufferize)
        untiled_error = None
        for name, program in programs.items():
            if problem:
                break
            program.select(f"t{p.index}")
            try:
                got, error = program(*p.arguments()), None
            except jit.GatherError as e:
                got, error = None, str(e)
            problem = compare(p, label, name, got, error, untiled_error)
            untiled_error = error
        results[p.index] = problem
    return results


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
    parser.add_argument("--batch", type=int, default=60,
                        help="cases per module (one transform call, one compilation before and "
                             "after); 0: each case on its own")
    args = parser.parse_args(argv)
    global OPT_LEVEL
    OPT_LEVEL = args.opt_level
    opt = os.path.join(args.bin, "gather-opt")
    rng = np.random.default_rng(args.seed)
    work = tempfile.mkdtemp(prefix=f"gather-tile-{args.op}-")
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    cases = [difftest.make_case(args.op, rng) for _ in range(args.cases)]
    prepared = []
    for i, case in enumerate(cases):
        p = prepare(case, rng, i, args.bufferize)
        if p is None:
            counts["skipped"] += 1
        else:
            prepared.append(p)
    step = args.batch if args.batch > 0 else 1
    for first in range(0, len(prepared), step):
        chunk = prepared[first:first + step]
        results = run_batch(chunk, opt, work, args.bufferize) if args.batch > 0 else None
        if results is None:
            results = {p.index: run_case(p, opt, work, args.bufferize) for p in chunk}
        for p in chunk:
            problem = results[p.index]
            counts["failed" if problem else "passed"] += 1
            if problem:
                print(f"FAIL case {p.index}: {p.case.describe()}: {problem}")
    mode = " (bufferized)" if args.bufferize else ""
    print(f"tiletest {args.op}{mode}: {counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped")
    if counts["failed"]:
        print(f"(the failing cases' files are in {work})")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
