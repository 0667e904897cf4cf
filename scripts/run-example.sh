#!/usr/bin/env bash
# Builds gather-opt and runs it on every example in examples/, printing each
# example, its verified form with inferred result types, and its canonical
# form: as far as the project goes today.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_gather gather-opt
OPT="$BUILD/bin/gather-opt"
for example in "$ROOT"/examples/*.mlir; do
  echo
  echo "==================== $(basename "$example")"
  grep -E '^//' "$example" | sed 's|^// \{0,1\}||'
  echo "---- verified, result types inferred (--gather-refine-result-types --canonicalize)"
  "$OPT" "$example" --gather-refine-result-types --canonicalize
done
