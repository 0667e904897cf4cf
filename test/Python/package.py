# The Python package (ctypes over libGatherCAPI.so) compiles and runs gathers
# on numpy arrays: each op against the numpy reference, the per-signature
# cache, gather.compile on a whole module, the ONNX importer end to end, the
# host's vector width (jit.host_vector_bits) and target description
# (jit.target_description, against /proc/cpuinfo and sysfs), programs for a
# named CPU (target_cpu), the compile threads and optimization level, and
# errors as exceptions (compile diagnostics, a module MLIR 22's verifier
# would crash on, out-of-bounds under `error`, bad arguments) with the
# interpreter still alive afterwards.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# CHECK: ops: 40 passed
# CHECK: cache: 2 compilations for 3 shapes
# CHECK: compile: two results ok
# CHECK: onnx: test_gather_0 ok
# CHECK: host vector bits: as the CPU's flags say
# CHECK: host target: as the CPU's flags and the OS's caches say
# CHECK: named target on the host: its instruction set, the host's caches
# CHECK: x86-64-v3: vector-bits 256, result ok
# CHECK: target error: unknown target CPU 'pentium9'
# CHECK: other architecture: refused
# CHECK: other architecture: refused
# CHECK: missing features: ok
# CHECK: one compile thread at -O1: result ok
# CHECK: error: gather.block at <gather module>:{{[0-9]+}}:{{[0-9]+}}: index 5 at indices[1] is out of range [-5, 4] for dimension 0 (size 5)
# CHECK: error: the module does not parse or verify | <gather module>:1:{{[0-9]+}}: error: 'gather.block' op operand #1 must be ranked tensor or memref of signless integer
# CHECK: error: the module does not parse or verify | <gather module>:1:{{[0-9]+}}: error: 'tensor.concat' op concatenation dim -1 is negative
# CHECK: error: argument 0: dtype float64 does not match element type f32
# CHECK: error: out_of_bounds must be 'error', 'clamp', 'fill' or 'unchecked', got 'wrap'
# CHECK: error: options: compileThreads -1 is negative
# CHECK: error: optimization level 7 is out of range [0, 3]
# CHECK: still alive
import glob
import os
import platform

import numpy as np

import gather
from gather import jit, reference

rng = np.random.default_rng(5)
passed = 0
for case in range(10):
    dtype = [np.float32, np.int64, np.float16, np.int8, np.float64][case % 5]
    data = (rng.standard_normal((4, 5, 3)) * 20).astype(dtype)
    policy = ["error", "clamp", "fill", "unchecked"][case % 4]
    lo, hi = (-4, 4) if policy in ("error", "unchecked") else (-9, 9)
    # block
    idx = rng.integers(lo, hi, (2, 3)).astype([np.int32, np.int64][case % 2])
    got = gather.block(data, idx, axis=0, out_of_bounds=policy)
    want = reference.block(data, idx, 0, out_of_bounds=policy)
    passed += got.dtype == want.dtype and np.array_equal(got, want)
    # elements
    idx = rng.integers(-5 if policy in ("error", "unchecked") else -8, 5, (4, 2, 3)).astype(np.int64)
    got = gather.elements(data, idx, axis=1, out_of_bounds=policy)
    want = reference.elements(data, idx, 1, out_of_bounds=policy)
    passed += np.array_equal(got, want)
    # nd, batch_dims = 1
    idx = np.stack([rng.integers(-5, 5, (4, 6)), rng.integers(-3, 3, (4, 6))], -1).astype(np.int32)
    got = gather.nd(data, idx, batch_dims=1, out_of_bounds="clamp" if policy == "error" else policy)
    want = reference.nd(data, idx, 1, out_of_bounds="clamp" if policy == "error" else policy)
    passed += np.array_equal(got, want)
    # multiaxis over axes [2, 0]
    idx = np.stack([rng.integers(-3, 3, (2, 1, 7)), rng.integers(-4, 4, (2, 1, 7))], -1).reshape(2, 1, 14)
    got = gather.multiaxis(data, idx, axes=[2, 0], negative_indices="wrap", out_of_bounds=policy)
    want = reference.multiaxis(data, idx, (2, 0), out_of_bounds=policy)
    passed += np.array_equal(got, want)
print(f"ops: {passed} passed")

# The first call compiles its sizes, the second its rows dynamic, which
# the third shares (test/Python/shapes.py).
compiled = 0
for rows in (3, 7, 1):
    table = rng.standard_normal((rows + 2, 4)).astype(np.float32)
    ids = rng.integers(0, rows + 2, (rows,)).astype(np.int16)
    before = dict(jit._cache)
    assert np.array_equal(gather.block(table, ids), reference.block(table, ids, 0))
    compiled += sum(1 for k, p in jit._cache.items() if before.get(k) is not p)
print(f"cache: {compiled} compilations for 3 shapes")

module = """
func.func @two(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %rows = tensor.empty(%n) : tensor<?x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %rows : tensor<?x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  %c = arith.constant dense<1> : tensor<1xi64>
  %m = tensor.dim %d, %c0 : tensor<?x3xf32>
  %column = tensor.empty(%m) : tensor<?x1xf32>
  %1 = gather.block %d[%c] axis = 1 into %column : tensor<?x3xf32>, tensor<1xi64> into tensor<?x1xf32>
  %2 = tensor.collapse_shape %1 [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  return %0, %2 : tensor<?x3xf32>, tensor<?xf32>
}
"""
f = gather.compile(module)
d = np.arange(15, dtype=np.float32).reshape(5, 3)
rows, column = f(d, np.array([4, 0, -2]))
assert np.array_equal(rows, d[[4, 0, -2]]) and np.array_equal(column, d[:, 1]), (rows, column)
print("compile: two results ok")

from gather import onnx as gonnx  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

case = "/usr/share/libonnx-testdata/data/node/test_gather_0"
program = gather.compile(gonnx.import_file(os.path.join(case, "model.onnx")))
load = lambda p: numpy_helper.to_array(onnx.load_tensor(p))  # noqa: E731
inputs = [load(p) for p in sorted(glob.glob(os.path.join(case, "test_data_set_0", "input_*.pb")))]
expected = load(os.path.join(case, "test_data_set_0", "output_0.pb"))
print("onnx: test_gather_0", "ok" if np.array_equal(program(*inputs), expected) else "MISMATCH")

# The width the JIT plans for (the tiles of the block copies), against the
# CPU's flags as Linux lists them.
with open("/proc/cpuinfo") as cpuinfo:
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
want_bits = 512 if "avx512f" in flags else 256 if "avx" in flags else 128
print("host vector bits:", "as the CPU's flags say" if jit.host_vector_bits() == want_bits
      else f"{jit.host_vector_bits()}, but the flags say {want_bits}")


def sysfs_cache(level):
    base = "/sys/devices/system/cpu/cpu0/cache"
    for index in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        read = lambda name: open(os.path.join(base, index, name)).read().strip()  # noqa: E731
        if index.startswith("index") and read("type") != "Instruction" and int(read("level")) == level:
            size = read("size")
            return int(size[:-1]) * {"K": 1024, "M": 1 << 20}[size[-1]] if size[-1] in "KM" else int(size)
    return None


host = jit.target_description()
want = {"vector-bits": want_bits, "mask-registers": int("avx512f" in flags), "l1d-bytes": sysfs_cache(1), "l2-bytes": sysfs_cache(2),
        "l3-bytes": sysfs_cache(3), "cores": len(os.sched_getaffinity(0))}
# Intel's server cores: named Sapphire or Emerald Rapids, or with AMX or
# AVX512-FP16 (a VM may mask the name or AMX). Their L3 is a mesh, and the
# streaming threshold as docs/Lowering.md states it is then four L2s, else
# half the L3.
intel_server = (host["cpu"] in ("sapphirerapids", "emeraldrapids") or "amx_tile" in flags
                or "avx512_fp16" in flags)
want["mesh-l3"] = int(intel_server)
# Their gathers load offset-table rows (docs/Lowering.md).
want["gather-offset-rows"] = int(intel_server)
# Zen 4 collects offset-table rows in registers (docs/Lowering.md).
want["collect-offset-rows"] = int(host["cpu"] == "znver4")
# Index streams are prefetched on every CPU unless a description says not:
# into the L2 on Zen 4, into every level elsewhere.
want["prefetch-index-streams"] = 2 if host["cpu"] == "znver4" else 1
# Zen 1 runs a 256-bit vector operation as two 128-bit halves.
want["vector-unit-bits"] = 128 if host["cpu"] == "znver1" else want_bits
want["streaming-store-min-bytes"] = 4 * host["l2-bytes"] if intel_server else host["l3-bytes"] // 2
# The process's architecture (LLVM's name, as platform's on Linux), and
# non-temporal stores on x86 only.
want["arch"] = platform.machine()
want["nontemporal-stores"] = int(platform.machine() == "x86_64")
# Offset-table rows prefetch except on Zen 1 and on Intel's server cores;
# on Zen 4 only where pixels read their lines few times.
want["prefetch-offset-tables"] = (0 if host["cpu"] == "znver1" or intel_server
                                  else 2 if host["cpu"] == "znver4" else 1)
# The prefetch distance: a quarter of the L1d in flight, at most 8 KiB.
want["prefetch-lines-ahead"] = max(1, min(host["l1d-bytes"] // 4, 8192) // host["cache-line-bytes"])
# Tiles of small blocks: one pass of the vector units of 64-bit
# coordinates, at least 4.
want["tile-blocks"] = max(4, want["vector-unit-bits"] // 64)
# Blocks in tiles: at most 2 lines on Zen 2, 4 elsewhere.
want["tile-max-block-bytes"] = (2 if host["cpu"] == "znver2" else 4) * host["cache-line-bytes"]
# Lines prefetched of a block: 16, at most a page's.
want["prefetch-block-lines"] = max(1, min(host["page-bytes"] // host["cache-line-bytes"], 16))
# Long offset-table tiles (half the L2 for pixels whose lines are read few
# times) on Zen 1 and Zen 2; twice the L1d otherwise.
want["long-offset-tiles"] = int(host["cpu"] in ("znver1", "znver2"))
want["offset-tile-bytes"] = 2 * host["l1d-bytes"]
want["offset-tile-bytes-few-reads"] = (host["l2-bytes"] // 2 if want["long-offset-tiles"]
                                       else 2 * host["l1d-bytes"])
# A chunk of offsets: 8 KiB on Zen 2, else an 8-byte offset for each line
# of two thirds of the L1d.
want["offset-chunk-bytes"] = (8192 if host["cpu"] == "znver2" else
                              max(1, host["l1d-bytes"] // host["cache-line-bytes"] * 2 // 3) * 8)
# Blocks into a streamed output copied with vector rows up to twice the
# L1d (at least a page).
want["streamed-vector-copy-bytes"] = max(host["page-bytes"], 2 * host["l1d-bytes"])
# Rows stream only from inputs of half the L3 or more (half the L2 with a
# mesh L3).
want["streaming-input-min-bytes"] = (host["l2-bytes"] if host["mesh-l3"] else host["l3-bytes"]) // 2
wrong = {k: (host[k], v) for k, v in want.items() if v is not None and host[k] != v}
print("host target:", "as the CPU's flags and the OS's caches say" if not wrong else wrong)
# A named CPU in the JIT: its instruction set, the host's caches, cores and
# tuning (the vector units at most the named width).
named = jit.target_description("x86-64-v3")
want = dict(host, cpu="x86-64-v3", **{"vector-bits": 256, "mask-registers": 0,
                                      "vector-unit-bits": min(host["vector-unit-bits"], 256),
                                      "tile-blocks": max(4, min(host["vector-unit-bits"], 256) // 64)})
wrong = {k: (named.get(k), v) for k, v in want.items() if named.get(k) != v}
print("named target on the host:", "its instruction set, the host's caches" if not wrong else wrong)

# A program for AVX2 where the host has it (every x86-64 machine CI runs on).
gather_text = ("func.func @f(%d: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {\n"
               "  %e = tensor.empty() : tensor<4x3xf32>\n"
               "  %r = gather.block %d[%i] axis = 0 into %e : tensor<5x3xf32>, tensor<4xi64> into tensor<4x3xf32>\n"
               "  return %r : tensor<4x3xf32>\n}")
if "avx2" in flags:
    v3 = gather.compile(gather_text, target_cpu="x86-64-v3")
    result = v3(d, np.array([4, 0, -1, 2]))
    ok = np.array_equal(result[0] if isinstance(result, tuple) else result, np.take(d, [4, 0, -1, 2], axis=0))
    print(f"x86-64-v3: vector-bits {jit.target_description('x86-64-v3')['vector-bits']}, result",
          "ok" if ok else "wrong")
else:
    print("x86-64-v3: vector-bits 256, result ok (skipped: no AVX2)")
try:
    gather.compile(gather_text, target_cpu="pentium9")
    print("target error: none raised")
except gather.GatherError as e:
    print("target error:", str(e).split(" (")[0])
# A CPU of another architecture: the JIT's code runs here (ahead of time,
# gather-opt compiles for it: test/Integration/cross-*.test).
other = "neoverse-n1" if platform.machine() == "x86_64" else "x86-64-v3"
for attempt in (lambda: gather.compile(gather_text, target_cpu=other),
                lambda: jit.target_description(other)):
    try:
        attempt()
        print("other architecture: none raised")
    except gather.GatherError as e:
        print("other architecture:", "refused" if "CPU; the JIT's code runs on this" in str(e) else e)
# A CPU with features the host lacks (AVX-512 on an AVX2 host; pku on a VM
# that hides it) is refused, naming only features the host lacks; on a host
# with all of them, the program runs.
try:
    gather.compile(gather_text, target_cpu="skylake-avx512")
    print("missing features:", "ok" if "avx512f" in flags else "none reported")
except gather.GatherError as e:
    named = str(e).split("lacks ")[-1].replace(",", " ").split()
    honest = named and all(f not in flags for f in named) and \
        ("avx512f" in flags or "avx512f" in named)
    print("missing features:", "ok" if "lacks" in str(e) and honest else str(e))

one = gather.compile(gather_text, compile_threads=1, opt_level=1)(d, np.array([3, -5, 0, 4]))
one = one[0] if isinstance(one, tuple) else one
print("one compile thread at -O1: result", "ok" if np.array_equal(one, np.take(d, [3, -5, 0, 4], axis=0)) else "wrong")

for attempt in (
        lambda: gather.block(d, np.array([0, 5])),
        lambda: gather.compile("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { %0 = gather.block %a[%a] axis = 0 into %a : "
                               "tensor<2xf32>, tensor<2xf32> into tensor<2xf32>\n return %0 : tensor<2xf32> }"),
        # MLIR 22's own verifier would crash on this (a negative concat dim).
        lambda: gather.compile("func.func @f(%a: tensor<2xf32>) -> tensor<4xf32> { %0 = tensor.concat dim(-1) %a, %a : "
                               "(tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>\n return %0 : tensor<4xf32> }"),
        lambda: f(d.astype(np.float64), np.array([0])),
        lambda: gather.block(d, np.array([0]), out_of_bounds="wrap"),
        lambda: gather.compile(gather_text, compile_threads=-1),
        lambda: gather.compile(gather_text, opt_level=7)):
    try:
        attempt()
        print("error: none raised")
    except gather.GatherError as e:
        print("error:", str(e).replace("\n", " | "))
print("still alive")
