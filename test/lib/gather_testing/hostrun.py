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


_ELEMENT_TYPES = {np.dtype(np.bool_): "i1", np.dtype(np.int8): "i8", np.dtype(np.int32): "i32",
                  np.dtype(np.int64): "i64", np.dtype(np.float16): "f16",
                  np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def call_lines(tag, function, arrays):
    """@main's lines that call `function` (its text) with `arrays` as
    constants (cast to its parameters' types) and print its result, their
    names suffixed with `tag`; and the printer they call, (name, element
    type). i1 arguments are made of bytes; i1 and i8 results are printed as
    i32 (printMemrefI8 prints characters, and there is no i1 printer)."""
    signature = re.search(r"func\.func @(\w+)\((.*?)\) -> (tensor<[^>]*>)", function)
    name, result = signature.group(1), signature.group(3)
    params = re.findall(r"%\w+: (tensor<[^>]*>)", signature.group(2))
    lines, args = [], []
    for j, (array, param) in enumerate(zip(arrays, params)):
        ety = _ELEMENT_TYPES[array.dtype]
        static = f"tensor<{''.join(f'{n}x' for n in array.shape)}{ety}>"
        value = f"%a{tag}_{j}"
        if ety == "i1":
            as_bytes = static.replace("i1>", "i8>")
            lines += [f"  {value}b = arith.constant {dense(array.astype(np.int8), as_bytes)}",
                      f"  {value} = arith.trunci {value}b : {as_bytes} to {static}"]
        else:
            lines.append(f"  {value} = arith.constant {dense(array, static)}")
        lines.append(f"  %b{tag}_{j} = tensor.cast {value} : {static} to {param}")
        args.append(f"%b{tag}_{j}")
    lines.append(f"  %r{tag} = call @{name}({', '.join(args)}) : ({', '.join(params)}) -> "
                 f"{result}")
    printed, ety = f"%r{tag}", re.match(r"tensor<(?:[^>]*x)?(\w+)>", result).group(1)
    if ety in ("i1", "i8"):
        wide = re.sub(rf"(x|<){ety}>", r"\1i32>", result)
        extend = "arith.extui" if ety == "i1" else "arith.extsi"
        lines.append(f"  %w{tag} = {extend} %r{tag} : {result} to {wide}")
        printed, ety, result = f"%w{tag}", "i32", wide
    lines += [f"  %p{tag} = tensor.cast {printed} : {result} to tensor<*x{ety}>",
              f"  call @printMemref{PRINTERS[ety]}(%p{tag}) : (tensor<*x{ety}>) -> ()"]
    return lines, (PRINTERS[ety], ety)


def module_text(functions, lines, printers, prefix=""):
    """`prefix`, the printers' declarations (through the C interface: the
    I8 and F16 printers have no other), `functions` and @main of `lines`."""
    declarations = [f"func.func private @printMemref{p}(tensor<*x{e}>) "
                    "attributes {llvm.emit_c_interface}" for p, e in sorted(printers)]
    return prefix + "\n".join(declarations + list(functions) + ["func.func @main() {"] +
                               list(lines) + ["  return", "}"]) + "\n"


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
