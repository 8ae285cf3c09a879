#!/bin/sh
# Builds gbench_sort.cpp twice with Debian's libbenchmark-dev (std::sort, and
# insertion sort with -DQUADRATIC_SORT) and writes three processes per side.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../google_benchmark/scaling"
tmp=$(mktemp -d)
mkdir -p "$out"
g++ -O2 -std=c++17 "$here/gbench_sort.cpp" -o "$tmp/base" -lbenchmark -lpthread
g++ -O2 -std=c++17 -DQUADRATIC_SORT "$here/gbench_sort.cpp" -o "$tmp/head" -lbenchmark -lpthread
for p in 1 2 3; do
  for side in base head; do
    "$tmp/$side" --benchmark_repetitions=5 --benchmark_min_time=0.05 \
      --benchmark_out="$out/$side-$p.json" --benchmark_format=json --benchmark_out_format=json > /dev/null
  done
done
rm -rf "$tmp"
