# Offset-table rows loaded with gathers (gather-offset-rows.mlir), and
# collected in registers of scalar loads (collect-offset-rows.mlir), executed
# through the JIT at -O3 and compared with the numpy reference. The DLTI
# entries "gather_offset_rows" = 1 and "prefetch_offset_tables" = 0 give the
# form on any x86 host (Intel's server cores take it by default): an NHWC
# lookup of (n, c) pairs under every policy with negative and out-of-range
# indices, an invalid index under `error`, 32- and 64-bit elements of every
# kind, a row of a dynamic length (whole registers gathered, the rest an
# element at a time; no streaming stores described, which would keep the
# scalar loads), and index rows whose tile is partial. Each module is also
# lowered with gather-opt's form report, which must say `gathered` where the
# form applies and not for f16 elements, streamed rows or the entry at 0,
# whose results are compared too.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: gather-offset-rows: 35 passed, 0 failed
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather.mlir_text import gather_op_text, tensor_type
from gather_testing.difftest import POLICY_PAIRS as POLICIES, call_problem, policy_indices, policy_text
from gather_testing.difftest import reference_or_error

gather_opt = f"{sys.argv[1]}/gather-opt"
rng = np.random.default_rng(23)
passed = failed = 0
GATHERED = {"gather_offset_rows": 1, "prefetch_offset_tables": 0}


def module(data_shape, idx_shape, out_shape, ety, attrs, entries):
    dt, it = tensor_type(data_shape, ety), tensor_type(idx_shape, "i64")
    ot = tensor_type(out_shape, ety)
    body = gather_op_text("multiaxis", "%0", "%d", "%i", dt, it, ot, attrs=attrs)
    spec = ", ".join(f'"{key}" = {value} : i64' for key, value in entries.items())
    return ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = '
            f'#dlti.target_device_spec<{spec}>>}} {{\n'
            f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n{body}\n  return %0 : {ot}\n}}\n}}\n")


def case(name, data, pairs, ety="f32", oob="error", negative="wrap", entries=GATHERED,
         gathered=True, dynamic_row=False, form="gathered"):
    global passed, failed
    rows, pair_count = pairs.shape[0], pairs.shape[-1] // 2
    out_shape = (rows, data.shape[1], data.shape[2], None if dynamic_row else pair_count)
    idx_shape = pairs.shape[:-1] + ((None,) if dynamic_row else pairs.shape[-1:])
    attrs = "axes = [0, 3]" + policy_text(oob, negative)
    text = module(data.shape, idx_shape, out_shape, ety, attrs, entries)
    report = subprocess.run([gather_opt, "--convert-gather-to-linalg=report-forms", "-o",
                             "/dev/null", "-"], input=text, capture_output=True, text=True,
                            check=True).stderr
    if (f"offset-table {form}" in report) != gathered:
        print(f"FAIL {name}: expected {'' if gathered else 'no '}{form} rows, "
              f"lowered {report.strip()}")
        failed += 1
        return
    want = reference_or_error(ref.multiaxis, data, pairs, [0, 3], negative, oob)
    problem = call_problem(jit.compile(text, threads=2), "main", (data, pairs), want)
    ok = problem is None
    if ok:
        passed += 1
    else:
        print(f"FAIL {name}: {problem}")
        failed += 1


def pairs_for(rows, oob="error", count=16):
    n = policy_indices(rng, (rows, count), 16, oob, every=5)
    c = policy_indices(rng, (rows, count), 64, oob, every=5)
    return np.stack([n, c], axis=-1).reshape(rows, 1, 1, 2 * count)


# 16 x 16 pixels of 16 images with 64 channels.
image = rng.standard_normal((16, 16, 16, 64)).astype(np.float32)
for oob, negative in POLICIES:
    case(f"policy_{oob}_{negative}", image, pairs_for(4, oob), oob=oob, negative=negative)
bad = pairs_for(4)
bad[2, 0, 0, 17] = 64
case("error_invalid_channel", image, bad)
bad = pairs_for(4)
bad[3, 0, 0, 30] = -17
case("error_invalid_image", image, bad)
# Elements of 32 and 64 bits, integers included (their bits compared).
for ety, dtype in (("f64", np.float64), ("i32", np.int32), ("i64", np.int64)):
    data = rng.integers(-2**30, 2**30, image.shape).astype(dtype)
    case(f"elements_{ety}", data, pairs_for(4), ety=ety)
    case(f"elements_{ety}_fill", data, pairs_for(4, "fill"), ety=ety, oob="fill")
# 32 pairs a row: two registers of 16 lanes, four of 8.
case("rows_of_32", image, pairs_for(4, count=32))
# One index row, and 3 (a tile of pixels for each).
case("one_index_row", image, pairs_for(1))
case("three_index_rows", image, pairs_for(3))
# A row of a dynamic length: 20 pairs, whole registers and a rest of 4 (of
# 8 lanes with AVX2, of 16 with AVX-512), under `error` and `fill`.
no_streams = {**GATHERED, "nontemporal_stores": 0}
case("dynamic_row_20", image, pairs_for(4, count=20), entries=no_streams, dynamic_row=True)
case("dynamic_row_20_fill", image, pairs_for(4, "fill", count=20), oob="fill",
     entries=no_streams, dynamic_row=True)
case("dynamic_row_4", image, pairs_for(4, count=4), entries=no_streams, dynamic_row=True)
# Not gathered: f16 elements, streamed rows (four 1 KiB L2s of a mesh L3:
# the 256 KiB output streams), the entry at 0.
case("f16_scalar", image.astype(np.float16), pairs_for(4), ety="f16", gathered=False)
case("streamed_scalar", image, pairs_for(16),
     entries={**GATHERED, "mesh_l3": 1, "L2_cache_size_in_bytes": 1024}, gathered=False)
case("entry_off", image, pairs_for(4), entries={"gather_offset_rows": 0}, gathered=False)
case("entry_off_fill", image, pairs_for(4, "fill"), oob="fill",
     entries={"gather_offset_rows": 0}, gathered=False)
# Rows collected in registers of scalar loads (collect-offset-rows.mlir;
# Zen 4 takes them by default), with the table prefetch and without, under
# every policy, 32- and 64-bit elements, a row of a dynamic length; not
# for f16 elements nor where the rows gather.
COLLECTED = {"collect_offset_rows": 1, "gather_offset_rows": 0, "prefetch_offset_tables": 1}
for oob, negative in POLICIES:
    case(f"collected_{oob}_{negative}", image, pairs_for(4, oob), oob=oob, negative=negative,
         entries=COLLECTED, form="collected")
case("collected_unprefetched", image, pairs_for(4), form="collected",
     entries={**COLLECTED, "prefetch_offset_tables": 0})
bad = pairs_for(4)
bad[1, 0, 0, 9] = -65
case("collected_error_invalid_channel", image, bad, entries=COLLECTED, form="collected")
for ety, dtype in (("f64", np.float64), ("i32", np.int32)):
    data = rng.integers(-2**30, 2**30, image.shape).astype(dtype)
    case(f"collected_{ety}_fill", data, pairs_for(4, "fill"), ety=ety, oob="fill", entries=COLLECTED,
         form="collected")
case("collected_dynamic_row_20", image, pairs_for(4, count=20), dynamic_row=True, form="collected",
     entries={**COLLECTED, "nontemporal_stores": 0})
case("collected_f16_scalar", image.astype(np.float16), pairs_for(4), ety="f16", entries=COLLECTED,
     gathered=False, form="collected")
case("collected_not_beside_gathers", image, pairs_for(4), form="collected", gathered=False,
     entries={"collect_offset_rows": 1, "gather_offset_rows": 1, "prefetch_offset_tables": 0})
print(f"gather-offset-rows: {passed} passed, {failed} failed")
