#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What a session runs on a lent GPU machine (16 host cores, no LLVM/MLIR
# packages, no network), as one call: installs the bundle of
# scripts/gpu-bundle.sh (run that first here), then, each step under its
# own time limit and its output written to $OUT as it finishes (at most 8
# files: what the device tool brings back):
#   host.txt      the install, lscpu, nvidia-smi, the gather target description
#   cpu-t2.txt    bench/run.py on the host CPU, 2 threads (native target)
#   gpu-bench.txt bench/gpu.py (gpu-dynamic: also every size dynamic)
#   lit.txt       the whole check-gather (-j16, the install test left out:
#                 no MLIR CMake package there), the GPU suites included
#   threads.txt   bench/run.py at 1, 4, 8 and 16 threads (a process per
#                 contender: the host's spells show; paired-threads is the
#                 measurement to quote)
#   paired.txt    bench/paired.py --torch, 2 threads (native target)
#   cpu-v3.txt    bench/run.py compiled for x86-64-v3 (AVX2), when the host
#                 has AVX-512
#   rowbound.txt  bench/row_copy_bound.cpp, 2 threads
# and, named only:
#   sweep.txt     bench/streaming_sweep.cpp at 2 and 1 threads, outputs in
#                 units of 8 MiB (the host's L3 is shared with other VMs)
#   fused.txt     bench/fused.py --device gpu: fused, unfused, torch (CUDA);
#                 (fused-bag) the embedding bag's sum, appended; (offsets-bag)
#                 the same bags as torch-mlir writes them, appended
#   ab.txt        bench/target_ab.py: the host's plan against one entry of
#                 its description changed (L3, vector width, L1, L2, prefetch
#                 of offset tables), 2 threads
#   paired.txt    (paired-threads) bench/paired.py --torch at 1, 4, 8 and 16
#                 threads, appended
#   ab.txt        (w5-threads) W5 and W5x64 at 16 threads, the host's plan
#                 against offset-table prefetch and tiles for half and
#                 four times the L1d (W5 read 0.88-0.89 of the C++ loops at
#                 8 and 16 threads on the Emerald Rapids, 2026-11-28)
#   ab.txt        (cores-ab) every workload at 16 and 8 threads, the host's
#                 plan against one for 4 cores (the parallel prefix of
#                 16 iterations where the host's 16 cores ask for 64)
#   paired.txt    (cores-paired) bench/paired.py at 16 threads with the
#                 gathers planned for 4 cores, appended
#   c.txt         (c-threads) bench/paired.py --from-c (the gather called
#                 from C, no Python between the calls) at 16, 8 and 4 threads
#   paired.txt    (w5-warm) bench/paired.py --only W5,W5x64 at 16 threads
#                 with 1, 3 and 10 untimed calls before each timed one
#                 (whether the gap is where each contender's data sits in
#                 the 16 L2s after the others' calls), appended
#   lit.txt       (lit-arch) Pipelines/other-architectures.mlir alone, -v
#   serial.txt    (serial) bench/serial_threshold.py at 2, 4, 8 and 16
#                 threads: where a parallel block copy starts to beat a
#                 serial one (parallel_min_bytes)
#   ab.txt        (w7-distance) W7 and W1 at 1, 2 and 16 threads, the
#                 host's prefetch distance (128 lines) against 32 and 512
#                 lines (W7 at one thread on the model 167 VM: 32 lines
#                 1.3x faster, 512 too, 64-160 no faster, 2026-11-28)
#   lit.txt       (lit-threads) test/Python, test/CAPI and parallel-cores
#   ab.txt        (distance) every workload at 1, 2 and 16 threads, the
#                 host's prefetch distance against 32 and 64 lines
#   paired.txt    (distance-paired) bench/paired.py --torch at 16 threads
#                 with the gathers' prefetch distance 32 lines, appended
# The steps share one deadline (LENT_SECONDS, default 540 s from the start),
# so that the call ends inside the device tool's limit with the later steps
# cut short rather than the whole output lost; order them by what matters.
# Usage there, from the repository root: bash scripts/lent-machine.sh
# [steps...] (default: all, in the order above).
set -uo pipefail
out=${OUT:-/tmp/lent-out}
mkdir -p "$out"
start=$SECONDS
deadline=$((start + ${LENT_SECONDS:-540}))
source .gpu/run.sh > "$out/host.txt" 2>&1 || { cat "$out/host.txt"; exit 1; }
py=/usr/bin/python3
steps=${*:-host cpu gpu-bench lit threads paired v3 rowbound}
step() { # NAME SECONDS COMMAND... (appends to NAME.txt)
  local name=$1 limit=$2 left=$((deadline - SECONDS))
  shift 2
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -lt 10 ]; then
    echo "== $name skipped: the deadline" | tee -a "$out/$name.txt"
    return
  fi
  echo "== $name (limit ${limit}s) $(date +%T)"
  echo "== $* (limit ${limit}s)" >> "$out/$name.txt"
  timeout "$limit" "$@" >> "$out/$name.txt" 2>&1
  echo "   exit $? after $((SECONDS - start))s"
  tail -n 2 "$out/$name.txt"
}
for s in $steps; do
  case $s in
    host) step host 30 bash -c 'lscpu; grep -o "avx512[a-z]*" /proc/cpuinfo | sort -u | tr "\n" " "; echo;
      nvidia-smi; command -v g++; g++ --version | head -1; python3 --version;
      python3 -c "import torch, numpy; print(torch.__version__, numpy.__version__)";
      build/bin/gather-run --print-target' ;;
    cpu) step cpu-t2 120 $py bench/run.py --runs 15 --rounds 2 --threads 2 ;;
    gpu-bench) step gpu-bench 120 $py bench/gpu.py --runs 30 --rounds 2 ;;
    gpu-dynamic) step gpu-bench 120 $py bench/gpu.py --runs 30 --rounds 2 --policies error,dynamic,unchecked ;;
    lit) step lit 220 /usr/lib/llvm-22/bin/lit -s -j16 --filter-out Install --time-tests build/test ;;
    threads) for t in 1 4 8 16; do
        step threads 45 $py bench/run.py --runs 9 --rounds 1 --threads $t --only W1,W2,W3,W4,W5,W7,W8
      done ;;
    paired) step paired 120 $py bench/paired.py --calls 30 --torch ;;
    paired-threads) for t in 1 4 8 16; do
        step paired 60 $py bench/paired.py --calls 30 --threads $t --torch
      done ;;
    w5-threads) for e in prefetch_offset_tables=1 L1_cache_size_in_bytes=24576 L1_cache_size_in_bytes=196608; do
        step ab 40 $py bench/target_ab.py --threads 16 --only W5,W5x64 --calls 60 --entry $e
      done ;;
    cores-ab) for t in 16 8; do
        step ab 60 $py bench/target_ab.py --threads $t --calls 40 --entry cores=4
      done ;;
    cores-paired) step paired 60 $py bench/paired.py --calls 30 --threads 16 --entry cores=4 ;;
    c-threads) for t in 16 8 4; do
        step c 45 $py bench/paired.py --from-c --calls 60 --threads $t
      done ;;
    w5-warm) for w in 1 3 10; do
        step paired 40 $py bench/paired.py --calls 40 --threads 16 --only W5,W5x64 --warm $w
      done ;;
    serial) step serial 120 $py bench/serial_threshold.py --threads 2,4,8,16 --calls 200 \
        --kib 48,96,192,384,768,1536,3072 ;;
    w7-distance) for t in 1 2 16; do for e in 32 512; do
        step ab 30 $py bench/target_ab.py --only W7,W1 --threads $t --calls 30 --entry prefetch_lines_ahead=$e
      done; done ;;
    distance) for t in 1 2 16; do for e in 32 64; do
        step ab 40 $py bench/target_ab.py --threads $t --calls 30 --entry prefetch_lines_ahead=$e
      done; done ;;
    distance-paired) step paired 60 $py bench/paired.py --calls 30 --threads 16 --torch \
        --entry prefetch_lines_ahead=32 ;;
    lit-threads) step lit 60 /usr/lib/llvm-22/bin/lit -v build/test/Python build/test/CAPI \
        build/test/Integration/parallel-cores.py ;;
    lit-arch) step lit 60 /usr/lib/llvm-22/bin/lit -v --filter other-architectures build/test ;;
    v3) grep -q avx512f /proc/cpuinfo &&
      step cpu-v3 90 $py bench/run.py --runs 15 --rounds 2 --threads 2 --target x86-64-v3 ;;
    sweep) step sweep 60 bash -c 'g++ -O3 -march=native -fopenmp bench/streaming_sweep.cpp -o /tmp/sweep &&
      OMP_NUM_THREADS=2 /tmp/sweep 8388608 && OMP_NUM_THREADS=1 /tmp/sweep 8388608' ;;
    ab) for e in L3_cache_size_in_bytes=8388608 L3_cache_size_in_bytes=16777216 max_vector_op_width=256 L1_cache_size_in_bytes=32768 \
        L2_cache_size_in_bytes=524288 prefetch_offset_tables=0; do
        step ab 40 $py bench/target_ab.py --entry $e --calls 30
      done ;;
    fused) step fused 90 $py bench/fused.py --device gpu --runs 20 --rounds 2 ;;
    fused-bag) step fused 90 $py bench/fused.py --device gpu --workload bag --runs 20 --rounds 2 ;;
    offsets-bag) step fused 90 $py bench/fused.py --device gpu --workload offsets-bag --runs 20 --rounds 2 ;;
    gpu-launches) step gpu-bench 90 $py bench/gpu.py --runs 20 --rounds 1 --launches 20 ;;
    rowbound) step rowbound 40 bash -c 'g++ -O3 -march=native -fopenmp bench/row_copy_bound.cpp -o /tmp/rowbound &&
      OMP_NUM_THREADS=2 /tmp/rowbound 15 2' ;;
  esac
done
echo "done after $((SECONDS - start))s"
