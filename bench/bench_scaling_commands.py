"""n → 4n time of every reader and command (issue 33): each run is a separate
`python -m benchreport` process, as CI runs it, best of --repeat runs. A linear
path shows a ratio near 4x; the target is at most 6x; a quadratic one shows 16x.

Run: PYTHONPATH=build/<dir>/python python3 bench/bench_scaling_commands.py [--only NAME] [--repeat 2]
Prints a Markdown table (bench/RESULTS-hardening.md, "Readers and commands").
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List

import numpy as np


def _values(rng: np.random.Generator, n: int) -> List[str]:
    return [f"{v:.6g}" for v in rng.normal(100.0, 1.0, n)]


def go_custom_units(folder: Path, n: int) -> List[str]:
    """One Go file with n benchmarks, each reporting its own custom unit."""
    rng = np.random.default_rng(1)
    lines = ["goos: linux", "goarch: amd64", "pkg: x"]
    for i, v in enumerate(_values(rng, n)):
        lines.append(f"BenchmarkB{i}-2 \t 100 \t {v} ns/op \t {v} u{i}/op")
    (folder / "go.txt").write_text("\n".join(lines) + "\n")
    return ["summary", str(folder / "go.txt"), "--input-format", "go", "--format", "csv"]


def csv_custom_units(folder: Path, n: int) -> List[str]:
    rng = np.random.default_rng(2)
    rows = [f"b{i},custom:u{i},{v}" for i, v in enumerate(_values(rng, n))]
    (folder / "u.csv").write_text("benchmark,unit,value\n" + "\n".join(rows) + "\n")
    return ["summary", str(folder / "u.csv"), "--format", "csv"]


def json_sets(folder: Path, n: int) -> List[str]:
    sets = [{"labels": {"benchmark": f"b{i}"}, "unit": "ms", "values": [1.0, 2.0, 3.0]} for i in range(n)]
    (folder / "s.json").write_text(json.dumps({"schema": "benchreport/1", "sets": sets}))
    return ["summary", str(folder / "s.json"), "--format", "csv"]


def hyperfine(folder: Path, n: int) -> List[str]:
    results = [{"command": f"c{i}", "times": [0.1, 0.2, 0.3]} for i in range(n)]
    (folder / "h.json").write_text(json.dumps({"results": results}))
    return ["summary", str(folder / "h.json"), "--format", "csv"]


def google_benchmark(folder: Path, n: int) -> List[str]:
    rows = [{"name": f"BM_{i}", "run_name": f"BM_{i}", "run_type": "iteration", "iterations": 1,
             "real_time": 10.0 + i % 7, "cpu_time": 10.0, "time_unit": "ns"} for i in range(n)]
    (folder / "g.json").write_text(json.dumps({"context": {}, "benchmarks": rows}))
    return ["summary", str(folder / "g.json"), "--format", "csv"]


def bmf(folder: Path, n: int) -> List[str]:
    (folder / "b.json").write_text(json.dumps({f"b{i}": {"latency": {"value": 1.0 + i}} for i in range(n)}))
    return ["summary", str(folder / "b.json"), "--input-format", "bmf", "--format", "csv"]


def compare_process_files(folder: Path, n: int) -> List[str]:
    """n process files per side, 5 benchmarks × 5 samples each."""
    rng = np.random.default_rng(3)
    for side in ("base", "head"):
        (folder / side).mkdir()
        for p in range(n):
            rows = [f"b{b},ms,{v}" for b in range(5) for v in _values(rng, 5)]
            (folder / side / f"{side}-{p}.csv").write_text("benchmark,unit,value\n" + "\n".join(rows) + "\n")
    return ["compare", "--base", str(folder / "base" / "*.csv"), "--head", str(folder / "head" / "*.csv"),
            "--resamples", "200", "--format", "json", "--quiet"]


def compare_cases(folder: Path, n: int) -> List[str]:
    """n cases, 10 samples per side."""
    rng = np.random.default_rng(4)
    for side in ("base", "head"):
        rows = [f"b{i},ms,{v}" for i in range(n) for v in _values(rng, 10)]
        (folder / f"{side}.csv").write_text("benchmark,unit,value\n" + "\n".join(rows) + "\n")
    return ["compare", str(folder / "base.csv"), str(folder / "head.csv"), "--resamples", "200", "--format", "json"]


def matrix_columns(folder: Path, n: int) -> List[str]:
    """One row × n columns."""
    rows = [f"r0,c{i},ms,{1.0 + i % 13}" for i in range(n)]
    (folder / "m.csv").write_text("row,col,unit,value\n" + "\n".join(rows) + "\n")
    return ["matrix", str(folder / "m.csv"), "--rows", "row", "--cols", "col", "--format", "markdown", "--budget", "0"]


def _history_file(folder: Path, n: int) -> Path:
    """One case over n commits (one sample each) with a 20 % step every 100 commits (n/100 change
    points; E-divisive's bisection peels them off the long segment one at a time)."""
    rng = np.random.default_rng(5)
    values = [f"{v * (1.2 if (c // 100) % 2 else 1.0):.6g}" for c, v in enumerate(rng.normal(100.0, 1.0, n))]
    rows = [f"a,{c},ms,{v}" for c, v in enumerate(values)]
    (folder / "h.csv").write_text("benchmark,commit,unit,value\n" + "\n".join(rows) + "\n")
    return folder / "h.csv"


def history_e_divisive(folder: Path, n: int) -> List[str]:
    """--screen-p-value 0: every test permutes, up to the permutation budget (max_permutation_pairs)."""
    return ["history", str(_history_file(folder, n)), "--order", "commit", "--method", "e-divisive",
            "--screen-p-value", "0", "--format", "json"]


def history_steps(folder: Path, n: int) -> List[str]:
    return ["history", str(_history_file(folder, n)), "--order", "commit", "--format", "json"]


CASES = [
    ("read Go, distinct custom units", go_custom_units, 20000),
    ("read canonical CSV, distinct custom units", csv_custom_units, 20000),
    ("read canonical JSON, sets", json_sets, 20000),
    ("read hyperfine, commands", hyperfine, 40000),
    ("read Google Benchmark, rows", google_benchmark, 40000),
    ("read BMF, benchmarks", bmf, 40000),
    ("compare, process files per side", compare_process_files, 1000),
    ("compare, cases", compare_cases, 20000),
    ("matrix, 1 row × columns", matrix_columns, 8000),
    ("history --method e-divisive --screen-p-value 0, commits", history_e_divisive, 1000),
    ("history (steps, the default method), commits", history_steps, 1000),
]


def seconds(argv: List[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        ran = subprocess.run([sys.executable, "-m", "benchreport", *argv], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if ran.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)}: exit {ran.returncode}: {ran.stderr.strip()}")
        best = min(best, elapsed)
    return best


def measure(make: Callable[[Path, int], List[str]], n: int, repeat: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        return seconds(make(Path(tmp), n), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run the cases whose title contains this text")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    # the interpreter and import, paid by every process: shown, and subtracted in the last column
    start_up = seconds(["--version"], args.repeat)
    print(f"Start-up (`python -m benchreport --version`, best of {args.repeat}): {start_up:.2f} s.\n")
    print("| path | n | time | 4n | time | ratio | ratio without start-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for title, make, n in CASES:
        if args.only and args.only not in title:
            continue
        a, b = measure(make, n, args.repeat), measure(make, 4 * n, args.repeat)
        net = (b - start_up) / (a - start_up) if a - start_up > 0.2 * a else float("nan")
        net_text = f"{net:.1f}x" if net == net else "(start-up dominates)"
        print(f"| {title} | {n} | {a:.2f} s | {4 * n} | {b:.2f} s | {b / a:.1f}x | {net_text} |", flush=True)


if __name__ == "__main__":
    main()
