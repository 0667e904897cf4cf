# The sizes the op functions (gather.block, elements, nd, multiaxis)
# compile with, as torch.compile's automatic dynamic shapes: a signature's
# first call compiles its own sizes (static: the lowering plans row copies,
# tiles and streaming stores with them); a call whose sizes differ compiles
# once more with just those sizes dynamic, and later calls that fit share
# that program; `dynamic=True` compiles every size dynamic at once.
# gather.nd's last indices size (the tuple length) stays static. The result
# type is static where the shape rules make it so (a broadcast dimension of
# size 1 in the indices takes the data's size). Every result is compared
# with the numpy reference. Shapes that break a rule: at a signature's
# first call, the verifier's message (nothing cached); later, the run-time
# error of the program compiled with the sizes that differ dynamic.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# CHECK: first call: compilations 1, sizes ((5, 4), (3,)), result (3, 4), equal True
# CHECK: same sizes: compilations 0, equal True
# CHECK: other rows: compilations 1, sizes ((-1, 4), (-1,)), equal True
# CHECK: fits: compilations 0, equal True
# CHECK: other columns: compilations 1, sizes ((-1, -1), (-1,)), equal True
# CHECK: dynamic=True: compilations 1, sizes ((-1, -1, -1), (-1, -1, -1)), then 0 for other sizes, equal True True
# CHECK: nd: sizes ((4, 6, 3), (4, 5, 2)) then ((4, 6, 3), (4, -1, 2)), equal True True
# CHECK: multiaxis broadcast: result (2, 6, 3), then sizes ((-1, 6, 3), (2, -1, 6)), equal True True
# CHECK: bad first shapes: 'gather.elements' op indices dimension 1 (6) must not exceed data dimension 1 (4) off the gather axis 0, programs 0, then equal True
# CHECK: bad later shapes: gather.elements at <gather module>:5:8: indices dimension 1 (size 6) is larger than data dimension 1 (size 4), then equal True
# CHECK-NOT: False
import numpy as np

import gather
from gather import jit, reference

rng = np.random.default_rng(7)


def compilations(call):
    """The programs `call` compiled (the cache entries it added or
    replaced) and its result."""
    before = dict(jit._cache)
    result = call()
    return sum(1 for k, p in jit._cache.items() if before.get(k) is not p), result


def sizes(op, element, data_rank):
    programs = [p for k, p in jit._cache.items()
                if k[0] == op and k[3] == element and k[4] == data_rank]
    assert len(programs) == 1, programs
    return tuple(shape for _, shape in programs[0].inputs)


def block(rows, cols, n):
    table = rng.standard_normal((rows, cols))
    ids = rng.integers(-rows, rows, n).astype(np.int16)
    got = gather.block(table, ids, axis=0)
    return got, np.array_equal(got, reference.block(table, ids, 0))


count, (got, equal) = compilations(lambda: block(5, 4, 3))
print(f"first call: compilations {count}, sizes {sizes('block', 'f64', 2)}, result {got.shape}, "
      f"equal {equal}")
count, (_, equal) = compilations(lambda: block(5, 4, 3))
print(f"same sizes: compilations {count}, equal {equal}")
count, (_, equal) = compilations(lambda: block(9, 4, 7))
print(f"other rows: compilations {count}, sizes {sizes('block', 'f64', 2)}, equal {equal}")
count, (_, equal) = compilations(lambda: block(3, 4, 1))
print(f"fits: compilations {count}, equal {equal}")
count, (_, equal) = compilations(lambda: block(3, 6, 2))
print(f"other columns: compilations {count}, sizes {sizes('block', 'f64', 2)}, equal {equal}")


def elements(shape, ishape):
    data = rng.standard_normal(shape).astype(np.float32)
    ids = rng.integers(0, shape[1], ishape)
    got = gather.elements(data, ids, axis=1, dynamic=True)
    return np.array_equal(got, reference.elements(data, ids, 1))


count, first = compilations(lambda: elements((3, 5, 2), (3, 4, 2)))
shape = sizes("elements", "f32", 3)
again, second = compilations(lambda: elements((2, 9, 4), (2, 3, 4)))
print(f"dynamic=True: compilations {count}, sizes {shape}, then {again} for other sizes, "
      f"equal {first} {second}")


def nd(k):
    data = rng.standard_normal((4, 6, 3)).astype(np.float32)
    ids = np.stack([rng.integers(-6, 6, (4, k)), rng.integers(-3, 3, (4, k))], -1).astype(np.int32)
    got = gather.nd(data, ids, batch_dims=1)
    return np.array_equal(got, reference.nd(data, ids, 1))


first = nd(5)
shape = sizes("nd", "f32", 3)
second = nd(8)
print(f"nd: sizes {shape} then {sizes('nd', 'f32', 3)}, equal {first} {second}")

# Indices of size 1 along a dimension off the axes broadcast over the
# data's: the static result takes the data's size.
data = rng.standard_normal((5, 6, 3))
ids = np.stack([rng.integers(0, 5, (2, 1, 3)), rng.integers(0, 3, (2, 1, 3))], -1).reshape(2, 1, 6)
got = gather.multiaxis(data, ids, axes=[0, 2])
first = np.array_equal(got, reference.multiaxis(data, ids, (0, 2)))
shape = got.shape
data2 = rng.standard_normal((7, 6, 3))
ids2 = np.stack([rng.integers(0, 7, (2, 6, 3)), rng.integers(0, 3, (2, 6, 3))], -1).reshape(2, 6, 6)
second = np.array_equal(gather.multiaxis(data2, ids2, axes=[0, 2]),
                        reference.multiaxis(data2, ids2, (0, 2)))
print(f"multiaxis broadcast: result {shape}, then sizes {sizes('multiaxis', 'f64', 3)}, "
      f"equal {first} {second}")

table = rng.standard_normal((3, 4)).astype(np.float16)
ok = rng.integers(0, 3, (5, 4))
try:
    gather.elements(table, np.zeros((5, 6), np.int64), axis=0)
    message = "none False"
except jit.GatherError as e:
    message = str(e).splitlines()[-1].split("error: ")[-1]
programs = sum(1 for k in jit._cache if k[0] == "elements" and k[3] == "f16")
print(f"bad first shapes: {message}, programs {programs}, then equal "
      f"{np.array_equal(gather.elements(table, ok, axis=0), reference.elements(table, ok, 0))}")
try:
    gather.elements(table, np.zeros((5, 6), np.int64), axis=0)
    message = "none False"
except jit.GatherError as e:
    message = str(e)
print(f"bad later shapes: {message}, then equal "
      f"{np.array_equal(gather.elements(table, ok, axis=0), reference.elements(table, ok, 0))}")
