"""PR verdicts with launch noise learned from main's stored runs (issue 34), through the library.

Model. One comparison = 40 cases, K processes (launches) per side, n = 20 samples per process:
    sample = exp(delta + a + e),  e ~ N(0, 1 %) within a process,  a ~ N(0, sigma_p,c) per launch,
    sigma_p,c = sigma_p * exp(N(0, 0.2)) (cases differ a little).
Main's store: R runs of each case, one launch each, drawn from the same model with delta = 0 (their
log process medians are what benchreport.launch_noise.estimate reads). Paired hosts: base and head
share 75 % of the launch variance (a = sqrt(0.75) h + sqrt(0.25) u, h per host, u per process) and
carry equal pair labels, so compare pairs them. Their store has either one launch per run (the
fallback: the whole launch variance, conservative) or two launches per run on one host, drawn the same
way, whose within-run spread is the unshared variance 0.25 sigma_p,c^2 + pi/2 sigma_w^2 / n.
Rules (threshold 5 %, 95 % intervals): a case is called when its interval excludes 0 and its estimate
is beyond +-5 % (the verdict rule before Benjamini-Hochberg; the A/A figures after BH are the verdicts
themselves and are never higher).
    store     br.compare(..., launch_noise=...) : one process per side: t on the store's launch
              variance moderated across the cases (paired hosts with a 2-process store: the unshared
              variance, "store_paired_launch_t"); K = 3: empirical-Bayes combination of the case's own
              process variance with the store's (prior df = the store's df),
    none      br.compare without a store (today: K = 1 is inconclusive, "within-process noise only";
              K = 3: the moderated t across cases),
    oracle    z test on the same estimate with each case's true launch variance
              (sigma_p,c^2 + pi/2 sigma_w^2 / n per launch; paired hosts: the variance of the difference,
              2 (0.25 sigma_p,c^2 + pi/2 sigma_w^2 / n) per pair: the medians' own noise is not shared).
A case whose store segment (after the last change point steps finds, sometimes a false one) has fewer than
10 runs falls back to today's inconclusive verdict: it makes no claim, so it counts as not called and is
left out of the coverage; `store used` is the share of cases with a usable store estimate.
Columns: fp = share of A/A cases called (rule), fp_bh = share of A/A cases with a slower/faster verdict,
cov = coverage of the 95 % interval (all effects), power at +10 % / +20 % (all 40 cases changed) with
the oracle beside it, ratio = power / oracle power, and the share of +10 % cases whose verdict is slower
(after BH; without a store K = 1 is inconclusive whatever its within-process interval shows).
K = 3: processes pair by position (independent hosts), so the designs are paired t on K - 1 df.
Each ratio carries its Monte Carlo standard error (delta method over the comparisons, the independent unit:
the cases of one comparison share a moderation prior) and, in brackets, the ratio a t test on the cell's
mean interval df would have against the z test if both knew each case's variance (interval rule only,
no threshold): the part of the loss that the store's finite df explains. `mean interval df` is that df
(the store's runs less segments, plus the prior df borrowed across cases).

Run: python3 bench/bench_launch_noise.py [--reps 40] [--seed 34] [--rows all|paired]
(--rows paired: only the shared-host rows; the random stream then differs from --rows all).
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Tuple

import numpy as np
from scipy import stats

import benchreport as br
from benchreport import launch_noise as ln

CASES, N, SIGMA_W, THRESHOLD, CONF, SHARE = 40, 20, 0.01, 0.05, 0.95, 0.75
TAU = np.log1p(THRESHOLD)
Z = stats.norm.ppf(0.5 + CONF / 2)


def launch_sd(sp: np.ndarray) -> np.ndarray:
    """True sd of one launch's log median: launch factor plus the median's own noise."""
    return np.sqrt(sp ** 2 + np.pi / 2 * SIGMA_W ** 2 / N)


def side_samples(rng: np.random.Generator, factors: np.ndarray, delta: float) -> np.ndarray:
    """Samples of launches with log factors `factors` (shape cases x k): cases x k x N."""
    return np.exp(delta + factors[..., None] + rng.normal(0, SIGMA_W, (*factors.shape, N)))


def diff_sd(sp: np.ndarray, k: int, paired_hosts: bool) -> np.ndarray:
    """True sd of mean(log head) - mean(log base) over k launches a side (k pairs when paired)."""
    if paired_hosts:
        return np.sqrt(2 * ((1 - SHARE) * sp ** 2 + np.pi / 2 * SIGMA_W ** 2 / N) / k)
    return np.sqrt(2 / k) * launch_sd(sp)


def host_factors(rng: np.random.Generator, sp: np.ndarray, shape: Tuple[int, ...], processes: int) -> np.ndarray:
    """Log launch factors, cases x shape x processes: the processes of one host share SHARE of the variance
    (one process: its whole factor, the same distribution)."""
    scale = sp.reshape((-1,) + (1,) * len(shape) + (1,))
    if processes == 1:
        return rng.normal(0, 1, (len(sp), *shape, 1)) * scale
    host = rng.normal(0, 1, (len(sp), *shape, 1))
    own = rng.normal(0, 1, (len(sp), *shape, processes))
    return (np.sqrt(SHARE) * host + np.sqrt(1 - SHARE) * own) * scale


def store_noise(rng: np.random.Generator, sp: np.ndarray, runs: int, processes: int = 1) -> Dict[str, Any]:
    factors = host_factors(rng, sp, (runs,), processes)
    medians = np.median(side_samples(rng, factors, 0.0), axis=3)
    return {f"case{c:02d}": ln.estimate([(f"{r:040x}", list(medians[c, r])) for r in range(runs)], branch="main")
            for c in range(CASES)}


def one_comparison(rng: np.random.Generator, sigma_p: float, k: int, delta: float, runs: int,
                   paired_hosts: bool, store_processes: int = 1) -> Tuple[Dict[str, np.ndarray], np.ndarray]:
    sp = sigma_p * np.exp(rng.normal(0, 0.2, CASES))
    if paired_hosts:  # base_i and head_i on host i: one host factor, their own parts
        pair_f = host_factors(rng, sp, (k,), 2)
        base_f, head_f = pair_f[..., 0], pair_f[..., 1]
    else:
        base_f = rng.normal(0, 1, (CASES, k)) * sp[:, None]
        head_f = rng.normal(0, 1, (CASES, k)) * sp[:, None]
    base, head = side_samples(rng, base_f, 0.0), side_samples(rng, head_f, delta)
    values, labels = [], {"benchmark": [], "revision": [], "pair": []}
    for c in range(CASES):
        for side, data in (("base", base), ("head", head)):
            for p in range(k):
                values.append(data[c, p])
                labels["benchmark"].append(f"case{c:02d}")
                labels["revision"].append(side)
                labels["pair"].append(str(p + 1) if k > 1 or paired_hosts else None)
    ds = br.Dataset.from_arrays(np.concatenate(values), np.arange(len(values) + 1) * N, labels)
    noise = store_noise(rng, sp, runs, store_processes) if runs else None
    res = br.compare(ds, {"revision": "base"}, launch_noise=noise, resamples=200,
                     pair_column="pair" if paired_hosts else "no_such_label")
    cols = res.columns()
    est = np.log1p(np.asarray(cols["change_estimate"], float))
    out = {"lower": np.log1p(np.asarray(cols["change_lower"], float)),
           "upper": np.log1p(np.asarray(cols["change_upper"], float)), "est": est,
           "verdict": np.asarray(cols["verdict"]), "runs": np.asarray(cols["launch_noise_runs"]),
           "df": np.asarray(cols["interval_df"], float)}
    # With a store, a case whose segment after the last change point has < 10 runs falls back: inconclusive,
    # no claim, so it neither counts as a call nor enters the coverage (it is counted in `used`).
    # With K >= 2 a case without a usable store estimate keeps today's moderated t, which does claim.
    out["used"] = out["runs"] > 0 if runs and k == 1 else np.ones(CASES, bool)
    out["store"] = out["runs"] > 0
    # Oracle: the same log change of process means with the true variance.
    log_b = np.log(np.median(base, axis=2)).mean(axis=1)
    log_h = np.log(np.median(head, axis=2)).mean(axis=1)
    out["oracle_est"] = log_h - log_b
    out["oracle_se"] = diff_sd(sp, k, paired_hosts)
    out["method"] = np.asarray(cols["interval_method"])
    return out, sp


def called(lower: np.ndarray, upper: np.ndarray, est: np.ndarray) -> np.ndarray:
    return ((lower > 0) & (est >= TAU)) | ((upper < 0) & (est <= -TAU))


def cell(rng: np.random.Generator, sigma_p: float, k: int, runs: int, reps: int, paired_hosts: bool = False,
         store_processes: int = 1) -> dict:
    fp, fp_bh, cover, power, oracle = [], [], [], {0.10: [], 0.20: []}, {0.10: [], 0.20: []}
    verdicts: List[float] = []
    used: List[float] = []
    dfs: List[float] = []
    unshared: List[float] = []
    for effect in (0.0, 0.10, 0.20):
        delta = np.log1p(effect)
        for _ in range(reps):
            r, _sp = one_comparison(rng, sigma_p, k, delta, runs, paired_hosts, store_processes)
            unshared.append(np.mean(r["method"] == "store_paired_launch_t"))
            c = called(r["lower"], r["upper"], r["est"]) & r["used"]
            used.append(np.mean(r["store"]) if runs else 0.0)
            if runs and r["store"].any():
                dfs.extend(r["df"][r["store"]])
            o_lo, o_hi = r["oracle_est"] - Z * r["oracle_se"], r["oracle_est"] + Z * r["oracle_se"]
            oc = called(o_lo, o_hi, r["oracle_est"])
            finite = np.isfinite(r["lower"]) & np.isfinite(r["upper"])
            u = r["used"]
            cover.append(np.mean((finite & (r["lower"] <= delta) & (delta <= r["upper"]))[u]) if u.any() else np.nan)
            if effect == 0:
                fp.append(np.mean(c))
                fp_bh.append(np.mean(np.isin(r["verdict"], ["slower", "faster"])))
            else:
                power[effect].append(np.mean(c & (r["est"] > 0)))
                if effect == 0.10:
                    verdicts.append(np.mean(r["verdict"] == "slower"))
                oracle[effect].append(np.mean(oc & (r["oracle_est"] > 0)))
    return {"fp": np.mean(fp), "fp_bh": np.mean(fp_bh), "cov": np.nanmean(cover), "v10": np.mean(verdicts),
            "used": np.mean(used), "df": np.mean(dfs) if dfs else np.nan, "unshared": np.mean(unshared),
            **{f"se{int(e * 100)}": ratio_se(np.asarray(power[e]), np.asarray(oracle[e])) for e in power},
            **{f"p{int(e * 100)}": np.mean(power[e]) for e in power},
            **{f"o{int(e * 100)}": np.mean(oracle[e]) for e in oracle}}


def ratio_se(power: np.ndarray, oracle: np.ndarray) -> float:
    """Monte Carlo standard error of mean(power) / mean(oracle) over the comparisons (the independent
    unit: the cases of one comparison share its moderation prior), by the delta method."""
    if len(power) < 2 or oracle.mean() <= 0:
        return float("nan")
    ratio = power.mean() / oracle.mean()
    return float(np.std(power - ratio * oracle, ddof=1) / np.sqrt(len(power)) / oracle.mean())


def expected_ratio(r: dict, effect: float, sigma_p: float, k: int, paired_hosts: bool) -> str:
    """Power of a t test on the cell's mean interval df over the oracle's z test, both on the true
    launch variance (cases' sigma_p,c as simulated): what the df alone costs."""
    if not np.isfinite(r["df"]):
        return "-"
    sp = sigma_p * np.exp(np.random.default_rng(0).normal(0, 0.2, 100_000))
    ncp = np.log1p(effect) / diff_sd(sp, k, paired_hosts)
    t = stats.nct.sf(stats.t.ppf(0.5 + CONF / 2, r["df"]), r["df"], ncp)
    return f"{np.mean(t) / np.mean(stats.norm.sf(Z - ncp)):.2f}"


def row(label: str, r: dict, sigma_p: float, k: int = 1, paired_hosts: bool = False) -> str:
    def ratio(e: int) -> str:
        if r[f"o{e}"] <= 0:
            return "-"
        text = f"{r[f'p{e}'] / r[f'o{e}']:.2f} ± {r[f'se{e}']:.2f}"
        # The fallback (whole launch variance for a paired difference) is not a df loss: no bracket.
        exact = not paired_hosts or r["unshared"] > 0
        return text + (f" ({expected_ratio(r, e / 100, sigma_p, k, paired_hosts)})" if np.isfinite(r["df"]) and exact
                       else "")
    return (f"| {label} | {100 * r['fp']:.1f} | {100 * r['fp_bh']:.1f} | {100 * r['cov']:.1f} | "
            f"{100 * r['p10']:.1f} ({100 * r['o10']:.1f}) | {ratio(10)} | {100 * r['p20']:.1f} ({100 * r['o20']:.1f}) "
            f"| {ratio(20)} | {100 * r['v10']:.1f} | {100 * r['used']:.1f} | "
            f"{'-' if not np.isfinite(r['df']) else format(r['df'], '.1f')} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=40, help="comparisons of 40 cases per cell and effect")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--rows", choices=("all", "paired"), default="all", help="paired: only the shared-host rows")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    print(f"{args.reps} comparisons x {CASES} cases per cell and effect, seed {args.seed}\n")
    print("| design | fp % | fp after BH % | coverage % | power +10 % (oracle) | ratio ± MC se (t on that df) | "
          "power +20 % (oracle) | ratio ± MC se (t on that df) | slower verdicts at +10 % (after BH) | store used % | "
          "mean interval df |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    if args.rows == "all":
        unpaired_rows(rng, args.reps)
    paired_rows(rng, args.reps)
    if args.rows == "all":
        k3_rows(rng, args.reps)
    print(f"\n{time.perf_counter() - start:.0f} s")


def unpaired_rows(rng: np.random.Generator, reps: int) -> None:
    for sigma_p in (0.02, 0.05, 0.10):
        for runs in (10, 20, 30):
            print(row(f"σ_p {sigma_p:.0%}, K = 1, store of {runs} runs", cell(rng, sigma_p, 1, runs, reps), sigma_p),
                  flush=True)
        print(row(f"σ_p {sigma_p:.0%}, K = 1, no store (today)", cell(rng, sigma_p, 1, 0, reps), sigma_p), flush=True)


def paired_rows(rng: np.random.Generator, reps: int) -> None:
    """Base and head on one host (oracle paired): stores of 2 processes a run, and the 1-process fallback."""
    for sigma_p in (0.02, 0.05, 0.10):
        for runs in (10, 20, 30):
            print(row(f"σ_p {sigma_p:.0%}, K = 1, base/head share a host, store of {runs} runs × 2 processes",
                      cell(rng, sigma_p, 1, runs, reps, paired_hosts=True, store_processes=2), sigma_p,
                      paired_hosts=True), flush=True)
    print(row("σ_p 5%, K = 1, base/head share a host, store of 30 runs × 1 process (fallback: unpaired store "
              "variance)", cell(rng, 0.05, 1, 30, reps, paired_hosts=True), 0.05, paired_hosts=True), flush=True)


def k3_rows(rng: np.random.Generator, reps: int) -> None:
    for sigma_p in (0.02, 0.05, 0.10):
        print(row(f"σ_p {sigma_p:.0%}, K = 3, store of 20 runs (empirical Bayes)", cell(rng, sigma_p, 3, 20, reps),
                  sigma_p, 3), flush=True)
        print(row(f"σ_p {sigma_p:.0%}, K = 3, no store (moderated t across cases)", cell(rng, sigma_p, 3, 0, reps),
                  sigma_p, 3), flush=True)


if __name__ == "__main__":
    main()
