#!/usr/bin/env python3
"""The side-wide shift detector of the contamination flags (docs/statistics-comparison.md,
"Contamination") on simulated comparisons through ``br.compare``.

Model (the audit's of issue 31): n samples per process, lognormal within a process (1 %); a launch
factor exp(N(0, sigma_p)) per process and case, paired hosts sharing 75 % of it with the other side;
optionally sigma_p heterogeneous across cases (x exp(N(0, 0.5))). A/A: no change anywhere, so every
side-wide flag is a false alarm. Power: head process 1 moved by a common factor on every case.

Prints a Markdown table: per cell, the share of comparisons with a false side-wide flag (per
comparison, both sides) and the share where the planted shift was flagged on its process.

    PYTHONPATH=build/dev/python python3 bench/bench_contamination.py --reps 200 --seed 31
    (--k, --cases, --sigma narrow the grid)
"""
import argparse
import time
from typing import Dict, List, Tuple

import numpy as np

import benchreport as br

SHARE = 0.75  # paired hosts: share of the launch variance base and head have in common
N = 10        # samples per process


def one(rng: np.random.Generator, k: int, cases: int, sigma_p: float, hetero: bool, shift: float) -> Tuple[bool, bool]:
    """(any side-wide flag besides the planted one, the planted one flagged) for one comparison."""
    sp = sigma_p * (np.exp(rng.normal(0, 0.5, cases)) if hetero else np.ones(cases))
    base_f = rng.normal(0, 1, (cases, k)) * sp[:, None]
    head_f = np.sqrt(SHARE) * base_f + np.sqrt(1 - SHARE) * rng.normal(0, 1, (cases, k)) * sp[:, None]
    head_f[:, 0] += shift
    values: List[np.ndarray] = []
    labels: Dict[str, List[str]] = {"benchmark": [], "revision": [], "pair": []}
    for c in range(cases):
        for side, f in (("base", base_f), ("head", head_f)):
            for p in range(k):
                values.append(np.exp(np.log(1e-6 * (1 + c)) + f[c, p] + rng.normal(0, 0.01, N)))
                labels["benchmark"].append(f"case{c:03d}")
                labels["revision"].append(side)
                labels["pair"].append(str(p + 1))
    ds = br.Dataset.from_arrays(np.concatenate(values), np.arange(len(values) + 1) * N, labels)
    res = br.compare(ds, {"revision": "base"}, resamples=200)
    flags = {part.split(" at ")[0] for c in res.cases for part in c.comparison.contamination.split("; ")
             if "side-wide" in part}
    planted = f"head side-wide shift: process 1 of {k}"
    return bool(flags - {planted}), planted in flags


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200, help="comparisons per cell")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--k", type=int, nargs="+", default=[3, 5, 10], help="processes per side")
    ap.add_argument("--cases", type=int, nargs="+", default=[10, 40])
    ap.add_argument("--sigma", type=float, nargs="+", default=[0.02, 0.05, 0.10], help="launch noise sigma_p")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    print("| K | cases | sigma_p | sigma_p across cases | A/A false side-wide flag | flagged at +10 % | "
          "flagged at +20 % |")
    print("|---|---|---|---|---|---|---|")
    for k in args.k:
        for cases in args.cases:
            for sigma_p in args.sigma:
                for hetero in (False, True):
                    false = sum(one(rng, k, cases, sigma_p, hetero, 0.0)[0] for _ in range(args.reps))
                    power = [sum(one(rng, k, cases, sigma_p, hetero, np.log(1 + s))[1] for _ in range(args.reps // 2))
                             for s in (0.10, 0.20)]
                    half = args.reps // 2
                    print(f"| {k} | {cases} | {sigma_p:.0%} | {'x exp(N(0, 0.5))' if hetero else 'equal'} | "
                          f"{false / args.reps:.1%} | {power[0] / half:.0%} | {power[1] / half:.0%} |", flush=True)
    print(f"\nwall {time.perf_counter() - start:.0f} s, reps {args.reps}, seed {args.seed}")


if __name__ == "__main__":
    main()
