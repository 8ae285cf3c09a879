"""Summary statistics against numpy / scipy references (and brute force)."""
import math

import numpy as np
import pytest
import scipy.stats
import scipy.stats.mstats
from hypothesis import given, settings, strategies as st

import benchreport as br

HF_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
              "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased"]
DISTRIBUTIONS = ["normal", "lognormal", "bimodal", "ties"]
RTOL = 1e-12


def sample(dist: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dist == "normal":
        return rng.normal(100.0, 10.0, n)
    if dist == "lognormal":
        return rng.lognormal(3.0, 0.7, n)
    if dist == "bimodal":
        return np.where(rng.random(n) < 0.3, rng.normal(50.0, 2.0, n), rng.normal(80.0, 3.0, n))
    return rng.integers(10, 15, n).astype(np.float64)  # heavy ties


def close(actual, expected, rtol=RTOL, atol=0.0):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


data_sets = st.tuples(st.sampled_from(DISTRIBUTIONS), st.integers(1, 300), st.integers(0, 2**32 - 1))
probabilities = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6)


# ---------------------------------------------------------------- quantiles

@settings(max_examples=80, deadline=None)
@given(data_sets, probabilities, st.sampled_from(HF_METHODS))
def test_quantile_matches_numpy_for_every_method(ds, ps, method):
    x = sample(*ds)
    close(br.quantile(x, ps, method=method), np.quantile(x, ps, method=method))


@pytest.mark.parametrize("method", HF_METHODS)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 10, 11])
def test_quantile_grid_small_n(method, n):
    x = sample("lognormal", n, n)
    ps = np.linspace(0.0, 1.0, 101)
    close(br.quantile(x, ps, method=method), np.quantile(x, ps, method=method))


@pytest.mark.parametrize("method", HF_METHODS)
def test_quantile_large_n(method):
    x = sample("lognormal", 100_000, 1)
    ps = [0.0, 0.001, 0.05, 0.25, 0.5, 0.75, 0.95, 0.999, 1.0]
    close(br.quantile(x, ps, method=method), np.quantile(x, ps, method=method))


def test_quantile_scalar_and_shape():
    x = np.arange(10.0)
    assert isinstance(br.quantile(x, 0.5), float)
    assert br.quantile(x, [[0.1, 0.9]]).shape == (1, 2)


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.sampled_from(DISTRIBUTIONS), st.integers(2, 200), st.integers(0, 2**32 - 1)), probabilities)
def test_harrell_davis_matches_scipy(ds, ps):
    x = sample(*ds)
    expected = scipy.stats.mstats.hdquantiles(x, prob=ps)
    close(br.quantile(x, ps, method="harrell-davis"), np.asarray(expected), rtol=1e-11,
          atol=1e-12 * np.max(np.abs(x)))


def test_harrell_davis_large_n():
    x = sample("normal", 20_000, 3)
    ps = [0.05, 0.5, 0.95]
    close(br.quantile(x, ps, method="harrell-davis"), np.asarray(scipy.stats.mstats.hdquantiles(x, prob=ps)),
          rtol=1e-11)


# ---------------------------------------------------------------- summarize

def check_summary_against_references(x, ddof=0):
    s = br.summarize(x, ddof=ddof, quantiles=[0.05, 0.5, 0.95])
    assert s.n == len(x) and s.n_omitted == 0
    assert s.min == x.min() and s.max == x.max()
    close(s.mean, np.mean(x))
    close(s.std, np.std(x), atol=1e-12 * abs(np.mean(x)))
    if len(x) > 1:
        close(s.std_sample, np.std(x, ddof=1), atol=1e-12 * abs(np.mean(x)))
    else:
        assert math.isnan(s.std_sample)
    close(s.cv, scipy.stats.variation(x, ddof=ddof) if len(x) > ddof else np.nan, atol=1e-12)
    assert s.median == pytest.approx(np.median(x), rel=RTOL)
    close(s.quantiles, np.quantile(x, [0.05, 0.5, 0.95]))
    close(s.iqr, scipy.stats.iqr(x), atol=1e-12 * np.max(np.abs(x)))
    mad = scipy.stats.median_abs_deviation(x)
    close(s.mad, mad)
    close(s.mad_over_median_pct, mad / np.median(x) * 100.0)
    close(s.robust_cv, scipy.stats.median_abs_deviation(x, scale="normal") / np.median(x))


@settings(max_examples=80, deadline=None)
@given(data_sets, st.sampled_from([0, 1]))
def test_summary_matches_numpy_scipy(ds, ddof):
    check_summary_against_references(sample(*ds), ddof)


@pytest.mark.parametrize("dist", DISTRIBUTIONS)
def test_summary_large_n(dist):
    check_summary_against_references(sample(dist, 100_000, 11))


def test_mad_normal_scale_matches_scipy():
    x = sample("lognormal", 501, 5)
    close(br.summarize(x, mad_scale="normal").mad, scipy.stats.median_abs_deviation(x, scale="normal"))


def test_summary_with_harrell_davis_quantiles():
    x = sample("bimodal", 77, 2)
    s = br.summarize(x, method="harrell-davis", quantiles=[0.1, 0.9])
    close(s.quantiles, np.asarray(scipy.stats.mstats.hdquantiles(x, prob=[0.1, 0.9])), rtol=1e-11)
    q1, q3 = scipy.stats.mstats.hdquantiles(x, prob=[0.25, 0.75])
    close(s.iqr, q3 - q1, rtol=1e-10)
    assert s.median == np.median(x)


def test_summary_hand_checked_case():
    s = br.summarize([100.0, 2.0, 3.0, 4.0, 1.0])
    assert (s.median, s.mad, s.iqr, s.tukey_severe, s.modified_z_outliers) == (3.0, 1.0, 2.0, 1, 1)
    assert br.summarize([1.0, 2.0, 3.0, 4.0]).median == 2.5


def test_summary_properties_are_complete():
    s = br.summarize(sample("normal", 40, 1))
    for key in ["n", "n_omitted", "min", "max", "mean", "std", "std_sample", "cv", "median", "quantiles",
                "probabilities", "iqr", "mad", "mad_over_median_pct", "robust_cv", "median_ci", "drift",
                "tukey_mild", "tukey_severe", "modified_z_outliers"]:
        assert hasattr(s, key)
    for key in ["lower", "upper", "achieved", "available"]:
        assert hasattr(s.median_ci, key)
    for key in ["change", "change_available", "theil_sen_slope", "mann_kendall_p"]:
        assert hasattr(s.drift, key)
    assert s.drift.change_reason is None
    assert "median=" in repr(s) and "Drift(" in repr(s.drift) and "MedianCI(" in repr(s.median_ci)


# ---------------------------------------------------------------- drift and trend

@settings(max_examples=60, deadline=None)
@given(st.tuples(st.sampled_from(DISTRIBUTIONS), st.integers(2, 400), st.integers(0, 2**32 - 1)))
def test_theil_sen_matches_scipy(ds):
    x = sample(*ds)
    d = br.drift(x)
    expected = scipy.stats.theilslopes(x).slope
    close(d.theil_sen_slope, expected, atol=1e-12 * np.max(np.abs(x)))
    close(d.theil_sen_relative, d.theil_sen_slope / np.median(x))


def test_theil_sen_at_the_limit_and_beyond():
    x = sample("normal", 3000, 4) + np.arange(3000) * 0.01
    close(br.drift(x).theil_sen_slope, scipy.stats.theilslopes(x).slope)
    big = br.drift(np.arange(3001.0))
    assert not big.theil_sen_available and "3001 > 3000" in big.theil_sen_reason
    assert br.drift(np.arange(3001.0), theil_sen_max_n=4000).theil_sen_slope == 1.0


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.sampled_from(DISTRIBUTIONS), st.integers(3, 400), st.integers(0, 2**32 - 1)))
def test_mann_kendall_matches_kendalltau_asymptotic(ds):
    x = sample(*ds)
    d = br.drift(x)
    ref = scipy.stats.kendalltau(x, np.arange(len(x)), method="asymptotic")
    if np.all(x == x[0]):
        assert not d.mann_kendall_available
        return
    close(d.kendall_tau, ref.statistic, atol=1e-14)
    close(d.mann_kendall_p, ref.pvalue, atol=1e-15)


@pytest.mark.parametrize("dist", DISTRIBUTIONS)
def test_mann_kendall_large_n(dist):
    x = sample(dist, 100_000, 8) + np.linspace(0.0, 0.5, 100_000)
    d = br.drift(x)
    ref = scipy.stats.kendalltau(x, np.arange(len(x)), method="asymptotic")
    close(d.kendall_tau, ref.statistic, rtol=1e-12)
    close(d.mann_kendall_p, ref.pvalue, rtol=1e-9, atol=1e-300)


def test_mann_kendall_exact_small_n_differs_from_scipy_auto():
    # scipy's default is the exact null distribution for n <= 33 without ties; we
    # document that we match method="asymptotic".
    x = np.array([1.0, 3.0, 2.0, 5.0, 4.0, 6.0])
    assert br.drift(x).mann_kendall_p == pytest.approx(
        scipy.stats.kendalltau(x, np.arange(6), method="asymptotic").pvalue, rel=RTOL)


@settings(max_examples=60, deadline=None)
@given(data_sets, st.integers(1, 12))
def test_drift_change_matches_numpy(ds, k):
    x = sample(*ds)
    d = br.drift(x, k=k)
    if len(x) < 2 * k:
        assert not d.change_available and f"2k = {2 * k}" in d.change_reason
        assert math.isnan(d.change)
        return
    first = np.median(x[:k])
    if first <= 0:
        assert not d.change_available
        return
    close(d.change, np.median(x[-k:]) / first - 1.0, atol=1e-15)


# ---------------------------------------------------------------- median CI

def brute_force_median_ci(n, nominal):
    """Largest l with P(l <= B <= n - l) >= nominal for B ~ Binomial(n, 1/2)."""
    best = None
    for l in range(1, (n + 1) // 2 + 1):
        coverage = 1.0 - 2.0 * scipy.stats.binom.cdf(l - 1, n, 0.5)
        if coverage >= nominal:
            best = (l, coverage)
    return best


@pytest.mark.parametrize("n", list(range(1, 40)) + [100, 1001])
@pytest.mark.parametrize("nominal", [0.9, 0.95, 0.99])
def test_median_ci_matches_brute_force(n, nominal):
    x = sample("lognormal", n, n)
    ci = br.median_ci(x, nominal)
    expected = brute_force_median_ci(n, nominal)
    if expected is None:
        assert not ci.available and "too small" in ci.reason
        close(ci.achieved, 1.0 - 2.0 * 0.5 ** n)
        return
    l, coverage = expected
    xs = np.sort(x)
    assert (ci.lower_rank, ci.upper_rank) == (l, n + 1 - l)
    assert (ci.lower, ci.upper) == (xs[l - 1], xs[n - l])
    close(ci.achieved, coverage, rtol=1e-10)
    s = br.summarize(x, confidence=nominal).median_ci
    assert (s.lower, s.upper, s.achieved) == (ci.lower, ci.upper, ci.achieved)


# ---------------------------------------------------------------- outliers

@settings(max_examples=60, deadline=None)
@given(data_sets)
def test_outlier_counts_match_numpy(ds):
    x = sample(*ds)
    x = np.concatenate([x, [np.median(x) * 5.0]])  # at least one candidate
    s = br.summarize(x)
    q1, q3 = np.quantile(x, [0.25, 0.75])
    iqr = q3 - q1
    beyond_mild = np.sum((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr))
    beyond_severe = np.sum((x < q1 - 3.0 * iqr) | (x > q3 + 3.0 * iqr))
    assert (s.tukey_mild, s.tukey_severe) == (beyond_mild - beyond_severe, beyond_severe)
    dev = np.abs(x - np.median(x))
    mad = np.median(dev)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert s.modified_z_outliers == np.sum(dev / mad > 14.826)


# ---------------------------------------------------------------- grouped

def make_groups(n_sets, seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 60, n_sets)
    dists = rng.choice(DISTRIBUTIONS, n_sets)
    parts = [sample(d, int(n), seed + i) for i, (d, n) in enumerate(zip(dists, sizes))]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return np.concatenate(parts), offsets


def assert_same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object:
        assert list(a) == list(b)
    else:
        np.testing.assert_array_equal(a, b)  # NaN == NaN here; bitwise otherwise


def summary_value(s, key):
    """The Summary property behind a summarize_grouped column name."""
    if key.startswith("median_ci_"):
        return getattr(s.median_ci, key[len("median_ci_"):])
    if key.startswith("drift"):
        return getattr(s.drift, "change" + key[len("drift"):])
    if key.startswith(("theil_sen_", "mann_kendall_", "kendall_tau")):
        return getattr(s.drift, key)
    return getattr(s, key)


@pytest.mark.parametrize("threads", [1, 2])
def test_grouped_equals_per_set(threads):
    values, offsets = make_groups(600, 21)
    g = br.summarize_grouped(values, offsets, threads=threads)
    for i in range(0, 600, 7):
        s = br.summarize(values[offsets[i]:offsets[i + 1]])
        for key, column in g.items():
            if key == "probabilities":
                continue
            expected = summary_value(s, key)
            if key.endswith("_reason"):
                expected = expected or ""
            if key == "median_ci_nominal":
                continue
            assert_same(column[i], expected)


def test_grouped_identical_for_any_thread_count():
    values, offsets = make_groups(3000, 5)
    one = br.summarize_grouped(values, offsets, threads=1)
    for threads in (2, 3, None):
        other = br.summarize_grouped(values, offsets, threads=threads)
        assert one.keys() == other.keys()
        for key in one:
            assert_same(one[key], other[key])


def test_grouped_stats_selection_and_shapes():
    values, offsets = make_groups(50, 3)
    g = br.summarize_grouped(values, offsets, stats=["median", "mad", "cv", "quantiles", "drift"], quantiles=[0.95])
    assert set(g) == {"n", "n_omitted", "min", "max", "mean", "std", "std_sample", "cv", "median", "probabilities",
                      "quantiles", "mad", "mad_over_median_pct", "robust_cv", "drift", "drift_available",
                      "drift_reason"}
    assert g["quantiles"].shape == (50, 1)
    full = br.summarize_grouped(values, offsets, quantiles=[0.95])
    for key in g:
        assert_same(g[key], full[key])


def test_grouped_accepts_numpy_without_copy_and_lists():
    values, offsets = make_groups(10, 9)
    a = br.summarize_grouped(values, offsets)
    b = br.summarize_grouped(list(values), list(offsets))
    assert_same(a["median"], b["median"])


# ---------------------------------------------------------------- errors

def test_errors_name_set_and_index():
    with pytest.raises(br.InputError, match="sample set: value at index 2 is nan"):
        br.summarize([1.0, 2.0, np.nan])
    with pytest.raises(ValueError, match="index 0 is inf"):
        br.summarize([np.inf, 1.0])
    with pytest.raises(br.InputError, match="sample set is empty"):
        br.summarize([])
    with pytest.raises(br.InputError, match="set 1: value at index 1 is -inf"):
        br.summarize_grouped([1.0, 2.0, 3.0, -np.inf], [0, 2, 4])
    with pytest.raises(br.InputError, match="set 2 is empty"):
        br.summarize_grouped([1.0, 2.0, 3.0, 4.0], [0, 2, 4, 4])
    with pytest.raises(br.InputError, match="offsets"):
        br.summarize_grouped([1.0, 2.0], [0, 3])
    with pytest.raises(br.InputError, match="must not decrease"):
        br.summarize_grouped([1.0, 2.0], [0, 2, 1, 2])
    with pytest.raises(br.InputError, match="1-dimensional"):
        br.summarize(np.ones((2, 2)))
    with pytest.raises(br.InputError, match="no finite values"):
        br.summarize([np.nan], nan_policy="omit")


def test_nan_policy_omit_counts_dropped():
    s = br.summarize([1.0, np.nan, 3.0, np.inf, 2.0], nan_policy="omit")
    assert (s.n, s.n_omitted, s.median) == (3, 2, 2.0)
    g = br.summarize_grouped([1.0, np.nan, 3.0, 4.0], [0, 2, 4], nan_policy="omit")
    assert list(g["n_omitted"]) == [1, 0] and list(g["median"]) == [1.0, 3.5]


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "median"}, "unknown quantile method"),
    ({"nan_policy": "drop"}, "nan_policy"),
    ({"mad_scale": "gauss"}, "mad_scale"),
    ({"ddof": 3}, "ddof is 3"),
    ({"k": 0}, "k is 0"),
    ({"k": -1}, "k is -1"),
    ({"confidence": 0.0}, "confidence"),
    ({"quantiles": [1.5]}, r"\[0, 1\]"),
    ({"stats": ["p95"]}, "unknown statistic"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(br.InputError, match=message):
        br.summarize([1.0, 2.0, 3.0], **kwargs)


def test_quantile_errors():
    with pytest.raises(br.InputError, match=r"\[0, 1\]"):
        br.quantile([1.0, 2.0], -0.1)
    with pytest.raises(br.InputError, match="empty"):
        br.quantile([], 0.5)
    with pytest.raises(br.InputError, match="index 1 is nan"):
        br.quantile([1.0, np.nan], 0.5)
    with pytest.raises(br.InputError, match="threads"):
        br.summarize_grouped([1.0], [0, 1], threads=-1)


def test_quantile_method_literal_matches_the_core():
    import typing
    from benchreport import _stats
    assert typing.get_args(_stats.QuantileMethodName) == tuple(_stats.QUANTILE_METHODS)
