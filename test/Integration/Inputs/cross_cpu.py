# Code for another architecture's CPU, compiled ahead of time on this host
# and run under QEMU's user mode (test/Integration/cross-*.test):
# `--gather-cpu-pipeline="target-cpu=CPU"` (the CPU's vector width, no x86
# instruction), LLVM's backend (llc), the run-time library cross-compiled,
# a C driver that calls each function's C interface on inputs numpy wrote
# and writes the results back. Each function runs in both forms of the
# pipeline: serial loops (`parallel=false`) and OpenMP loops, which call a
# stand-in of libomp's entry points (Inputs/omp_standin.c: teams of 3
# pthreads, libomp's static schedule), as no OpenMP runtime of that
# architecture installs beside this host's. Every
# lowering path of the CPU pipeline runs: block rows (every policy), a
# middle axis, small blocks in tiles (f32, f16, i8), an element gather's
# vector rows (NEON has no gather instruction: LLVM loads the lanes one by
# one; RISC-V V has indexed loads), batched ND tiles, offset-table rows,
# chunks of offsets over a table larger than the L2, sizes known at run
# time, an invalid index under `error` (the message compared with the host
# JIT's for the same module). Each result is compared bit for bit with
# numpy's reference.
#
# Non-temporal stores are x86's by default (CpuTarget::nonTemporalStores):
# the module has none. A second module turns them on through the DLTI
# entry `nontemporal_stores` with a 64 KiB L3: its streamed rows are
# ordered by a full fence (AArch64's `dmb ish`, RISC-V's `fence rw,rw`;
# not x86's sfence), and give the same results, also written by the
# `__into` entries into caller buffers aligned to 64 bytes (streamed) and 4
# bytes past (the plain copy).
#
# An SVE CPU (aarch64-sve) is described with 256-bit registers (the DLTI
# entry `max_vector_op_width`, as Neoverse V1's): the functions carry
# vscale_range(2, 16) and LLVM lowers their 256-bit vectors with SVE (its
# gathers, predicated loads and stores). The programs run on 256-bit and
# on 512-bit SVE registers: the code needs at least the width described.
# On 128-bit registers every call reports that instead of running. So do
# the RISC-V programs, built for zvl512b, on 256-bit V registers; they run
# on 512-bit and 1024-bit ones.
#
# With `--random N` it also runs N random valid cases of the differential
# tests (gather_testing.difftest: ranks 1 to 6, every element and index
# type, dynamic and empty dimensions, every index policy), the four ops in
# turn, from `--seed`: the element types and shapes the fixed cases above
# leave out. `--large M`: the first M of them from difftest's large size
# class (rows up to 1024, about a million elements), which take the vector
# paths more often.
#
# Usage: cross_cpu.py ARCH GATHER_BIN SRC_ROOT WORK_DIR [--random N]
# [--large M] [--seed S] (ARCH: aarch64, aarch64-sve, riscv64)
import argparse
import os
import re
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather_testing import difftest
from gather_testing.difftest import (POLICY_PAIRS, FunctionCases, difference, expected,
                                     policy_indices, policy_text, same_bits)

parser = argparse.ArgumentParser()
parser.add_argument("arch")
parser.add_argument("bin")
parser.add_argument("src")
parser.add_argument("work")
parser.add_argument("--random", type=int, default=0, help="random cases (difftest's)")
parser.add_argument("--large", type=int, default=0,
                    help="of the random cases, how many from difftest's large size class")
parser.add_argument("--seed", type=int, default=1)
options = parser.parse_args()
ARCH, BIN, SRC, WORK = options.arch, options.bin, options.src, options.work
LLVM = "/usr/lib/llvm-22/bin"
# Per architecture: the CPU, its vector width in bits, the cross tools, how
# QEMU runs it (each way in turn), what orders streamed rows in its
# assembly, DLTI entries of every module, and SVE's gather instruction
# where the functions must use it.
TARGETS = {
    # NEON; non-temporal pair stores (stnp) where DLTI asks.
    "aarch64": dict(cpu="neoverse-n1", bits=128, triple="aarch64-linux-gnu", llc=[],
                    qemu=[["qemu-aarch64"]], streams=r"\bstnp\b", fence=r"\bdmb\s+ish\b"),
    # SVE registers of at least 256 bits (QEMU's are 32 and 64 bytes).
    "aarch64-sve": dict(cpu="neoverse-v1", bits=256, triple="aarch64-linux-gnu", llc=[],
                        entries={"max_vector_op_width": 256},
                        qemu=[["qemu-aarch64", "-cpu", f"max,sve-default-vector-length={n}"]
                              for n in (32, 64)],
                        streams=r"\bstnt1w\b|\bstnp\b", fence=r"\bdmb\s+ish\b",
                        gather=r"\bld1w\s+\{\s*z\d+\.d\s*\}.*\[x\d+,\s*z\d+\.d",
                        short=(128, ["qemu-aarch64", "-cpu", "max,sve-default-vector-length=16"])),
    # RISC-V V with registers of at least 512 bits (zvl512b), as QEMU
    # emulates them at 512 and 1024; the Linux ABI's floats in registers
    # (llc's default is soft-float lp64).
    "riscv64": dict(cpu="sifive-x280", bits=512, triple="riscv64-linux-gnu",
                    llc=["-target-abi=lp64d"],
                    qemu=[["qemu-riscv64", "-cpu",
                           f"rv64,v=true,vlen={n},vext_spec=v1.0,Zfh=true,zba=true,zbb=true"]
                          for n in (512, 1024)],
                    streams=None, fence=r"\bfence\s+rw,\s*rw\b",
                    short=(256, ["qemu-riscv64", "-cpu",
                                 "rv64,v=true,vlen=256,vext_spec=v1.0,Zfh=true,zba=true,zbb=true"])),
}
TARGET = TARGETS[ARCH]
CPU = TARGET["cpu"]
ELEMENT = FunctionCases.ELEMENT
C_TYPE = {np.float32: "float", np.float64: "double", np.float16: "uint16_t",
          np.int8: "int8_t", np.int32: "int32_t", np.int64: "int64_t", np.bool_: "uint8_t"}

rng = np.random.default_rng(64)
passed = failed = 0


def fail(message):
    global failed
    print(f"FAIL {message}")
    failed += 1


# The functions (with C interfaces for the driver) and each one's calls:
# name -> [(data, indices, expected result or error)].
C_INTERFACE = "{llvm.emit_c_interface}"
suite = FunctionCases(attributes=C_INTERFACE)
calls, out_ranks = {}, {}


def add(name, op, attrs, data, indices, fn, *ref_args, dynamic=(), **ref_kw):
    """@name and its first call; `dynamic` as FunctionCases.add takes it."""
    want = expected(fn, data, indices, *ref_args, **ref_kw)
    shape = want.shape if isinstance(want, np.ndarray) else expected(
        fn, data, np.zeros_like(indices), *ref_args, **ref_kw).shape
    suite.add(name, op, attrs, data, indices, shape, want, dynamic)
    calls[name] = [(data, indices, want)]
    out_ranks[name] = len(shape)


# Block rows of 3 KiB (W1's form) under every policy, and an invalid index.
table = rng.standard_normal((300, 768)).astype(np.float32)
for oob, negative in POLICY_PAIRS:
    ids = policy_indices(rng, 100, 300, oob)
    add(f"rows768_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative), table,
        ids, ref.block, 0, negative, oob)
ids = rng.integers(0, 300, 40)
ids[33] = -301
add("rows768_error_invalid", "block", "axis = 0", table, ids, ref.block, 0)
# A middle axis (W2's form).
mid = rng.standard_normal((4, 30, 256)).astype(np.float32)
add("middle_axis", "block", "axis = 1", mid, rng.integers(-30, 30, 11), ref.block, 1)
# Small blocks in tiles (W7's and W4's forms): f32 rows of 16, f16 of 64, i8 of 24.
for ety, length in ((np.float32, 16), (np.float16, 64), (np.int8, 24)):
    small = (rng.standard_normal((500, length)) * 50).astype(ety)
    add(f"small_rows_{ELEMENT[ety]}", "block", "axis = 0", small,
        rng.integers(-500, 500, 333), ref.block, 0)
# Element gathers' vector rows (W3's form), along rows and down columns.
rows = rng.standard_normal((64, 512)).astype(np.float32)
add("elements_axis1", "elements", "axis = 1", rows, rng.integers(-512, 512, (64, 200)),
    ref.elements, 1)
add("elements_axis0", "elements", "axis = 0", rows, rng.integers(-64, 64, (30, 512)),
    ref.elements, 0)
ids = policy_indices(rng, (64, 200), 512, "fill")
add("elements_fill", "elements", "axis = 1 out_of_bounds = fill", rows, ids, ref.elements, 1,
    out_of_bounds="fill")
# Batched ND (W4's form): pairs of coordinates into 32x32 images of 4 channels.
images = rng.standard_normal((4, 32, 32, 4)).astype(np.float32)
pairs = np.stack([rng.integers(-32, 32, (4, 500)), rng.integers(-32, 32, (4, 500))], -1)
add("nd_batch1", "nd", "batch_dims = 1", images, pairs, ref.nd, 1)
# Offset-table rows (W5's NHWC lookup of (n, c) pairs), f32 and f16.
for ety in (np.float32, np.float16):
    nhwc = (rng.standard_normal((4, 8, 8, 64)) * 50).astype(ety)
    pairs = np.stack([rng.integers(-4, 4, (8, 16)), rng.integers(-64, 64, (8, 16))], -1)
    add(f"offset_table_{ELEMENT[ety]}", "multiaxis", "axes = [0, 3]", nhwc,
        pairs.reshape(8, 1, 1, 32), ref.multiaxis, (0, 3))
# Points of a 2 MiB table (W8's form): its reads range over more than the
# named CPU's 1 MiB L2, so each row resolves a chunk of offsets first.
points = rng.standard_normal((1024, 512)).astype(np.float32)
pairs = np.stack([rng.integers(-1024, 1024, (64, 300)), rng.integers(-512, 512, (64, 300))], -1)
add("points_chunks", "multiaxis", "axes = [0, 1]", points, pairs.reshape(64, 600),
    ref.multiaxis, (0, 1))
# Sizes known at run time: the rows of the table and the number of indices
# (called with two sizes each), and an element gather's row length.
add("rows_dynamic", "block", "axis = 0", table, rng.integers(-300, 300, 77), ref.block, 0,
    dynamic=((0,), (0,), ((0, ("i", 0)),)))
small_table = table[:5].copy()
ids = rng.integers(-5, 5, 9)
calls["rows_dynamic"].append((small_table, ids, ref.block(small_table, ids, 0)))
add("elements_dynamic", "elements", "axis = 1", rows, rng.integers(-512, 512, (64, 100)),
    ref.elements, 1, dynamic=((), (1,), ((1, ("i", 1)),)))
ids = rng.integers(-512, 512, (64, 33))
calls["elements_dynamic"].append((rows, ids, ref.elements(rows, ids, 1)))

# Random cases: each function as difftest writes it (its output's sizes
# all dynamic), with a C interface.
random_rng = np.random.default_rng(options.seed)
for k in range(options.random):
    op = ("block", "elements", "nd", "multiaxis")[k % 4]
    case = difftest.make_case(op, random_rng,
                              size_class="large" if k < options.large else "tiny")
    want = difftest.reference_or_error(case.expected)
    shape = difftest.output_shape(case, None if isinstance(want, Exception) else want)
    name = f"random{k}_{op}"
    suite.functions.append(difftest.function_text(case, name, shape, C_INTERFACE))
    suite.cases.append((name, case.data, case.indices, want))
    calls[name] = [(case.data, case.indices, want)]
    out_ranks[name] = len(shape)

STREAMING = ("rows768_fill_wrap", "elements_axis1", "offset_table_f32")


def site_free(message):
    """A report without its file name (gather-opt read <stdin>, the JIT
    names its module <gather module>)."""
    return re.sub(r" at <[^>]*>:", " at FILE:", message)


def run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"FAIL {os.path.basename(cmd[0])} exited with {done.returncode}:\n"
                 f"{done.stderr[-3000:]}")
    return done.stdout


def compile_for_target(label, text, parallel, into):
    """The module through the CPU pipeline for the named CPU (with `into`,
    the `__into` entries too), to LLVM IR, to an object and to assembly
    (for the checks below)."""
    options = (f"target-cpu={CPU} parallel={str(parallel).lower()} "
               f"destination-entries={str(into).lower()}")
    lowered = run([os.path.join(BIN, "gather-opt"), f"--gather-cpu-pipeline={options}"],
                  input=text)
    ll = run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], input=lowered)
    obj = os.path.join(WORK, f"{label}.o")
    llc = [f"{LLVM}/llc", "-O3", f"-mtriple={TARGET['triple']}", f"-mcpu={CPU}"] + TARGET["llc"]
    run(llc + ["-filetype=obj", "-o", obj], input=ll)
    asm = run(llc + ["-o", "-"], input=ll)
    return lowered, ll, obj, asm


# Byte offsets from a 64-byte boundary of the destinations the `__into`
# entries write: aligned (the streamed copy) and not (the plain one).
INTO_SHIFTS = (0, 4)


def driver_source(names, into=False):
    """C calling each function's C interface once per call: inputs read
    from DIR/<call>_{d,i}.bin, the result written to DIR/<call>_o.bin, a
    recorded run-time error to DIR/<call>_e.txt. With `into`, also its
    `__into` entry (gather-destination-entries) into caller buffers at
    INTO_SHIFTS, written to DIR/<call>_into<shift>.bin."""
    lines = ["#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>",
             "#include <string.h>",
             "void gather_runtime_set_record_errors(int);",
             "int gather_runtime_take_error(char *, int64_t);"]
    ranks = {name: (calls[name][0][0].ndim, calls[name][0][1].ndim, out_ranks[name])
             for name in names}
    for r in sorted({r for rank in ranks.values() for r in rank}):
        lines.append(f"typedef struct {{ void *allocated, *aligned; int64_t offset; "
                     f"int64_t sizes[{r}], strides[{r}]; }} D{r};")
    lines.append("""
static void *load(const char *dir, const char *name, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 64)) abort();
  FILE *f = fopen(path, "rb");
  if (!f || fread(p, 1, bytes, f) != bytes) { fprintf(stderr, "cannot read %s\\n", path); exit(2); }
  fclose(f);
  return p;
}
static void save(const char *dir, const char *name, const void *p, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes) { fprintf(stderr, "cannot write %s\\n", path); exit(2); }
  fclose(f);
}""")

    def descriptor(var, ptr, shape):
        r = len(shape)
        out = [f"  D{r} {var} = {{{ptr}, {ptr}, 0, {{{', '.join(map(str, shape))}}}, {{"]
        strides, acc = [], 1
        for s in reversed(shape):
            strides.append(acc)
            acc *= s
        out[0] += ", ".join(map(str, reversed(strides))) + "}};"
        return out

    body = ["int main(int argc, char **argv) {", "  const char *dir = argv[1];",
            "  char message[1024];", "  gather_runtime_set_record_errors(1);"]
    for name in names:
        dr, ir, orank = ranks[name]
        lines.append(f"void _mlir_ciface_{name}(D{orank} *, D{dr} *, D{ir} *);")
        if into:
            lines.append(f"void _mlir_ciface_{name}__into(D{dr} *, D{ir} *, D{orank} *);")
        for k, (data, indices, want) in enumerate(calls[name]):
            call = f"{name}_{k}"
            body.append("  {")
            body.append(f'    void *d = load(dir, "{call}_d.bin", {data.nbytes});')
            body.append(f'    void *i = load(dir, "{call}_i.bin", {indices.nbytes});')
            body += ["  " + line for line in descriptor("dd", "d", data.shape)]
            body += ["  " + line for line in descriptor("id", "i", indices.shape)]
            body.append(f"    D{orank} od;")
            body.append(f"    _mlir_ciface_{name}(&od, &dd, &id);")
            body.append("    if (gather_runtime_take_error(message, sizeof message))")
            body.append(f'      save(dir, "{call}_e.txt", message, strlen(message));')
            # A function that returned before computing (the vector length
            # guard) returns a descriptor of zeros.
            body.append("    if (!od.aligned) { free(d); free(i); goto next_" + call + "; }")
            body.append("    int64_t n = 1, contiguous = 1;")
            body.append(f"    for (int k = {orank} - 1; k >= 0; --k) {{ contiguous &= "
                        "od.strides[k] == n || od.sizes[k] == 1; n *= od.sizes[k]; }")
            body.append('    if (!contiguous) { fprintf(stderr, "strided result\\n"); return 3; }')
            body.append(f"    save(dir, \"{call}_o.bin\", (char *)od.aligned + od.offset * "
                        f"sizeof({C_TYPE[data.dtype.type]}), n * sizeof({C_TYPE[data.dtype.type]}));")
            body.append("    free(od.allocated);")
            if into:
                ctype = C_TYPE[data.dtype.type]
                body.append("    void *raw = NULL;")
                body.append(f"    if (posix_memalign(&raw, 64, n * sizeof({ctype}) + 64)) abort();")
                for shift in INTO_SHIFTS:
                    body.append(f"    {{ void *o = (char *)raw + {shift};")
                    body.append(f"      memset(o, 0xA5, n * sizeof({ctype}));")
                    body += ["    " + line for line in descriptor("ud", "o", want.shape)]
                    body.append(f"      _mlir_ciface_{name}__into(&dd, &id, &ud);")
                    body.append(f'      save(dir, "{call}_into{shift}.bin", o, n * sizeof({ctype})); }}')
                body.append("    free(raw);")
            body.append("    free(d); free(i);")
            body.append(f"  }} next_{call}:;")
    body += ["  return 0;", "}"]
    return "\n".join(lines + body) + "\n"


# The run-time library, cross-compiled once.
runtime = os.path.join(WORK, "runtime.o")
CXX = f"{TARGET['triple']}-g++"
run([CXX, "-O2", "-std=c++17", "-I", os.path.join(SRC, "include"), "-c",
     os.path.join(SRC, "lib/Runtime/GatherRuntime.cpp"), "-o", runtime])

standin = os.path.join(WORK, "omp_standin.o")
run([f"{TARGET['triple']}-gcc", "-O2", "-c", os.path.join(os.path.dirname(__file__), "omp_standin.c"),
     "-o", standin])


def check_results(label, names, into):
    """The results the program wrote against numpy's."""
    global passed
    for name in names:
        for k, (data, indices, want) in enumerate(calls[name]):
            call = f"{name}_{k}"
            err = os.path.join(WORK, f"{call}_e.txt")
            message = open(err).read() if os.path.exists(err) else None
            if message:
                os.remove(err)
            if isinstance(want, Exception):
                if not message or "is out of range" not in message:
                    fail(f"{label} {call}: no index report ({message})")
                elif site_free(host_errors.get(name, message)) != site_free(message):
                    fail(f"{label} {call}: {message!r} differs from the host's "
                         f"{host_errors[name]!r}")
                else:
                    passed += 1
                continue
            if message:
                fail(f"{label} {call}: unexpected error {message}")
                continue
            outputs = [f"{call}_o.bin"] + [f"{call}_into{s}.bin" for s in INTO_SHIFTS if into]
            for output in outputs:
                got = np.fromfile(os.path.join(WORK, output), want.dtype).reshape(want.shape)
                if same_bits(got, want):
                    passed += 1
                else:
                    fail(f"{label} {output}: result differs from numpy: {difference(got, want)}")


ALL = list(calls)
modules = [("serial", ALL, None, False), ("parallel", ALL, None, True),
           ("streaming", STREAMING, {"L3_cache_size_in_bytes": 65536, "nontemporal_stores": 1},
            True)]
host_errors = {}
for label, names, entries, parallel in modules:
    text = suite.module({**TARGET.get("entries", {}), **(entries or {})} or None, names)
    # The streamed module also writes into caller buffers (`__into`).
    into = label == "streaming"
    lowered, ll, obj, asm = compile_for_target(label, text, parallel, into)
    if parallel != ("__kmpc_fork_call" in ll):
        fail(f"{label}: {'no' if parallel else 'an'} OpenMP region")
    # What the module holds for this target: its CPU on every function,
    # f32 rows a register of the target's width at a time, no x86 code.
    if "llvm.x86" in ll:
        fail(f"{label}: x86 code in an {ARCH} module")
    if f'"target-cpu"="{CPU}"' not in ll:
        fail(f"{label}: the functions do not name {CPU}")
    widths = {int(n) * 32 for n in re.findall(r"vector<(\d+)xf32>", lowered)}
    if not widths or max(widths) != TARGET["bits"]:
        fail(f"{label}: f32 vectors of {sorted(widths)} bits, not {TARGET['bits']}")
    # SVE's vscale_range on the functions, and its gathers in the code.
    ranges = set(re.findall(r"vscale_range\((\d+), (\d+)\)", lowered))
    want_ranges = {(str(TARGET["bits"] // 128), "16")} if "gather" in TARGET else set()
    if ranges != want_ranges:
        fail(f"{label}: vscale_range {sorted(ranges)}, not {sorted(want_ranges)}")
    if "gather" in TARGET and not re.search(TARGET["gather"], asm):
        fail(f"{label}: no SVE gather")
    # Each entry point checks the length, then calls its body, which alone
    # may assume it.
    if "short" in TARGET:
        functions = {}
        for text in re.split(r"(?m)^  llvm\.func ", lowered)[1:]:
            functions[re.match(r"(?:\w+ )*@([\w.]+)\(", text).group(1)] = text
        for name in names:
            entry = functions.get(name, "")
            if "llvm.intr.vscale" not in entry or \
                    f"llvm.call @{name}.vl{TARGET['bits']}(" not in entry:
                fail(f"{label}: @{name} does not check the register length")
    streams = TARGET["streams"] is None or re.search(TARGET["streams"], asm) is not None
    fenced = re.search(TARGET["fence"], asm) is not None
    if label != "streaming" and ("!nontemporal" in ll or fenced):
        fail(f"{label}: non-temporal stores where the target has none")
    if label == "streaming" and not ("!nontemporal" in ll and streams and fenced
                                     and "fence seq_cst" in ll):
        fail(f"{label}: no non-temporal stores with a fence (stores {streams}, fence {fenced})")
    driver = os.path.join(WORK, f"{label}_driver.c")
    with open(driver, "w") as out:
        out.write(driver_source(names, into))
    program = os.path.join(WORK, f"{label}_program")
    run([CXX, "-static", "-O1", "-x", "c", driver, "-x", "none", obj, runtime, standin, "-o",
         program])
    for name in names:
        for k, (data, indices, _) in enumerate(calls[name]):
            data.tofile(os.path.join(WORK, f"{name}_{k}_d.bin"))
            indices.tofile(os.path.join(WORK, f"{name}_{k}_i.bin"))
    # The host JIT's report for the same module, where a call must fail.
    if label == "serial":
        host = jit.compile(suite.module(None, names), entry="rows768_error_invalid")
        try:
            host(*calls["rows768_error_invalid"][0][:2])
        except jit.GatherError as e:
            host_errors["rows768_error_invalid"] = str(e)
    for qemu in TARGET["qemu"]:
        run(qemu + [program, WORK])
        check_results(" ".join([label] + qemu[1:]), names, into)
    # On registers shorter than described, each entry point reports it
    # (gather-vector-length-guard) before any vector code runs.
    if label == "serial" and "short" in TARGET:
        short_bits, short_qemu = TARGET["short"]
        run(short_qemu + [program, WORK])
        for name in names:
            for k in range(len(calls[name])):
                err = os.path.join(WORK, f"{name}_{k}_e.txt")
                message = open(err).read() if os.path.exists(err) else None
                if message:
                    os.remove(err)
                want = (f"@{name}: the code needs vector registers of at least "
                        f"{TARGET['bits']} bits, this CPU's are {short_bits} bits")
                if message == want:
                    passed += 1
                else:
                    fail(f"short registers {name}_{k}: {message!r}, not {want!r}")

print(f"{ARCH}: {passed} passed, {failed} failed")
