#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the project and runs every test (the check-gather lit suite).
# Usage: scripts/test.sh [extra lit arguments, e.g. -v or --filter=infer]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The AArch64 and RISC-V execution tests (test/Integration/cross-*.test):
# cross compilers for their drivers and run-time library, QEMU to run them.
GATHER_PACKAGES+=(qemu-user g++-aarch64-linux-gnu g++-riscv64-linux-gnu)
# gather-test-depends: the tools and libraries of test/CMakeLists.txt.
build_gather gather-test-depends gather-python mlir-doc
echo "== running check-gather"
log="$(mktemp)"
status=0
"$LLVM_PREFIX/bin/lit" -sv "$BUILD/test" "$@" 2>&1 | tee "$log" || status=$?
passed=$(grep -oP '^\s*Passed\s*:\s*\K[0-9]+' "$log" || echo 0)
failed=$(grep -oP '^\s*Failed\s*:\s*\K[0-9]+' "$log" || echo 0)
unsupported=$(grep -oP '^\s*Unsupported\s*:\s*\K[0-9]+' "$log" || echo 0)
timed_out=$(grep -oP '^\s*Timed Out\s*:\s*\K[0-9]+' "$log" || echo 0)
rm -f "$log"
echo "check-gather: ${passed} passed, ${failed} failed, ${timed_out} timed out, ${unsupported} skipped"
if [ "$passed" -eq 0 ]; then
  echo "error: no test passed" >&2
  exit 1
fi
exit $status
