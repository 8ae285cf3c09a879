"""History's default method (steps) and the evaluation scorer: the scorer against hand-computed
cases, PELT against brute-force optimal partitioning, the noise scale against numpy, F1/cover
lower bounds on a seeded corpus subset (bench/history_eval.py runs the full corpus), and
series whose values are zero, negative or near 1e80."""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import benchreport as br
from benchreport import _core, cli

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from history_corpus import KINDS, corpus  # noqa: E402
from history_eval import covering, f1, score, targets  # noqa: E402


# --- the scorer -------------------------------------------------------------------------------

def test_f1_by_hand():
    # truth {0, 50}, found {0, 53, 120}: 0 and 50 (within 5 of 53) match; P = 2/3, R = 2/2.
    assert f1([50], [53, 120]) == pytest.approx((0.8, 2 / 3, 1.0))
    # 56 is 6 away from 50: only the point 0 matches; P = 1/2, R = 1/2.
    assert f1([50], [56]) == pytest.approx((0.5, 0.5, 0.5))
    # nothing to find, nothing found: 1; one false detection: P = 1/2, R = 1, F1 = 2/3.
    assert f1([], []) == (1.0, 1.0, 1.0)
    assert f1([], [10])[0] == pytest.approx(2 / 3)
    # each detection matches one true point: two true points 2 apart and one detection between them.
    assert f1([40, 42], [41]) == pytest.approx((2 * (2 / 2) * (2 / 3) / (1 + 2 / 3), 1.0, 2 / 3))


def test_covering_by_hand():
    # n = 10, truth cut at 5: segments [0,5), [5,10); found cut at 6: [0,6), [6,10).
    # [0,5) best Jaccard 5/6 with [0,6); [5,10) best 4/5 with [6,10): (5 * 5/6 + 5 * 4/5) / 10.
    assert covering([5], [6], 10) == pytest.approx((5 * 5 / 6 + 5 * 4 / 5) / 10)
    assert covering([5], [5], 10) == 1.0
    assert covering([], [], 10) == 1.0
    # no detection: [0,5) and [5,10) each cover half of [0,10).
    assert covering([5], [], 10) == pytest.approx(0.5)
    # truth none, found at 2: [0,10) vs best [2,10): 8/10.
    assert covering([], [2], 10) == pytest.approx(0.8)


# --- PELT and the noise scale -----------------------------------------------------------------

def brute_force_partition(x: np.ndarray, penalty: float, min_segment: int) -> list:
    n = len(x)
    best, arg = np.inf, None
    for k in range(n):
        for cuts in itertools.combinations(range(1, n), k):
            bounds = [0, *cuts, n]
            if any(b - a < min_segment for a, b in zip(bounds, bounds[1:])):
                continue
            cost = sum(((x[a:b] - x[a:b].mean()) ** 2).sum() for a, b in zip(bounds, bounds[1:])) + penalty * k
            if cost < best - 1e-12:
                best, arg = cost, list(cuts)
    return arg


@pytest.mark.parametrize("seed", range(12))
def test_pelt_equals_brute_force_optimal_partitioning(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 13))
    x = rng.normal(0, 1, n) + np.repeat(rng.normal(0, 3, 3), -(-n // 3))[:n]
    for penalty in (0.0, 0.5, 2.0, 8.0):
        for min_segment in (1, 2, 3):
            if n < 2 * min_segment:
                continue
            assert _core.pelt_mean_changes(x, penalty, min_segment) == brute_force_partition(x, penalty, min_segment), \
                (seed, penalty, min_segment)


def test_noise_scale_matches_numpy():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 2, 300) + np.linspace(0, 50, 300)  # a trend moves every difference alike
    d = np.diff(x)
    expected = 1.482602218505602 * np.median(np.abs(d - np.median(d))) / np.sqrt(2)
    assert _core.noise_scale(x) == pytest.approx(expected, rel=1e-14)
    ties = np.array([0.0, 0, 0, 5, 5, 5, 5])  # MAD of differences 0: the mean absolute deviation instead
    d = np.diff(ties)
    assert _core.noise_scale(ties) == pytest.approx(np.sqrt(np.pi / 2) * np.mean(np.abs(d - np.median(d))) / np.sqrt(2))
    assert _core.noise_scale(np.array([1.0])) == 0


def test_steps_finds_a_step_and_ignores_a_trend_and_a_season():
    rng = np.random.default_rng(5)
    t = np.arange(200)
    step = 100 + 4.0 * (t >= 90) + rng.normal(0, 1, 200)
    assert [s.index for s in _core.detect_steps(step)] == [90]
    trend = 100 + 0.06 * t + rng.normal(0, 1, 200)
    assert _core.detect_steps(trend) == []
    season = 100 + 2 * np.sin(2 * np.pi * t / 7) + rng.normal(0, 1, 200)
    assert _core.detect_steps(season) == []
    with pytest.raises(br.InputError, match="position 1"):
        _core.detect_steps(np.array([1.0, np.nan, 2.0, 3.0]))


def test_a_change_of_spread_is_the_likelihood_ratio_of_numpy():
    rng = np.random.default_rng(11)
    x = 100 + rng.normal(0, 1, 160) * np.where(np.arange(160) >= 70, 3.0, 1.0)
    # No clipping (clip huge): the statistic is the Gaussian likelihood ratio of two variances against
    # one on the squared first differences, maximised over splits with >= 10 differences either side.
    (c,) = _core.detect_steps(x, clip=1e9)
    u = np.diff(x) ** 2
    m = len(u)
    lr = [m * np.log(u.mean()) - k * np.log(u[:k].mean()) - (m - k) * np.log(u[k:].mean()) for k in range(10, m - 9)]
    k = 10 + int(np.argmax(lr))
    assert c.index == k and abs(c.index - 70) <= 2
    assert c.z == pytest.approx(np.sqrt(max(lr)), rel=1e-9)
    assert c.spread_ratio == pytest.approx(np.sqrt(u[k:].mean() / u[:k].mean()), rel=1e-9)
    assert c.step == 0 and c.p_value == pytest.approx(min(1.0, 2 * norm.sf(c.z) * 159), rel=1e-6)
    # history reports it as a change point of (nearly) no relative change, kept despite min_magnitude.
    (cp,) = _core.series_changes(x).change_points
    assert cp.index == c.index and abs(cp.change) < 0.01
    assert _core.detect_steps(x, spreads=False) == []


def test_long_flat_series_give_no_change_point():
    # 50 000 points: candidates come from 512-point blocks (linear in n); none survives the test.
    assert _core.detect_steps(np.random.default_rng(4).normal(100, 1, 50_000)) == []


# --- the method on a seeded corpus subset -----------------------------------------------------

def test_steps_scores_on_a_seeded_corpus_subset():
    kinds = [k for k in KINDS if k != "long_flat"]
    data = corpus(seed=77, per_kind=3, kinds=kinds, real=False)
    found = {m: [[cp.index for cp in _core.series_changes(s.values, method=m).change_points] for s in data]
             for m in ("steps", "e_divisive")}
    steps = score(data, found["steps"], [0.0] * len(data))["overall"]
    edivisive = score(data, found["e_divisive"], [0.0] * len(data))["overall"]
    assert steps["f1"] >= 0.85 and steps["cover"] >= 0.85, steps
    # 0.923 / 0.945 against 0.749 / 0.774 on this subset (bench/history_eval.py: the full corpus).
    assert steps["f1"] >= edivisive["f1"] + 0.1 and steps["cover"] >= edivisive["cover"] + 0.1
    t = targets(data, found["steps"])
    assert t["false_per_500"] <= 1.0 and t["recall_3s"] >= 0.9, t


# --- values any counter can take ---------------------------------------------------------------

def _two_cases(values: dict) -> br.Dataset:
    labels = {"benchmark": [], "commit": []}
    flat, offsets = [], [0]
    for case, series in values.items():
        for c, v in enumerate(series):
            flat.append(v)
            offsets.append(len(flat))
            labels["benchmark"].append(case)
            labels["commit"].append(f"{c:03d}")
    return br.Dataset.from_arrays(np.array(flat), np.array(offsets), labels, unit="B")


@pytest.mark.parametrize("method", ["steps", "e_divisive"])
def test_a_zero_valued_case_beside_a_normal_one(method, tmp_path):
    rng = np.random.default_rng(2)
    normal = 100 + np.r_[np.zeros(30), np.full(30, 8.0)] + rng.normal(0, 1, 60)
    counter = np.r_[np.zeros(30), np.full(30, 3.0)]  # e.g. allocations: 0, then 3 per run
    result = br.history(_two_cases({"normal": normal, "counter": counter}), order="commit", method=method)
    changes = {s.key[0]: c for s, c in zip(result.core.history.series, result.core.changes)}
    (n_cp,) = changes["normal"].change_points
    assert n_cp.relative and n_cp.index == 30 and n_cp.change == pytest.approx(n_cp.after / n_cp.before - 1)
    (c_cp,) = changes["counter"].change_points
    assert not c_cp.relative and c_cp.index == 30 and c_cp.change == 3.0
    assert changes["counter"].regressed_since is not None  # 0 -> 3 bytes: worse, absolutely
    data = json.loads(result.to_json())["data"]
    kinds = {s["labels"]["benchmark"]: s["change_kind"] for s in data["series"]}
    assert kinds == {"normal": "relative", "counter": "absolute"}
    assert "(absolute)" in result.to_markdown()
    path = tmp_path / "h.json"
    br.save(_two_cases({"normal": normal, "counter": counter}), path)
    assert cli.main(["history", str(path), "--order", "commit", "--method", method.replace("_", "-"),
                     "-o", str(tmp_path / "h.md")]) == 0


@pytest.mark.parametrize("method", ["steps", "e_divisive"])
def test_negative_values_get_absolute_changes(method):
    x = np.r_[np.full(25, -5.0), np.full(25, -1.0)] + np.random.default_rng(4).normal(0, 0.3, 50)
    (cp,) = _core.series_changes(x, method=method).change_points
    assert cp.index == 25 and not cp.relative and cp.change == pytest.approx(cp.after - cp.before)
    assert cp.lower < cp.change < cp.upper


@pytest.mark.parametrize("method", ["steps", "e_divisive"])
def test_values_near_1e80_give_the_change_points_of_the_unscaled_series(method):
    rng = np.random.default_rng(9)
    x = 1 + np.r_[np.zeros(40), np.full(40, 0.1)] + rng.normal(0, 0.01, 80)
    plain = _core.series_changes(x, method=method)
    for scale in (2.0 ** 266, 1e80, 1e-80):
        big = _core.series_changes(x * scale, method=method)
        assert [c.index for c in big.change_points] == [c.index for c in plain.change_points] == [40]
        for a, b in zip(big.change_points, plain.change_points):
            assert a.change == pytest.approx(b.change, rel=1e-12)
            assert a.p_value == pytest.approx(b.p_value, rel=1e-9)
            assert np.isfinite(a.lower) and a.lower == pytest.approx(b.lower, rel=1e-9)
    # absolute changes (a zero in the series) near 1e80: the interval in the series' own units.
    z = np.r_[0.0, x[1:]] * 1e80
    (cp,) = _core.series_changes(z, method=method).change_points
    assert not cp.relative and np.isfinite(cp.lower) and cp.lower < cp.change < cp.upper
