#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The JIT on an AArch64 host with SVE, emulated: builds gather-run for
# AArch64 against Debian's arm64 LLVM and MLIR (unpacked into a sysroot,
# not installed), then runs it under QEMU's user mode as a Neoverse V1
# (Graviton3) host, whose /proc/cpuinfo it is shown (a bind mount in a
# mount namespace of its own), with SVE registers of 128, 256 and 512 bits,
# and as a Neoverse N1 (no SVE). Each run checks what the JIT planned
# (--print-target), that its results equal numpy's, that the 256-bit plan's
# code holds SVE gathers in the body the length check calls, and that code
# planned for more than the registers hold reports it.
#
#   scripts/aarch64-jit.sh [WORK]    (default /tmp/gather-aarch64-jit)
#
# Needs root (dpkg --add-architecture, unshare -m, mount --bind), about
# 200 MB of downloads and 2 GB in WORK; the first run takes 6-8 minutes on
# 2 cores (the cross build, at -O1), a later one about a minute. Not part of
# check-gather: test/Target/host-vector-length.test and describe-host.mlir
# are what CI runs of this (docs/Testing.md, "Other architectures").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${1:-/tmp/gather-aarch64-jit}"
SYSROOT="$WORK/sysroot"
BUILD="$WORK/build"
HOST_LLVM=/usr/lib/llvm-22
# Debian's arm64 LLVM and MLIR, and what libLLVM and libMLIR load.
PACKAGES=(libmlir-22-dev libmlir-22 llvm-22-dev libllvm22 libomp-22-dev
  libomp5-19 libedit2 libffi8 libxml2 libz3-4 libzstd1 zlib1g libbsd0 libmd0
  libicu72 liblzma5 libtinfo6)

need() { command -v "$1" >/dev/null || { echo "error: $1 is missing ($2)" >&2; exit 1; }; }
need qemu-aarch64 "Debian: qemu-user"
need aarch64-linux-gnu-g++ "Debian: g++-aarch64-linux-gnu"
need unshare "util-linux"
[ "$(id -u)" -eq 0 ] || { echo "error: run as root (see the header)" >&2; exit 1; }

mkdir -p "$WORK/debs"
if [ ! -f "$SYSROOT/.complete" ]; then
  echo "== unpacking Debian's arm64 LLVM and MLIR into $SYSROOT"
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update -q >/dev/null
  (cd "$WORK/debs" && apt-get download "${PACKAGES[@]/%/:arm64}")
  rm -rf "$SYSROOT"
  for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$SYSROOT"; done
  # The CMake exports name every tool and library of the full packages, and
  # CMake checks that each exists: the host's tools where they run here
  # (mlir-tblgen generates the project's sources), empty files otherwise.
  exports=$(cat "$SYSROOT$HOST_LLVM"/lib/cmake/llvm/LLVMExports-*.cmake \
    "$SYSROOT$HOST_LLVM"/lib/cmake/mlir/MLIRTargets-*.cmake |
    grep -o '"${_IMPORT_PREFIX}[^"]*"' | sed "s|\${_IMPORT_PREFIX}|$HOST_LLVM|; s|\"||g" | sort -u)
  for file in $exports; do
    [ -e "$SYSROOT$file" ] && continue
    mkdir -p "$(dirname "$SYSROOT$file")"
    if [[ "$file" == */bin/* && -x "$file" ]]; then
      ln -s "$file" "$SYSROOT$file"
    else
      touch "$SYSROOT$file"
    fi
  done
  # libomp-22-dev's libomp.so.5 points at the build machine's triple.
  ln -sf ../../aarch64-linux-gnu/libomp.so.5 "$SYSROOT$HOST_LLVM/lib/libomp.so.5"
  touch "$SYSROOT/.complete"
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  echo "== configuring $BUILD"
  cat >"$WORK/toolchain.cmake" <<EOF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH $SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
  # libLLVM's own dependencies are in the sysroot, where the cross linker
  # does not look by itself.
  link="-Wl,-rpath-link,$SYSROOT/usr/lib/aarch64-linux-gnu:$SYSROOT/lib/aarch64-linux-gnu:$SYSROOT$HOST_LLVM/lib"
  cmake -G Ninja -S "$ROOT" -B "$BUILD" -DCMAKE_TOOLCHAIN_FILE="$WORK/toolchain.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DMLIR_DIR="$SYSROOT$HOST_LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$HOST_LLVM/bin/lit" \
    -DCMAKE_EXE_LINKER_FLAGS="$link" -DCMAKE_SHARED_LINKER_FLAGS="$link" >/dev/null
fi
echo "== building gather-run for AArch64"
ninja -C "$BUILD" gather-run

# A Neoverse V1's /proc/cpuinfo (Graviton3: SVE), and a Neoverse N1's.
cpuinfo() {
  local part=$1 features=$2
  for cpu in 0 1; do
    printf 'processor\t: %s\nBogoMIPS\t: 2100.00\nFeatures\t: %s\n' "$cpu" "$features"
    printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\n'
    printf 'CPU part\t: %s\nCPU revision\t: 1\n\n' "$part"
  done
}
cpuinfo 0xd40 "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng" >"$WORK/cpuinfo-neoverse-v1"
cpuinfo 0xd0c "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs" >"$WORK/cpuinfo-neoverse-n1"

# gather-run as an AArch64 process: QEMU_CPU (QEMU's CPU and SVE length),
# CPUINFO (the /proc/cpuinfo it reads).
cat >"$WORK/gather-run" <<EOF
#!/usr/bin/env bash
exec unshare -m bash -c 'mount --bind "\$CPUINFO" /proc/cpuinfo &&
  exec qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu "\$QEMU_CPU" \
    -E LD_LIBRARY_PATH=$BUILD/lib:$SYSROOT$HOST_LLVM/lib:$SYSROOT/usr/lib/aarch64-linux-gnu:$SYSROOT/lib/aarch64-linux-gnu \
    $BUILD/bin/gather-run "\$@"' gather-run "\$@"
EOF
chmod +x "$WORK/gather-run"

echo "== running the JIT under QEMU"
PYTHONPATH="$ROOT/python" /usr/bin/python3 - "$WORK" <<'EOF'
import os, subprocess, sys
import numpy as np

work = sys.argv[1]
run_dir = os.path.join(work, "run")
os.makedirs(run_dir, exist_ok=True)
rng = np.random.default_rng(7)
x = rng.standard_normal((300, 100)).astype(np.float32)
ie = rng.integers(-100, 100, (300, 37)).astype(np.int64)
ib = rng.integers(-300, 300, 53).astype(np.int64)
inn = rng.integers(-300, 300, (41, 1)).astype(np.int64)
inputs = {"x": x, "ie": ie, "ib": ib, "in": inn}
for name, array in inputs.items():
    np.save(os.path.join(run_dir, name + ".npy"), array)
# An element gather (SVE's gathers at 256 bits and more), a block gather
# (row copies) and a gather.nd, with negative indices.
want = [np.take_along_axis(x, np.where(ie < 0, ie + 100, ie), 1),
        x[np.where(ib < 0, ib + 300, ib)],
        x[np.where(inn[:, 0] < 0, inn[:, 0] + 300, inn[:, 0])]]
module = os.path.join(run_dir, "gathers.mlir")
with open(module, "w") as f:
    f.write("""func.func @main(%x: tensor<300x100xf32>, %ie: tensor<300x37xi64>, %ib: tensor<53xi64>, %in: tensor<41x1xi64>)
    -> (tensor<300x37xf32>, tensor<53x100xf32>, tensor<41x100xf32>) {
  %e0 = tensor.empty() : tensor<300x37xf32>
  %e = gather.elements %x[%ie] axis = 1 into %e0 : tensor<300x100xf32>, tensor<300x37xi64> into tensor<300x37xf32>
  %b0 = tensor.empty() : tensor<53x100xf32>
  %b = gather.block %x[%ib] axis = 0 into %b0 : tensor<300x100xf32>, tensor<53xi64> into tensor<53x100xf32>
  %n0 = tensor.empty() : tensor<41x100xf32>
  %n = gather.nd %x[%in] into %n0 : tensor<300x100xf32>, tensor<41x1xi64> into tensor<41x100xf32>
  return %e, %b, %n : tensor<300x37xf32>, tensor<53x100xf32>, tensor<41x100xf32>
}
""")
failures = 0


def gather_run(cpu, qemu_cpu, *args):
    env = dict(os.environ, CPUINFO=os.path.join(work, "cpuinfo-" + cpu), QEMU_CPU=qemu_cpu)
    return subprocess.run([os.path.join(work, "gather-run"), *args], env=env,
                          capture_output=True, text=True, cwd=run_dir)


def check(what, ok, detail=""):
    global failures
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    failures += not ok


def run_gathers(cpu, qemu_cpu, *extra):
    outs = [f"out{k}.npy" for k in range(3)]
    for out in outs:
        if os.path.exists(os.path.join(run_dir, out)):
            os.remove(os.path.join(run_dir, out))
    args = [module, *extra]
    for name in inputs:
        args += ["--input", name + ".npy"]
    for out in outs:
        args += ["--output", out]
    result = gather_run(cpu, qemu_cpu, *args)
    return result, outs


cases = [("neoverse-v1", 16, 128, 0), ("neoverse-v1", 32, 256, 2),
         ("neoverse-v1", 64, 512, 4), ("neoverse-n1", 0, 128, 0)]
for cpu, sve_bytes, bits, vscale in cases:
    qemu_cpu = f"max,sve-default-vector-length={sve_bytes}" if sve_bytes else "max,sve=off"
    host = f"{cpu}, {sve_bytes * 8}-bit SVE" if sve_bytes else f"{cpu}, no SVE"
    target = gather_run(cpu, qemu_cpu, "--print-target").stdout
    fields = dict(item.split("=", 1) for item in target.split())
    check(f"{host}: plans cpu={cpu} vector-bits={bits} vscale-min={vscale}",
          (fields.get("cpu"), fields.get("vector-bits"), fields.get("vscale-min")) ==
          (cpu, str(bits), str(vscale)), target.strip())
    for threads in ("1", "2"):
        result, outs = run_gathers(cpu, qemu_cpu, "--threads", threads)
        same = result.returncode == 0 and all(
            np.array_equal(np.load(os.path.join(run_dir, out)), w) for out, w in zip(outs, want))
        check(f"{host}, {threads} thread(s): results equal numpy's", same,
              result.stderr.strip()[-400:])

# The 256-bit plan's code: the body the entry's check calls holds SVE's
# gathers (the instruction selector's output, printed by LLVM).
result, _ = run_gathers("neoverse-v1", "max,sve-default-vector-length=32", "--compile-threads=1",
                        "--print-after=aarch64-isel")
bodies = result.stderr.split("# Machine code for function ")
body = next((b for b in bodies if b.startswith("main.vl256:")), "")
entry = next((b for b in bodies if b.startswith("main:")), "")
check("256-bit SVE: main.vl256 holds SVE gathers (GLD1W)", "GLD1W" in body,
      "no GLD1W in main.vl256" if body else "no main.vl256")
check("256-bit SVE: the entry reads the length (RDVL) and calls main.vl256",
      "RDVL" in entry and "main.vl256" in entry, entry[:400])

# Code planned for 256 bits on 128-bit registers reports the length.
result, _ = run_gathers("neoverse-v1", "max,sve-default-vector-length=16", "--vector-bits=256")
message = "@main: the code needs vector registers of at least 256 bits, this CPU's are 128 bits"
check("vector-bits=256 on 128-bit SVE: reports the length", result.returncode != 0 and message in result.stderr,
      result.stderr.strip()[-400:])
print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
EOF
