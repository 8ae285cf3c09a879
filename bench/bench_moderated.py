"""Verdicts with process-level noise: the moderated t (empirical Bayes across the cases of one
comparison), the one-process rule and the timer-resolution floor, against today's per-case t and
an oracle that knows each case's launch variance. Vectorised numpy; the statistics come from
bench/moderated_reference.py (the formulas of docs/statistics-comparison.md, checked against the
library in tests/python/test_moderated.py).

Models (--model; both by default). audit: the issue's own, one sigma_p for every case of a cell,
sigma_w = 1 %, a linear drift across each process (total ~ N(0, 1 %)) and spikes (1 % of samples
1.5x slower) as nuisances, no timer grid. harsh: the audit's made harsher, below.
One comparison = 40 cases; each case has K processes per side and n samples per process:
    sample = level * exp(delta + a_process + e),  e ~ N(0, sigma_w,c),
    a_process ~ N(0, sigma_p,c), paired hosts: base_i and head_i share 75 % of its variance,
    sigma_p,c = sigma_p * exp(N(0, 0.3)), and 2 of the 40 cases are very noisy (4 sigma_p,c);
    sigma_w,c = 1 % * exp(N(0, 0.3)); 10 of the 40 cases run on a timer grid of 2 % of the level
    (values rounded to it: zero-width process spreads happen).
A/A: delta = 0 everywhere. Power: 8 of the 40 cases changed, 4 by +10 % and 4 by -10 %.
Rules (threshold 5 %, alpha 0.05, 95 % intervals, Benjamini-Hochberg across the 40 cases):
    today     per-case t on log process medians (paired t, or Welch when unpaired); K = 1: the
              within-process normal interval of the log ratio of medians (the bootstrap's limit),
    moderated the library's moderated t (prior from the 40 cases; paired: var of d_i on K-1 df;
              unpaired: pooled var of the log medians on 2K-2 df), variance floored at the timer
              resolution; the robust prior (Phipson et al. 2016: winsorised moments, d0 from the
              upper 95 % bound of the winsorised variance, excess_z = 1.645, the default; a smaller
              d0 for likely outliers, judged on the variance of the test and, paired, also on the
              pooled variance of the sides' log medians); K = 1: no claim (inconclusive, one launch
              per side); K = 2 paired (1 df per case): moderated with the bound's z raised to 2.5
              (ref.prior_excess_z_for; at 1.645 harsh A/A: `--fail-on slower` up to 7 %, any claim 14 %),
    smyth     the previous default: Smyth's moments on all cases (no winsorising, no outliers),
              excess_z = 1.645,
    empnull   K = 1 only, the Efron alternative: z = (l_c - median l) / (1.4826 MAD of l),
    oracle    z test with each case's true variance of the estimate (same rule, same BH).
Columns: fp = slower/faster claims per A/A case (after BH), gate = share of A/A comparisons with a
claim in either direction, `--fail-on slower` = share with a slower claim (what the CLI's gate exits 1
on), cov = coverage of the 95 % interval of the change in A/A cases (moderated; today's beside),
power = share of the 8 changed cases called in the right direction (after BH; today raw = no BH).

Run: python3 bench/bench_moderated.py [--quick] [--reps 100] [--seed 1]
     [--prior-bound moments|profile|profile_censored|profile_bulk] [--profile-level 0.95]
(--prior-bound: the d0 bound of the moderated prior; the profile-likelihood variants were tried and not
adopted, bench/RESULTS-inference.md "Tried: a profile-likelihood bound of d0")
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import moderated_reference as ref  # noqa: E402

CASES, CHANGED, THRESHOLD, ALPHA, CONF, SHARE = 40, 8, 0.05, 0.05, 0.95, 0.75
TAU_UP, TAU_DOWN = np.log1p(THRESHOLD), np.log1p(-THRESHOLD)
GRID, QUANTISED, NOISY = 0.02, 10, 2
EXCESS_Z = 1.645  # the library's default: the upper 95 % bound of the excess log-variance
PRIOR_METHOD = "moments"  # --prior-bound: how d0 is bounded (moments: V + z se(V); profile: likelihood)


MODELS = ("audit", "harsh")
DRIFT, OUTLIER_P, OUTLIER_X = 0.01, 0.01, 1.5  # audit nuisances: drift sd over a process; spike share and size


def case_parameters(rng, reps, sigma_p, model="harsh"):
    """Launch sd, within sd and the timer-grid flag of each case. audit: one sigma_p for every case,
    no grid; harsh: heterogeneous sigma_p, 2 very noisy cases, 10 on the timer grid."""
    if model == "audit":
        return (np.full((reps, CASES), sigma_p), np.full((reps, CASES), 0.01), np.zeros((reps, CASES), bool))
    sp = sigma_p * np.exp(rng.normal(0, 0.3, (reps, CASES)))
    sp[:, :NOISY] *= 4
    sw = 0.01 * np.exp(rng.normal(0, 0.3, (reps, CASES)))
    quant = np.zeros((reps, CASES), bool)
    quant[:, NOISY:NOISY + QUANTISED] = True
    return sp, sw, quant


def nuisances(rng, shape):
    """The audit's sample-level nuisances on the log scale: a linear drift across each process (its total
    ~ N(0, DRIFT)) and spikes (a share OUTLIER_P of samples OUTLIER_X times slower)."""
    n = shape[-1]
    drift = rng.normal(0, DRIFT, shape[:-1])[..., None] * (np.arange(n) / max(n - 1, 1) - 0.5)
    return drift + np.where(rng.random(shape) < OUTLIER_P, np.log(OUTLIER_X), 0.0)


def process_logs(rng, reps, k, n, sp, sw, quant, delta, paired, model="harsh"):
    """Log process medians (reps, cases, 2, k) and the log-median sd within each side (reps, cases, 2)."""
    if paired:
        shared = rng.normal(0, 1, (reps, CASES, 1, k))
        a = np.sqrt(SHARE) * shared + np.sqrt(1 - SHARE) * rng.normal(0, 1, (reps, CASES, 2, k))
    else:
        a = rng.normal(0, 1, (reps, CASES, 2, k))
    a *= sp[:, :, None, None]
    shift = np.stack([np.zeros_like(delta), delta], axis=2)[..., None]
    e = rng.normal(0, 1, (reps, CASES, 2, k, n)) * sw[:, :, None, None, None]
    if model == "audit":
        e += nuisances(rng, e.shape)
    x = np.exp(shift[..., None] + a[..., None] + e)
    x = np.where(quant[:, :, None, None, None], np.maximum(np.round(x / GRID), 1) * GRID, x)
    med = np.median(x, axis=-1)
    # within-process sd of the log median of one side (pooled samples), for the K = 1 interval
    logs = np.log(x).reshape(reps, CASES, 2, k * n)
    within_se = 1.2533141373155003 * logs.std(axis=-1, ddof=1) / np.sqrt(k * n)
    return np.log(med), within_se


def bh(p):
    """Benjamini-Hochberg adjusted p along the last axis."""
    m = p.shape[-1]
    order = np.argsort(p, axis=-1)
    ranked = np.take_along_axis(p, order, -1) * m / np.arange(1, m + 1)
    ranked = np.minimum.accumulate(ranked[..., ::-1], axis=-1)[..., ::-1]
    out = np.empty_like(p)
    np.put_along_axis(out, order, np.minimum(ranked, 1), -1)
    return out


def verdicts(est, se, df, use_bh=True):
    """+1 slower, -1 faster, 0 none; the interval, the threshold rule and BH across the 40 cases."""
    se = np.where(se > 0, se, np.nan)
    q = np.where(np.isinf(df), stats.norm.ppf((1 + CONF) / 2), stats.t.ppf((1 + CONF) / 2, np.where(np.isinf(df), 1, df)))
    lo, hi = est - q * se, est + q * se
    tstat = np.abs(est) / se
    p = np.where(np.isinf(df), 2 * stats.norm.sf(tstat), 2 * stats.t.sf(tstat, np.where(np.isinf(df), 1, df)))
    p = np.where(np.isnan(p), 1.0, p)
    call = np.where((lo > 0) & (est >= TAU_UP), 1, np.where((hi < 0) & (est <= TAU_DOWN), -1, 0))
    if use_bh:
        call = np.where(bh(p) < ALPHA, call, 0)
    return call, lo, hi


def per_case_t(logs, paired):
    k = logs.shape[-1]
    b, h = logs[..., 0, :], logs[..., 1, :]
    if paired:
        d = h - b
        return d.mean(-1), d.std(-1, ddof=1) / np.sqrt(k), np.full(d.shape[:-1], k - 1.0)
    vb, vh = b.var(-1, ddof=1) / k, h.var(-1, ddof=1) / k
    se2 = vb + vh
    with np.errstate(invalid="ignore", divide="ignore"):
        df = np.where(se2 > 0, se2 ** 2 / (vb ** 2 / (k - 1) + vh ** 2 / (k - 1)), 2 * k - 2.0)
    return h.mean(-1) - b.mean(-1), np.sqrt(se2), df


def moderated_t(logs, paired, quant, excess_z, robust=True, method="moments"):
    """Moderated t per comparison (prior from the cases of each replicate), resolution floor."""
    k = logs.shape[-1]
    b, h = logs[..., 0, :], logs[..., 1, :]
    rho = np.where(quant, GRID, 0.0)  # relative resolution of the process medians (grid / level)
    if paired:
        d = h - b
        s2, dg, est, factor = d.var(-1, ddof=1), k - 1.0, d.mean(-1), 1 / k
        floor = rho ** 2 / 6
    else:
        s2 = (b.var(-1, ddof=1) + h.var(-1, ddof=1)) / 2
        dg, est, factor = 2 * k - 2.0, h.mean(-1) - b.mean(-1), 2 / k
        floor = rho ** 2 / 12
    side = np.maximum((b.var(-1, ddof=1) + h.var(-1, ddof=1)) / 2, rho ** 2 / 12)
    s2 = np.maximum(s2, floor)  # below the timer's quantisation variance a spread tells nothing
    post = np.empty_like(s2)
    df = np.empty_like(s2)
    for r in range(s2.shape[0]):
        if robust:
            if paired:  # outliers also judged on the sides' spreads: 2K - 2 more df on the case's launch scale
                prior = ref.paired_robust_prior(s2[r], np.full(CASES, dg), side[r], np.full(CASES, 2 * k - 2.0),
                                                excess_z, method)
            else:
                prior = ref.robust_variance_prior(s2[r], np.full(CASES, dg), excess_z, method=method)
            _, s0, _, pooled, case_d0 = prior
            post[r], df[r] = ref.moderate_each(s2[r], np.full(CASES, dg), case_d0, s0, pooled)
        else:
            d0, s0, _, pooled = ref.variance_prior(s2[r], np.full(CASES, dg),
                                                   ref.prior_excess_z_for(np.full(CASES, dg), excess_z))
            post[r], df[r] = ref.moderate(s2[r], np.full(CASES, dg), d0, s0, pooled)
    return est, np.sqrt(post * factor), df


def oracle(sp, sw, n, k, paired, delta_shape, model="harsh"):
    within = 1.5707963267948966 * sw ** 2 / n
    if model == "audit":  # a drift of total D widens a process's samples by D²/12 (spikes: left out, <1 %)
        within = 1.5707963267948966 * (sw ** 2 + DRIFT ** 2 / 12) / n
    var_d = (2 * sp ** 2 * (1 - SHARE) + 2 * within) if paired else (2 * sp ** 2 + 2 * within)
    return np.sqrt(var_d / k), np.full(delta_shape, np.inf)


def cell(rng, reps, k, sigma_p, n, paired, model="harsh"):
    res = {}
    for label, changed in (("aa", False), ("power", True)):
        sp, sw, quant = case_parameters(rng, reps, sigma_p, model)
        delta = np.zeros((reps, CASES))
        if changed:
            # the changed cases are drawn among all kinds (noisy, quantised, plain) by position
            idx = np.arange(0, CASES, CASES // CHANGED)[:CHANGED]
            delta[:, idx] = np.where(np.arange(CHANGED) % 2 == 0, np.log(1.1), np.log(0.9))
        logs, within_se = process_logs(rng, reps, k, n, sp, sw, quant, delta, paired, model)
        out = {}
        if k == 1:
            est = logs[..., 1, 0] - logs[..., 0, 0]
            se = np.sqrt(within_se[..., 0] ** 2 + within_se[..., 1] ** 2)
            out["today"] = verdicts(est, se, np.full(est.shape, np.inf))
            out["today_raw"] = verdicts(est, se, np.full(est.shape, np.inf), use_bh=False)
            out["moderated"] = (np.zeros(est.shape, int), np.full(est.shape, -np.inf), np.full(est.shape, np.inf))
            out["smyth"] = out["moderated"]
            centre = np.median(est, axis=1, keepdims=True)
            scale = 1.482602218505602 * np.median(np.abs(est - centre), axis=1, keepdims=True)
            out["empnull"] = verdicts(est - centre, np.broadcast_to(scale, est.shape), np.full(est.shape, np.inf))
        else:
            est, se, df = per_case_t(logs, paired)
            out["today"] = verdicts(est, se, df)
            out["today_raw"] = verdicts(est, se, df, use_bh=False)
            out["moderated"] = verdicts(*moderated_t(logs, paired, quant, EXCESS_Z, method=PRIOR_METHOD))
            out["smyth"] = verdicts(*moderated_t(logs, paired, quant, 1.645, robust=False))
        ose, odf = oracle(sp, sw, n, k, paired, delta.shape, model)
        est_o = logs[..., 1, :].mean(-1) - logs[..., 0, :].mean(-1)
        out["oracle"] = verdicts(est_o, ose, odf)
        for name, (call, lo, hi) in out.items():
            if not changed:
                res[f"{name}_fp"] = np.mean(call != 0)
                res[f"{name}_gate"] = np.mean((call != 0).any(axis=1))
                # what `--fail-on slower` does: exit 1 when any case is called slower
                res[f"{name}_gate_slower"] = np.mean((call > 0).any(axis=1))
                finite = np.isfinite(lo) & np.isfinite(hi)
                res[f"{name}_cov"] = np.mean((lo[finite] <= 0) & (hi[finite] >= 0)) if finite.any() else np.nan
            else:
                mask = delta != 0
                res[f"{name}_power"] = np.mean(call[mask] == np.sign(delta[mask]))
    return res


def pct(x):
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.0f}"


def pct1(x):
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.1f}"


def run_model(model, seed0, reps, ks, sps, ns):
    """One table of cells for one model; the harsh model keeps the seeds it had before the audit model."""
    print()
    print(f"model: {model}")
    print()
    print("| K | σ_p | n | pairing | A/A fp % (today → moderated) | gate % (today → mod; oracle) "
          "| `--fail-on slower` % (today → mod; oracle) | coverage % (today → mod) | power % at ±10 %: today raw / today BH / moderated BH / oracle BH "
          "| non-robust prior: fp / gate / power | K=1 empirical null fp / gate / power |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for k in ks:
        for sp in sps:
            for n in ns:
                for paired in (True, False):
                    seed = [seed0, k, int(sp * 1000), n, int(paired)] + ([7] if model == "audit" else [])
                    r = cell(np.random.default_rng(seed), reps, k, sp, n, paired, model)
                    rows.append((model, k, sp, n, paired, r))
                    emp = (f"{pct1(r['empnull_fp'])} / {pct(r['empnull_gate'])} / {pct(r['empnull_power'])}"
                           if k == 1 else "")
                    print(f"| {k} | {100 * sp:.0f}% | {n} | {'paired' if paired else 'unpaired'} "
                          f"| {pct1(r['today_fp'])} → {pct1(r['moderated_fp'])} "
                          f"| {pct(r['today_gate'])} → {pct(r['moderated_gate'])}; {pct(r['oracle_gate'])} "
                          f"| {pct(r['today_gate_slower'])} → {pct(r['moderated_gate_slower'])}; "
                          f"{pct(r['oracle_gate_slower'])} "
                          f"| {pct(r['today_cov'])} → {pct(r['moderated_cov'])} "
                          f"| {pct(r['today_raw_power'])} / {pct(r['today_power'])} / {pct(r['moderated_power'])} / "
                          f"{pct(r['oracle_power'])} "
                          f"| {pct1(r['smyth_fp'])} / {pct(r['smyth_gate'])} / {pct(r['smyth_power'])} | {emp} |",
                          flush=True)
    summarise(model, rows)
    return rows


def summarise(model, rows):
    """Worst A/A figures and the issue's two power targets (sigma_p 5 %, BH on) with the oracle beside."""
    worst_fp = max(r["moderated_fp"] for *_, r in rows)
    worst_gate = max(r["moderated_gate"] for *_, r in rows)
    covs = [r["moderated_cov"] for *_, r in rows if np.isfinite(r["moderated_cov"])]
    print()
    print(f"{model}: moderated worst A/A fp per case {pct1(worst_fp)} %, worst gate {pct(worst_gate)} %, "
          f"lowest coverage {pct(min(covs)) if covs else 'n/a'} %, gate > 5 % in "
          f"{sum(r['moderated_gate'] > 0.05 for *_, r in rows)} of {len(rows)} cells; `--fail-on slower` worst "
          f"{pct(max(r['moderated_gate_slower'] for *_, r in rows))} %, above 5 % in "
          f"{sum(r['moderated_gate_slower'] > 0.05 for *_, r in rows)} cells (oracle: "
          f"{sum(r['oracle_gate_slower'] > 0.05 for *_, r in rows)})")
    for k, paired, target in ((3, True, 80), (5, False, 60)):
        figs = [f"n {n}: {pct(r['moderated_power'])} (oracle {pct(r['oracle_power'])})"
                for _, kk, sp, n, pp, r in rows if kk == k and pp == paired and abs(sp - 0.05) < 1e-9]
        if figs:
            print(f"{model}: power K = {k} {'paired' if paired else 'unpaired'}, σ_p 5 % (target {target} %): "
                  + ", ".join(figs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a few cells, 10 replicates (the tests' size)")
    ap.add_argument("--reps", type=int, default=100, help="comparisons of 40 cases per cell and scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ks", help="comma-separated processes per side (default 1,2,3,5,10,20)")
    ap.add_argument("--sps", help="comma-separated launch sd sigma_p in %% (default 0,2,5,10)")
    ap.add_argument("--ns", help="comma-separated samples per process (default 5,20,100)")
    ap.add_argument("--model", choices=(*MODELS, "both"), default="both",
                    help="audit: the issue's homogeneous sigma_p with drift and spikes; harsh: heterogeneous, noisy "
                         "and quantised cases (default: both)")
    ap.add_argument("--prior-bound", choices=("moments", "profile", "profile_censored", "profile_bulk"),
                    default="moments",
                    help="the moderated prior's d0 bound: moments (V + z se(V), the library's) or the one-sided "
                         "profile-likelihood lower bound: of all cases, censored where the robust step winsorises, "
                         "or of the bulk (outlier share >= 1/2); tried in bench/RESULTS-inference.md")
    ap.add_argument("--profile-level", type=float, default=ref.PROFILE_LEVEL,
                    help="one-sided level of the profile-likelihood bound (with --prior-bound profile*)")
    args = ap.parse_args()
    global PRIOR_METHOD
    PRIOR_METHOD = args.prior_bound
    ref.PROFILE_LEVEL = args.profile_level
    ks, sps, ns = ([1, 3, 5], [0.0, 0.05], [5, 20]) if args.quick else ([1, 2, 3, 5, 10, 20], [0.0, 0.02, 0.05, 0.10],
                                                                     [5, 20, 100])
    reps = 10 if args.quick else args.reps
    if args.ks:
        ks = [int(k) for k in args.ks.split(",")]
    if args.sps:
        sps = [float(x) / 100 for x in args.sps.split(",")]
    if args.ns:
        ns = [int(x) for x in args.ns.split(",")]
    t0 = time.time()
    print(f"seed {args.seed}, {reps} comparisons of {CASES} cases per cell and scenario; numpy {np.__version__}")
    rows = []
    for model in MODELS if args.model == "both" else (args.model,):
        rows += run_model(model, args.seed, reps, ks, sps, ns)
    print()
    print(f"{time.time() - t0:.0f} s")
    return rows


if __name__ == "__main__":
    main()
