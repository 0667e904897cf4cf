# A function chaining 240 gathers of all four kinds and mixed policies: the
# pipelines lower each distinct gather once (gather-outline-duplicates), or,
# with that off, split the function into pieces (gather-split-functions)
# and the JIT merges the identical loop bodies, then compiles the LLVM module
# in partitions on several threads (or whole, on one). Each form is run with
# gather-run and compared with the numpy reference, gather by gather.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s %gather_bin %t | FileCheck %s
# CHECK: pipeline outlined 20 functions for 240 gathers, split @main into {{[0-9]+}} pieces
# CHECK: without outlining: split @main into {{[1-9][0-9]*}} pieces
# CHECK: gpu pipeline: 240 kernels in {{[1-9][0-9]*}} pieces, 15 distinct
# CHECK: long chain of 240 gathers: equal to the reference
# CHECK: without outlining, 2 compile threads: 8 LLVM modules, equal to the reference
# CHECK: small split bounds, 1 compile thread: {{[1-9][0-9]*}} pieces of pieces, 1 LLVM module, equal to the reference
# CHECK: with destination entries, without outlining: split @main__into into {{[1-9][0-9]*}} pieces, @main split 0 times
# CHECK: through __into: equal to the reference
# CHECK: dynamic chain of 40 gathers: 4 outlined functions, equal to the reference

import os
import re
import subprocess
import sys

import numpy as np

from gather import reference as ref
from gather.mlir_text import gather_op_text

bin_dir, work = sys.argv[1], sys.argv[2]
N = 240
rng = np.random.default_rng(7)
x0 = rng.standard_normal((64, 64)).astype(np.float32)
good = {"b": rng.integers(-64, 64, size=64), "e": rng.integers(0, 64, size=(64, 64)),
        "n": rng.integers(0, 64, size=(64, 1)), "m": rng.integers(0, 64, size=(64, 128))}
# Out-of-range values for the policies that define them.
bad = {k: np.where(rng.random(v.shape) < 0.2, rng.choice([-100, 64, 70, 1000], size=v.shape), v)
       for k, v in good.items()}
# (negative_indices, out_of_bounds, the index set it reads)
policies = [("wrap", "error", good), ("wrap", "clamp", bad), ("out_of_bounds", "fill", bad),
            ("wrap", "unchecked", good), ("out_of_bounds", "error", None)]
nonneg = {"b": np.abs(good["b"]) % 64, **{k: good[k] for k in "enm"}}

T = "tensor<64x64xf32>"
types = {"b": "tensor<64xi64>", "e": "tensor<64x64xi64>", "n": "tensor<64x1xi64>", "m": "tensor<64x128xi64>"}
args = []
for tag in ("good", "bad", "nonneg"):
    args += [(f"{tag}_{k}", types[k]) for k in "benm"]
lines = [f"func.func @main(%x0: {T}, " + ", ".join(f"%{n}: {t}" for n, t in args) + f") -> {T} {{"]
want = x0
for i in range(N):
    negative, oob, indices = policies[i % len(policies)]
    tag = "good" if indices is good else "bad" if indices is bad else "nonneg"
    source = {"good": good, "bad": bad, "nonneg": nonneg}[tag]
    policy = (f" negative_indices = {negative}" if negative != "wrap" else "") + \
             (f" out_of_bounds = {oob}" if oob != "error" else "")
    kind = "benm"[(i // len(policies)) % 4]
    idx = f"%{tag}_{kind}"
    src, dst = f"%x{i}", f"%x{i + 1}"
    kw = dict(negative=negative, out_of_bounds=oob)
    if kind == "b":
        lines.append(gather_op_text("block", dst, src, idx, T, types[kind], T, attrs=f"axis = 0{policy}", axis=0))
        want = ref.block(want, source[kind], 0, **kw)
    elif kind == "e":
        lines.append(gather_op_text("elements", dst, src, idx, T, types[kind], T, attrs=f"axis = 1{policy}", axis=1))
        want = ref.elements(want, source[kind], 1, **kw)
    elif kind == "n":
        lines.append(gather_op_text("nd", dst, src, idx, T, types[kind], T, attrs=f"{policy}"))
        want = ref.nd(want, source[kind], 0, **kw)
    else:
        lines.append(gather_op_text("multiaxis", dst, src, idx, T, types[kind], T, attrs=f"axes = [0, 1]{policy}", axes=[0, 1]))
        want = ref.multiaxis(want, source[kind], [0, 1], **kw)
lines += [f"  return %x{N} : {T}", "}"]
src_path = os.path.join(work, "chain.mlir")
with open(src_path, "w") as f:
    f.write("\n".join(lines) + "\n")

OUTLINED = r"llvm\.func @__gather_(?:block|elements|nd|multiaxis)(?:_\d+)?\("
lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), src_path, "--gather-cpu-pipeline"],
                         check=True, capture_output=True, text=True).stdout
print(f"pipeline outlined {len(re.findall(OUTLINED, lowered))} functions for {N} gathers, "
      f"split @main into {lowered.count('llvm.func @main_part')} pieces")
lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), src_path,
                          "--gather-cpu-pipeline=outline-duplicates=false"],
                         check=True, capture_output=True, text=True).stdout
print(f"without outlining: split @main into {lowered.count('llvm.func @main_part')} pieces")

# The GPU pipeline splits the chain too: the buffers the host keeps for the
# deallocation of the pieces' results stay on the host. Identical kernels
# are compiled once (gather-dedup-gpu-kernels): one per distinct gather.
gpu = subprocess.run([os.path.join(bin_dir, "gather-opt"), src_path, "--gather-gpu-pipeline=format=isa"],
                     capture_output=True, text=True)
if gpu.returncode != 0:
    sys.exit(f"gpu pipeline failed: {gpu.stderr[:2000]}")
print(f"gpu pipeline: {gpu.stdout.count('gpu.launch_func')} kernels in "
      f"{gpu.stdout.count('llvm.func @main_part')} pieces, "
      f"{gpu.stdout.count('gpu.binary @')} distinct")

inputs = [x0]
for source in (good, bad, nonneg):
    inputs += [source[k].astype(np.int64) for k in "benm"]
paths = []
for k, a in enumerate(inputs):
    paths.append(os.path.join(work, f"in{k}.npy"))
    np.save(paths[-1], a)
out = os.path.join(work, "out.npy")


def gather_run(path, inputs, expected, extra, what):
    """gather-run on `path` with `extra` options, its result compared with
    `expected`; returns its stderr."""
    run = subprocess.run([os.path.join(bin_dir, "gather-run"), path, *extra,
                          *sum([["--input", p] for p in inputs], []), "--output", out],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"gather-run {what} failed: {run.stderr}")
    got = np.load(out)
    if not np.array_equal(got, expected):
        sys.exit(f"mismatch {what} at {np.argwhere(got != expected)[:5].tolist()}")
    return run.stderr


gather_run(src_path, paths, want, [], "on the chain")
print(f"long chain of {N} gathers: equal to the reference")
# 240 distinct gathers are enough LLVM IR for the JIT to split the module:
# 4 partitions per compile thread (lib/Runner/Jit.cpp); one compile thread
# takes it whole (the run with small split bounds below).
LLVM_MODULES = r"LLVM instructions in (\d+) modules?\)"
stderr = gather_run(src_path, paths, want, ["--no-outline", "--compile-times", "--compile-threads=2"],
                    "without outlining")
modules = re.search(LLVM_MODULES, stderr)
print(f"without outlining, 2 compile threads: {modules.group(1) if modules else '?'} LLVM modules, "
      "equal to the reference")

# The CPU pipeline as text with small split bounds: @main's list of piece
# calls exceeds them and is cut again (pieces calling pieces). (The
# pipeline is dumped from an empty module: it is the same text.)
empty_path = os.path.join(work, "empty.mlir")
with open(empty_path, "w") as f:
    f.write("module {}\n")
dumped = subprocess.run([os.path.join(bin_dir, "gather-opt"), empty_path, "--dump-pass-pipeline",
                         "--gather-cpu-pipeline=outline-duplicates=false", "-o", os.devnull],
                        check=True, capture_output=True, text=True).stderr
text = re.search(r"builtin\.module\(.*\)", dumped.replace("\n", " ")).group(0)
text, count = re.subn(r"gather-split-functions\{[^}]*\}", "gather-split-functions{max-ops=2000 max-tensors=3}", text)
if count != 1:
    sys.exit(f"no gather-split-functions in the dumped pipeline: {dumped[:2000]}")
lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), src_path, f"--pass-pipeline={text}"],
                         check=True, capture_output=True, text=True).stdout
nested = len(re.findall(r"llvm\.func (?:private )?@main_part\d+_\d+\(", lowered))
stderr = gather_run(src_path, paths, want, [f"--pipeline={text}", "--compile-times", "--compile-threads=1"],
                    "with small split bounds")
modules = re.search(LLVM_MODULES, stderr)
print(f"small split bounds, 1 compile thread: {nested} pieces of pieces, "
      f"{modules.group(1) if modules else '?'} LLVM module, equal to the reference")

# With the destination entries @main allocates its result and calls
# @main__into, whose body the pipeline splits instead.
lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), src_path,
                          "--gather-cpu-pipeline=destination-entries=true outline-duplicates=false"],
                         check=True, capture_output=True, text=True).stdout
print(f"with destination entries, without outlining: split @main__into into "
      f"{lowered.count('llvm.func @main__into_part')} pieces, "
      f"@main split {lowered.count('llvm.func @main_part')} times")
gather_run(src_path, paths, want, ["--destination-entries"], "through __into")
print(f"through __into: equal to the reference")

# The same kinds with every size dynamic and the default policy: the
# outlined functions take dynamic shapes, and the sizes of each call's
# destination come from its own operands.
D = 40
dyn = {"x": "tensor<?x?xf32>", "b": "tensor<?xi64>", "e": "tensor<?x?xi64>", "n": "tensor<?x1xi64>",
       "m": "tensor<?x?xi64>"}
lines = [f"func.func @main(%x0: {dyn['x']}, " + ", ".join(f"%{k}: {dyn[k]}" for k in "benm") + f") -> {dyn['x']} {{"]
want = x0
for i in range(D):
    kind = "benm"[i % 4]
    src, dst = f"%x{i}", f"%x{i + 1}"
    if kind == "b":
        lines.append(gather_op_text("block", dst, src, "%b", dyn["x"], dyn["b"], dyn["x"], attrs="axis = 0", axis=0))
        want = ref.block(want, nonneg["b"], 0)
    elif kind == "e":
        lines.append(gather_op_text("elements", dst, src, "%e", dyn["x"], dyn["e"], dyn["x"], attrs="axis = 1", axis=1))
        want = ref.elements(want, good["e"], 1)
    elif kind == "n":
        lines.append(gather_op_text("nd", dst, src, "%n", dyn["x"], dyn["n"], dyn["x"]))
        want = ref.nd(want, good["n"], 0)
    else:
        lines.append(gather_op_text("multiaxis", dst, src, "%m", dyn["x"], dyn["m"], dyn["x"], attrs="axes = [0, 1]",
                                    axes=[0, 1]))
        want = ref.multiaxis(want, good["m"], [0, 1])
lines += [f"  return %x{D} : {dyn['x']}", "}"]
dyn_path = os.path.join(work, "dynamic.mlir")
with open(dyn_path, "w") as f:
    f.write("\n".join(lines) + "\n")
lowered = subprocess.run([os.path.join(bin_dir, "gather-opt"), dyn_path, "--gather-cpu-pipeline"],
                         check=True, capture_output=True, text=True).stdout
dyn_inputs = [paths[0]] + [os.path.join(work, f"dyn_{k}.npy") for k in "benm"]
for k, p in zip("benm", dyn_inputs[1:]):
    np.save(p, (nonneg if k == "b" else good)[k].astype(np.int64))
gather_run(dyn_path, dyn_inputs, want, [], "on the dynamic chain")
print(f"dynamic chain of {D} gathers: {len(re.findall(OUTLINED, lowered))} outlined functions, equal to the reference")
