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
rm -rf "$tmp"
