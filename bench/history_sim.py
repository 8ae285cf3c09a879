"""Seeded histories with planted shifts, and how detected change points score against them.

Each series: ``commits`` commits, each measured by ``processes`` processes of
``samples`` samples. A process draws its own level (log-normal, ``process_sd``:
process-level noise, what makes the commit the unit) and its samples scatter
around it (``sample_sd``, plus a rare slow outlier). Between 1 and
``max_shifts`` shifts of 2–20 % (either sign) are planted at least
``min_gap`` commits apart. Used by bench/bench_history.py (large runs) and
tests/python/test_history.py (a small seeded run).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Sequence, Tuple

import numpy as np


@dataclass
class PlantedSeries:
    samples: List[List[np.ndarray]]  # [commit][process] -> samples (seconds)
    truth: List[int]                 # index of the first commit after each shift
    factors: List[float]             # level ratio at each shift

    def summaries(self) -> np.ndarray:
        """Per commit: median of the per-process medians (the series every detector is given)."""
        return np.array([np.median([np.median(p) for p in commit]) for commit in self.samples])


def planted_series(rng: np.random.Generator, commits: int = 60, processes: int = 3, samples: int = 10,
                   max_shifts: int = 3, min_gap: int = 8, process_sd: float = 0.01, sample_sd: float = 0.03,
                   shift_range: Tuple[float, float] = (0.02, 0.20)) -> PlantedSeries:
    room = (commits - 2 * min_gap) // min_gap + 1  # most shifts that fit min_gap apart
    if room < 1:
        raise ValueError(f"{commits} commits leave no room for a shift {min_gap} commits from either end")
    n_shifts = min(int(rng.integers(1, max_shifts + 1)), room)
    truth: List[int] = []
    tries = 0
    while len(truth) < n_shifts:  # rejection sampling, started afresh when early picks leave no room
        at = int(rng.integers(min_gap, commits - min_gap + 1))
        tries += 1
        if all(abs(at - t) >= min_gap for t in truth):
            truth.append(at)
        elif tries % 64 == 0:
            truth.clear()
    truth.sort()
    factors = [float((1 + rng.uniform(*shift_range)) ** rng.choice([-1, 1])) for _ in truth]
    level = np.ones(commits) * 1e-3 * float(rng.uniform(0.5, 2))
    for at, f in zip(truth, factors):
        level[at:] *= f
    return PlantedSeries(measure(rng, level, processes, samples, process_sd, sample_sd), truth, factors)


def measure(rng: np.random.Generator, level: np.ndarray, processes: int = 3, samples: int = 10,
            process_sd: float = 0.01, sample_sd: float = 0.03) -> List[List[np.ndarray]]:
    """[commit][process] samples around each commit's true ``level``, with process-level noise."""
    out = []
    for c in range(len(level)):
        commit = []
        for _ in range(processes):
            centre = level[c] * rng.lognormal(0, process_sd)
            x = centre * rng.lognormal(0, sample_sd, samples)
            if rng.random() < 0.05:
                x[int(rng.integers(samples))] *= 1.5  # a slow outlier
            commit.append(x)
        out.append(commit)
    return out


def match(detected: Iterable[int], truth: Sequence[int], tolerance: int = 1) -> int:
    """True positives: detections within ``tolerance`` commits of a true shift, each shift matched once."""
    free = list(truth)
    hits = 0
    for d in sorted(detected):
        near = [t for t in free if abs(t - d) <= tolerance]
        if near:
            free.remove(min(near, key=lambda t: abs(t - d)))
            hits += 1
    return hits


def precision_recall(results: Iterable[Tuple[Sequence[int], Sequence[int]]], tolerance: int = 1) -> Tuple[float, float]:
    """Pooled precision and recall over (detected, truth) pairs."""
    hits = found = planted = 0
    for detected, truth in results:
        hits += match(detected, truth, tolerance)
        found += len(list(detected))
        planted += len(truth)
    return (hits / found if found else 1.0), (hits / planted if planted else 1.0)


def case_table(series: PlantedSeries) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One case's samples in row order (commit, then process): (commit, process, value) columns."""
    commits, processes, values = [], [], []
    for c, commit in enumerate(series.samples):
        for p, x in enumerate(commit):
            commits.append(np.full(len(x), c, dtype=np.int64))
            processes.append(np.full(len(x), p, dtype=np.int64))
            values.append(x)
    return np.concatenate(commits), np.concatenate(processes), np.concatenate(values)


def write_parquet_history(root: str, cases: int, commits: int = 60, processes: int = 3, samples: int = 10,
                          seed: int = 1, row_group: int = 1 << 20) -> int:
    """A planted-shift history as Parquet partitioned by case: ``root/case=caseNNNN/part-0.parquet``,
    one file per case (a case's rows in commit, process order), each case from its own seeded
    generator, so memory stays one case. Columns commit, process (int64) and value (seconds).
    Returns the number of samples written."""
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    total = 0
    for i in range(cases):
        rng = np.random.default_rng([seed, i])
        commit, process, value = case_table(planted_series(rng, commits, processes, samples))
        folder = os.path.join(root, f"case=case{i:04d}")
        os.makedirs(folder, exist_ok=True)
        table = pa.table({"commit": commit, "process": process, "value": value})
        pq.write_table(table, os.path.join(folder, "part-0.parquet"), row_group_size=row_group)
        total += len(value)
    return total
