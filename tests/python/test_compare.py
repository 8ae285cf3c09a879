"""Comparison and inference: checked against scipy and brute-force references."""
import functools
import math

import numpy as np
import pytest
import scipy.stats as st
from hypothesis import given, settings, strategies as hst

import benchreport as br


def rng(seed):
    return np.random.default_rng(seed)


# ---- Mann–Whitney U ---------------------------------------------------------

MWU_CASES = [(n, m, ties, seed) for n, m in [(1, 1), (2, 3), (5, 7), (3, 20), (8, 8), (8, 30), (9, 9), (12, 15),
                                             (40, 35)]
             for ties in (False, True) for seed in range(3)]


@pytest.mark.parametrize("n,m,ties,seed", MWU_CASES)
def test_mann_whitney_matches_scipy(n, m, ties, seed):
    g = rng(seed)
    x = g.normal(size=n)
    y = g.normal(0.7, size=m)
    if ties:
        x, y = np.round(x * 2), np.round(y * 2)
    got = br.mann_whitney_u(x, y)
    ref = st.mannwhitneyu(x, y, alternative="two-sided", method="auto")
    assert got.statistic == ref.statistic
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-15)
    has_ties = len(np.unique(np.r_[x, y])) < n + m
    expected = "exact" if (min(n, m) <= 8 and not has_ties) else "asymptotic"
    assert got.method == expected
    # The forced methods agree with scipy's forced methods too.
    assert got.pvalue == pytest.approx(st.mannwhitneyu(x, y, method=expected).pvalue, rel=1e-12, abs=1e-15)


def test_mann_whitney_all_tied():
    got = br.mann_whitney_u([1.0, 1.0, 1.0], [1.0, 1.0])
    assert got.pvalue == 1.0 and got.statistic == 3.0


def test_mann_whitney_batch_matches_single():
    g = rng(5)
    sizes_x, sizes_y = g.integers(1, 30, 50), g.integers(1, 30, 50)
    xs = [np.round(g.normal(size=k), 1) for k in sizes_x]
    ys = [g.normal(0.3, size=k) for k in sizes_y]
    off = lambda parts: np.r_[0, np.cumsum([len(p) for p in parts])]
    u, p = br._core.compare.mann_whitney_u_batch(np.concatenate(xs), off(xs), np.concatenate(ys), off(ys), threads=2)
    for i in range(50):
        ref = st.mannwhitneyu(xs[i], ys[i])
        assert u[i] == ref.statistic
        assert p[i] == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-15)


# ---- Brunner–Munzel and Wilcoxon --------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("n,m,seed,ties", [(2, 2, 0, False), (5, 9, 1, False), (20, 13, 2, True), (50, 60, 3, False)])
def test_brunner_munzel_matches_scipy(n, m, seed, ties):
    g = rng(seed)
    x, y = g.normal(size=n), g.normal(0.4, 2, size=m)
    if ties:
        x, y = np.round(x), np.round(y)
    got = br.brunner_munzel(x, y)
    ref = st.brunnermunzel(x, y)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10, nan_ok=True)


@pytest.mark.parametrize("n,seed,kind", [(1, 0, "plain"), (5, 1, "plain"), (12, 2, "plain"), (50, 3, "plain"),
                                         (60, 3, "plain"), (80, 3, "ties"),
                                         (8, 4, "ties"), (13, 5, "ties"), (30, 6, "ties"), (10, 7, "zeros"),
                                         (25, 8, "zeros")])
def test_wilcoxon_matches_scipy(n, seed, kind):
    g = rng(seed)
    d = g.normal(0.3, size=n)
    if kind == "ties":
        d = np.round(d * 3)
        d[d == 0] = 1.0
    if kind == "zeros":
        d = np.round(d * 3)
    if np.all(d == 0):
        d[0] = 1.0
    got = br.wilcoxon_signed_rank(d)
    ref = st.wilcoxon(d)
    assert got.statistic == ref.statistic
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


# ---- Hodges–Lehmann family vs brute force ------------------------------------

def brute_shift(x, y):
    return np.median(np.subtract.outer(y, x))


def brute_walsh(x):
    i, j = np.triu_indices(len(x))
    return (x[i] + x[j]) / 2


def brute_gaps(x):
    i, j = np.triu_indices(len(x), 1)
    return np.abs(x[i] - x[j])


@pytest.mark.parametrize("n,m,seed", [(1, 1, 0), (2, 5, 1), (20, 20, 2), (70, 90, 3), (300, 200, 4)])
def test_shift_center_spread_brute_force(n, m, seed):
    g = rng(seed)
    x, y = np.round(g.normal(size=n), 2), g.lognormal(size=m)
    assert br.hodges_lehmann_shift(x, y) == brute_shift(x, y)
    assert br.center(x) == np.median(brute_walsh(x))
    if n >= 2:
        assert br.spread(x) == np.median(brute_gaps(x))
        assert br.disparity(x, y) == pytest.approx(
            brute_shift(x, y) / ((len(x) * np.median(brute_gaps(x)) + len(y) * np.median(brute_gaps(y))) / (len(x) + len(y))),
                rel=1e-12)  # pragmastat: spreads weighted by sample size
    xp, yp = g.lognormal(size=n), g.lognormal(size=m)
    assert br.ratio(xp, yp) == pytest.approx(math.exp(brute_shift(np.log(xp), np.log(yp))), rel=1e-13)


def test_kth_pairwise_difference_every_rank():
    g = rng(9)
    xs, ys = np.sort(np.round(g.normal(size=120), 1)), np.sort(np.round(g.normal(size=80), 1))
    all_d = np.sort(np.subtract.outer(ys, xs).ravel())
    for k in list(range(0, len(all_d), 97)) + [len(all_d) - 1]:
        assert br._core.compare.kth_pairwise_difference(xs, ys, k) == all_d[k]


def enumerate_u_cdf(n, m):
    """P(U <= u) by enumerating every placement of the x's among n + m ranks."""
    from itertools import combinations
    counts = np.zeros(n * m + 1)
    for xs in combinations(range(n + m), n):
        u = sum(r - i for i, r in enumerate(xs))  # y's below each x
        counts[u] += 1
    return np.cumsum(counts) / counts.sum()


@pytest.mark.parametrize("n,m,misrate", [(3, 4, 0.2), (5, 5, 0.05), (6, 8, 0.01), (7, 7, 0.001), (2, 2, 0.001)])
def test_shift_margin_by_enumeration(n, m, misrate):
    cdf = enumerate_u_cdf(n, m)
    k, achieved, exact = br._core.compare.shift_margin(n, m, misrate)
    assert exact
    ok = [kk for kk in range(1, (n * m + 1) // 2 + 1) if 2 * cdf[kk - 1] <= misrate]
    expected_k = max(ok) if ok else 1
    assert k == expected_k
    assert achieved == pytest.approx(min(1.0, 2 * cdf[k - 1]), rel=1e-12)


@pytest.mark.parametrize("n,m", [(6, 9), (20, 25)])
def test_shift_bounds_are_pairwise_order_statistics(n, m):
    g = rng(n)
    x, y = g.normal(size=n), g.normal(size=m)
    b = br.shift_bounds(x, y, 0.01)
    k, _, _ = br._core.compare.shift_margin(n, m, 0.01)
    d = np.sort(np.subtract.outer(y, x).ravel())
    assert (b.lower, b.upper) == (d[k - 1], d[n * m - k])
    r = br.ratio_bounds(np.exp(x), np.exp(y), 0.01)
    assert r.lower == pytest.approx(math.exp(d[k - 1])) and r.upper == pytest.approx(math.exp(d[n * m - k]))


def enumerate_signed_rank_cdf(n):
    counts = np.zeros(n * (n + 1) // 2 + 1)
    for mask in range(2 ** n):
        counts[sum(r + 1 for r in range(n) if mask >> r & 1)] += 1
    return np.cumsum(counts) / counts.sum()


@pytest.mark.parametrize("n,misrate", [(5, 0.1), (9, 0.01), (12, 0.001)])
def test_center_bounds_by_enumeration(n, misrate):
    cdf = enumerate_signed_rank_cdf(n)
    k, achieved, _ = br._core.compare.center_margin(n, misrate)
    ok = [kk for kk in range(1, len(cdf) // 2 + 1) if 2 * cdf[kk - 1] <= misrate]
    assert k == (max(ok) if ok else 1)
    x = rng(n).normal(size=n)
    w = np.sort(brute_walsh(x))
    b = br.center_bounds(x, misrate)
    assert (b.lower, b.upper) == (w[k - 1], w[len(w) - k])


# ---- Bootstrap ----------------------------------------------------------------

def test_bootstrap_agrees_with_scipy_within_monte_carlo_error():
    g = rng(11)
    b, h = g.lognormal(0, 0.1, 25), g.lognormal(0.05, 0.1, 25)
    ours = br.bootstrap_median_ratio_ci(b, h, resamples=10000, seed=3)
    stat = lambda b, h, axis: np.median(h, axis=axis) / np.median(b, axis=axis)
    for method, key in (("percentile", "percentile"), ("BCa", "bca")):
        ref = st.bootstrap((b, h), stat, n_resamples=10000, method=method, vectorized=True, random_state=1)
        se = ref.standard_error
        lo, hi = getattr(ours, key)
        # Interval ends from 10 000 resamples vary by a small fraction of the SE.
        assert abs(lo - ref.confidence_interval.low) < 0.25 * se
        assert abs(hi - ref.confidence_interval.high) < 0.25 * se
    assert ours.standard_error == pytest.approx(se, rel=0.05)


def test_bootstrap_same_seed_identical_other_seed_differs():
    g = rng(12)
    b, h = g.lognormal(size=15), g.lognormal(size=17)
    a1 = br.bootstrap_median_ratio_ci(b, h, seed=7)
    a2 = br.bootstrap_median_ratio_ci(b, h, seed=7)
    a3 = br.bootstrap_median_ratio_ci(b, h, seed=8)
    assert a1 == a2
    assert a1.percentile != a3.percentile


def test_bootstrap_batch_independent_of_threads():
    g = rng(13)
    parts_b = [g.lognormal(size=20) for _ in range(12)]
    parts_h = [g.lognormal(size=20) for _ in range(12)]
    off = np.arange(13) * 20
    r1 = br._core.compare.bootstrap_median_ratio_ci_batch(np.concatenate(parts_b), off, np.concatenate(parts_h), off,
                                                          resamples=500, seed=1, threads=1)
    r2 = br._core.compare.bootstrap_median_ratio_ci_batch(np.concatenate(parts_b), off, np.concatenate(parts_h), off,
                                                          resamples=500, seed=1, threads=3)
    assert np.array_equal(r1, r2, equal_nan=True)
    single = br._core.compare.bootstrap_median_ratio_ci([parts_b[4]], [parts_h[4]], resamples=500, seed=1, stream=4)
    assert tuple(r1[4, 1:3]) == single.percentile


def test_hierarchical_bootstrap_with_process_ids():
    g = rng(14)
    base = g.lognormal(0, 0.05, 60)
    head = base * 1.2
    pid = np.repeat(np.arange(6), 10)
    r = br.compare_samples(base, head, base_process=pid, head_process=pid, resamples=2000)
    # Processes on both sides: the interval is process-level and compare runs no sample bootstrap.
    assert r.change_ci_method == "paired_t" and math.isnan(r.bootstrap.percentile[0])
    parts = [base[pid == p] for p in range(6)]
    boot = br.bootstrap_median_ratio_ci(parts, [x * 1.2 for x in parts], resamples=2000)
    assert boot.hierarchical and boot.paired_processes
    assert r.change == pytest.approx(0.2)
    assert r.process_changes == pytest.approx([0.2] * 6)
    assert r.wilcoxon is not None and r.wilcoxon.pvalue == pytest.approx(st.wilcoxon(np.log(np.full(6, 1.2))).pvalue)
    assert r.verdict == "slower"


# ---- p-value adjustment -----------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_adjust_bh_matches_scipy(seed):
    g = rng(seed)
    p = g.uniform(size=g.integers(1, 40)) ** 3
    p[::4] = p[0]  # ties
    assert np.allclose(br.adjust_pvalues(p, "bh"), st.false_discovery_control(p, method="bh"), rtol=1e-13, atol=0)


def brute_holm(p):
    m = len(p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    for rank, i in enumerate(order):
        out[i] = min(1.0, max(min(1.0, p[j] * (m - r)) for r, j in enumerate(order[:rank + 1])))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_adjust_holm_matches_brute_force(seed):
    g = rng(seed)
    p = g.uniform(size=g.integers(1, 30)) ** 2
    assert np.allclose(br.adjust_pvalues(p, "holm"), brute_holm(p), rtol=1e-14, atol=0)


def test_adjust_pvalues_rejects_bad_input():
    with pytest.raises(br.InputError, match="index 1"):
        br.adjust_pvalues([0.1, 1.5])
    with pytest.raises(ValueError):
        br.adjust_pvalues([0.1], method="bonferroni")


# ---- compare_samples: verdicts, properties, errors ---------------------------

def test_compare_verdicts():
    g = rng(20)
    base = g.lognormal(0, 0.01, 30)
    # One process per side: no claim by default; the rule on within-process noise under the assumption.
    assert br.compare_samples(base, base * 1.10).verdict == "inconclusive"
    one = functools.partial(br.compare_samples, assume_launches_identical=True)
    assert one(base, base * 1.10).verdict == "slower"
    assert one(base, base * 0.90).verdict == "faster"
    assert one(base, base * 1.10, direction="higher").verdict == "faster"
    assert one(base, base * 1.001).verdict == "equivalent"
    noisy_head = g.lognormal(0, 0.6, 30)
    assert one(base, noisy_head * 1.3).verdict == "inconclusive"
    few = br.compare_samples(base[:3], base[:3] * 1.5)
    assert few.too_few_samples and few.verdict == "inconclusive"
    assert any("need >= 4 samples" in w for w in few.warnings)
    exact = br.compare_samples([100.0, 100.0], [101.0, 101.0], exact_unit=True)
    assert exact.verdict == "slower"
    assert br.compare_samples([100.0], [100.0], exact_unit=True).verdict == "unchanged"


def test_compare_fields_against_numpy():
    g = rng(21)
    b, h = g.lognormal(0, 0.1, 21), g.lognormal(0.1, 0.1, 18)
    r = br.compare_samples(b, h, name="case A")
    assert r.base_median == np.median(b) and r.head_median == np.median(h)
    assert r.change == pytest.approx(np.median(h) / np.median(b) - 1, rel=1e-15)
    assert r.log_ratio == pytest.approx(math.log(np.median(h) / np.median(b)), rel=1e-14)
    assert r.base_mad_pct == pytest.approx(100 * st.median_abs_deviation(b) / np.median(b), rel=1e-14)
    ref = st.mannwhitneyu(b, h)
    assert r.mann_whitney.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.prob_head_better == pytest.approx(ref.statistic / (len(b) * len(h)))
    assert r.shift == brute_shift(b, h)
    assert r.case == "case A"
    assert "verdict=" in repr(r)


def test_process_pairs_disagree_flag():
    base = [np.full(5, 100.0) + np.arange(5), np.full(5, 100.0) + np.arange(5)]
    head = [base[0] * 1.1, base[1] * 0.9]
    r = br.compare_samples(base, head, resamples=200)
    assert r.processes_disagree
    assert r.process_changes == pytest.approx([0.1, -0.1])
    assert "needs at least 3 process pairs" in r.wilcoxon_unavailable_reason


@pytest.mark.parametrize("base,head,match", [
    ([], [1.0], "case 'c1': base has no samples"),
    ([1.0, float("nan")], [1.0], "case 'c1': base process 0 sample 1 is nan"),
    ([1.0], [2.0, float("inf")], "head process 0 sample 1 is inf"),
    ([1.0], [2.0, -3.0], "expected a positive value"),
    ([1.0], [0.0], "expected a positive value"),
])
def test_compare_bad_input_names_the_case(base, head, match):
    with pytest.raises(br.InputError, match=match):
        br.compare_samples(np.asarray(base, dtype=float), np.asarray(head, dtype=float), name="c1")


def test_estimator_bad_input():
    with pytest.raises(br.InputError, match="positive"):
        br.ratio([1.0, -1.0], [1.0])
    with pytest.raises(br.InputError, match="at least 2"):
        br.spread([1.0])
    with pytest.raises(br.InputError, match="misrate"):
        br.shift_bounds([1.0], [2.0], 0.0)
    with pytest.raises(br.InputError, match="not finite"):
        br.mann_whitney_u([1.0, np.nan], [2.0])
    with pytest.raises(br.InputError, match="at least 2"):
        br.brunner_munzel([1.0], [2.0, 3.0])
    with pytest.raises(br.InputError, match="nonzero"):
        br.wilcoxon_signed_rank([0.0, 0.0])
    with pytest.raises(ValueError, match="one id per base sample"):
        br.compare_samples([1.0, 2.0], [1.0], base_process=[0])


samples = hst.lists(hst.floats(min_value=0.5, max_value=2.0, allow_nan=False, allow_infinity=False),
                    min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(samples)
def test_property_compare_with_itself(a):
    r = br.compare_samples(a, a, resamples=200)
    assert r.change == 0.0
    # Identical inputs never give slower/faster; with too few samples the honest answer is
    # inconclusive (the old rule said "unchanged" for a gated case).
    assert r.verdict in ("equivalent", "inconclusive")
    assert r.change_ci[0] <= 0 <= r.change_ci[1]


@settings(max_examples=40, deadline=None)
@given(samples, samples)
def test_property_swap_inverts_ratio(a, b):
    ab = br.compare_samples(a, b, resamples=200)
    ba = br.compare_samples(b, a, resamples=200)
    assert (1 + ab.change) * (1 + ba.change) == pytest.approx(1.0, rel=1e-12)
    assert ab.ratio * ba.ratio == pytest.approx(1.0, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(samples, samples, hst.sampled_from([0.001, 3.0, 1024.0]))
def test_property_scaling_changes_nothing(a, b, scale):
    r1 = br.compare_samples(a, b, resamples=300, seed=5)
    r2 = br.compare_samples(np.asarray(a) * scale, np.asarray(b) * scale, resamples=300, seed=5)
    assert r2.change == pytest.approx(r1.change, rel=1e-9, abs=1e-12)
    assert r2.verdict == r1.verdict
    assert r2.mann_whitney.pvalue == r1.mann_whitney.pvalue
    assert r2.ratio == pytest.approx(r1.ratio, rel=1e-9)


def test_exact_bootstrap_agrees_with_large_resampling_run():
    """The resampling-free interval sits within Monte Carlo error of a big resampling run."""
    rng = np.random.default_rng(11)
    base = rng.lognormal(0.0, 0.05, 21)
    head = rng.lognormal(0.03, 0.05, 19)
    exact = br.bootstrap_median_ratio_ci(base, head, method="exact")
    sampled = br.bootstrap_median_ratio_ci(base, head, resamples=200_000, seed=3)
    (lo, hi), (s_lo, s_hi) = exact.percentile, sampled.percentile
    width = s_hi - s_lo
    assert exact.estimate == sampled.estimate
    assert abs(lo - s_lo) <= 0.02 * width
    assert abs(hi - s_hi) <= 0.02 * width
    assert exact.resamples == 0
    # Deterministic and seed-free.
    assert exact == br.bootstrap_median_ratio_ci(base, head, method="exact", seed=99)


def test_small_flat_sides_use_the_exact_bootstrap_larger_ones_resample():
    """Up to 40 samples on each side of a one-process comparison the interval is the exact
    bootstrap's (no Monte Carlo error, no seed); from 41 it resamples with the given seed."""
    g = rng(5)
    base, head = g.lognormal(0, 0.05, 10), g.lognormal(0.04, 0.05, 40)
    r = br.compare_samples(base, head, seed=7)
    exact = br.bootstrap_median_ratio_ci(base, head, method="exact")
    assert r.bootstrap == exact and r.bootstrap.exact and r.bootstrap.resamples == 0
    assert r.change_ci_method == ("bca" if np.isfinite(exact.bca).all() else "percentile")
    lo, hi = exact.bca if r.change_ci_method == "bca" else exact.percentile
    assert r.change_ci == (lo - 1, hi - 1) and r.interval_unit == "sample"
    assert br.compare_samples(base, head, seed=8).change_ci == r.change_ci  # seed-free
    bigger = np.append(head, head[0] * 1.001)
    resampled = br.compare_samples(base, bigger, seed=7)
    assert not resampled.bootstrap.exact and resampled.bootstrap.resamples == 10000
    assert resampled.change_ci != br.compare_samples(base, bigger, seed=8).change_ci
    # With processes on a side, never the flat exact path.
    two = br.compare_samples([base[:5], base[5:]], head)
    assert not two.bootstrap.exact


def test_bootstrap_method_is_validated():
    with pytest.raises(ValueError, match="expected"):
        br.bootstrap_median_ratio_ci([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], method="bogus")


def test_large_flat_sides_use_the_bootstraps_normal_limit():
    """Above 20 000 samples on a side with one process per side, the interval is the normal limit
    of the bootstrap (log ratio of medians, each side's se from its median interval): it agrees with
    a resampling bootstrap to a few percent of the interval width, and needs no resampling."""
    g = rng(31)
    base = g.lognormal(0, 0.05, 20_001)
    head = g.lognormal(0, 0.05, 20_003) * 1.01
    r = br.compare_samples(base, head)
    assert r.change_ci_method == "median_normal" and r.interval_unit == "sample"
    boot = br.bootstrap_median_ratio_ci(base, head, resamples=4000, seed=2)
    lo, hi = (x + 1 for x in r.change_ci)
    width = boot.percentile[1] - boot.percentile[0]
    assert abs(lo - boot.percentile[0]) < 0.08 * width and abs(hi - boot.percentile[1]) < 0.08 * width
    assert lo < r.change + 1 < hi
    assert math.isnan(r.shift)  # the pooled Hodges-Lehmann figures are skipped at this size, with a warning
    assert any("not computed" in w for w in r.warnings)
    small = br.compare_samples(base[:20_000], head[:20_000], resamples=500)
    assert small.change_ci_method in ("bca", "percentile")
