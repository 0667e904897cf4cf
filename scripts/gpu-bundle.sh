#!/usr/bin/env bash
# Packs what the GPU suites need onto a machine with an NVIDIA GPU but no
# LLVM/MLIR packages (a lent machine without network): gather-run and
# gather-opt from build/, their shared libraries (libMLIR, libLLVM and what
# they link, but not libc or libstdc++), libomp and libmlir_c_runner_utils
# at the paths gather-run was built with, FileCheck and the ONNX test data the conformance suite reads.
# Writes .gpu/ (keep it out of git: echo /.gpu/ >> .git/info/exclude).
# There, from the repository root: `source .gpu/run.sh` installs it and sets
# PYTHONPATH; then e.g. `python3 -m gather.difftest --op block --device gpu
# --bin build/bin` (docs/GPU.md).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .gpu && mkdir -p .gpu/libs .gpu/rest/bin .gpu/rest/onnxdata/node .gpu/rest/onnxdata/pytorch-converted
for lib in $(ldd build/bin/gather-run | awk '/=>/ {print $3}'); do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*) ;;
    *) cp -L "$lib" .gpu/libs/ ;;
  esac
done
cp -L /usr/lib/llvm-22/lib/libomp.so .gpu/libs/libomp.so
cp -L /usr/lib/llvm-22/lib/libmlir_c_runner_utils.so .gpu/libs/libmlir_c_runner_utils.so
cp build/bin/gather-run build/bin/gather-opt /usr/lib/llvm-22/bin/FileCheck .gpu/rest/bin/
cp -r /usr/share/libonnx-testdata/data/node/test_gather* .gpu/rest/onnxdata/node/
cp -r /usr/share/libonnx-testdata/data/pytorch-converted/test_Embedding* .gpu/rest/onnxdata/pytorch-converted/
tar cf - -C .gpu libs | xz -T0 -9 > .gpu/libs.tar.xz
tar cf - -C .gpu/rest . | xz -T0 -9 > .gpu/rest.tar.xz
rm -rf .gpu/libs .gpu/rest
cat > .gpu/run.sh <<'SETUP'
# Installs the bundle on the GPU machine (as root), from the repository root.
R=$PWD
mkdir -p /opt/gl && tar xJf .gpu/libs.tar.xz -C /opt/gl --strip-components=1
mkdir -p .gpu/rest && tar xJf .gpu/rest.tar.xz -C .gpu/rest
mkdir -p /usr/lib/llvm-22/lib
cp /opt/gl/libomp.so /opt/gl/libmlir_c_runner_utils.so /usr/lib/llvm-22/lib/
mkdir -p build/bin
for t in gather-run gather-opt FileCheck; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/opt/gl exec %s "$@"\n' "$R/.gpu/rest/bin/$t" > build/bin/$t
  chmod +x build/bin/$t
done
export PYTHONPATH=$R/python PYTHONUNBUFFERED=1
SETUP
du -sh .gpu/*
