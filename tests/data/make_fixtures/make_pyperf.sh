#!/bin/sh
# Runs the real pyperf (PyPI) with few processes and values to keep the fixtures small.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../pyperf"
rm -f "$out/two_benchmarks.json" "$out/timeit.json" "$out/appended.json"
# A Runner suite: each benchmark's name in its own metadata.
python3 "$here/pyperf_fixture.py" -p 3 -n 4 -w 1 --min-time 0.001 -q -o "$out/two_benchmarks.json"
gzip -c "$out/two_benchmarks.json" > "$out/two_benchmarks.json.gz"
# `pyperf timeit -o`: one benchmark whose name ("timeit") is in the file-level metadata.
python3 -m pyperf timeit -p 3 -n 4 -w 1 --min-time 0.001 -q -o "$out/timeit.json" -s "data = list(range(50))" "sorted(data)"
# `--append`: the same name twice (its runs merged into one benchmark), then a second name.
for name in sorted_reverse sorted_reverse; do
  python3 -m pyperf timeit -p 2 -n 3 -w 1 --min-time 0.001 -q --name "$name" --append "$out/appended.json" \
    -s "data = list(range(50))[::-1]" "sorted(data)"
done
python3 -m pyperf timeit -p 2 -n 3 -w 1 --min-time 0.001 -q --name join_small --append "$out/appended.json" \
  -s "data = [str(i) for i in range(20)]" "','.join(data)"
# The suite with every object's members in reverse order (pyperf writes them sorted; JSON
# leaves order free and `pyperf show` reads this file): "metadata" after "runs".
python3 - "$out/two_benchmarks.json" "$out/reordered.json" <<'PY'
import json, sys

def reverse(value):
    if isinstance(value, dict):
        return {k: reverse(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reverse(v) for v in value]
    return value

with open(sys.argv[1]) as f:
    doc = json.load(f)
with open(sys.argv[2], "w") as f:
    json.dump(reverse(doc), f)
PY
python3 -m pyperf show "$out/reordered.json" > /dev/null
