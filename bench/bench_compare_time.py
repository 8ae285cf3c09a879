"""Time of br.compare_many on 10 000 cases with 5 processes per side (10 samples each), this
build against another build's module (--before PATH, run in a child process in the same run,
alternating), best of --repeat. Issue 31's budget: the moderated comparison within 1.2x.

Run: PYTHONPATH=build/dev/python python3 bench/bench_compare_time.py [--before OLD/python] [--cases 10000]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def workload(cases, k=5, n=10, seed=3):
    g = np.random.default_rng(seed)
    out = {}
    for c in range(cases):
        sides = []
        for r in (1.0, 1.0 + 0.1 * (c % 10 == 0)):
            sides.append([r * g.lognormal(0, 0.03) * g.lognormal(0, 0.01, n) for _ in range(k)])
        out[f"case{c:05d}"] = tuple(sides)
    return out


def run(cases, threads, repeat):
    import benchreport as br
    data = workload(cases)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = br.compare_many(data, threads=threads, resamples=1000)
        best = min(best, time.perf_counter() - t0)
    verdicts = {}
    for r in res:
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    return best, verdicts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", help="PYTHONPATH of the build to compare against")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run(args.cases, args.threads, args.repeat)))
        return

    def child(path):
        env = dict(os.environ, PYTHONPATH=path)
        out = subprocess.run([sys.executable, __file__, "--child", "--cases", str(args.cases), "--threads",
                              str(args.threads), "--repeat", "1"], env=env, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    this = os.environ.get("PYTHONPATH", "build/dev/python")
    times = {"this": [], "before": []}
    for _ in range(args.repeat):
        t, v_this = child(this)
        times["this"].append(t)
        if args.before:
            t, v_before = child(args.before)
            times["before"].append(t)
    print(f"{args.cases} cases x 5 processes x 10 samples per side, {args.threads} threads, best of {args.repeat} "
          f"(alternating child processes); load average {os.getloadavg()[0]:.1f}")
    print(f"this build: {min(times['this']):.3f} s  verdicts {v_this}")
    if args.before:
        print(f"before ({args.before}): {min(times['before']):.3f} s  verdicts {v_before}")
        print(f"ratio this / before: {min(times['this']) / min(times['before']):.2f}x (budget 1.2x)")


if __name__ == "__main__":
    main()
