# The run-time library records errors per calling thread
# (lib/Runtime/GatherRuntime.cpp), in a fixed interleaving of two threads
# rather than a race: thread A reports, then thread B takes its errors
# before A does. With one record for the process, B took A's error (the
# pair test of test/Python/concurrent-errors.py saw that only in some
# runs). Then B adopts A's state as a parallel region's worker does
# (__gather_runtime_adopt_error_state): its report is A's; restored, its
# next one is its own again. __gather_runtime_error_recorded (which an
# index report asks before it scans) answers for the calling thread's
# state: A's after A reported, not B's, nothing once A took it.
# RUN: %python %s %gather_lib/libgather_runtime.so | FileCheck %s
# CHECK:      recorded: A 1, B 0
# CHECK-NEXT: B before A takes: 0 ''
# CHECK-NEXT: A: 1 'gather.block at a.mlir:3:9: data dimension 1 (size 4) is not broadcast-compatible with its indices dimension (size 5)'
# CHECK-NEXT: B adopted A's state: B takes 0 '', A takes 1 'gather.block at a.mlir:3:9: data dimension 2 (size 6) is not broadcast-compatible with its indices dimension (size 7)'
# CHECK-NEXT: B restored: B takes 1 'gather.block at a.mlir:3:9: data dimension 3 (size 8) is not broadcast-compatible with its indices dimension (size 9)', A takes 0 ''
# CHECK-NEXT: recorded after taking: A 0
import ctypes
import queue
import sys
import threading

lib = ctypes.CDLL(sys.argv[1])
i64 = ctypes.c_int64
lib.__gather_runtime_error.argtypes = [i64] * 6
lib.__gather_runtime_error.restype = None
lib.gather_runtime_take_error.argtypes = [ctypes.c_char_p, i64]
lib.gather_runtime_take_error.restype = ctypes.c_int
lib.__gather_runtime_error_state.restype = ctypes.c_void_p
lib.__gather_runtime_adopt_error_state.argtypes = [ctypes.c_void_p]
lib.__gather_runtime_adopt_error_state.restype = ctypes.c_void_p
lib.__gather_runtime_error_recorded.restype = ctypes.c_int32
lib.gather_runtime_set_record_errors(1)

SITE = ctypes.create_string_buffer(b"gather.block at a.mlir")
SHAPE_MISMATCH = 2  # RuntimeErrorKind::ShapeMismatch


def report(dim, size, other):
    details = (i64 * 3)(dim, size, other)
    lib.__gather_runtime_error(ctypes.addressof(SITE), 3, 9, SHAPE_MISMATCH, 3,
                               ctypes.addressof(details))


def take():
    buffer = ctypes.create_string_buffer(512)
    had = lib.gather_runtime_take_error(buffer, len(buffer))
    return f"{had} {buffer.value.decode()!r}"


class Worker:
    """A thread that runs what it is given, one call at a time, so that the
    steps of two threads interleave in a fixed order."""

    def __init__(self):
        self.calls = queue.Queue()
        self.results = queue.Queue()
        self.thread = threading.Thread(target=self.serve)
        self.thread.start()

    def serve(self):
        while (call := self.calls.get()) is not None:
            self.results.put(call())

    def __call__(self, call):
        self.calls.put(call)
        return self.results.get()

    def stop(self):
        self.calls.put(None)
        self.thread.join()


a, b = Worker(), Worker()
a(lambda: report(1, 4, 5))
recorded = lib.__gather_runtime_error_recorded
print(f"recorded: A {a(recorded)}, B {b(recorded)}")
print(f"B before A takes: {b(take)}")
print(f"A: {a(take)}")
a_state = a(lib.__gather_runtime_error_state)
previous = b(lambda: lib.__gather_runtime_adopt_error_state(a_state))
b(lambda: report(2, 6, 7))
print(f"B adopted A's state: B takes {b(take)}, A takes {a(take)}")
b(lambda: lib.__gather_runtime_adopt_error_state(previous))
b(lambda: report(3, 8, 9))
print(f"B restored: B takes {b(take)}, A takes {a(take)}")
print(f"recorded after taking: A {a(recorded)}")
a.stop()
b.stop()
