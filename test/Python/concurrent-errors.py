# Two threads calling compiled code at once each get their own run-time
# errors. The runtime records errors per calling thread, and a parallel
# region's workers report to the thread that started it. With one record
# for the process, a call could take the other thread's error (a valid
# call raised it) while the failing call returned its garbage as a result
# (32 of 20,000 calls each way in a run of the first pair).
# Pairs of programs called on two threads at once, one program failing at
# every call:
# - an index out of range, reported on the calling thread (gather.block);
# - a bound assert of an unraised generic failing on a worker thread of its
#   parallel loop (a skipping assert; the barrier after the loop ends the
#   call);
# - one program for both threads, whose calls overlap (the C API's runs of
#   one program may), while a third thread selects between two entries of
#   the same signature and semantics: each call runs the entry whose
#   signature it checked its arrays against.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so GATHER_PYTHON_FASTCALL=0 %python %s 2>&1 | FileCheck %s
# CHECK: caller thread: valid calls 20000 right, 0 wrong, 0 raised; failing calls 20000 raised their own error, 0 returned
# CHECK-NEXT: worker thread: valid calls 20000 right, 0 wrong, 0 raised; failing calls 2000 raised their own error, 0 returned
# CHECK-NEXT: one program: valid calls 10000 right, 0 wrong, 0 raised; failing calls 10000 raised their own error, 0 returned
# CHECK-NEXT: selections: 1000 between two entries
# CHECK-NOT: unexpected
import os
import threading

import numpy as np

import gather
from gather import jit

BLOCK = """
func.func @main(%d: tensor<?x8xf32>, %i: tensor<?xi64>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<?x8xf32>, tensor<?xi64> into tensor<?x8xf32>
  return %g : tensor<?x8xf32>
}
"""
rng = np.random.default_rng(5)


def pair(label, valid, failing, calls, wanted_error, also=None):
    """Calls valid() (True when its result is right) and failing() on two
    threads at once, calls[0] and calls[1] times (and also(), if given, on
    a third)."""
    counts = dict.fromkeys(("right", "wrong", "valid raised", "own error", "returned"), 0)
    unexpected = []

    def run_valid():
        for _ in range(calls[0]):
            try:
                counts["right" if valid() else "wrong"] += 1
            except gather.GatherError as e:
                counts["valid raised"] += 1
                unexpected.append(f"of a valid call: {e}")

    def run_failing():
        for _ in range(calls[1]):
            try:
                failing()
                counts["returned"] += 1
            except gather.GatherError as e:
                if wanted_error in str(e):
                    counts["own error"] += 1
                else:
                    unexpected.append(str(e))

    threads = [threading.Thread(target=run_valid), threading.Thread(target=run_failing)]
    if also:
        threads.append(threading.Thread(target=also))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if unexpected:
        print(f"{label}: unexpected error {unexpected[0]}")
    print(f"{label}: valid calls {counts['right']} right, {counts['wrong']} wrong, "
          f"{counts['valid raised']} raised; failing calls {counts['own error']} raised "
          f"their own error, {counts['returned']} returned")


# Caller thread: small valid calls, so that they take errors often.
small = jit.compile(BLOCK, entry="main")
large = jit.compile(BLOCK, entry="main")
table = rng.standard_normal((1000, 8)).astype(np.float32)
rows = rng.integers(0, 1000, 16)
bad_rows = rng.integers(0, 1000, 4096)
bad_rows[17] = 1000
pair("caller thread",
     lambda: np.array_equal(small(table, rows), table[rows]),
     lambda: large(table, bad_rows),
     (20000, 20000), "index 1000 at indices[17] is out of range")

# Worker thread: the failing index in the second half of a loop split
# between two threads. The valid calls' program raises nothing.
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "parallel-asserted.mlir")) as f:
    asserted = jit.compile(f.read(), entry="main", raise_linalg=False, threads=2)
values = rng.integers(1, 100, 1000, dtype=np.int64)
ids = rng.integers(0, 1000, 1 << 16, dtype=np.int64)
ids[len(ids) * 3 // 4] = 1000
pair("worker thread",
     lambda: np.array_equal(small(table, rows), table[rows]),
     lambda: asserted(values, ids),
     (20000, 2000), "index must be smaller than dim size")

# One program: the valid and the failing calls overlap; a third thread
# selects between @main and @same meanwhile.
both = jit.compile(BLOCK + BLOCK.replace("@main", "@same"), entry="main")
selections = []


def select_entries():
    for k in range(1000):
        both.select("same" if k % 2 else "main")
        selections.append(k)


pair("one program",
     lambda: np.array_equal(both(table, rows), table[rows]),
     lambda: both(table, bad_rows),
     (10000, 10000), "index 1000 at indices[17] is out of range", also=select_entries)
print(f"selections: {len(selections)} between two entries")
