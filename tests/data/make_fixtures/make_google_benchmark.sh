#!/bin/sh
# Builds the tiny benchmark with Debian's libbenchmark-dev and writes the fixture.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../google_benchmark"
tmp=$(mktemp -d)
g++ -O2 -std=c++17 "$here/gbench_fixture.cpp" -o "$tmp/gbench" -lbenchmark -lpthread
"$tmp/gbench" --benchmark_repetitions=5 --benchmark_min_time=0.002 \
  --benchmark_out="$out/repetitions.json" --benchmark_out_format=json > /dev/null
"$tmp/gbench" --benchmark_min_time=0.002 --benchmark_filter=BM_Counter \
  --benchmark_out="$out/single.json" --benchmark_out_format=json > /dev/null
g++ -O2 -std=c++17 "$here/gbench_aggregates_fixture.cpp" -o "$tmp/gbench_aggregates" -lbenchmark -lpthread
"$tmp/gbench_aggregates" --benchmark_repetitions=3 --benchmark_min_time=0.002 \
  --benchmark_out="$out/some_aggregates_only.json" --benchmark_out_format=json > /dev/null
g++ -O2 -std=c++17 -DALL_SAMPLES "$here/gbench_aggregates_fixture.cpp" -o "$tmp/gbench_all" -lbenchmark -lpthread
"$tmp/gbench_all" --benchmark_repetitions=3 --benchmark_min_time=0.002 \
  --benchmark_out="$out/all_samples.json" --benchmark_out_format=json > /dev/null
# The whole run with --benchmark_report_aggregates_only=true: no samples at all.
"$tmp/gbench" --benchmark_repetitions=3 --benchmark_min_time=0.002 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/aggregates_only.json" --benchmark_out_format=json > /dev/null
rm -rf "$tmp"
