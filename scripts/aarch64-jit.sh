#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The JIT on an AArch64 host with SVE, emulated: builds gather-run for
# AArch64 against Debian's arm64 LLVM and MLIR (unpacked into a sysroot,
# not installed), then runs it under QEMU's user mode as a Neoverse V1
# (Graviton3) host, whose /proc/cpuinfo it is shown (a bind mount in a
# mount namespace of its own), with SVE registers of 128, 256 and 512 bits,
# and as a Neoverse N1 (no SVE). scripts/aarch64_jit_check.py checks what
# the JIT planned (--print-target), its results (eight gathers, static and
# dynamic, and GATHER_RANDOM (24) random cases of the differential tests,
# against python/gather/reference.py; an error report against this
# machine's gather-run, which build/ must hold), that the 256-bit plan's
# code holds SVE gathers in the body the length check calls, and that code
# planned for more than the registers hold reports it.
#
#   scripts/aarch64-jit.sh [WORK]    (default /tmp/gather-aarch64-jit)
#
# Needs root (dpkg --add-architecture, unshare -m, mount --bind), about
# 200 MB of downloads and 2 GB in WORK. On 2 cores the cross build (at -O1)
# takes 6 minutes the first time, and the checks about 8 minutes each time.
# Not part of check-gather: test/Target/host-vector-length.test and
# describe-host.mlir are what CI runs of this (docs/Testing.md, "Other
# architectures").
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
PYTHONPATH="$ROOT/python:$ROOT/test/lib" /usr/bin/python3 "$ROOT/scripts/aarch64_jit_check.py" \
  "$WORK" "$ROOT/build/bin" --random "${GATHER_RANDOM:-24}"
