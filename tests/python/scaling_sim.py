"""Seeded simulated size families for the scaling tests and bench (tests/python/test_scaling.py,
bench/bench_scaling_models.py): per-process medians of samples with a process-level effect (the
process is the independent unit) and sample noise, from a known growth law."""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

Law = Callable[[np.ndarray], np.ndarray]
SIZES = np.geomspace(256, 32768, 8)
PIVOT = 4096.0  # a fixed cost equal to the growth term's cost here: it dominates the smallest sizes


def _cliff(n: np.ndarray) -> np.ndarray:
    """Linear with a 1.6× step past 4000 (a cache running out): no model of the set fits it."""
    return 1e-9 * n * np.where(n > 4000, 1.6, 1.0)


# name: (law, the model that should be chosen, its exponent or None). "none": lack of fit expected.
LAWS: Dict[str, Tuple[Law, str, Optional[float]]] = {
    "n": (lambda n: 1e-9 * n, "n", 1.0),
    "n log n": (lambda n: 1e-9 * n * np.log(n), "n log n", None),
    "n^2": (lambda n: 1e-11 * n ** 2, "n^2", 2.0),
    "n^1.5": (lambda n: 1e-10 * n ** 1.5, "n^b", 1.5),
    "c + n": (lambda n: 1e-9 * (PIVOT + n), "c + n", None),
    "c + n log n": (lambda n: 1e-9 * (PIVOT * np.log(PIVOT) + n * np.log(n)), "c + n log n", None),
    "c + n^1.5": (lambda n: 1e-10 * (PIVOT ** 1.5 + n ** 1.5), "c + n^k", 1.5),
    "cliff": (_cliff, "none", None),
}


def simulate(rng: np.random.Generator, law: Law, sizes: Sequence[float] = SIZES, processes: int = 3,
             samples: int = 10, noise: Tuple[float, float] = (0.02, 0.05)) -> List[Tuple[float, List[float]]]:
    """[(size, per-process medians)]: each size draws a noise level in ``noise``; each process a
    log-normal effect of that level, each sample another."""
    levels = []
    for n in sizes:
        level = noise[0] + (noise[1] - noise[0]) * rng.random()
        medians = []
        for _ in range(processes):
            effect = rng.normal(0, level)
            medians.append(float(np.median(law(n) * np.exp(effect + rng.normal(0, level, size=samples)))))
        levels.append((float(n), medians))
    return levels
