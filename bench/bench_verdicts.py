"""Verdict calibration on simulated CI data: the process is the unit of inference.

Model (the audit's): per case, k process pairs per side, n samples per process;
sample = level * ratio * offset_p * lognormal(0, sigma_w), offset_p ~ lognormal(0, sigma_p)
independent per process and side; optional within-process drift: sample j of a
process is scaled by 1 + u * (j / (n - 1) - 1/2), u ~ U(-drift, +drift) per process.

For each sigma_p it reports, for the old pipeline (pooled medians, hierarchical
bootstrap BCa interval, old rule: |change| >= t and interval excluding 0) and the
new one (t interval on log process medians, CaseComparison.verdict):
A/A slower+faster rate, coverage of the 95 % change interval, and power (slower)
for a +10 % change. The new pipeline's FDR step is switched off here
(control_fdr=False) so the per-case rates are the worst case; with it on, A/A
false positives can only fall.

Usage: PYTHONPATH=build/dev/python python3 bench/bench_verdicts.py [--cases 2000] [--threads 2]
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

import benchreport as br


def simulate(rng, cases, k, n, sigma_w, sigma_p, ratio, drift):
    out = {}
    ramp = np.arange(n) / (n - 1) - 0.5
    for c in range(cases):
        sides = []
        for r in (1.0, ratio):
            procs = []
            for _ in range(k):
                x = r * rng.lognormal(0, sigma_p) * rng.lognormal(0, sigma_w, n)
                if drift:
                    x = x * (1 + rng.uniform(-drift, drift) * ramp)
                procs.append(x)
            sides.append(procs)
        out[f"c{c}"] = (sides[0], sides[1])
    return out


def old_verdict(r, base, head, resamples, t=0.05):
    """The pooled pipeline before process-level inference: hierarchical bootstrap BCa interval."""
    boot = br.bootstrap_median_ratio_ci(base, head, resamples=resamples)
    lo, hi = boot.bca
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo, hi = boot.percentile
    lo, hi = lo - 1, hi - 1
    gated = r.too_noisy or r.too_few_samples
    if abs(r.change) >= t:
        excl = lo > 0 if r.change > 0 else hi < 0
        if not gated and excl:
            return ("slower" if r.change > 0 else "faster"), lo, hi
        return "inconclusive", lo, hi
    return "other", lo, hi


def run(cases, sigma_p, ratio, drift, threads, seed, k=4, n=20, sigma_w=0.02, resamples=1000, pairing="auto"):
    rng = np.random.default_rng(seed)
    data = simulate(rng, cases, k, n, sigma_w, sigma_p, ratio, drift)
    res = br.compare_many(data, resamples=resamples, threads=threads, control_fdr=False, pairing=pairing)
    truth = ratio - 1
    old_claims = old_cover = new_claims = new_cover = old_slower = new_slower = 0
    for r, (base, head) in zip(res, data.values()):
        v, lo, hi = old_verdict(r, base, head, resamples)
        old_claims += v in ("slower", "faster")
        old_slower += v == "slower"
        old_cover += lo <= truth <= hi
        new_claims += r.verdict in ("slower", "faster")
        new_slower += r.verdict == "slower"
        nlo, nhi = r.change_ci
        new_cover += nlo <= truth <= nhi
    return dict(old_claims=old_claims / cases, old_cover=old_cover / cases, old_slower=old_slower / cases,
                new_claims=new_claims / cases, new_cover=new_cover / cases, new_slower=new_slower / cases)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--pairing", default="auto", help='"auto" (paired t: equal process counts) or "unpaired" (Welch)')
    a = ap.parse_args()
    t0 = time.time()
    print(f"k = 4 processes/side, n = 20 samples/process, sigma_w = 2 %, {a.cases} cases per row, seed {a.seed}, "
          f"pairing {a.pairing}")
    print()
    print("| sigma_p | drift | A/A slower+faster old | new | coverage 95 % old | new | power +10 % old | new |")
    print("|---|---|---|---|---|---|---|---|")
    for drift in (0.0, 0.03):
        for i, sp in enumerate((0.0, 0.01, 0.02, 0.03, 0.05)):
            aa = run(a.cases, sp, 1.0, drift, a.threads, a.seed + 10 * i + int(drift * 1000), pairing=a.pairing)
            pw = run(a.cases, sp, 1.10, drift, a.threads, a.seed + 10 * i + 5 + int(drift * 1000), pairing=a.pairing)
            print(f"| {100 * sp:.0f} % | ±{100 * drift:.0f} % | {100 * aa['old_claims']:.1f} % | "
                  f"{100 * aa['new_claims']:.1f} % | {100 * aa['old_cover']:.1f} % | {100 * aa['new_cover']:.1f} % | "
                  f"{100 * pw['old_slower']:.1f} % | {100 * pw['new_slower']:.1f} % |", flush=True)
    print(f"\n({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
