#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each one for
# FUZZ_SECONDS (default 10) on a seed corpus made from tests/data. Exits
# non-zero when any target finds a crash, a leak, a timeout or a broken
# invariant; the offending input is left in $FUZZ_WORK/artifacts/<target>/.
# Longer runs: FUZZ_SECONDS=3600 FUZZ_JOBS=2 bash scripts/fuzz.sh [target...]
#
# The seed is fixed (FUZZ_SEED, default 1) and the corpus starts from the same
# files, so a run replays the same sequence of inputs on every machine: a short
# CI run explores a prefix of what a longer local run with the same seed has
# already explored. FUZZ_SEED=0 lets libFuzzer pick a seed (for exploration).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-65536}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}     # seconds for one input before it counts as a hang
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_SEED=${FUZZ_SEED:-1}
FUZZ_WORK=${FUZZ_WORK:-$BUILD/work}
CXX_COMPILER=${CXX_COMPILER:-clang++}

# clang and its libFuzzer/sanitizer runtimes come from Debian (plus the core's own deps).
bash scripts/setup.sh clang libclang-rt-14-dev

# -O1 with line tables: quick to compile, symbolised stack traces, the usual fuzzing trade-off.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DBENCHREPORT_FUZZ=ON -DBENCHREPORT_PYTHON=OFF -DBENCHREPORT_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j "${BUILD_JOBS:-$(nproc)}"

# Which files of tests/data seed which target (the auto target gets all of them).
seed_globs() {
  case "$1" in
    fuzz_canonical_json) echo "tests/data/canonical/*.json tests/data/hostile/*.json" ;;
    fuzz_canonical_csv) echo "tests/data/canonical/*.csv tests/data/hostile/*.csv" ;;
    fuzz_google_benchmark | fuzz_google_benchmark_split) echo "tests/data/google_benchmark/*.json" ;;
    fuzz_hyperfine) echo "tests/data/hyperfine/*.json" ;;
    fuzz_pyperf) echo "tests/data/pyperf/*" ;;
    fuzz_pytest_benchmark) echo "tests/data/pytest_benchmark/*" ;;
    fuzz_go) echo "tests/data/go/*" ;;
    fuzz_nitro) echo "tests/data/nitro/* tests/data/nitro/*/* examples/nitro/*/*.json" ;;
    fuzz_criterion) echo "tests/data/criterion/* tests/data/criterion/*/*" ;;
    fuzz_zfh) echo "tests/data/zfh/* examples/zfh/*" ;;
    fuzz_bmf) echo "tests/data/bmf/*.json" ;;
    fuzz_auto) echo "tests/data/*/* tests/data/*/*/*" ;;
    *) echo "" ;;
  esac
}

# Seeds are copied (not referenced) so the fuzzer may add to the corpus freely.
make_corpus() {
  local target=$1 dir=$FUZZ_WORK/corpus/$1
  # A fixed seed only replays the same inputs from the same starting corpus.
  if [ "$FUZZ_SEED" != 0 ]; then rm -rf "$dir"; fi
  mkdir -p "$dir"
  local glob file
  for glob in $(seed_globs "$target"); do
    for file in $glob; do
      [ -f "$file" ] || continue
      [ "$(stat -c %s "$file")" -le "$FUZZ_MAX_LEN" ] || continue
      if [ "$target" = fuzz_auto ]; then
        # fuzz_auto's first byte picks the file name; 0 = results.json, 1 = results.csv.
        case "$file" in *.csv) prefix='\x01' ;; *) prefix='\x00' ;; esac
        { printf "$prefix"; cat "$file"; } >"$dir/seed-$(echo "$file" | tr '/' '_')"
      else
        cp "$file" "$dir/seed-$(echo "$file" | tr '/' '_')"
      fi
    done
  done
  # Earlier findings stay in the corpus so every run retries them.
  if [ -d "tests/data/fuzz_regressions/$target" ]; then cp tests/data/fuzz_regressions/"$target"/* "$dir"/ 2>/dev/null || true; fi
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$BUILD"/fuzz_*; do [ -x "$exe" ] && targets+=("$(basename "$exe")"); done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Parallel workers only when asked: with -jobs libFuzzer moves output into fuzz-N.log files.
parallel=()
if [ "$FUZZ_JOBS" -gt 1 ]; then parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
failed=()
for target in "${targets[@]}"; do
  make_corpus "$target"
  mkdir -p "$FUZZ_WORK/artifacts/$target"
  log=$FUZZ_WORK/$target.log
  echo "== $target: ${FUZZ_SECONDS}s"
  if "$BUILD/$target" "$FUZZ_WORK/corpus/$target" -max_total_time="$FUZZ_SECONDS" -max_len="$FUZZ_MAX_LEN" \
      -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" -seed="$FUZZ_SEED" "${parallel[@]}" \
      -print_final_stats=1 -artifact_prefix="$FUZZ_WORK/artifacts/$target/" >"$log" 2>&1; then
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | tr '\n' ' ' || true
    echo
  else
    echo "!! $target failed; log: $log; inputs: $FUZZ_WORK/artifacts/$target/"
    grep -E "ERROR|invariant|SUMMARY|Test unit written" "$log" | head -n 8 || true
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets clean"
