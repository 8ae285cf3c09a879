"""Speed of comparisons with the process as the unit (issue 12), side by side in one run.

(1) One case of 100 000 samples per side in 4 processes (lognormal, seeded):
    `br.compare_samples(base_processes, head_processes)` against one `numpy.median`
    over the same 200 000 samples (and over one side's 100 000), in process, best of
    --repeat.
(2) `benchreport compare --base B1 B2 B3 --head H1 H2 H3` on six Google Benchmark
    JSON files (one process each, 3 per side; --cases benchmarks x --reps repetitions
    per file, ~100 000 samples in all) against Google Benchmark's own
    `compare.py benchmarks BASE HEAD` on the same samples (each side's three
    processes written as one file, since compare.py takes one file per side);
    each a process under /usr/bin/time -v, best of --repeat.

Run: PYTHONPATH=build/dev/python python3 bench/bench_compare_speed.py [--repeat 3]
compare.py is Debian's libbenchmark-tools (/usr/share/benchmark/compare.py; needs scipy).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import timed  # noqa: E402  (one /usr/bin/time -v helper for every bench script)

import benchreport as br  # noqa: E402

COMPARE_PY = Path("/usr/share/benchmark/compare.py")


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def one_large_case(repeat, samples=100_000, processes=4, seed=12):
    rng = np.random.default_rng(seed)
    per = samples // processes
    base = [1e-6 * rng.lognormal(0, 0.01) * rng.lognormal(0, 0.02, per) for _ in range(processes)]
    head = [1.02e-6 * rng.lognormal(0, 0.01) * rng.lognormal(0, 0.02, per) for _ in range(processes)]
    both = np.concatenate(base + head)
    one_side = np.concatenate(base)
    ours = best(lambda: br.compare_samples(base, head), repeat)
    median_both = best(lambda: np.median(both), max(repeat, 5))
    median_side = best(lambda: np.median(one_side), max(repeat, 5))
    result = br.compare_samples(base, head)
    return [
        f"| compare_samples, 1 case, {samples} samples/side in {processes} processes | {ours:.4f} s | "
        f"numpy.median of the {2 * samples} samples: {median_both:.4f} s | **{ours / median_both:.1f}x** |",
        f"| | | numpy.median of one side ({samples}): {median_side:.4f} s | {ours / median_side:.1f}x |",
    ], f"verdict {result.verdict}, interval {result.change_ci_method}, change {100 * result.change:+.2f}%"


def gbench_rows(rng, cases, reps, level):
    rows = []
    for c in range(cases):
        offset = rng.lognormal(0, 0.01)
        for r in range(reps):
            t = 1000 * (1 + c % 7) * level[c] * offset * rng.lognormal(0, 0.02)
            rows.append({"name": f"BM_Case/{c}", "family_index": c, "per_family_instance_index": 0,
                         "run_name": f"BM_Case/{c}", "run_type": "iteration", "repetitions": reps,
                         "repetition_index": r, "threads": 1, "iterations": 1000,
                         "real_time": t, "cpu_time": t, "time_unit": "ns"})
    return rows


def write_gbench(path, rows):
    context = {"date": "2026-12-02T00:00:00+00:00", "host_name": "bench", "executable": "./bench",
               "num_cpus": 2, "mhz_per_cpu": 2000, "cpu_scaling_enabled": False, "caches": [],
               "load_avg": [0.0], "library_build_type": "release"}
    Path(path).write_text(json.dumps({"context": context, "benchmarks": rows}, indent=2), encoding="utf-8")


def six_files(tmp, repeat, cases, reps, seed=34):
    rng = np.random.default_rng(seed)
    levels = {"base": np.ones(cases), "head": 1 + 0.1 * (rng.random(cases) < 0.1)}
    files = {"base": [], "head": []}
    merged = {}
    for side in ("base", "head"):
        all_rows = []
        for p in range(3):
            rows = gbench_rows(rng, cases, reps, levels[side])
            path = tmp / f"{side}{p}.json"
            write_gbench(path, rows)
            files[side].append(str(path))
            all_rows += rows
        merged[side] = tmp / f"{side}_all.json"
        write_gbench(merged[side], all_rows)
    samples = 6 * cases * reps
    ours_argv = [sys.executable, "-m", "benchreport", "compare", "--base", *files["base"], "--head", *files["head"],
                 "--format", "json", "-o", str(tmp / "report.json"), "--quiet"]
    peer_argv = [sys.executable, str(COMPARE_PY), "benchmarks", str(merged["base"]), str(merged["head"])]
    ours = min(timed(ours_argv) for _ in range(repeat))
    rows = [f"| benchreport compare, 6 Google Benchmark files ({samples} samples, {cases} cases, 3 processes/side) | "
            f"{ours[0]:.2f} s, {ours[1]:.0f} MiB |"]
    if COMPARE_PY.exists():
        peer = min(timed(peer_argv) for _ in range(repeat))
        rows[0] += f" compare.py benchmarks (same samples, one file per side): {peer[0]:.2f} s, {peer[1]:.0f} MiB | " \
                   f"**{peer[0] / ours[0]:.2f}x** |"
    else:
        rows[0] += " compare.py not installed (apt-get install libbenchmark-tools) | - |"
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--reps", type=int, default=167)
    a = ap.parse_args()
    print("| work | benchreport | reference | ratio |")
    print("|---|---:|---|---:|")
    large, detail = one_large_case(a.repeat)
    print("\n".join(large))
    with tempfile.TemporaryDirectory() as tmp:
        print("\n".join(six_files(Path(tmp), a.repeat, a.cases, a.reps)))
    print(f"\nratio: (1) benchreport / numpy.median (target <= 20x); (2) compare.py / benchreport (target > 1x). "
          f"Large case: {detail}. os.cpu_count() = {os.cpu_count()}.")


if __name__ == "__main__":
    main()
