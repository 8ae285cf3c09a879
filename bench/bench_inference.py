"""Side-by-side timings of benchreport's inference kernels against scipy.

Run: PYTHONPATH=build/<dir>/python python3 bench/bench_inference.py [--quick] [--before OLD/python]

--before times the same bootstrap batch with another build's module (e.g. one
built from an earlier commit) in a child process during the same run, and
checks that its intervals are identical to this build's.

1. Bootstrap CI of median(head)/median(base): 100 cases x (20 vs 20) x 10 000
   resamples, benchreport (one call computes percentile and BCa) vs
   scipy.stats.bootstrap(vectorized=True, same B) per case, method="percentile"
   and method="BCa".
2. Mann-Whitney U (two-sided, auto) for 10 000 case pairs (20 vs 20):
   benchreport batch vs scipy per pair and scipy's vectorised axis form.
Prints a markdown table with ratios; the results are also checked to agree.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import scipy
import scipy.stats as st

import benchreport as br
from benchreport._core import compare as core


def timed(fn, repeat=3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def csr(parts):
    return np.concatenate(parts), np.r_[0, np.cumsum([len(p) for p in parts])].astype(np.int64)


def ratio_of_medians(b, h, axis):
    return np.median(h, axis=axis) / np.median(b, axis=axis)


def bootstrap_workload(cases):
    g = np.random.default_rng(1)
    bases = [g.lognormal(0, 0.05, 20) for _ in range(cases)]
    heads = [g.lognormal(0.02, 0.05, 20) for _ in range(cases)]
    return bases, heads


def time_batch(cases, B, threads, **kw):
    bases, heads = bootstrap_workload(cases)
    bv, bo = csr(bases)
    hv, ho = csr(heads)
    return timed(lambda: core.bootstrap_median_ratio_ci_batch(bv, bo, hv, ho, resamples=B, seed=0, threads=threads,
                                                               **kw))


def time_before(path, cases, B):
    """Best-of-3 single-thread time and intervals from another build's module (child process)."""
    env = dict(os.environ, PYTHONPATH=path)
    code = (f"import sys, json; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); "
            f"import bench_inference as b; t, r = b.time_batch({cases}, {B}, 1); "
            f"print(json.dumps([t, r.tolist()]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    t, r = json.loads(out.stdout)
    return t, np.array(r)


def bench_bootstrap(cases, B, rows, before):
    bases, heads = bootstrap_workload(cases)
    t1, ours = time_batch(cases, B, 1)
    t2, _ = time_batch(cases, B, 2)
    try:  # the exact method, when the bindings expose it
        exact = time_batch(cases, B, 1, method="exact")
    except TypeError:
        exact = None
    per_method = {}
    for method in ("percentile", "BCa"):
        def run(method=method):
            return [st.bootstrap((b, h), ratio_of_medians, n_resamples=B, method=method, vectorized=True,
                                 random_state=i).confidence_interval for i, (b, h) in enumerate(zip(bases, heads))]
        per_method[method] = timed(run, repeat=1)
    # Agreement: interval ends within Monte Carlo error (compare in units of the bootstrap SE).
    ref_pct = np.array([[ci.low, ci.high] for ci in per_method["percentile"][1]])
    ref_bca = np.array([[ci.low, ci.high] for ci in per_method["BCa"][1]])
    spread = ref_pct[:, 1] - ref_pct[:, 0]
    dev_pct = np.max(np.abs(ours[:, 1:3] - ref_pct) / spread[:, None])
    dev_bca = np.max(np.abs(ours[:, 3:5] - ref_bca) / spread[:, None])
    label = f"bootstrap CI, {cases} cases x 20 vs 20 x {B} resamples"
    for method, (t_ref, _) in per_method.items():
        rows.append((label, f"scipy.stats.bootstrap(method={method!r}, vectorized=True)", t_ref, t1, t2))
    notes = []
    if before:
        t_old, old = time_before(before, cases, B)
        same = np.array_equal(old, ours)
        notes.append(f"before ({before}): {t_old:.4f} s, this build {t1:.4f} s (1 thread): {t_old / t1:.2f}x faster; "
                     f"intervals identical: {same}")
        rows.append((label, f"benchreport before ({before})", t_old, t1, t2))
    if exact is not None:
        t_exact, ex = exact
        dev = np.max(np.abs(ex[:, 1:5] - ours[:, 1:5]) / spread[:, None])
        rows.append((f"bootstrap CI, {cases} cases x 20 vs 20, exact (no resampling)",
                     "scipy.stats.bootstrap(method='BCa', vectorized=True)", per_method["BCa"][0], t_exact, t_exact))
        notes.append(f"exact method: ends within {dev:.3f} of the interval width of the {B}-resample run")
    else:
        notes.append("exact method: not exposed by this build's bindings (C++ BootstrapMethod::exact only)")
    return dev_pct, dev_bca, notes


def bench_mwu(pairs, rows):
    g = np.random.default_rng(2)
    X = g.normal(size=(pairs, 20))
    Y = g.normal(0.3, size=(pairs, 20))
    xv, xo = X.ravel(), np.arange(pairs + 1, dtype=np.int64) * 20
    yv, yo = Y.ravel(), xo.copy()
    t1, (u, p) = timed(lambda: core.mann_whitney_u_batch(xv, xo, yv, yo, threads=1))
    t2, _ = timed(lambda: core.mann_whitney_u_batch(xv, xo, yv, yo, threads=2))
    t_loop, ref = timed(lambda: [st.mannwhitneyu(X[i], Y[i]) for i in range(pairs)], repeat=1)
    t_vec, vec = timed(lambda: st.mannwhitneyu(X, Y, axis=1))
    dev = max(np.max(np.abs(p - np.array([r.pvalue for r in ref]))), np.max(np.abs(p - vec.pvalue)))
    assert np.array_equal(u, vec.statistic)
    label = f"Mann-Whitney U, {pairs} pairs of 20 vs 20"
    rows.append((label, "scipy.stats.mannwhitneyu per pair", t_loop, t1, t2))
    rows.append((label, "scipy.stats.mannwhitneyu(X, Y, axis=1)", t_vec, t1, t2))
    return dev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="10x smaller workloads (smoke test)")
    ap.add_argument("--before", help="PYTHONPATH of another build to time side by side (child process)")
    args = ap.parse_args()
    cases, B, pairs = (10, 10000, 1000) if args.quick else (100, 10000, 10000)
    rows = []
    dev_pct, dev_bca, notes = bench_bootstrap(cases, B, rows, args.before)
    dev_p = bench_mwu(pairs, rows)
    print(f"load average {os.getloadavg()[0]:.1f}; times best of 3 (benchreport, vectorised scipy), one run (scipy loops)")
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"benchreport {br.__version__}")
    print()
    print("| workload | peer | peer s | benchreport 1 thread s | ratio | benchreport 2 threads s | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, peer, t_ref, t1, t2 in rows:
        print(f"| {label} | {peer} | {t_ref:.3f} | {t1:.4f} | {t_ref / t1:.1f}x | {t2:.4f} | {t_ref / t2:.1f}x |")
    print()
    print(f"agreement: bootstrap percentile ends within {dev_pct:.3f}, BCa ends within {dev_bca:.3f} "
          f"of the scipy interval width (Monte Carlo error, different PRNG); "
          f"Mann-Whitney max |p - p_scipy| = {dev_p:.2e}")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
