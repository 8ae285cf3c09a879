"""Roll-ups across cases and noise calibration, against numpy references."""
import numpy as np
import pytest
import scipy.stats as st

import benchreport as br
from result_fields import fields


def make_results(seed=0, cases=12):
    g = np.random.default_rng(seed)
    out = []
    for i in range(cases):
        base = g.lognormal(0, 0.03, 15)
        head = base * g.choice([0.85, 1.0, 1.02, 1.2]) * g.lognormal(0, 0.03, 15)
        out.append(br.compare_samples(base, head, name=f"case {i}", resamples=300, seed=i))
    return out


def test_rollup_matches_numpy():
    results = make_results()
    r = br.rollup(results, resamples=2000, seed=3)
    changes = np.array([x.change for x in results])
    assert r.cases == len(results)
    assert r.median_abs_change == pytest.approx(np.median(np.abs(changes)), rel=1e-15)
    assert r.cases_at_threshold == int(np.sum(np.abs(changes) >= 0.05))
    k = int(np.argmax(np.abs(changes)))
    assert r.largest_case == f"case {k}"
    assert r.largest_change == changes[k]
    geo = np.exp(np.mean(np.log1p(changes)))
    assert r.geomean_ratio == pytest.approx(geo, rel=1e-12)
    lo, hi = r.geomean_ci
    assert lo <= geo <= hi
    # t-interval over the cases' log ratios (replaced the percentile bootstrap): scipy's one-sample t.
    logs = np.array([x.log_ratio for x in results])
    ref = st.ttest_1samp(logs, 0.0).confidence_interval(0.95)
    assert np.log(lo) == pytest.approx(ref.low, abs=1e-12)
    assert np.log(hi) == pytest.approx(ref.high, abs=1e-12)
    counts = r.verdict_counts
    assert sum(counts.values()) == len(results)
    for verdict, n in counts.items():
        assert n == sum(1 for x in results if x.verdict == verdict)
    p = np.array([x.p_value for x in results])  # the verdict p-values (were Mann-Whitney's)
    assert np.allclose(r.p_bh, st.false_discovery_control(p), rtol=1e-13, atol=0)
    assert np.allclose(r.p_holm, br.adjust_pvalues(p, "holm"), rtol=0, atol=0)
    assert br.rollup(results, resamples=2000, seed=3) == r  # seeded: identical


def test_rollup_needs_cases():
    with pytest.raises(br.InputError, match="at least one case"):
        br.rollup([])


def test_compare_many_matches_single_calls():
    g = np.random.default_rng(4)
    cases = {f"c{i}": (g.lognormal(size=10), g.lognormal(size=12)) for i in range(5)}
    many = br.compare_many(cases, resamples=400, seed=9, threads=2)
    for i, (name, (b, h)) in enumerate(cases.items()):
        single = br._core.compare.compare_samples([b], [h], name, resamples=400, seed=9)
        # compare_many uses stream i for case i; compare_samples uses stream 0.
        assert many[i].case == name
        assert many[i].change == single.change
    assert fields(many) == fields(br.compare_many(cases, resamples=400, seed=9, threads=1))


def test_calibrate_noise_from_results_and_mapping():
    aa = make_results(seed=1, cases=6) + make_results(seed=2, cases=6)
    cal = br.calibrate_noise(aa)
    changes = np.abs([x.change for x in aa])
    assert cal.p95_abs_change == pytest.approx(np.quantile(changes, 0.95), rel=1e-14)
    assert cal.suggested_threshold == pytest.approx(max(0.05, 1.5 * np.quantile(changes, 0.95)), rel=1e-14)
    assert cal.cases == [f"case {i}" for i in range(6)]
    assert cal.runs == [2] * 6
    for i in range(6):
        assert cal.noise_floor[i] == max(abs(aa[i].change), abs(aa[i + 6].change))
    m = br.calibrate_noise({"x": [0.01, -0.03], "y": 0.02})
    assert m.noise_floor == [0.03, 0.02]
    assert m.suggested_threshold == 0.05
    with pytest.raises(br.InputError, match="not finite"):
        br.calibrate_noise({"x": [np.nan]})
