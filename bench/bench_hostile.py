"""Reading time of input shaped to hit quadratic paths (wide label sets, many
runs, many sparse label columns): each shape at two sizes, side by side, with
the time ratio. A linear reader shows a ratio near the size ratio (4x); a
quadratic one near its square (16x). Each shape is measured in --repeat rounds (each
time the best of 5 reads at n and at 4n): the table shows the median round and the
spread of the ratio over the rounds, since the ratio moves with the machine's load.

Run: PYTHONPATH=build/<dir>/python python3 bench/bench_hostile.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import time

import benchreport as br


def wide_labels(n: int) -> bytes:
    """n label columns (within kMaxLabelColumns = 256), 400 sets."""
    header = ",".join(f"c{i}" for i in range(n)) + ",unit,value\n"
    rows = "".join(",".join(f"x{r}" for _ in range(n)) + ",s,1\n" for r in range(400))
    return (header + rows).encode()


def many_runs(n: int) -> bytes:
    runs = [{"id": f"r{i}", "metadata": {}} for i in range(n)]
    sets = [{"labels": {"b": "x"}, "unit": "s", "values": [1], "run": f"r{i}"} for i in range(n)]
    return json.dumps({"schema": "benchreport/1", "runs": runs, "sets": sets}).encode()


def many_sets(n: int) -> bytes:
    sets = [{"labels": {"b": f"x{i}", "p": str(i % 7)}, "unit": "s", "values": [1, 2]} for i in range(n)]
    return json.dumps({"schema": "benchreport/1", "sets": sets}).encode()


def wide_header(n: int) -> bytes:
    """A CSV header of n columns (refused at the label-column limit; the check must stay linear)."""
    return (",".join(f"c{i}" for i in range(n)) + ",unit,value\n" + ",".join("x" for _ in range(n)) + ",s,1\n").encode()


def many_counters(n: int) -> bytes:
    """One Google Benchmark row with n user counters (each becomes a set)."""
    counters = "".join(f',"k{i}":{i}' for i in range(n))
    row = ('{"name":"BM_x","run_name":"BM_x","run_type":"iteration","iterations":1,"real_time":1,'
           '"cpu_time":1,"time_unit":"ns"' + counters + "}")
    return ('{"context":{},"benchmarks":[' + row + "]}").encode()


SHAPES = [("wide CSV header (refused at the limit)", wide_header, "header.csv", 25000, 100000),
          ("Google Benchmark row with many counters", many_counters, "counters.json", 25000, 100000),
          ("wide label sets (CSV, 400 rows)", wide_labels, "wide.csv", 60, 240),
          ("many runs (canonical JSON)", many_runs, "runs.json", 5000, 20000),
          ("many sets (canonical JSON)", many_sets, "sets.json", 20000, 80000)]


def seconds(data: bytes, name: str) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        try:
            br.read_bytes(data, name)
        except br.InputError:
            pass  # a limit refusing the input quickly is a fine outcome too
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"| shape | n | time | 4n | time | ratio (4x = linear), median of {args.repeat} | ratio range |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for title, make, name, small, large in SHAPES:
        a_data, b_data = make(small), make(large)
        rounds = []  # (ratio, time at n, time at 4n), one per round
        for _ in range(args.repeat):
            a, b = seconds(a_data, name), seconds(b_data, name)
            rounds.append((b / a, a, b))
        rounds.sort()
        ratio, a, b = rounds[len(rounds) // 2]
        print(f"| {title} | {small} | {a * 1e3:.1f} ms | {large} | {b * 1e3:.1f} ms | {ratio:.1f}x | "
              f"{rounds[0][0]:.1f}-{rounds[-1][0]:.1f}x |")

if __name__ == "__main__":
    main()
