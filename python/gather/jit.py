# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile and run gather functions from Python, through libGatherCAPI.so
(the C API over the JIT that gather-run uses), with ctypes and numpy only.

    import numpy as np, gather
    out = gather.block(table, ids, axis=0)                       # compiled for these sizes
    f = gather.compile(open("model.mlir").read())                # a whole module
    out = f(data, indices)

Errors from the compiler (diagnostics with locations) and at run time (an
out-of-bounds index under out_of_bounds = "error", naming the op) raise
GatherError; nothing aborts the interpreter.

The library is found through $GATHER_CAPI_LIBRARY (a file), else in an
install prefix (PREFIX/lib/libGatherCAPI.so next to PREFIX/python/gather),
else in the build tree of the sources this package is in
(build/lib/libGatherCAPI.so). Calls go through _gather_fastcall, a C
module next to that library, where it was built (lib/Bindings/Python) and
$GATHER_PYTHON_FASTCALL is not 0: one C call instead of the ctypes path,
which stays for what the C module does not take (lists, strided arrays,
other dtypes: converted or refused with the messages here).
"""

import ctypes
import importlib.machinery
import importlib.util
import math
import os
import threading
import weakref

import numpy as np

from gather.mlir_text import gather_op_text, output_shape, tensor_type

__all__ = ["GatherError", "Program", "compile", "host_vector_bits", "target_description", "block", "elements", "nd", "multiaxis"]


class GatherError(RuntimeError):
    """A compile-time diagnostic or a run-time error of a gather program."""


_NUMPY_TO_MLIR = {
    np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    np.dtype(np.bool_): "i1", np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32", np.dtype(np.int64): "i64", np.dtype(np.uint8): "i8",
    np.dtype(np.uint16): "i16", np.dtype(np.uint32): "i32", np.dtype(np.uint64): "i64",
}
_MLIR_TO_NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
                  "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
_INDEX_DTYPES = {np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64)}

_lib = None
_lib_lock = threading.Lock()
# A run's error message: one buffer per thread (calls of one program may
# run on several threads at once), made once instead of per call.
_thread_buffers = threading.local()


def _error_buffer():
    buffer = getattr(_thread_buffers, "error", None)
    if buffer is None:
        buffer = _thread_buffers.error = ctypes.create_string_buffer(4096)
    return buffer


class _Selected:
    """What the calls of a Program read at their start: the selected
    function's name (bytes), arguments, results and fast caller."""
    __slots__ = ("entry", "inputs", "results", "fast")

    def __init__(self, entry, inputs, results, fast):
        self.entry, self.inputs, self.results, self.fast = entry, inputs, results, fast


_fastcall = None  # the _gather_fastcall module beside _lib, if any


def _library():
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        here = os.path.dirname(os.path.abspath(__file__))
        candidates = [os.environ.get("GATHER_CAPI_LIBRARY", ""),
                      os.path.join(here, "..", "..", "lib", "libGatherCAPI.so"),
                      os.path.join(here, "..", "..", "build", "lib", "libGatherCAPI.so")]
        path = next((p for p in candidates if p and os.path.exists(p)), None)
        if path is None:
            raise GatherError("libGatherCAPI.so not found: build it (scripts/test.sh) or set "
                              "GATHER_CAPI_LIBRARY")
        lib = ctypes.CDLL(os.path.abspath(path))
        _load_fastcall(os.path.dirname(os.path.abspath(path)))
        c_char_p, c_int, c_int64, c_size_t, c_void_p = (ctypes.c_char_p, ctypes.c_int, ctypes.c_int64,
                                                        ctypes.c_size_t, ctypes.c_void_p)
        lib.gatherProgramDestroy.argtypes = [c_void_p]
        lib.gatherProgramSelect.restype = c_int
        lib.gatherProgramSelect.argtypes = [c_void_p, c_char_p, c_char_p, c_size_t]
        for name in ("gatherProgramNumInputs", "gatherProgramNumResults"):
            getattr(lib, name).restype = c_int
            getattr(lib, name).argtypes = [c_void_p]
        for name in ("gatherProgramInputElementType", "gatherProgramResultElementType"):
            getattr(lib, name).restype = c_char_p
            getattr(lib, name).argtypes = [c_void_p, c_int]
        for name in ("gatherProgramInputRank", "gatherProgramResultRank"):
            getattr(lib, name).restype = c_int64
            getattr(lib, name).argtypes = [c_void_p, c_int]
        lib.gatherProgramInputDim.restype = c_int64
        lib.gatherProgramInputDim.argtypes = [c_void_p, c_int, c_int64]
        lib.gatherProgramSelectedEntry.restype = c_char_p
        lib.gatherProgramSelectedEntry.argtypes = [c_void_p]
        # The runs of a named entry: a select on another thread cannot
        # change the function a call checked its arrays against.
        lib.gatherProgramRunEntry.restype = c_int
        lib.gatherProgramRunEntry.argtypes = [c_void_p, c_char_p, ctypes.POINTER(c_void_p),
                                              ctypes.POINTER(ctypes.POINTER(c_int64)),
                                              ctypes.POINTER(c_void_p),
                                              ctypes.POINTER(ctypes.POINTER(c_int64)), c_char_p,
                                              c_size_t]
        lib.gatherProgramRunIntoEntry.restype = c_int
        lib.gatherProgramRunIntoEntry.argtypes = [c_void_p, c_char_p, ctypes.POINTER(c_void_p),
                                                  ctypes.POINTER(ctypes.POINTER(c_int64)),
                                                  ctypes.POINTER(c_void_p),
                                                  ctypes.POINTER(ctypes.POINTER(c_int64)),
                                                  c_char_p, c_size_t]
        lib.gatherHostVectorBits.restype = c_int
        lib.gatherHostVectorBits.argtypes = []
        lib.gatherTargetDescription.restype = c_int
        lib.gatherTargetDescription.argtypes = [c_char_p, c_char_p, c_size_t]
        lib.gatherProgramOptionsInit.restype = None
        lib.gatherProgramOptionsInit.argtypes = [ctypes.POINTER(_Options)]
        lib.gatherProgramCreateWithOptions.restype = c_void_p
        lib.gatherProgramCreateWithOptions.argtypes = [c_char_p, c_char_p, ctypes.POINTER(_Options),
                                                       c_char_p, c_size_t]
        lib.gatherProgramWritesInPlace.restype = c_int
        lib.gatherProgramWritesInPlace.argtypes = [c_void_p]
        lib.gatherFree.argtypes = [c_void_p]
        _lib = lib
        return lib


def _load_fastcall(directory):
    """Imports _gather_fastcall from `directory` (the C API library's), if
    built there for this interpreter and not turned off."""
    global _fastcall
    if os.environ.get("GATHER_PYTHON_FASTCALL", "1") == "0":
        return
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(directory, "_gather_fastcall" + suffix)
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location("_gather_fastcall", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            _fastcall = module
            return


def uses_fastcall():
    """Whether calls go through the C module _gather_fastcall."""
    _library()
    return _fastcall is not None


def _kind_and_size(element):
    """The numpy kind and item size of an element type (the fast call's
    checks), from _MLIR_TO_NUMPY; KeyError for a type it has not."""
    dtype = np.dtype(_MLIR_TO_NUMPY[element])
    return dtype.kind, dtype.itemsize


class _Options(ctypes.Structure):
    """GatherProgramOptions of include/gather-c/Gather.h."""
    _fields_ = [("structSize", ctypes.c_size_t), ("device", ctypes.c_char_p),
                ("threads", ctypes.c_int), ("optLevel", ctypes.c_int), ("flags", ctypes.c_uint),
                ("targetCpu", ctypes.c_char_p), ("compileThreads", ctypes.c_int),
                ("verifyEach", ctypes.c_int)]


_DESTINATION_ENTRIES = 1  # GATHER_PROGRAM_DESTINATION_ENTRIES
_NO_RAISE = 2  # GATHER_PROGRAM_NO_RAISE
_NO_FUSION = 4  # GATHER_PROGRAM_NO_FUSION


def _shape_array(shape):
    return (ctypes.c_int64 * max(len(shape), 1))(*shape)


def _pointer_array(arrays):
    # (ctypes converts each int64 array to a pointer to its first element.)
    return (ctypes.POINTER(ctypes.c_int64) * max(len(arrays), 1))(*arrays)


class Program:
    """One compiled function; call it with numpy arrays.

    With `destination_entries`, a call with `out=` writes the results into
    the caller's arrays from the compiled code itself (no result allocation,
    no copy; see `writes_in_place`); without it `out=` works too, by a copy."""

    def __init__(self, mlir_text, entry=None, device="cpu", threads=0, opt_level=3,
                 destination_entries=False, raise_linalg=True, target_cpu="native",
                 compile_threads=0, verify_each=False, fuse_consumers=True):
        lib = _library()
        error = ctypes.create_string_buffer(16384)
        options = _Options()
        lib.gatherProgramOptionsInit(ctypes.byref(options))
        device_text, target_text = device.encode(), target_cpu.encode()
        options.device, options.threads, options.optLevel = device_text, int(threads), int(opt_level)
        options.flags = ((_DESTINATION_ENTRIES if destination_entries else 0)
                         | (0 if raise_linalg else _NO_RAISE)
                         | (0 if fuse_consumers else _NO_FUSION))
        options.targetCpu, options.compileThreads = target_text, int(compile_threads)
        options.verifyEach = int(bool(verify_each))
        handle = lib.gatherProgramCreateWithOptions(
            mlir_text.encode(), entry.encode() if entry else None, ctypes.byref(options), error,
            len(error))
        if not handle:
            raise GatherError(error.value.decode(errors="replace"))
        self._lib, self._handle = lib, handle
        self.destination_entries = bool(destination_entries)
        self._lock = threading.Lock()  # (select's)
        self._read_signature()

    def _read_signature(self):
        """The selected function's name and signature, and its fast caller,
        as one object that each call reads once: calls run on several
        threads at once, and a select on one of them changes only the calls
        that start after it."""
        lib, handle = self._lib, self._handle
        entry = lib.gatherProgramSelectedEntry(handle)
        inputs = []
        for i in range(lib.gatherProgramNumInputs(handle)):
            rank = lib.gatherProgramInputRank(handle, i)
            shape = tuple(lib.gatherProgramInputDim(handle, i, d) for d in range(rank))
            inputs.append((lib.gatherProgramInputElementType(handle, i).decode(), shape))
        results = [(lib.gatherProgramResultElementType(handle, i).decode(),
                    lib.gatherProgramResultRank(handle, i))
                   for i in range(lib.gatherProgramNumResults(handle))]
        fast = None
        if _fastcall is not None:
            try:
                address = lambda f: ctypes.cast(f, ctypes.c_void_p).value
                fast = _fastcall.Caller(
                    handle, address(lib.gatherProgramRunEntry),
                    address(lib.gatherProgramRunIntoEntry), address(lib.gatherFree), entry,
                    GatherError, tuple(_kind_and_size(e) + (s,) for e, s in inputs),
                    tuple(_kind_and_size(e) + ((-1,) * rank, np.dtype(_MLIR_TO_NUMPY[e]))
                          for e, rank in results))
            except (KeyError, ValueError):  # (beyond the fast call: the plain one)
                fast = None
        self._selected = _Selected(entry, inputs, results, fast)

    @property
    def inputs(self):
        """The selected function's arguments: (element type, sizes) each."""
        return self._selected.inputs

    @property
    def results(self):
        """The selected function's results: (element type, rank) each."""
        return self._selected.results

    def select(self, entry):
        """Makes `entry`, another public function of the same module, the
        one later calls run: every public function was compiled with the
        program, so a module of many functions compiles once."""
        error = ctypes.create_string_buffer(4096)
        with self._lock:
            if self._lib.gatherProgramSelect(self._handle, entry.encode(), error, len(error)):
                raise GatherError(error.value.decode(errors="replace"))
            self._read_signature()
        return self

    @property
    def writes_in_place(self):
        """Whether a call with `out=` has the compiled code write into the
        given arrays (when they overlap no argument) rather than copy."""
        return bool(self._lib.gatherProgramWritesInPlace(self._handle))

    def __del__(self):
        handle = getattr(self, "_handle", None)
        self._selected = None
        if handle:
            self._lib.gatherProgramDestroy(handle)
            self._handle = None

    def __call__(self, *arrays, result_dtypes=None, out=None):
        """Runs the function. `out`: an array (a tuple of arrays for several
        results; the call then returns `out`), C-contiguous and writeable, of each result's dtype and
        shape, which receives the result and is returned."""
        selected = self._selected
        fast = selected.fast
        if fast is not None:
            got = (fast.call(arrays, result_dtypes) if out is None
                   else fast.into(arrays, out, result_dtypes))
            if got is not NotImplemented:
                return got
        keep, data, shape_ptrs = self._inputs(arrays, selected)
        n_out = len(selected.results)
        if out is not None:
            return self._run_into(data, shape_ptrs, result_dtypes, out, selected)
        out_data = (ctypes.c_void_p * max(n_out, 1))()
        out_shapes = (ctypes.POINTER(ctypes.c_int64) * max(n_out, 1))()
        error = _error_buffer()
        rc = self._lib.gatherProgramRunEntry(self._handle, selected.entry, data, shape_ptrs,
                                             out_data, out_shapes, error, len(error))
        if rc != 0:
            raise GatherError(error.value.decode(errors="replace"))
        results = []
        for r, (element, rank) in enumerate(selected.results):
            shape = tuple(out_shapes[r][:rank])
            self._lib.gatherFree(out_shapes[r])
            dtype = np.dtype(result_dtypes[r] if result_dtypes else _MLIR_TO_NUMPY[element])
            count = math.prod(shape)
            if count == 0:
                self._lib.gatherFree(out_data[r])
                results.append(np.empty(shape, dtype))
                continue
            # The array uses the result buffer itself (no copy), which is
            # freed when the last view of it goes.
            buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(out_data[r])
            weakref.finalize(buffer, self._lib.gatherFree, out_data[r])
            results.append(np.frombuffer(buffer, dtype=dtype).reshape(shape))
        return results[0] if len(results) == 1 else tuple(results)


    def _inputs(self, arrays, selected):
        """The arguments checked against the signature: the arrays (kept
        alive by the caller), their addresses and their shapes."""
        inputs = selected.inputs
        if len(arrays) != len(inputs):
            raise GatherError(f"the function takes {len(inputs)} arguments, got {len(arrays)}")
        keep = []
        for i, (array, (element, shape)) in enumerate(zip(arrays, inputs)):
            # (np.ascontiguousarray would make a 0-d array 1-d.)
            if not (type(array) is np.ndarray and array.flags.c_contiguous):
                array = np.require(np.asarray(array), requirements="C")
            if _NUMPY_TO_MLIR.get(array.dtype) != element:
                raise GatherError(f"argument {i}: dtype {array.dtype} does not match element type {element}")
            if array.ndim != len(shape):
                raise GatherError(f"argument {i}: rank {array.ndim} does not match rank {len(shape)}")
            for d, (got, want) in enumerate(zip(array.shape, shape)):
                if want >= 0 and got != want:
                    raise GatherError(f"argument {i}: dimension {d} is {got} but the function requires {want}")
            keep.append(array)
        data = (ctypes.c_void_p * max(len(keep), 1))(*[a.ctypes.data for a in keep])
        shapes = [_shape_array(a.shape) for a in keep]
        return keep + shapes, data, _pointer_array(shapes)

    def bind(self, *arrays, out):
        """`self(*arrays, out=out)` with its arguments checked and converted
        once: makes the call, then returns a function of no arguments that
        makes it again (raising GatherError on a run-time error) at the cost
        of the C call alone, for loops that call one function on the same
        arrays many times, such as benchmarks (bench/paired.py). The arrays
        must keep their memory while the function is in use."""
        selected = self._selected
        keep, data, shape_ptrs = self._inputs(arrays, selected)
        keep_out, out_data, out_shape_ptrs = self._outputs(None, out, selected)
        program = self  # the function keeps the program (its handle) alive

        def call():
            program._call_into(data, shape_ptrs, out_data, out_shape_ptrs, selected)
            return keep, keep_out  # (keeps them alive with the function)

        call()
        return call

    def _outputs(self, result_dtypes, out, selected):
        """`out` checked against the results: the arrays and shapes to keep
        alive, their addresses and their shapes."""
        outs = out if isinstance(out, tuple) else (out,)
        results = selected.results
        if len(outs) != len(results):
            raise GatherError(f"out: the function has {len(results)} results, got "
                              f"{len(outs)} arrays")
        for r, (array, (element, rank)) in enumerate(zip(outs, results)):
            if not isinstance(array, np.ndarray):
                raise GatherError(f"out {r}: a numpy array is needed, got {type(array).__name__}")
            want = np.dtype(result_dtypes[r] if result_dtypes else _MLIR_TO_NUMPY[element])
            if array.dtype != want and not (result_dtypes is None
                                            and _NUMPY_TO_MLIR.get(array.dtype) == element):
                raise GatherError(f"out {r}: dtype {array.dtype} does not match the result's "
                                  f"{want}")
            if array.ndim != rank:
                raise GatherError(f"out {r}: rank {array.ndim} does not match the result's rank "
                                  f"{rank}")
            if not array.flags.c_contiguous or not array.flags.writeable:
                raise GatherError(f"out {r}: the array must be C-contiguous and writeable")
        out_data = (ctypes.c_void_p * max(len(outs), 1))(*[a.ctypes.data for a in outs])
        out_shapes = [_shape_array(a.shape) for a in outs]
        return list(outs) + out_shapes, out_data, _pointer_array(out_shapes)

    def _run_into(self, data, shape_ptrs, result_dtypes, out, selected):
        keep_out, out_data, out_shape_ptrs = self._outputs(result_dtypes, out, selected)
        self._call_into(data, shape_ptrs, out_data, out_shape_ptrs, selected)
        return out

    def _call_into(self, data, shape_ptrs, out_data, out_shape_ptrs, selected):
        """gatherProgramRunIntoEntry on converted arguments; GatherError on
        a run-time error."""
        error = _error_buffer()
        rc = self._lib.gatherProgramRunIntoEntry(self._handle, selected.entry, data, shape_ptrs,
                                                 out_data, out_shape_ptrs, error, len(error))
        if rc != 0:
            raise GatherError(error.value.decode(errors="replace"))


def host_vector_bits():
    """The vector register width in bits CPU programs are compiled for (the
    host's: 512 with AVX-512, 256 with AVX, else 128); `gather-opt
    --convert-gather-to-linalg=vector-bits=N` with this N plans as the JIT."""
    return _library().gatherHostVectorBits()


def target_description(target_cpu="native"):
    """The target description CPU programs for `target_cpu` are planned
    with, as a dict: cpu (LLVM's name), arch (LLVM's architecture name:
    x86_64, aarch64), vector-bits, vector-unit-bits (the width one pass of
    the vector units executes: 128 on Zen 1), mask-registers (1: AVX-512's
    predicate registers), vscale-min (an SVE CPU's guaranteed register
    length in units of 128 bits where the description makes it wider than
    NEON's; else 0), prefetch-offset-tables (1: rows of reads at table
    offsets prefetch; 2: only where pixels read each line few times),
    gather-offset-rows (1: offset-table rows that do not stream load each
    register with one gather instruction),
    collect-offset-rows (1: offset-table rows that neither stream nor
    gather store a register of scalar loads at once),
    prefetch-index-streams (index values read as one stream are
    prefetched ahead: 1 into every cache level, 2 into the L2, 0 not),
    mesh-l3,
    nontemporal-stores (1: rows of large outputs may stream),
    long-offset-tiles (1: offset-table tiles of pixels that
    read their lines few times fill half the L2), cache-line-bytes,
    page-bytes, l1d-bytes, l2-bytes, l3-bytes, cores (0: unknown),
    streaming-store-min-bytes, prefetch-lines-ahead, parallel-min-bytes,
    tile-blocks, tile-max-block-bytes, prefetch-block-lines,
    offset-tile-bytes and offset-tile-bytes-few-reads (the offset-table
    tiles' budgets), offset-chunk-bytes (a chunk of 8-byte offsets) and
    streamed-vector-copy-bytes (blocks from this size on streamed from
    memory are copied by memcpy), streaming-input-min-bytes (rows
    stream only from inputs of this size on) (derived, or as the
    description gives them) and prefetch-blocks-l2 (1: block copies
    prefetch into the L2 only)."""
    text = ctypes.create_string_buffer(1024)
    if _library().gatherTargetDescription(target_cpu.encode(), text, len(text)):
        raise GatherError(text.value.decode(errors="replace"))
    fields = dict(item.split("=", 1) for item in text.value.decode().split())
    return {k: (v if k in ("cpu", "arch") else int(v)) for k, v in fields.items()}


def compile(mlir_text, entry=None, device="cpu", threads=0, opt_level=3,
            destination_entries=False, raise_linalg=True, target_cpu="native",
            compile_threads=0, verify_each=False, fuse_consumers=True):
    """Compiles a function of an MLIR module (gather ops on tensors) into a
    callable on numpy arrays (every public function: see Program.select).
    `threads` > 0: the threads of its OpenMP loops in each of its calls,
    whatever other programs use (0: libomp's default, OMP_NUM_THREADS or one
    per core); `opt_level` is LLVM's (0-3); `destination_entries`: calls with `out=`
    write into the given arrays without a copy (longer compilation);
    `raise_linalg=False` leaves gather-like linalg.generic ops unraised;
    `target_cpu`: "native" (the host) or a CPU name LLVM knows of the
    host's architecture ("x86-64-v3" for AVX2) whose features the host has; `compile_threads`:
    the threads LLVM compiles on (0: one per core); `verify_each`: verify
    the IR after every pass, not only the pipeline's input and output;
    `fuse_consumers=False` leaves the consumers of gathers unfused (as
    gather-run --no-fusion)."""
    return Program(mlir_text, entry=entry, device=device, threads=threads, opt_level=opt_level,
                   destination_entries=destination_entries, raise_linalg=raise_linalg,
                   target_cpu=target_cpu, compile_threads=compile_threads,
                   verify_each=verify_each, fuse_consumers=fuse_consumers)


_cache = {}
_cache_lock = threading.Lock()


def _policy_text(negative_indices, out_of_bounds):
    if negative_indices not in ("wrap", "out_of_bounds"):
        raise GatherError(f"negative_indices must be 'wrap' or 'out_of_bounds', got {negative_indices!r}")
    if out_of_bounds not in ("error", "clamp", "fill", "unchecked"):
        raise GatherError(f"out_of_bounds must be 'error', 'clamp', 'fill' or 'unchecked', got {out_of_bounds!r}")
    text = ""
    if negative_indices != "wrap":
        text += f" negative_indices = {negative_indices}"
    if out_of_bounds != "error":
        text += f" out_of_bounds = {out_of_bounds}"
    return text


def _specialized(specs, shapes):
    """Sizes that stay static across `specs` (None: dynamic) and the call's
    `shapes`: those equal in both."""
    return tuple(tuple(s if s == g else None for s, g in zip(spec, shape))
                 for spec, shape in zip(specs, shapes))


def _fits(specs, shapes):
    return all(s is None or s == g for spec, shape in zip(specs, shapes)
               for s, g in zip(spec, shape))


def _run_op(op, attr_text, data, indices, negative_indices, out_of_bounds, device,
            out=None, dynamic=False, **shape_args):
    data, indices = np.asarray(data), np.asarray(indices)
    element = _NUMPY_TO_MLIR.get(data.dtype)
    if element is None:
        raise GatherError(f"data dtype {data.dtype} is not supported")
    if indices.dtype not in _INDEX_DTYPES:
        raise GatherError(f"indices dtype {indices.dtype} is not supported (int8, int16, int32, int64)")
    policy = _policy_text(negative_indices, out_of_bounds)
    # Sizes as torch.compile's automatic dynamic shapes: the first call
    # compiles its own sizes (the lowering plans with them: static row
    # copies, tiles, streaming stores; every size dynamic made W5 2.6x and
    # W1 1.5x slower, bench/README.md); a call whose sizes differ compiles
    # once more with those sizes dynamic, which later calls then share.
    # A signature compiles at most once per dimension more. `dynamic`:
    # every size dynamic from the start. (gather.nd's last indices size is
    # part of the signature: it sets the result's rank.)
    nd_tuple = indices.shape[-1] if op == "nd" and indices.ndim else None
    shapes = (data.shape, indices.shape)
    # With out=, the program also has the entry that writes into it. One
    # program per signature serves calls with and without out=: one made
    # for out= runs plain calls through that entry at no extra cost, so it
    # replaces a plain one at the first call with out= (on the CPU; the GPU
    # has no such entry).
    in_place = out is not None and device == "cpu"
    key = (op, attr_text, policy, element, data.ndim, indices.dtype.str, indices.ndim, nd_tuple,
           device, bool(dynamic))
    with _cache_lock:
        program = _cache.get(key)
        specs = None
        if program is None:
            specs = shapes
        elif not _fits(program.sizes, shapes):
            specs = _specialized(program.sizes, shapes)
        elif in_place and not program.destination_entries:
            specs = program.sizes
        if specs is not None:
            if dynamic:
                specs = tuple((None,) * len(shape) for shape in shapes)
            if nd_tuple is not None:
                specs = (specs[0], specs[1][:-1] + (nd_tuple,))
            dt = tensor_type(specs[0], element)
            it = tensor_type(specs[1], _NUMPY_TO_MLIR[indices.dtype])
            ot = tensor_type(output_shape(op, *specs, **shape_args), element)
            body = gather_op_text(op, "%0", "%data", "%indices", dt, it, ot,
                                  attrs=attr_text + policy, **shape_args)
            text = (f"func.func @main(%data: {dt}, %indices: {it}) -> {ot} {{\n"
                    f"{body}\n  return %0 : {ot}\n}}\n")
            program = Program(text, device=device,
                              destination_entries=in_place or (program is not None
                                                               and program.destination_entries))
            program.sizes = specs
            _cache[key] = program
    return program(data, indices, result_dtypes=[data.dtype], out=out)


def block(data, indices, axis=0, negative_indices="wrap", out_of_bounds="error", device="cpu",
          out=None, dynamic=False):
    """ONNX Gather / numpy.take: output shape data[:axis] + indices + data[axis+1:].
    `out` (every op): a C-contiguous array of the result's dtype and shape
    that receives the result, written by the compiled code itself.
    `dynamic` (every op): compile every size dynamic, one program for all
    shapes; by default a signature's first call compiles its sizes, and a
    call with other sizes compiles once more with those sizes dynamic."""
    data, indices = np.asarray(data), np.asarray(indices)
    return _run_op("block", f"axis = {int(axis)}", data, indices, negative_indices, out_of_bounds,
                   device, out=out, dynamic=dynamic, axis=int(axis))


def elements(data, indices, axis=0, negative_indices="wrap", out_of_bounds="error", device="cpu",
             out=None, dynamic=False):
    """ONNX GatherElements / torch.gather / numpy.take_along_axis."""
    data = np.asarray(data)
    return _run_op("elements", f"axis = {int(axis)}", data, indices, negative_indices, out_of_bounds,
                   device, out=out, dynamic=dynamic, axis=int(axis))


def nd(data, indices, batch_dims=0, negative_indices="wrap", out_of_bounds="error", device="cpu",
       out=None, dynamic=False):
    """ONNX GatherND with batch_dims."""
    data, indices = np.asarray(data), np.asarray(indices)
    if indices.ndim < 1:
        raise GatherError("gather.nd indices need rank >= 1")
    return _run_op("nd", f"batch_dims = {int(batch_dims)}", data, indices, negative_indices,
                   out_of_bounds, device, out=out, dynamic=dynamic, batch_dims=int(batch_dims))


def multiaxis(input, indices, axes, negative_indices="wrap", out_of_bounds="error", device="cpu",
              out=None, dynamic=False):
    """The Gather Multiaxis proposal's operator: equal ranks, explicit axes,
    coordinates folded into the last indices dimension."""
    input = np.asarray(input)
    axes_text = ", ".join(str(int(a)) for a in axes)
    return _run_op("multiaxis", f"axes = [{axes_text}]", input, indices, negative_indices,
                   out_of_bounds, device, out=out, dynamic=dynamic, axes=[int(a) for a in axes])
