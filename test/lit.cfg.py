# -*- Python -*-
import ctypes
import os
import platform
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test", ".c", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Consumer", "__pycache__", "lib"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%gather_src_root", config.gather_src_root))
config.substitutions.append(("%gather_bin", config.gather_tools_dir))
config.substitutions.append(("%gather_lib", config.gather_lib_dir))
config.substitutions.append(("%gather_obj_root", config.gather_obj_root))
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
# Upstream tools, for the plugin tests.
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
config.substitutions.append(("%llvm_lib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
# Code compiled ahead of time: LLVM's llc and llvm-objcopy, and the C
# compiler of this build for the drivers that call it.
config.substitutions.append(("%llc", os.path.join(config.llvm_tools_dir, "llc")))
config.substitutions.append(("%llvm_objcopy", os.path.join(config.llvm_tools_dir, "llvm-objcopy")))
config.substitutions.append(("%cc", config.c_compiler))
# Debian's own interpreter: it has numpy and onnx; the first python3 on PATH
# may not.
config.substitutions.append(("%python", "/usr/bin/python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.gather_tools_dir, config.llvm_tools_dir]
tools = ["gather-opt", "gather-run", "gather-capi-test", "gather-capi-concurrent-test", "gather-runner-test", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.gather_tools_dir, append_path=True)
# not, count and FileCheck live in the LLVM tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PYTHONPATH", os.path.join(config.gather_src_root, "python"), append_path=True)
# The test harnesses (gather_testing), kept out of the installed package.
llvm_config.with_environment("PYTHONPATH", os.path.join(config.gather_src_root, "test", "lib"), append_path=True)
# The Python tests load the C API of the build under test, not the first
# one python/gather/jit.py would find (build/ of the checkout): a sanitized
# build in another directory tests its own library.
config.environment["GATHER_CAPI_LIBRARY"] = os.path.join(config.gather_lib_dir, "libGatherCAPI.so")
# python/gather/jit.py's C call, where the build has it (Python's headers
# found: lib/Bindings/Python) for the Python the tests run: a module built
# for another version (a lent machine's Python 3.12 running a bundle built
# against Debian's 3.11) is not loaded, and the calls take the ctypes path.
suffixes = subprocess.run(
    ["/usr/bin/python3", "-c", "import importlib.machinery as m; print(*m.EXTENSION_SUFFIXES)"],
    capture_output=True, text=True).stdout.split()
if any(os.path.exists(os.path.join(config.gather_lib_dir, "_gather_fastcall" + s)) for s in suffixes):
    config.available_features.add("python-fastcall")

# A sanitized build (-DGATHER_SANITIZE=...): every process that may load one
# of our shared libraries gets the ASan runtime first; leaks of the
# unsanitized hosts (Python, mlir-opt) are not ours to report. Tests that
# build other projects against the install say UNSUPPORTED: sanitize.
if config.gather_sanitize:
    config.available_features.add("sanitize")
    options = "detect_leaks=0:abort_on_error=0:halt_on_error=1"
    config.environment["ASAN_OPTIONS"] = options
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    if config.gather_sanitizer_preload:
        config.environment["LD_PRELOAD"] = config.gather_sanitizer_preload

# The tests that assert an upstream crash (`%not_crash`, `not --crash`)
# need the crash to end the process by its signal. In a sanitized build the
# ASan runtime would end it first with status 1, which `not --crash`
# rejects: its SEGV handler, or its memcpy interceptor finding upstream's
# overflow before the fault. So those runs do without the preloaded runtime
# (they run Debian's mlir-opt, or gather-opt, which links its own) and
# leave the signals to the process.
if config.gather_sanitize:
    config.substitutions.append(
        ("%not_crash", "env -u LD_PRELOAD ASAN_OPTIONS=detect_leaks=0:handle_segv=0:"
                       "handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0 "
                       "not --crash"))
else:
    config.substitutions.append(("%not_crash", "not --crash"))

# glibc's checking malloc (Debian 12's libc6 ships it): a run that corrupts
# the heap aborts with a message at the damaged block instead of exiting
# cleanly. A sanitized build has ASan for that (and its own LD_PRELOAD).
malloc_debug = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"
if not config.gather_sanitize and os.path.exists(malloc_debug):
    config.substitutions.append(
        ("%malloc_check", f"env MALLOC_CHECK_=3 LD_PRELOAD={malloc_debug}"))
else:
    config.substitutions.append(("%malloc_check", "env"))

# ptxas (the CUDA toolkit's PTX assembler) checks the PTX the GPU pipeline
# emits; tests that need it say REQUIRES: ptxas and are UNSUPPORTED without.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))


def cuda_gpu_present():
    """A CUDA driver that initializes and sees at least one device."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


# Code for AArch64 and RISC-V compiled here and run under QEMU's user mode
# (Debian: qemu-user, g++-aarch64-linux-gnu, g++-riscv64-linux-gnu;
# scripts/test.sh installs them): REQUIRES: aarch64-cross, riscv64-cross.
for arch in ("aarch64", "riscv64"):
    if shutil.which(f"qemu-{arch}") and shutil.which(f"{arch}-linux-gnu-g++"):
        config.available_features.add(f"{arch}-cross")

# JIT runs that name an x86-64 CPU (x86-64-v3: AVX2 code on any x86-64
# host, whatever its own width): REQUIRES: x86_64-host.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64-host")

# Building a project against an install of this build.
if shutil.which("cmake") and shutil.which("ninja"):
    config.available_features.add("cmake")

# Execution on an NVIDIA GPU (gather-run --device gpu): REQUIRES: gpu.
if cuda_gpu_present():
    config.available_features.add("gpu")

# A hung test fails alone instead of holding CI to its 90-minute limit. lit
# kills a test's process tree through psutil (Debian: python3-psutil, which
# scripts/common.sh installs); without psutil lit cannot time tests out, so
# the limit is left off. GATHER_LIT_TIMEOUT (seconds, 0 for none) overrides
# the default, which is several times the slowest test on the 2-core CI
# machine (the fuzz and sanitized runs are slower still).
try:
    import psutil  # noqa: F401

    lit_config.maxIndividualTestTime = int(os.environ.get("GATHER_LIT_TIMEOUT", "900"))
except ImportError:
    lit_config.note("python3-psutil is missing: no per-test time limit")
