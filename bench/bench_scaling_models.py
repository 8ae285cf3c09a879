"""Model-choice accuracy of the scaling fit (src/stats/scaling.cpp) on simulated families whose
truth is known: each growth class with and without a fixed cost, and a cache cliff no model fits.

Per truth, ``--trials`` seeded families (8 sizes 256…32768, 3 processes × 10 samples, process
effect and sample noise 2–5 % per size; tests/python/scaling_sim.py): how often each model is
chosen, how often lack of fit is reported, and the exponent interval's coverage where the truth
has one. Writes a Markdown table (stdout, or --out).

    PYTHONPATH=build/dev/python python3 bench/bench_scaling_models.py --trials 1000   # bench/RESULTS-scaling.md
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import List

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

from scaling_sim import LAWS, simulate  # noqa: E402

import benchreport as br  # noqa: E402


def run(trials: int, seed: int) -> List[str]:
    lines = ["| truth | expected | right | lack of fit | exponent coverage | chosen (counts) |",
             "| --- | --- | ---: | ---: | ---: | --- |"]
    for i, name in enumerate(LAWS):
        law, expected, exponent = LAWS[name]
        rng = np.random.default_rng(seed + i)
        chosen: collections.Counter = collections.Counter()
        lack = covered = right = 0
        for _ in range(trials):
            fit = br.fit_scaling(simulate(rng, law))
            chosen[fit.closest] += 1
            lack += fit.lack_of_fit.detected
            right += (fit.best == expected) if expected != "none" else fit.lack_of_fit.detected
            if exponent is not None:  # the free exponent: c + n^k's k, else the power law's b
                model = next(m for m in fit.models if m.model == ("c + n^k" if expected == "c + n^k" else "n^b"))
                covered += model.exponent_lower <= exponent <= model.exponent_upper
        cover = f"{covered / trials:.1%} (b = {exponent:g})" if exponent is not None else "—"
        counts = ", ".join(f"{m}: {n}" for m, n in chosen.most_common())
        lines.append(f"| {name} | {expected} | {right / trials:.1%} | {lack / trials:.1%} | {cover} | {counts} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    start = time.perf_counter()
    lines = run(args.trials, args.seed)
    elapsed = time.perf_counter() - start
    text = "\n".join(lines) + "\n"
    print(text + f"\n{args.trials} trials per truth, seed {args.seed}: {elapsed:.1f} s wall")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
