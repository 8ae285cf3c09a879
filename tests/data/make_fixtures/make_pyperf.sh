#!/bin/sh
# Runs the real pyperf (PyPI) with few processes and values to keep the fixture small.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../pyperf"
rm -f "$out/two_benchmarks.json"
python3 "$here/pyperf_fixture.py" -p 3 -n 4 -w 1 --min-time 0.001 -q -o "$out/two_benchmarks.json"
gzip -c "$out/two_benchmarks.json" > "$out/two_benchmarks.json.gz"
