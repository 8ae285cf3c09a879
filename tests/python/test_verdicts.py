"""Process-level verdicts: t intervals against scipy, a seeded simulation of CI
noise (the process is the unit of inference), one process per side, BH, and a
sweep showing that no verdict contradicts its interval.

The fuller table is bench/bench_verdicts.py (docs/statistics-comparison.md)."""
import math

import numpy as np
import pytest
import scipy.stats as st

import benchreport as br


@pytest.mark.parametrize("seed,k", [(0, 2), (1, 3), (2, 4), (3, 9)])
def test_t_intervals_match_scipy(seed, k):
    g = np.random.default_rng(seed)
    b = g.normal(0, 0.05, k)
    h = g.normal(0.03, 0.08, k) + 0.5 * b
    for conf in (0.9, 0.95, 0.99):
        p = br.paired_t_interval(b, h, conf)
        ref = st.ttest_rel(h, b)
        ci = ref.confidence_interval(conf)
        assert p.interval[0] == pytest.approx(ci.low, abs=1e-10)
        assert p.interval[1] == pytest.approx(ci.high, abs=1e-10)
        assert p.pvalue == pytest.approx(ref.pvalue, abs=1e-10)
        assert p.df == ref.df
        h2 = g.normal(0.02, 0.1, k + 2)
        w = br.welch_t_interval(b, h2, conf)
        ref = st.ttest_ind(h2, b, equal_var=False)
        ci = ref.confidence_interval(conf)
        assert w.interval[0] == pytest.approx(ci.low, abs=1e-10)
        assert w.interval[1] == pytest.approx(ci.high, abs=1e-10)
        assert w.pvalue == pytest.approx(ref.pvalue, abs=1e-10)
        assert w.df == pytest.approx(ref.df, abs=1e-10)


def test_compare_uses_the_process_interval():
    g = np.random.default_rng(5)
    base = [g.lognormal(0, 0.02, 20) * o for o in g.lognormal(0, 0.03, 4)]
    head = [g.lognormal(0, 0.02, 20) * o * 1.1 for o in g.lognormal(0, 0.03, 4)]
    r = br.compare_samples(base, head, resamples=200)
    lb = np.log([np.median(p) for p in base])
    lh = np.log([np.median(p) for p in head])
    ci = st.ttest_rel(lh, lb).confidence_interval(0.95)
    assert r.interval_unit == "process" and r.change_ci_method == "paired_t"
    assert r.change_ci[0] == pytest.approx(math.expm1(ci.low), abs=1e-12)
    assert r.change_ci[1] == pytest.approx(math.expm1(ci.high), abs=1e-12)
    assert r.base_processes == r.head_processes == 4 and r.interval_df == 3
    assert 0 <= r.between_process_share <= 1
    u = br.compare_samples(base, head, resamples=200, pairing="unpaired")
    ci = st.ttest_ind(lh, lb, equal_var=False).confidence_interval(0.95)
    assert u.change_ci_method == "welch_t"
    assert u.change_ci[0] == pytest.approx(math.expm1(ci.low), abs=1e-12)


def test_one_process_per_side_is_labelled():
    g = np.random.default_rng(6)
    b, h = g.lognormal(0, 0.02, 30), g.lognormal(0.2, 0.02, 30)
    r = br.compare_samples(b, h, resamples=200)
    assert r.interval_unit == "sample" and r.within_process_only
    assert r.verdict == "inconclusive" and r.verdict_code == "one_launch_per_side"
    assert r.verdict_reason.startswith("one launch per side")
    old = br.compare_samples(b, h, resamples=200, assume_launches_identical=True)
    assert old.verdict == "slower"
    assert old.verdict_reason.startswith("one process per side: within-process noise only")
    assert old.verdict_code.endswith("_within_process")
    assert br.compare_samples([1.0], [2.0], resamples=50).verdict == "inconclusive"


def _simulate(g, cases, sigma_p, ratio, drift=0.0, k=4, n=20, sigma_w=0.02):
    ramp = np.arange(n) / (n - 1) - 0.5
    out = {}
    for c in range(cases):
        sides = []
        for r in (1.0, ratio):
            procs = []
            for _ in range(k):
                x = r * g.lognormal(0, sigma_p) * g.lognormal(0, sigma_w, n)
                if drift:
                    x = x * (1 + g.uniform(-drift, drift) * ramp)
                procs.append(x)
            sides.append(procs)
        out[f"c{c}"] = tuple(sides)
    return out


@pytest.mark.parametrize("sigma_p,drift", [(0.0, 0.0), (0.05, 0.0), (0.05, 0.03)])
def test_simulated_aa_false_positives_and_coverage(sigma_p, drift):
    g = np.random.default_rng(int(1000 * sigma_p + 100 * drift))
    cases = 150
    res = br.compare_many(_simulate(g, cases, sigma_p, 1.0, drift), resamples=100, threads=1, control_fdr=False)
    claims = sum(r.verdict in ("slower", "faster") for r in res) / cases
    cover = sum(r.change_ci[0] <= 0 <= r.change_ci[1] for r in res) / cases
    assert claims <= 0.08  # nominal <= 5 %; the pooled pipeline gave ~10 % at sigma_p = 5 %
    assert cover >= 0.90   # nominal 95 %; 4 standard errors of slack for 150 cases
    # With BH over the batch, A/A claims can only fall.
    fdr = br.compare_many(_simulate(g, 60, sigma_p, 1.0, drift), resamples=100, threads=1)
    assert sum(r.verdict in ("slower", "faster") for r in fdr) <= 2
    assert all(r.p_adjusted >= r.p_value for r in fdr)


def test_simulated_power_at_small_process_noise():
    g = np.random.default_rng(11)
    res = br.compare_many(_simulate(g, 100, 0.01, 1.10), resamples=100, threads=1, control_fdr=False)
    assert sum(r.verdict == "slower" for r in res) / 100 >= 0.9
    cover = sum(r.change_ci[0] <= 0.10 <= r.change_ci[1] for r in res) / 100
    assert cover >= 0.88


def _consistent(v, est, lo, hi, t, direction, code=""):
    worse = lo > 0 if direction == "lower" else hi < 0
    better = hi < 0 if direction == "lower" else lo > 0
    if v == "slower":
        return worse and abs(est) >= t
    if v == "faster":
        return better and abs(est) >= t
    if v == "equivalent":
        return -t < lo and hi < t
    if v == "inconclusive":
        if code == "one_launch_per_side":  # no claim on within-process noise alone, whatever the interval
            return True
        if code.startswith("fdr_adjusted"):  # demoted by BH: the interval alone would claim more, never less
            return not (-t < lo and hi < t)
        return not (-t < lo and hi < t) and not ((lo > 0 or hi < 0) and abs(est) >= t)
    return False


@pytest.mark.parametrize("direction", ["lower", "higher"])
def test_no_verdict_contradicts_its_interval(direction):
    # Real comparisons whose intervals land on both sides of 0 and of +-t.
    g = np.random.default_rng(12)
    cases = {}
    for i, true in enumerate(np.linspace(-0.12, 0.12, 49)):
        base = [g.lognormal(0, 0.02, 8) * o for o in g.lognormal(0, 0.02, 3)]
        head = [g.lognormal(0, 0.02, 8) * o * (1 + true) for o in g.lognormal(0, 0.02, 3)]
        cases[f"c{i}"] = (base, head)
        cases[f"s{i}"] = (base[0], head[0])  # one process per side
    res = br.compare_many(cases, resamples=100, threads=1, direction=direction)
    seen = set()
    for r in res:
        lo, hi = r.change_ci
        assert _consistent(r.verdict, r.change_estimate, lo, hi, 0.05, direction, r.verdict_code), \
            (r.verdict, r.verdict_code, r.change_estimate, lo, hi)
        if r.verdict_code.startswith("fdr_adjusted"):
            assert r.p_adjusted >= 0.05 > r.p_value
        assert r.verdict_code and r.verdict_reason
        if r.verdict == "inconclusive":
            assert r.inconclusive_cause in ("noise", "few_processes", "drift", "multiple_comparisons", "one_launch")
        seen.add(r.verdict)
    assert {"slower", "faster", "inconclusive"} <= seen
