"""Side-by-side timing of the summary engine against pandas and numpy.

Run:  PYTHONPATH=build/<you>/python python3 bench/bench_summary.py [--sets 100000] [--samples 50]

Workload: S sets × N samples (lognormal), the statistics the issue names:
median, MAD, CV, min, max, p95, drift (median of last 5 / first 5 − 1).
Every contender computes all of them; results are cross-checked before timing.
Timings are the best of several repeats, in one process: wall time
(perf_counter) and CPU time of the calling thread (thread_time; for the
2-thread run, process_time = both threads). On a shared, loaded machine the
wall times include time spent waiting for a core; the CPU times do not, so the
ratios are given for both.
"""
from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
import pandas as pd

import benchreport as br

STATS = ["median", "mad", "cv", "quantiles", "drift"]  # + min, max (always)


def best_of(fn, repeats, cpu_clock=time.thread_time):
    """(best wall seconds, best CPU seconds) over the repeats."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeats):
        c0, t0 = cpu_clock(), time.perf_counter()
        fn()
        best_wall = min(best_wall, time.perf_counter() - t0)
        best_cpu = min(best_cpu, cpu_clock() - c0)
    return best_wall, best_cpu


def benchreport_grouped(values, offsets, threads):
    return br.summarize_grouped(values, offsets, stats=STATS, quantiles=[0.95], threads=threads)


def numpy_partition(a):
    """np.median/np.quantile (partition based) along axis 1."""
    med = np.median(a, axis=1)
    mad = np.median(np.abs(a - med[:, None]), axis=1)
    cv = a.std(axis=1) / a.mean(axis=1)
    p95 = np.quantile(a, 0.95, axis=1)
    drift = np.median(a[:, -5:], axis=1) / np.median(a[:, :5], axis=1) - 1.0
    return med, mad, cv, a.min(axis=1), a.max(axis=1), p95, drift


def numpy_sort(a):
    """One 2-D sort gives median, p95, min, max; a second sort gives MAD."""
    n = a.shape[1]
    s = np.sort(a, axis=1)
    h = (n - 1) * 0.5
    lo = int(np.floor(h))
    med = s[:, lo] + (s[:, min(lo + 1, n - 1)] - s[:, lo]) * (h - lo)
    h95 = (n - 1) * 0.95
    lo95 = int(np.floor(h95))
    p95 = s[:, lo95] + (s[:, min(lo95 + 1, n - 1)] - s[:, lo95]) * (h95 - lo95)
    dev = np.sort(np.abs(a - med[:, None]), axis=1)
    mad = dev[:, lo] + (dev[:, min(lo + 1, n - 1)] - dev[:, lo]) * (h - lo)
    cv = a.std(axis=1) / a.mean(axis=1)
    first = np.sort(a[:, :5], axis=1)[:, 2]
    last = np.sort(a[:, -5:], axis=1)[:, 2]
    return med, mad, cv, s[:, 0], s[:, -1], p95, last / first - 1.0


def pandas_vectorised(df):
    """groupby aggregations; MAD is not a built-in groupby reduction in pandas 2."""
    g = df.groupby("set", sort=False)["value"]
    med = g.median()
    out = pd.DataFrame({"median": med, "min": g.min(), "max": g.max(), "cv": g.std(ddof=0) / g.mean(),
                        "p95": g.quantile(0.95)})
    out["drift"] = (df.groupby("set", sort=False).tail(5).groupby("set", sort=False)["value"].median()
                    / df.groupby("set", sort=False).head(5).groupby("set", sort=False)["value"].median() - 1.0)
    return out


def pandas_mad_apply(df):
    return df.groupby("set", sort=False)["value"].apply(lambda s: (s - s.median()).abs().median())


def cross_check(values, offsets, a, df_small, small_sets):
    g = benchreport_grouped(values, offsets, 1)
    med, mad, cv, mn, mx, p95, drift = numpy_partition(a)
    for key, ref in [("median", med), ("mad", mad), ("cv", cv), ("min", mn), ("max", mx), ("drift", drift)]:
        np.testing.assert_allclose(g[key], ref, rtol=1e-12)
    np.testing.assert_allclose(g["quantiles"][:, 0], p95, rtol=1e-12)
    for got, ref in zip(numpy_sort(a), numpy_partition(a)):
        np.testing.assert_allclose(got, ref, rtol=1e-12)
    pv = pandas_vectorised(df_small)
    np.testing.assert_allclose(pv["median"].to_numpy(), g["median"][:small_sets], rtol=1e-12)
    np.testing.assert_allclose(pv["drift"].to_numpy(), g["drift"][:small_sets], rtol=1e-12)
    np.testing.assert_allclose(pandas_mad_apply(df_small).to_numpy(), g["mad"][:small_sets], rtol=1e-12)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", type=int, default=100_000)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mad-apply-sets", type=int, default=5_000,
                    help="pandas MAD via apply is timed on this many sets and scaled linearly")
    args = ap.parse_args()
    S, N = args.sets, args.samples
    rng = np.random.default_rng(42)
    a = rng.lognormal(3.0, 0.4, size=(S, N))
    values = a.reshape(-1)
    offsets = np.arange(0, S * N + 1, N, dtype=np.int64)
    df = pd.DataFrame({"set": np.repeat(np.arange(S), N), "value": values})
    small = args.mad_apply_sets
    df_small = df.iloc[: small * N]
    cross_check(values, offsets, a, df_small, small)

    r = args.repeats
    t = {}
    t["benchreport, 1 thread"] = best_of(lambda: benchreport_grouped(values, offsets, 1), r)
    t["benchreport, 2 threads"] = best_of(lambda: benchreport_grouped(values, offsets, 2), r, time.process_time)
    t["benchreport, all statistics, 1 thread"] = best_of(
        lambda: br.summarize_grouped(values, offsets, threads=1), max(1, r // 2))
    t["numpy 2-D partition (np.median/np.quantile)"] = best_of(lambda: numpy_partition(a), r)
    t["numpy 2-D sort"] = best_of(lambda: numpy_sort(a), r)
    pandas_vec = best_of(lambda: pandas_vectorised(df), max(1, r // 2))
    mad_small = best_of(lambda: pandas_mad_apply(df_small), max(1, r // 2))
    t["pandas groupby (vectorised part)"] = pandas_vec
    t[f"pandas MAD via apply ({small} sets × {S // small})"] = tuple(x * S / small for x in mad_small)
    t["pandas total"] = tuple(v + x * S / small for v, x in zip(pandas_vec, mad_small))
    t["numpy.sum (one streaming pass)"] = best_of(lambda: np.sum(values), r * 2)

    x20 = rng.lognormal(3.0, 0.4, 20)
    n_calls = 20_000
    t_br20 = best_of(lambda: [br.summarize(x20) for _ in range(n_calls)], r)[1] / n_calls
    t_np20 = best_of(lambda: [np.median(x20) for _ in range(n_calls)], r)[1] / n_calls

    def ratios(i):
        ours = t["benchreport, 1 thread"][i]
        fastest_numpy = min(t["numpy 2-D partition (np.median/np.quantile)"][i], t["numpy 2-D sort"][i])
        return ours, fastest_numpy

    print(f"# {S} sets × {N} samples; median, MAD, CV, min, max, p95, drift; best of {r}")
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, pandas {pd.__version__}; load average {os.getloadavg()[0]:.1f}")
    print()
    print("| contender | wall (ms) | CPU (ms) | wall vs benchreport 1 thread | CPU vs benchreport 1 thread |")
    print("|---|---:|---:|---:|---:|")
    for name, (wall, cpu) in t.items():
        print(f"| {name} | {wall * 1e3:.1f} | {cpu * 1e3:.1f} | {wall / ratios(0)[0]:.2f}× | {cpu / ratios(1)[0]:.2f}× |")
    print()
    for i, clock in enumerate(["wall", "CPU"]):
        ours, fastest_numpy = ratios(i)
        print(f"- {clock}: speed-up over pandas (total) {t['pandas total'][i] / ours:.1f}× (target ≥ 20×); "
              f"over the fastest numpy formulation {fastest_numpy / ours:.2f}× (target ≥ 3×); "
              f"benchreport 1 thread / numpy.sum {ours / t['numpy.sum (one streaming pass)'][i]:.1f}×")
    two_wall, two_cpu = t["benchreport, 2 threads"]
    print(f"- 2 threads vs 1 thread: wall speed-up {t['benchreport, 1 thread'][0] / two_wall:.2f}×; "
          f"CPU of both threads together {two_cpu * 1e3:.1f} ms vs {t['benchreport, 1 thread'][1] * 1e3:.1f} ms on 1 thread")
    print(f"- one br.summarize on 20 samples (all statistics): {t_br20 * 1e6:.2f} µs CPU; numpy.median alone: "
          f"{t_np20 * 1e6:.2f} µs; ratio {t_np20 / t_br20:.2f}× (target > 1×)")


if __name__ == "__main__":
    main()
