#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the structured fuzzer (utils/gather_fuzz.py) on every core for a given
# time: random valid and invalid gather IR and mutations of the lit corpus
# through every pass and pipeline, and random programs executed against
# numpy. Failing inputs are saved under $BUILD/fuzz-failures/.
# Usage: scripts/fuzz.sh [--minutes N | --inputs N] [--seed S] [--jobs J]
# --inputs N runs N inputs in all (split over the jobs) however long that
# takes, instead of as many as fit in the minutes.
# A sanitized build: GATHER_BUILD_DIR=build-sanitize scripts/fuzz.sh (made by
# scripts/sanitize.sh).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

minutes=10
inputs=0
seed=$RANDOM
jobs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --inputs) inputs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "usage: $0 [--minutes N | --inputs N] [--seed S] [--jobs J]" >&2; exit 2 ;;
  esac
done

if [ ! -x "$BUILD/bin/gather-opt" ] || [ ! -f "$BUILD/build.ninja" ]; then
  build_gather gather-opt gather-run gather_runtime GatherCAPI gather-python
else
  ninja -C "$BUILD" gather-opt gather-run gather_runtime GatherCAPI gather-python
fi

failures_dir="$BUILD/fuzz-failures"
rm -rf "$failures_dir" && mkdir -p "$failures_dir"
sanitizer_env=()
preload=$(sed -n 's/^config.gather_sanitizer_preload = "\(.*\)"$/\1/p' "$BUILD/test/lit.site.cfg.py" 2>/dev/null || true)
if [ -n "$preload" ]; then
  # The C API library is sanitized: Python needs the ASan runtime first.
  sanitizer_env=(LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0:halt_on_error=1
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
fi
if [ "$inputs" -gt 0 ]; then
  echo "== fuzzing $inputs inputs with $jobs jobs, seed $seed"
else
  echo "== fuzzing for $minutes minutes with $jobs jobs, seed $seed"
fi
pids=()
for ((j = 0; j < jobs; j++)); do
  if [ "$inputs" -gt 0 ]; then
    # Job j takes its share, the first jobs one more where it does not divide.
    amount=(--inputs $((inputs / jobs + (j < inputs % jobs ? 1 : 0))))
  else
    amount=(--minutes "$minutes")
  fi
  # The C API of the build being fuzzed (not the checkout's build/).
  env "${sanitizer_env[@]}" GATHER_CAPI_LIBRARY="$BUILD/lib/libGatherCAPI.so" \
    PYTHONPATH="$ROOT/python" /usr/bin/python3 "$ROOT/utils/gather_fuzz.py" \
    --bin "$BUILD/bin" "${amount[@]}" --seed $((seed * 1000 + j)) \
    --failures "$failures_dir/job$j" > "$failures_dir/job$j.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
grep -h "^FAIL" "$failures_dir"/job*.log || true
/usr/bin/python3 - "$failures_dir" <<'PY'
import glob, os, re, sys
totals = [0, 0, 0]
for log in glob.glob(sys.argv[1] + "/job*.log"):
    m = re.search(r"fuzz: (\d+) inputs .* (\d+) executed, (\d+) failures", open(log).read())
    if not m:
        print(f"{log}: no summary (the fuzzer itself failed)")
        inflight = log[:-len(".log")] + "/inflight.json"
        if os.path.exists(inflight):
            print(f"  it ended while executing a batch: utils/gather_fuzz.py --replay {inflight}")
        totals[2] += 1
        continue
    totals = [t + int(v) for t, v in zip(totals, m.groups())]
print(f"fuzz total: {totals[0]} inputs, {totals[1]} executed, {totals[2]} failures")
PY
exit $status
