#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds gather's libraries and tools with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DGATHER_SANITIZE="address;undefined", every
# error fatal) into build-sanitize/, and runs the lit suite there: the
# verifier, pass and lowering tests, the execution tests and the fuzzer's
# fixed-seed slice (the install test is unsupported: a sanitized install
# needs the runtimes in every consumer). libMLIR.so stays as Debian built
# it. Then fuzz this build: GATHER_BUILD_DIR=build-sanitize scripts/fuzz.sh
# Usage: scripts/sanitize.sh [extra lit arguments]
export GATHER_BUILD_DIR="${GATHER_BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build-sanitize}"
export GATHER_CMAKE_ARGS="-DGATHER_SANITIZE=address;undefined"
exec "$(dirname "${BASH_SOURCE[0]}")/test.sh" "$@"
