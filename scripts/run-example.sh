#!/usr/bin/env bash
# Builds gather-opt and runs it on every example in examples/, printing each
# example, its rewrite into gather.multiaxis and its canonical form (constant
# gathers fold to their values): as far as the project goes today.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_gather gather-opt
OPT="$BUILD/bin/gather-opt"
for example in "$ROOT"/examples/*.mlir; do
  echo
  echo "==================== $(basename "$example")"
  grep -E '^//' "$example" | sed 's|^// \{0,1\}||'
  echo "---- rewritten into gather.multiaxis (--gather-to-multiaxis)"
  "$OPT" "$example" --gather-to-multiaxis
  echo "---- canonical form (--canonicalize): multiaxis, merged unit dims, folds"
  "$OPT" "$example" --canonicalize
done
