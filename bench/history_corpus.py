"""A seeded evaluation corpus for history change points: series of many kinds, each with its truth.

Every series is a list of per-commit summaries (what ``benchreport history``
gives its detector) and the indices where a person would mark a change: the
first point after each planted step. Noise is sigma = 1 around a level of 100
(so a shift of k sigma is k % and every value is positive); a "3 sigma" shift
is three noise standard deviations (for the heavy-tailed kind, three scale
units of the t distribution).

Kinds (``KINDS``; ``corpus(seed, per_kind)`` draws ``per_kind`` series of each):

- ``shift_1s`` .. ``shift_5s``: 1-3 level shifts of +-1, 2, 3, 5 sigma, >= 20 points apart, n = 200;
- ``linear`` / ``linear_step``: a linear trend rising or falling 4-12 sigma over the series, without / with
  one 4-6 sigma step;
- ``curved`` / ``curved_step``: a saturating or accelerating curve (exp, log, logistic) of 5-15 sigma, without /
  with one step;
- ``weekly`` / ``weekly_step``: a period-7 season of amplitude 1-2 sigma, n = 210, without / with one step;
- ``daily`` / ``daily_step``: a period-24 season of amplitude 1-2 sigma, n = 240, without / with one step;
- ``heavy_tails``: Student t (3 degrees of freedom) noise, one 4-6 scale-unit shift;
- ``spikes``: normal noise with 3-6 single-point spikes of 8-15 sigma (not change points), half with one step;
- ``variance``: the noise sigma triples (or drops to a third) at one point, no level change; the truth is that
  point (annotators of real series mark such changes too);
- ``long_flat``: 2 000 points of noise, no change;
- ``benchmark``: bench/history_sim.py's planted series (per-commit summaries of 3 processes x 10 samples,
  1-3 shifts of 2-20 %), 200 commits;
- ``google_benchmark``: the real 20-commit Google Benchmark history in tests/data/google_benchmark/history
  (BM_Hash slows down at commit 08 and is fixed at 15; BM_Copy is untouched), each metric one series
  (the same in every seed).

Deterministic: the same (seed, per_kind) gives the same series, bit for bit.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Sequence

import numpy as np

from history_sim import planted_series

LEVEL = 100.0
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class CorpusSeries:
    kind: str
    name: str
    values: np.ndarray
    truth: List[int]


def _positions(rng: np.random.Generator, n: int, count: int, gap: int = 20, edge: int = 10) -> List[int]:
    """``count`` step positions in [edge, n - edge], at least ``gap`` apart."""
    while True:
        at = sorted(int(a) for a in rng.integers(edge, n - edge + 1, count))
        if all(b - a >= gap for a, b in zip(at, at[1:])):
            return at


def _steps(rng: np.random.Generator, n: int, at: Sequence[int], size: Callable[[], float]) -> np.ndarray:
    level = np.zeros(n)
    for a in at:
        level[a:] += size() * rng.choice([-1.0, 1.0])
    return level


def shift(sigmas: float) -> Callable[[np.random.Generator], CorpusSeries]:
    def make(rng: np.random.Generator) -> CorpusSeries:
        n = 200
        at = _positions(rng, n, int(rng.integers(1, 4)))
        return CorpusSeries("", "", LEVEL + _steps(rng, n, at, lambda: sigmas) + rng.normal(0, 1, n), at)
    return make


def _one_step(rng: np.random.Generator, n: int, with_step: bool) -> tuple:
    if not with_step:
        return np.zeros(n), []
    at = _positions(rng, n, 1, edge=20)
    return _steps(rng, n, at, lambda: float(rng.uniform(4, 6))), at


def linear(with_step: bool) -> Callable[[np.random.Generator], CorpusSeries]:
    def make(rng: np.random.Generator) -> CorpusSeries:
        n = 200
        t = np.arange(n) / (n - 1)
        trend = float(rng.uniform(4, 12)) * rng.choice([-1.0, 1.0]) * t
        step, at = _one_step(rng, n, with_step)
        return CorpusSeries("", "", LEVEL + trend + step + rng.normal(0, 1, n), at)
    return make


def curved(with_step: bool) -> Callable[[np.random.Generator], CorpusSeries]:
    def make(rng: np.random.Generator) -> CorpusSeries:
        n = 200
        t = np.arange(n) / (n - 1)
        shape = int(rng.integers(3))
        if shape == 0:
            curve = np.expm1(3 * t) / np.expm1(3)          # accelerating
        elif shape == 1:
            curve = np.log1p(20 * t) / np.log1p(20)         # saturating
        else:
            curve = 1 / (1 + np.exp(-10 * (t - float(rng.uniform(0.3, 0.7)))))  # logistic
        trend = float(rng.uniform(5, 15)) * rng.choice([-1.0, 1.0]) * curve
        step, at = _one_step(rng, n, with_step)
        return CorpusSeries("", "", LEVEL + trend + step + rng.normal(0, 1, n), at)
    return make


def seasonal(period: int, with_step: bool) -> Callable[[np.random.Generator], CorpusSeries]:
    def make(rng: np.random.Generator) -> CorpusSeries:
        n = 30 * 7 if period == 7 else 10 * 24
        phase = float(rng.uniform(0, 2 * np.pi))
        amplitude = float(rng.uniform(1, 2))
        season = amplitude * np.sin(2 * np.pi * np.arange(n) / period + phase)
        if period == 7:  # a weekend dip on top of the sine
            season[(np.arange(n) + int(rng.integers(7))) % 7 >= 5] -= amplitude
        step, at = _one_step(rng, n, with_step)
        return CorpusSeries("", "", LEVEL + season + step + rng.normal(0, 1, n), at)
    return make


def heavy_tails(rng: np.random.Generator) -> CorpusSeries:
    n = 200
    at = _positions(rng, n, 1, edge=20)
    return CorpusSeries("", "", LEVEL + _steps(rng, n, at, lambda: float(rng.uniform(4, 6))) + rng.standard_t(3, n), at)


def spikes(rng: np.random.Generator) -> CorpusSeries:
    n = 200
    step, at = _one_step(rng, n, bool(rng.integers(2)))
    x = LEVEL + step + rng.normal(0, 1, n)
    where = rng.choice(n, int(rng.integers(3, 7)), replace=False)
    x[where] += rng.uniform(8, 15, len(where)) * rng.choice([-1.0, 1.0], len(where))
    return CorpusSeries("", "", x, at)


def variance(rng: np.random.Generator) -> CorpusSeries:
    n = 200
    (at,) = _positions(rng, n, 1, edge=30)
    sd = np.ones(n)
    sd[at:] = 3.0 if rng.integers(2) else 1 / 3
    return CorpusSeries("", "", LEVEL + rng.normal(0, 1, n) * sd, [at])


def long_flat(rng: np.random.Generator) -> CorpusSeries:
    return CorpusSeries("", "", LEVEL + rng.normal(0, 1, 2000), [])


def benchmark(rng: np.random.Generator) -> CorpusSeries:
    s = planted_series(rng, commits=200, min_gap=20)
    return CorpusSeries("", "", s.summaries(), list(s.truth))


KINDS: Dict[str, Callable[[np.random.Generator], CorpusSeries]] = {
    "shift_1s": shift(1), "shift_2s": shift(2), "shift_3s": shift(3), "shift_5s": shift(5),
    "linear": linear(False), "linear_step": linear(True),
    "curved": curved(False), "curved_step": curved(True),
    "weekly": seasonal(7, False), "weekly_step": seasonal(7, True),
    "daily": seasonal(24, False), "daily_step": seasonal(24, True),
    "heavy_tails": heavy_tails, "spikes": spikes, "variance": variance, "long_flat": long_flat,
    "benchmark": benchmark,
}

#: Kinds of trend or season without a step (the false-alarm target: <= 1 per 500 points).
NO_STEP_SMOOTH = ("linear", "curved", "weekly", "daily")


def google_benchmark() -> List[CorpusSeries]:
    """Each metric of the real 20-commit Google Benchmark history, as ``benchreport history`` summarises it."""
    import benchreport as br

    paths = sorted((ROOT / "tests" / "data" / "google_benchmark" / "history").glob("*.json"))
    result = br.history(paths)
    out = []
    for s in result.core.history.series:
        labels = dict(zip(result.by, s.key))
        truth = [7, 14] if labels.get("benchmark") == "BM_Hash" else []
        out.append(CorpusSeries("google_benchmark", "/".join(s.key), np.asarray(s.values, dtype=np.float64), truth))
    return out


def corpus(seed: int, per_kind: int, kinds: Sequence[str] = tuple(KINDS), real: bool = True) -> List[CorpusSeries]:
    """``per_kind`` series of each kind, each from its own generator seeded by (seed, kind number, i)."""
    out = []
    for k, kind in enumerate(KINDS):
        if kind not in kinds:
            continue
        for i in range(per_kind):
            s = KINDS[kind](np.random.default_rng([seed, k, i]))
            s.kind, s.name = kind, f"{kind}-{i:03d}"
            out.append(s)
    if real:
        out.extend(google_benchmark())
    return out
