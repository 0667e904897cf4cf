#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that every C and C++ file of the repository is formatted as
# clang-format 22 (the LLVM release the project builds with) formats it,
# with the repository's .clang-format (LLVM style). Installs Debian's
# clang-format-22 when missing. Exits non-zero, listing the files, if one
# is not. Fix with: git ls-files '*.cpp' '*.h' '*.c' | xargs clang-format-22 -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FORMAT=/usr/lib/llvm-22/bin/clang-format
if [ ! -x "$FORMAT" ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends clang-format-22
fi
unformatted=()
while IFS= read -r file; do
  "$FORMAT" --dry-run --Werror "$file" > /dev/null 2>&1 || unformatted+=("$file")
done < <(git ls-files '*.cpp' '*.h' '*.c')
if [ ${#unformatted[@]} -ne 0 ]; then
  echo "error: not formatted with clang-format 22:" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "clang-format: $(git ls-files '*.cpp' '*.h' '*.c' | wc -l) files formatted"
