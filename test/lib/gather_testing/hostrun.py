"""Running what the GPU pipeline makes of gathers on the host, without a GPU.

After `--convert-gather-to-gpu --gather-fuse-device-consumers` a function is
tensor code: the loops that become kernels (linalg on tensors) and the host
code around them, whose only GPU operations are the device error flag's
memset and copies (and the copy of the indices that a report scans). Made
host operations (`on_host`), bufferized and lowered for the CPU, the
function runs under mlir-runner (`lower_and_run`), its run-time checks
reporting through the gather runtime: the fused loops and the flag's path
execute as they would on the device, in one thread.
"""
import os
import re
import subprocess

import numpy as np

# Element types mlir-runner's utilities print (printMemref<T>; i8 as
# characters, so widen it first).
PRINTERS = {"i8": "I8", "i32": "I32", "i64": "I64", "f16": "F16", "f32": "F32",
            "f64": "F64"}


def on_host(text):
    """`text` with the device's memset and copies as host operations: the
    host then runs what the device would."""
    text = re.sub(r"gpu\.memset\s+(%\w+), (%\w+) : (memref<[^>]*>), (\w+)",
                  r"linalg.fill ins(\2 : \4) outs(\1 : \3)", text)
    return re.sub(r"gpu\.memcpy\s+(%\w+), (%\w+) : (memref<[^>]*>), (memref<[^>]*>)"
                  r"(?: \{gather\.error_flag\})?",
                  r"memref.copy \2, \1 : \4 to \3", text)


def dense(array, type_text):
    """An arith.constant's value for `array` (not i1): its bytes in hex,
    exact for every value (NaN and infinities included)."""
    if array.size == 0:
        return f"dense<> : {type_text}"
    return f'dense<"0x{np.ascontiguousarray(array).tobytes().hex().upper()}"> : {type_text}'


def bufferize(opt, text, host=True):
    """`text` (after the GPU lowering on tensors) bufferized, its reductions
    made loops by gather-gpu-reduction-loops; with `host`, the device's
    memset and copies made host operations first. Arithmetic on whole
    tensors (a caller's conversions) becomes linalg first."""
    r = subprocess.run([opt, "--convert-elementwise-to-linalg",
                        "--one-shot-bufferize=bufferize-function-boundaries",
                        "--gather-gpu-reduction-loops"],
                       input=on_host(text) if host else text, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"bufferization: {r.stderr}")
    return r.stdout


def lower_and_run(opt, runner, llvm_lib, runtime_lib, text):
    """mlir-runner's run of @main of bufferized `text`, lowered for the CPU
    (the run-time checks report through the gather runtime, `runtime_lib`)."""
    lowered = subprocess.run(
        [opt, "--convert-gather-checks-to-runtime", "--convert-linalg-to-loops",
         "--convert-scf-to-cf", "--expand-strided-metadata", "--lower-affine",
         "--finalize-memref-to-llvm", "--convert-to-llvm", "--reconcile-unrealized-casts"],
        input=text, capture_output=True, text=True)
    if lowered.returncode:
        raise RuntimeError(f"lowering: {lowered.stderr}")
    libs = ",".join([os.path.join(llvm_lib, n) for n in
                     ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")] + [runtime_lib])
    return subprocess.run([runner, "-e", "main", "-entry-point-result=void",
                           f"-shared-libs={libs}"], input=lowered.stdout, capture_output=True,
                          text=True)


def printed_values(stdout):
    """The flat values (as printed) of each memref mlir-runner's printMemref
    printed; none where a size is 0 (it prints one element of garbage
    then)."""
    arrays = []
    for chunk in stdout.split("Unranked Memref")[1:]:
        sizes = re.search(r"sizes = \[([^\]]*)\]", chunk).group(1)
        data = chunk.split("data =", 1)[1]
        empty = any(int(n) == 0 for n in re.findall(r"\d+", sizes))
        arrays.append([] if empty else
                      re.findall(r"-?(?:[0-9.]+(?:e[-+]?[0-9]+)?|inf|nan)", data))
    return arrays


def printed_arrays(stdout):
    """printed_values as floats."""
    return [[float(v) for v in values] for values in printed_values(stdout)]
