# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Shared by scripts/run-example.sh and scripts/test.sh: installs the Debian
# packages the build needs when they are missing, then configures and builds
# into build/ (incrementally when it exists).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${GATHER_BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

GATHER_PACKAGES=(cmake ninja-build g++ libmlir-22-dev mlir-22-tools llvm-22-dev
  llvm-22-tools libomp-22-dev libpython3-dev python3-numpy python3-onnx python3-psutil libonnx-testdata)

install_missing_packages() {
  local missing=()
  for pkg in "${GATHER_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing missing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build_gather() {
  install_missing_packages
  if [ ! -f "$BUILD/build.ninja" ]; then
    echo "== configuring $BUILD"
    cmake -G Ninja -S "$ROOT" -B "$BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" ${GATHER_CMAKE_ARGS:-}
  fi
  echo "== building"
  ninja -C "$BUILD" "$@"
}
