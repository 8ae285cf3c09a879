"""Spread (Shamos) and disparity bounds against an independent reference.

The reference re-derives the seeded disjoint pairing in pure Python
(SplitMix64 seeding, xoshiro256**, Lemire's bounded integers, Fisher–Yates as
documented in rng.hpp / hodges_lehmann.hpp), the sign-test margin from
scipy.stats.binom, and the order statistics with numpy. Coverage is checked by
simulation against the known population spread of the normal distribution.
"""
import math

import numpy as np
import pytest
from scipy import stats

import benchreport as br

MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Xoshiro:
    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed, word = splitmix64(seed)
            self.s.append(word)

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & MASK  # noqa: E731
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n):
        product = self.next() * n
        if product & MASK < n:
            threshold = (-n) % n
            while product & MASK < threshold:
                product = self.next() * n
        return product >> 64


def reference_sign_margin(m, misrate):
    ok = [k for k in range(1, (m + 1) // 2 + 1) if 2 * stats.binom.cdf(k - 1, m, 0.5) <= misrate]
    k = max(ok) if ok else 1
    return k, min(1.0, 2 * stats.binom.cdf(k - 1, m, 0.5))


def reference_spread_bounds(x, misrate, seed):
    x = np.asarray(x, dtype=float)
    order = list(range(len(x)))
    rng = Xoshiro(seed)
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    m = len(x) // 2
    gaps = np.sort([abs(x[order[2 * i]] - x[order[2 * i + 1]]) for i in range(m)])
    k, achieved = reference_sign_margin(m, misrate)
    return gaps[k - 1], gaps[m - k], achieved


# Median of |X1 - X2| for X ~ N(0, 1): X1 - X2 ~ N(0, 2), so sqrt(2) * Phi^-1(3/4).
NORMAL_SPREAD = math.sqrt(2) * stats.norm.ppf(0.75)


@pytest.mark.parametrize("m", [1, 2, 7, 11, 12, 30, 101, 5000])
@pytest.mark.parametrize("misrate", [0.5, 0.1, 1e-3, 1e-6])
def test_sign_margin_matches_scipy_binomial(m, misrate):
    k, achieved, exact = br._core.compare.sign_margin(m, misrate)
    ref_k, ref_achieved = reference_sign_margin(m, misrate)
    assert exact and k == ref_k
    assert achieved == pytest.approx(ref_achieved, rel=1e-10, abs=1e-300)


@pytest.mark.parametrize("n,seed,misrate", [(2, 0, 0.5), (3, 1, 0.5), (10, 7, 0.1), (31, 2, 1e-3),
                                            (64, 3, 1e-3), (257, 12345678901234, 1e-4)])
def test_spread_bounds_match_reference_pairing(n, seed, misrate):
    x = np.random.default_rng(n).lognormal(size=n)
    b = br.spread_bounds(x, misrate, seed=seed)
    lower, upper, achieved = reference_spread_bounds(x, misrate, seed)
    assert (b.lower, b.upper) == (lower, upper)
    assert b.achieved_misrate == pytest.approx(achieved, rel=1e-10)
    assert b.exact and b.lower <= b.upper


def test_spread_bounds_with_ties_and_constant_data():
    tied = np.round(np.random.default_rng(5).normal(size=40), 0)
    b = br.spread_bounds(tied, 0.01, seed=9)
    assert (b.lower, b.upper) == reference_spread_bounds(tied, 0.01, 9)[:2]
    flat = br.spread_bounds(np.full(30, 4.25), 0.01)
    assert (flat.lower, flat.upper) == (0.0, 0.0)


def test_spread_bounds_same_seed_same_result_and_shift_invariance():
    x = np.random.default_rng(11).normal(size=80)
    assert br.spread_bounds(x, 1e-3, seed=4) == br.spread_bounds(x, 1e-3, seed=4)
    a, b = br.spread_bounds(x, 1e-3, seed=4), br.spread_bounds(x + 1e3, 1e-3, seed=4)
    assert a.lower == pytest.approx(b.lower, rel=1e-9) and a.upper == pytest.approx(b.upper, rel=1e-9)
    scaled = br.spread_bounds(3 * x, 1e-3, seed=4)
    assert scaled.lower == pytest.approx(3 * a.lower, rel=1e-12) and scaled.upper == pytest.approx(3 * a.upper)


def test_spread_bounds_cover_the_population_spread_at_the_achieved_rate():
    # 4000 normal samples sets of n = 40 at misrate 0.1: misses must not exceed the
    # achieved misrate beyond Monte-Carlo error (4 standard errors).
    g = np.random.default_rng(2024)
    trials, n, misrate = 4000, 40, 0.1
    misses = 0
    for t in range(trials):
        b = br.spread_bounds(g.normal(size=n), misrate, seed=t)
        misses += not (b.lower <= NORMAL_SPREAD <= b.upper)
    achieved = br.spread_bounds(np.arange(n, dtype=float), misrate).achieved_misrate
    assert achieved <= misrate
    rate = misses / trials
    assert rate <= achieved + 4 * math.sqrt(achieved * (1 - achieved) / trials)
    assert rate >= achieved - 4 * math.sqrt(achieved * (1 - achieved) / trials)  # exact, not just conservative


def brute_disparity_bounds(x, y, misrate, seed):
    """Smallest and largest s / a over a dense grid of the shift box [S_L, S_U] and the
    average-spread box [A_L, A_U] (a > 0: a spread of exactly 0 is approached from above),
    built from the independently re-derived spread bounds."""
    s = br.shift_bounds(x, y, misrate / 2)
    lx, ux, ax = reference_spread_bounds(x, misrate / 4, seed)
    ly, uy, ay = reference_spread_bounds(y, misrate / 4, seed + 1)
    wx, wy = len(x) / (len(x) + len(y)), len(y) / (len(x) + len(y))  # pragmastat: weighted by sample size
    la, ua = wx * lx + wy * ly, wx * ux + wy * uy
    assert ua > 0, "use the explicit cases for an all-zero spread box"
    tiny = 1e-300
    shifts = np.linspace(s.lower, s.upper, 101)
    spreads = np.linspace(max(la, tiny), ua, 101)
    q = np.divide.outer(shifts, spreads)
    lower, upper = q.min(), q.max()
    lower = -math.inf if lower < -1e250 else lower
    upper = math.inf if upper > 1e250 else upper
    return lower, upper, min(1.0, s.achieved_misrate + ax + ay)


@pytest.mark.parametrize("n,m,delta,seed", [(30, 40, 0.5, 0), (60, 60, -2.0, 3), (25, 90, 0.0, 8), (40, 40, 3.0, 5)])
def test_disparity_bounds_combine_shift_and_spread_bounds(n, m, delta, seed):
    g = np.random.default_rng(n + m)
    x, y = g.normal(size=n), g.normal(loc=delta, size=m)
    b = br.disparity_bounds(x, y, 1e-2, seed=seed)
    lower, upper, achieved = brute_disparity_bounds(x, y, 1e-2, seed)
    assert b.lower == pytest.approx(lower, rel=1e-12) and b.upper == pytest.approx(upper, rel=1e-12)
    assert b.achieved_misrate == pytest.approx(achieved, rel=1e-10)
    assert b.lower <= br.disparity(x, y) <= b.upper


@pytest.mark.parametrize("shift,seed", [(5.0, 0), (-5.0, 1), (0.0, 2), (0.3, 3)])
def test_disparity_bounds_unbounded_when_spread_may_be_zero(shift, seed):
    # Quantised data: most pair differences are 0, so the spread's lower bound is 0.
    x = (np.random.default_rng(seed).random(30) < 0.3).astype(float)
    y = x + shift
    b = br.disparity_bounds(x, y, 0.5, seed=seed)
    lower, upper, _ = brute_disparity_bounds(x, y, 0.5, seed)
    assert reference_spread_bounds(x, 0.125, seed)[0] == 0 or reference_spread_bounds(y, 0.125, seed + 1)[0] == 0
    assert (b.lower, b.upper) == pytest.approx((lower, upper), rel=1e-12)
    if b.lower != 0 or b.upper != 0:  # a shift box of exactly [0, 0] gives [0, 0]
        assert math.isinf(b.lower) or math.isinf(b.upper)
    flat = br.disparity_bounds(np.ones(10), np.full(10, 3.0), 0.5)
    assert (flat.lower, flat.upper) == (math.inf, math.inf)
    same = br.disparity_bounds(np.ones(10), np.ones(10), 0.5)
    assert (same.lower, same.upper) == (-math.inf, math.inf)


def test_disparity_bounds_cover_the_true_disparity():
    g = np.random.default_rng(77)
    trials, n, delta, misrate = 1500, 40, 0.8, 0.2
    truth = delta / NORMAL_SPREAD
    misses = sum(not (b.lower <= truth <= b.upper) for b in (
        br.disparity_bounds(g.normal(size=n), g.normal(loc=delta, size=n), misrate, seed=t) for t in range(trials)))
    # Bonferroni is conservative: the miss rate stays below the requested misrate.
    assert misses / trials <= misrate


def test_compare_reports_disparity_bounds_with_the_documented_seed():
    g = np.random.default_rng(3)
    base, head = g.lognormal(size=50), 1.1 * g.lognormal(size=50)
    r = br.compare_samples(base, head, seed=17, misrate=1e-2)
    _, mixed = splitmix64(0 ^ 0x5350524541445321)  # stream 0 for a single comparison
    expected = br.disparity_bounds(base, head, 1e-2, seed=17 ^ mixed)
    assert r.disparity_bounds == expected
    short = br.compare_samples(np.array([1.0]), np.array([2.0, 3.0]))
    assert math.isnan(short.disparity) and math.isnan(short.disparity_bounds.lower)


@pytest.mark.parametrize("misrate", [1e-3, 1e-2, 0.1])
def test_compare_warns_when_disparity_bounds_cannot_reach_the_misrate(misrate):
    # The spread bounds run at misrate/4 on floor(n/2) sign-test pairs, whose best misrate is 2 * 2**-pairs.
    pairs = math.ceil(math.log2(8 / misrate))
    g = np.random.default_rng(11)
    for n in (2 * pairs - 1, 2 * pairs):
        base, head = g.lognormal(size=n), g.lognormal(size=n)
        r = br.compare_samples(base, head, misrate=misrate)
        assert br.shift_bounds(base, head, misrate).achieved_misrate <= misrate  # no shift warning instead
        reached = r.disparity_bounds.achieved_misrate <= misrate
        assert reached == (n == 2 * pairs)
        warned = [w for w in r.warnings if w.startswith("disparity bounds cannot reach")]
        assert len(warned) == (0 if reached else 1)
        if warned:
            assert f"need >= {2 * pairs} samples per side" in warned[0]


@pytest.mark.parametrize("call,match", [
    (lambda: br.spread_bounds([1.0], 0.1), "at least 2"),
    (lambda: br.spread_bounds([1.0, float("nan")], 0.1), "not finite"),
    (lambda: br.spread_bounds([1.0, 2.0], 0.0), "misrate"),
    (lambda: br.disparity_bounds([1.0, 2.0], [3.0], 0.1), "disparity_bounds: y"),
])
def test_bad_input_is_a_clear_error(call, match):
    with pytest.raises(br.InputError, match=match):
        call()
