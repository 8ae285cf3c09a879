#!/bin/sh
# Runs the real pytest-benchmark (PyPI). --benchmark-json always includes the
# raw rounds (stats.data); a file saved with --benchmark-save but without
# --benchmark-save-data has none, which the reader must reject clearly.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../pytest_benchmark"
tmp=$(mktemp -d)
opts="-q -p no:cacheprovider --benchmark-min-rounds=5 --benchmark-max-time=0.001 --benchmark-warmup=off"
python3 -m pytest $opts --benchmark-json="$out/with_data.json" "$here/pytest_benchmark_fixture.py" > /dev/null
python3 -m pytest $opts --benchmark-save=nodata --benchmark-storage="file://$tmp" "$here/pytest_benchmark_fixture.py" -k join > /dev/null
cp "$(find "$tmp" -name '*nodata.json' | head -1)" "$out/no_data.json"
rm -rf "$tmp"
