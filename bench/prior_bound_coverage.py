"""How often the prior's upper bound V + z se(V) on the excess log-variance (docs/statistics-comparison.md,
"Moderated t") covers the true excess, by the cases' df: why one-df cases (paired, 2 processes) get a
larger z (stats/moderated_t.hpp, prior_excess_z_for).

40 cases, log sigma_g^2 ~ N(0, 0.6^2) (the harsh model's launch sd spread exp(N(0, 0.3))), optionally 2
of them at 16x the variance (the harsh model's very noisy cases); s_g^2 = sigma_g^2 chi2_d / d. The true
excess is the sample variance of these 40 log sigma_g^2; the bound covers it when V + z se(V) - psi'(d/2)
reaches it (equivalently, when the estimated d0 is at most the d0 of the true excess).

Run: python3 bench/prior_bound_coverage.py [--reps 20000] [--seed 5]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from scipy import special

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import moderated_reference as ref  # noqa: E402

CASES, LOG_SD, NOISY_FACTOR = 40, 0.6, 16.0


def bound_minus_excess(rng, reps, d, noisy, z):
    """V + z se(V) - mean psi'(d/2) minus the true excess, per replicate (one row of cases each)."""
    lv = rng.normal(0, LOG_SD, (reps, CASES))
    lv[:, :noisy] += np.log(NOISY_FACTOR)
    s2 = np.exp(lv) * rng.chisquare(d, (reps, CASES)) / d
    e = np.log(s2) - special.digamma(d / 2) + np.log(d / 2)
    v = e.var(1, ddof=1)
    m4 = ((e - e.mean(1, keepdims=True)) ** 4).mean(1)
    se = np.sqrt(np.maximum(0, m4 - (CASES - 3) / (CASES - 1) * v * v) / CASES)
    bound = v[:, None] + np.asarray(z)[None, :] * se[:, None] - special.polygamma(1, d / 2)
    # the same bound as the reference's prior (one replicate): its d0 is 2 psi'^-1 of the bound
    d0 = ref.variance_prior(s2[0], np.full(CASES, float(d)), excess_z=z[0])[0]
    if bound[0, 0] > 0 and np.isfinite(d0):
        assert abs(d0 - 2 * ref.trigamma_inverse(np.array([bound[0, 0]]))[0]) < 1e-8 * d0
    return bound - lv.var(1, ddof=1)[:, None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    zs = [1.645, 2.0, 2.5, 3.0]
    print(f"seed {args.seed}, {args.reps} sets of {CASES} cases; coverage % of the true excess by the bound at z =")
    print("| very noisy cases | d | " + " | ".join(f"z {z}" for z in zs) + " |")
    print("|---|---|" + "---|" * len(zs))
    for noisy in (0, 2):
        for d in (1, 2, 4):
            rng = np.random.default_rng([args.seed, noisy, d])
            cov = (bound_minus_excess(rng, args.reps, d, noisy, zs) >= 0).mean(0)
            print(f"| {noisy} | {d} | " + " | ".join(f"{100 * c:.1f}" for c in cov) + " |")


if __name__ == "__main__":
    main()
