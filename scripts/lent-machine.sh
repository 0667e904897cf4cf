#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What a session runs on a lent GPU machine (16 host cores, no LLVM/MLIR
# packages, no network), as one call: installs the bundle of
# scripts/gpu-bundle.sh (run that first here), then, each step under its
# own time limit and its output written to $OUT as it finishes:
#   host.txt      lscpu, nvidia-smi, the gather target description
#   cpu-t2.txt    bench/run.py on the host CPU, 2 threads (native target)
#   cpu-tN.txt    bench/run.py at N threads (1 4 8 16), fewer workloads
#   gpu-lit.txt   the GPU suites of check-gather
#   gpu-bench.txt bench/gpu.py
#   cpu-v3.txt    bench/run.py compiled for x86-64-v3 (AVX2), when the host
#                 has AVX-512
# Usage there, from the repository root: bash scripts/lent-machine.sh
# [steps...] (default: all, in the order above).
set -uo pipefail
out=${OUT:-/tmp/lent-out}
mkdir -p "$out"
source .gpu/run.sh > "$out/install.txt" 2>&1 || { cat "$out/install.txt"; exit 1; }
py=/usr/bin/python3
steps=${*:-host cpu threads gpu-lit gpu-bench v3}
step() { # NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  echo "== $name (limit ${limit}s) $(date +%T)"
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  echo "   exit $? $(date +%T)"
  tail -n 3 "$out/$name.txt"
}
for s in $steps; do
  case $s in
    host) step host 30 bash -c 'lscpu; grep -o "avx512[a-z]*" /proc/cpuinfo | sort -u | tr "\n" " "; echo;
      nvidia-smi; command -v g++; build/bin/gather-run --print-target' ;;
    cpu) step cpu-t2 200 $py bench/run.py --runs 15 --rounds 2 --threads 2 ;;
    v3) grep -q avx512f /proc/cpuinfo &&
      step cpu-v3 200 $py bench/run.py --runs 15 --rounds 2 --threads 2 --target x86-64-v3 ;;
    threads) for t in 1 4 8 16; do
        step cpu-t$t 90 $py bench/run.py --runs 11 --rounds 1 --threads $t --only W1,W2,W3,W4,W7,W8
      done ;;
    gpu-lit) step gpu-lit 200 /usr/lib/llvm-22/bin/lit -sv -j16 build/test/Integration/GPU \
      build/test/Runtime build/test/Conversion/GatherToGPU ;;
    gpu-bench) step gpu-bench 150 $py bench/gpu.py --runs 30 --rounds 2 ;;
  esac
done
