#!/bin/sh
# A real commit series: a git repository of gbench_history.cpp with 20
# commits; commit 08 makes BM_Hash do three more rounds of work (about 4x),
# commit 15 reverts them. Every commit is built first (Debian's
# libbenchmark-dev), then the 20 binaries run back to back, 5 repetitions
# each, so that the host's speed drifts as little as possible between them.
# The JSON of commit N is NN-<short sha>.json: the names sort in commit order.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../google_benchmark/history"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rm -f "$out"/*.json
git -C "$tmp" init -q
cp "$here/gbench_history.cpp" "$tmp/bench.cpp"
for n in $(seq -w 1 20); do
  case $n in
    08) sed -i 's/kExtraRounds = 0;/kExtraRounds = 3;/' "$tmp/bench.cpp"; msg="hash: three more mixing rounds" ;;
    15) sed -i 's/kExtraRounds = 3;/kExtraRounds = 0;/' "$tmp/bench.cpp"; msg="hash: revert the extra rounds" ;;
    *) echo "// commit $n" >> "$tmp/bench.cpp"; msg="commit $n" ;;
  esac
  git -C "$tmp" add bench.cpp
  git -C "$tmp" -c user.name=fixture -c user.email=fixture@example.com commit -q -m "$msg"
  sha=$(git -C "$tmp" rev-parse --short=8 HEAD)
  g++ -O2 -std=c++17 "$tmp/bench.cpp" -o "$tmp/bench-$n-$sha" -lbenchmark -lpthread
done
for binary in "$tmp"/bench-*; do
  name=${binary##*/bench-}
  "$binary" --benchmark_repetitions=5 --benchmark_min_time=0.05 \
    --benchmark_out="$out/$name.json" --benchmark_format=json --benchmark_out_format=json > /dev/null
done
