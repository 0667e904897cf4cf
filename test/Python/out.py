# `out=`: results written into the caller's arrays. The op functions and
# programs made with destination_entries=True call the compiled
# `<name>__into` entry (gather-destination-entries), which writes into the
# array itself; the others copy. Every result is compared with the numpy
# reference (python/gather/reference.py), into arrays filled with NaN or
# garbage first, so that an element left unwritten shows. Arrays that
# overlap an argument take the copying path and still get the right
# values. Wrong arrays (shape, dtype, rank, layout, read-only, count) are
# errors that name the output and the dimension, raised before anything is
# written.
# Run twice: through the C call (_gather_fastcall) where built, and through
# the ctypes path alone (GATHER_PYTHON_FASTCALL=0), which takes the op
# functions under two of the policies (a check and a select): the policy
# does not touch the call path, and each program compiled is most of this
# test's time.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so GATHER_PYTHON_FASTCALL=0 %python %s | FileCheck %s
# CHECK: ops: {{64|32}} cases equal, all written in place
# CHECK: plain call after out=: equal True, new compilations 0
# CHECK: out= after a plain call: equal True, programs 1, in place True
# CHECK: static program: equal True, in place True, returns out True
# CHECK: without destination entries: equal True, in place False
# CHECK: bind: equal True, after new indices equal True
# CHECK: bind: error: gather.block at <gather module>:3:8: index 9 at indices[1] is out of range [-4, 3] for dimension 0 (size 4)
# CHECK: two results: equal True True
# CHECK: fused consumer: equal True, in place True
# CHECK: data-dependent size: in place False, equal True
# CHECK: without out=: static equal True, two results equal True True, fused equal True
# CHECK: without out=: error: gather.block at <gather module>:3:8: index 7 at indices[0] is out of range [-4, 3] for dimension 0 (size 4)
# CHECK: overlapping an argument: equal True
# CHECK: empty result: shape (0, 5)
# CHECK: error: output 0: dimension 0 is 3 but the result's is 4, untouched True
# CHECK: error: output 0: dimension 1 is 6 but the result's is 5, untouched True
# CHECK: error: output 0: dimension 0 is 2 but the result's is 3, untouched True
# CHECK: error: out 0: dtype float64 does not match the result's float32
# CHECK: error: out 0: rank 1 does not match the result's rank 2
# CHECK: error: out 0: the array must be C-contiguous and writeable
# CHECK: error: out 0: the array must be C-contiguous and writeable
# CHECK: error: out: the function has 2 results, got 1 arrays
# CHECK: error: out 0: a numpy array is needed, got list
# CHECK: error: gather.block at <gather module>:{{[0-9]+}}:{{[0-9]+}}: index 9 at indices[1] is out of range [-4, 3] for dimension 0 (size 4)
# CHECK-NOT: False
import gc
import os

import numpy as np

import gather
from gather import reference
from gather.jit import Program

rng = np.random.default_rng(5)
POLICIES = ("error", "clamp", "fill", "unchecked")
if os.environ.get("GATHER_PYTHON_FASTCALL") == "0":
    POLICIES = ("error", "fill")


def random_indices(shape, size, policy):
    # Out-of-range values only where the policy defines them.
    low, high = (-size, size) if policy in ("error", "unchecked") else (-size - 3, size + 3)
    return rng.integers(low, high, size=shape)


def garbage(shape, dtype):
    out = np.empty(shape, dtype)
    out.reshape(-1).view(np.uint8)[...] = 0xA5
    if np.issubdtype(dtype, np.floating):
        out[...] = np.nan
    return out


cases = equal = 0
# One signature per op and policy (an axis, batch_dims and axes of its
# own), each called on four shapes: the first call compiles its sizes, a
# later one with other sizes compiles again with those dynamic, and every
# call writes in place. A dtype per op.
for n in range(4 * len(POLICIES)):
    p = n % len(POLICIES)
    policy = POLICIES[p]
    rank = 3
    shape = tuple(int(s) for s in rng.integers(1, 6, size=rank))
    axis = p % 3
    # block
    data = (rng.standard_normal(shape) * 50).astype(np.float16)
    ids = random_indices(tuple(int(s) for s in rng.integers(0, 4, size=2)), shape[axis], policy)
    want = reference.block(data, ids, axis, "wrap", policy)
    out = garbage(want.shape, data.dtype)
    got = gather.block(data, ids, axis=axis, out_of_bounds=policy, out=out)
    equal += got is out and np.array_equal(out, want)
    # elements
    data = (rng.standard_normal(shape) * 50).astype(np.int8)
    ishape = list(shape)
    ishape[axis] = int(rng.integers(1, 5))
    ids = random_indices(tuple(ishape), shape[axis], policy)
    want = reference.elements(data, ids, axis, "wrap", policy)
    out = garbage(want.shape, data.dtype)
    gather.elements(data, ids, axis=axis, out_of_bounds=policy, out=out)
    equal += np.array_equal(out, want)
    # nd with batch_dims
    data = (rng.standard_normal(shape) * 50).astype(np.int64)
    batch, k = (0, 2) if p % 2 == 0 else (1, 1)
    ids = np.stack([random_indices(shape[:batch] + (3,), shape[batch + j], policy) for j in range(k)], -1)
    want = reference.nd(data, ids, batch, "wrap", policy)
    out = garbage(want.shape, data.dtype)
    gather.nd(data, ids, batch_dims=batch, out_of_bounds=policy, out=out)
    equal += np.array_equal(out, want)
    # multiaxis over `axes` (any order): the k coordinates of an index
    # tuple are consecutive in the last dimension.
    data = (rng.standard_normal(shape) * 50).astype(np.float32)
    axes = [2, 0] if p % 2 == 0 else [1]
    logical = [int(rng.integers(1, 4)) if d in axes else (shape[d] if rng.integers(0, 2) else 1)
               for d in range(rank)]
    ids = np.stack([random_indices(tuple(logical), shape[a], policy) for a in axes], -1)
    ids = ids.reshape(logical[:-1] + [logical[-1] * len(axes)])
    want = reference.multiaxis(data, ids, axes, "wrap", policy)
    out = garbage(want.shape, data.dtype)
    gather.multiaxis(data, ids, axes=axes, out_of_bounds=policy, out=out)
    equal += np.array_equal(out, want)
    cases += 4
in_place = all(p.writes_in_place for p in gather.jit._cache.values())
print(f"ops: {cases} cases equal" if equal == cases else f"ops: {cases - equal} of {cases} differ False",
      "all written in place" if in_place else "not in place False", sep=", ")

# One program per signature serves calls with and without out=: a plain
# call after out= compiles nothing (the function computes its result
# through the entry that writes in place), and a call with out= after plain
# ones replaces their program by one with that entry.
compiled = len(gather.jit._cache)
plain_equal = np.array_equal(gather.multiaxis(data, ids, axes=axes, out_of_bounds=policy), want)
print(f"plain call after out=: equal {plain_equal}, new compilations {len(gather.jit._cache) - compiled}")
table64 = rng.standard_normal((6, 4))
ids64 = rng.integers(-6, 6, size=(2, 3)).astype(np.int16)
want64 = reference.block(table64, ids64, 0, "wrap", "error")
first = gather.block(table64, ids64, axis=0)
after_plain = len(gather.jit._cache)
out64 = garbage(want64.shape, table64.dtype)
gather.block(table64, ids64, axis=0, out=out64)
program64 = [p for k, p in gather.jit._cache.items() if k[0] == "block" and k[3] == "f64"]
print(f"out= after a plain call: equal {np.array_equal(first, want64) and np.array_equal(out64, want64)}, "
      f"programs {len(gather.jit._cache) - after_plain + 1}, "
      f"in place {len(program64) == 1 and program64[0].writes_in_place}")

STATIC = """func.func @f(%d: tensor<4x5xf32>, %i: tensor<3xi64>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4x5xf32>, tensor<3xi64> into tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
"""
table = rng.standard_normal((4, 5)).astype(np.float32)
ids = np.array([3, -1, 0])
want = np.take(table, ids, axis=0)
static = Program(STATIC, destination_entries=True)
out = garbage((3, 5), np.float32)
print(f"static program: equal {np.array_equal(static(table, ids, out=out), want)}, "
      f"in place {static.writes_in_place}, returns out {static(table, ids, out=out) is out}")
plain = Program(STATIC)
out = garbage((3, 5), np.float32)
plain(table, ids, out=out)
print(f"without destination entries: equal {np.array_equal(out, want)}, in place {plain.writes_in_place}")

# bind: the call checked once, then repeated on the same arrays, which it
# reads and writes where they are (new index values in place are seen; an
# invalid one is reported).
bound_ids = ids.copy()
out = garbage((3, 5), np.float32)
# (of a program no one else holds: the function keeps it)
call = Program(STATIC, destination_entries=True).bind(table, bound_ids, out=out)
gc.collect()
first = np.array_equal(out, want)
bound_ids[:] = [0, 1, 2]
out[:] = np.nan
call()
print(f"bind: equal {first}, after new indices equal {np.array_equal(out, table[:3])}")
bound_ids[1] = 9
try:
    call()
    print("bind: no error")
except gather.GatherError as e:
    print(f"bind: error: {e}")

TWO = """func.func @f(%d: tensor<?x5xf32>, %i: tensor<?xi64>) -> (tensor<?x5xf32>, tensor<?x5xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<?x5xf32>, tensor<?xi64> into tensor<?x5xf32>
  %e2 = tensor.empty(%n) : tensor<?x5xf32>
  %1 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %e2 : tensor<?x5xf32>, tensor<?xi64> into tensor<?x5xf32>
  return %0, %1 : tensor<?x5xf32>, tensor<?x5xf32>
}
"""
two = Program(TWO, destination_entries=True)
a, b = garbage((3, 5), np.float32), garbage((3, 5), np.float32)
two(table, ids, out=(a, b))
print(f"two results: equal {np.array_equal(a, want)} {np.array_equal(b, want)}")

# A gather fused into its elementwise consumer (the bias add): the fused
# loop's output is the caller's array.
FUSED = """#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (0, d1)>
func.func @f(%t: tensor<4x5xf32>, %i: tensor<?xi64>, %b: tensor<1x5xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %g = gather.block %t[%i] axis = 0 into %e : tensor<4x5xf32>, tensor<?xi64> into tensor<?x5xf32>
  %e2 = tensor.empty(%n) : tensor<?x5xf32>
  %y = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%g, %b : tensor<?x5xf32>, tensor<1x5xf32>) outs(%e2 : tensor<?x5xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}
"""
fused = Program(FUSED, destination_entries=True)
bias = rng.standard_normal((1, 5)).astype(np.float32)
ok = True
for rows in (1, 7, 40):
    ids_f = rng.integers(-4, 4, size=rows)
    out = garbage((rows, 5), np.float32)
    fused(table, ids_f, bias, out=out)
    ok = ok and np.array_equal(out, np.take(table, ids_f, axis=0) + bias)
print(f"fused consumer: equal {ok}, in place {fused.writes_in_place}")

DEPENDENT = """func.func @f(%d: tensor<?xf32>, %n: tensor<i64>) -> tensor<?xf32> {
  %v = tensor.extract %n[] : tensor<i64>
  %s = arith.index_cast %v : i64 to index
  %x = tensor.extract_slice %d[0] [%s] [1] : tensor<?xf32> to tensor<?xf32>
  return %x : tensor<?xf32>
}
"""
dependent = Program(DEPENDENT, destination_entries=True)
out = garbage((3,), np.float32)
dependent(np.arange(6, dtype=np.float32), np.array(3), out=out)
print(f"data-dependent size: in place {dependent.writes_in_place}, "
      f"equal {np.array_equal(out, np.arange(3, dtype=np.float32))}")

# Calls without out= of the programs above: their functions allocate the
# results and call `__into` on them (where it computes every result in
# its buffer), so this runs the same compiled code into fresh buffers.
got_two = two(table, ids)
got_fused = fused(table, ids_f, bias)
print(f"without out=: static equal {np.array_equal(static(table, ids), want)}, "
      f"two results equal {np.array_equal(got_two[0], want)} {np.array_equal(got_two[1], want)}, "
      f"fused equal {np.array_equal(got_fused, np.take(table, ids_f, axis=0) + bias)}")
try:
    static(table, np.array([7, 0, 1]))
    print("without out=: error: none False")
except gather.GatherError as e:
    print(f"without out=: error: {e}")

# The output is the table's first rows: the gather must read them before
# they are overwritten.
work = np.arange(40, dtype=np.float32).reshape(8, 5)
want = np.take(work, [7, 6, 5], axis=0)
gather.block(work, np.array([7, 6, 5]), axis=0, out=work[:3])
print(f"overlapping an argument: equal {np.array_equal(work[:3], want)}")

out = np.empty((0, 5), np.float32)
print(f"empty result: shape {gather.block(table, np.zeros(0, np.int64), axis=0, out=out).shape}")


def expect_error(run, out=None):
    before = None if out is None else out.copy()
    try:
        run()
        print("error: none False")
    except gather.GatherError as e:
        untouched = "" if out is None else f", untouched {np.array_equal(out, before, equal_nan=True)}"
        print(f"error: {e}{untouched}")


bad = garbage((3, 5), np.float32)
expect_error(lambda: gather.block(table, np.arange(4), axis=0, out=bad), bad)
bad = garbage((3, 6), np.float32)
expect_error(lambda: static(table, ids, out=bad), bad)
bad = garbage((2, 5), np.float32)
expect_error(lambda: gather.block(table, ids, axis=0, out=bad), bad)
expect_error(lambda: gather.block(table, ids, axis=0, out=np.zeros((3, 5))))
expect_error(lambda: gather.block(table, ids, axis=0, out=np.zeros(15, np.float32)))
expect_error(lambda: gather.block(table, ids, axis=0, out=np.zeros((5, 3), np.float32).T))
readonly = np.zeros((3, 5), np.float32)
readonly.flags.writeable = False
expect_error(lambda: gather.block(table, ids, axis=0, out=readonly))
expect_error(lambda: two(table, ids, out=(a,)))
expect_error(lambda: gather.block(table, ids, axis=0, out=[[0.0] * 5] * 3))
expect_error(lambda: gather.block(table, np.array([0, 9, 1]), axis=0, out=np.zeros((3, 5), np.float32)))
