#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Packs what check-gather, the GPU suites and the benchmarks need onto a
# machine with an NVIDIA GPU but no LLVM/MLIR packages and no network (a
# lent machine): the build's tools, libraries and lit site config; LLVM's
# libLLVM, libMLIR, libomp, runner utilities, mlir-opt, mlir-runner,
# mlir-translate, llc, opt (the other-architectures tests), llvm-objcopy
# (aot-assert-frees.test, which also needs the machine's C compiler), the MLIR C
# API's headers (bench/paired.py --from-c), lit,
# FileCheck, not and count at their Debian paths (the tools' RUNPATHs and the
# site config name them); the ONNX test data the suites read; and the other
# shared libraries they link (not libc or libstdc++), installed there only
# where the machine lacks a library of that name.
# Writes .gpu/ (keep it out of git: echo /.gpu/ >> .git/info/exclude).
# There, from the repository root (as root): `source .gpu/run.sh` installs it,
# links /work/main to the checkout (the path the site config names) and sets
# PYTHONPATH; then `cd build && lit -sv test` or `python3 bench/gpu.py`
# (docs/GPU.md).
# --build-only: refresh only the build's part (the rest depends on the
# system's packages alone).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GATHER_BUILD_DIR:-build}
llvm=/usr/lib/llvm-22
archive_build() {
  tar chf - --exclude='__pycache__' "$build"/bin "$build"/lib/*.so "$build"/test/lit.site.cfg.py "$build"/test/Runtime/fake-cuda \
    | xz -T0 -9 > .gpu/build.tar.xz
}
if [ "${1:-}" = --build-only ] && [ -f .gpu/llvm.tar.xz ]; then
  archive_build && du -sh .gpu/* && exit 0
fi
rm -rf .gpu && mkdir -p .gpu/sys
elves=("$build"/bin/* "$build"/lib/*.so $llvm/bin/mlir-opt $llvm/bin/mlir-runner $llvm/bin/mlir-translate
       $llvm/bin/llc $llvm/bin/opt $llvm/bin/llvm-objcopy
       $llvm/bin/FileCheck $llvm/bin/not $llvm/bin/count
       $llvm/lib/libomp.so $llvm/lib/libmlir_c_runner_utils.so $llvm/lib/libmlir_runner_utils.so)
tree=(${llvm#/}/bin/mlir-opt ${llvm#/}/bin/mlir-runner ${llvm#/}/bin/mlir-translate ${llvm#/}/bin/FileCheck ${llvm#/}/bin/not
      ${llvm#/}/bin/llc ${llvm#/}/bin/opt ${llvm#/}/bin/llvm-objcopy ${llvm#/}/include/mlir-c
      ${llvm#/}/bin/count ${llvm#/}/bin/lit ${llvm#/}/utils/lit ${llvm#/}/lib/libomp.so
      ${llvm#/}/lib/libmlir_c_runner_utils.so ${llvm#/}/lib/libmlir_runner_utils.so
      $(cd / && ls -d usr/share/libonnx-testdata/data/{node/test_gather,pytorch-converted/test_Embedding}*))
# libz3 and libxml2 (with ICU) are a third of the bundle, and the 64 MiB a
# lent machine takes would not hold them; no gather path calls them (LLVM's
# SMT-based analyses, Windows manifests), so they travel as stubs whose every
# function aborts with its name.
stub() { # SONAME REGEX
  nm -D --undefined-only $llvm/lib/libLLVM.so.22.1 $llvm/lib/libMLIR.so.22.1 | awk '{print $2}' |
    grep -E "$2" | sort -u | python3 utils/stub_library.py "$1" .gpu/stub.c .gpu/stub.map
  gcc -shared -fPIC -o .gpu/sys/"$1" -Wl,-soname,"$1" -Wl,--version-script=.gpu/stub.map .gpu/stub.c
  rm .gpu/stub.c .gpu/stub.map
}
stub libz3.so.4 '^Z3_'
stub libxml2.so.2 '^xml'
for lib in $(ldd "${elves[@]}" 2>/dev/null | awk '/=>/ {print $3}' | xargs realpath -s | sort -u); do
  case "$lib" in
    "$PWD"/*) ;;
    $llvm/*) tree+=("${lib#/}") ;;
    */libc.so*|*/libm.so*|*/libgcc_s.so*|*/libstdc++.so*) ;;
    */libz3.so*|*/libxml2.so*|*/libicu*) ;;
    *) cp -L "$lib" .gpu/sys/ ;;
  esac
done
tree+=($(ls -d $llvm/lib/libomp.so* | sed 's,^/,,'))
# CUDA's libdevice (the kernels' math functions), where the toolkit is
# here; installed there under /usr/local/cuda, where the GPU pipeline looks.
libdevice=/usr/local/cuda/nvvm/libdevice/libdevice.10.bc
[ -f "$libdevice" ] && xz -T0 -9 < "$libdevice" > .gpu/libdevice.10.bc.xz
tar chf - -C / --exclude='__pycache__' "${tree[@]}" | xz -T0 -9 > .gpu/llvm.tar.xz
archive_build
tar cf - -C .gpu/sys . | xz -T0 -9 > .gpu/sys.tar.xz
rm -rf .gpu/sys
cat > .gpu/run.sh <<SETUP
# Installs the bundle on the GPU machine (as root), from the repository root.
R=\$PWD
tar xJf .gpu/llvm.tar.xz -C /
tar xJf .gpu/build.tar.xz -C "\$R"
[ "$build" = build ] || { rm -rf build; ln -s "$build" build; }
mkdir -p /tmp/gather-sys /opt/gather-sys && tar xJf .gpu/sys.tar.xz -C /tmp/gather-sys
for f in /tmp/gather-sys/*; do
  ldconfig -p | grep -q "^[[:space:]]*\$(basename "\$f") " || cp "\$f" /opt/gather-sys/
done
echo /opt/gather-sys > /etc/ld.so.conf.d/zz-gather-sys.conf && ldconfig
ls /opt/gather-sys
mkdir -p /work && [ -e /work/main ] || ln -s "\$R" /work/main
d=/usr/local/cuda/nvvm/libdevice
[ -f \$d/libdevice.10.bc ] || [ ! -f .gpu/libdevice.10.bc.xz ] ||
  { mkdir -p \$d && xz -dc .gpu/libdevice.10.bc.xz > \$d/libdevice.10.bc; }
# The tests run /usr/bin/python3 (Debian's, with numpy and onnx): here that
# is the first python3 on PATH.
py=\$(command -v python3)
if [ "\$py" != /usr/bin/python3 ]; then
  [ -e /usr/bin/python3 ] && mv /usr/bin/python3 /usr/bin/python3.system
  printf '#!/bin/sh\nexec %s "\$@"\n' "\$py" > /usr/bin/python3 && chmod +x /usr/bin/python3
fi
export PYTHONPATH=\$R/python PYTHONUNBUFFERED=1
SETUP
du -sh .gpu/*
