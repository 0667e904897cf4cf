#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the tools and runs every example in examples/: prints each example,
# its rewrite into gather.multiaxis, its canonical form and its CPU lowering
# to linalg, then runs it with gather-run on the specification's data and compares the
# result with the numpy reference.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_gather gather-opt gather-run gather_runtime
OPT="$BUILD/bin/gather-opt"
for example in "$ROOT"/examples/*.mlir; do
  echo
  echo "==================== $(basename "$example")"
  grep -E '^//' "$example" | sed 's|^// \{0,1\}||'
  echo "---- rewritten into gather.multiaxis (--gather-to-multiaxis)"
  "$OPT" "$example" --gather-to-multiaxis
  echo "---- canonical form (--canonicalize): multiaxis, merged unit dims, folds"
  "$OPT" "$example" --canonicalize
  echo "---- CPU lowering (--canonicalize --convert-gather-to-linalg --canonicalize)"
  "$OPT" "$example" --canonicalize --convert-gather-to-linalg --canonicalize
done
echo
echo "==================== running the examples"
PYTHONPATH="$ROOT/python" /usr/bin/python3 "$ROOT/examples/run_examples.py" "$BUILD/bin"
