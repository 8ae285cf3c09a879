"""Reference implementation of the empirical-Bayes moderated t (Smyth 2004) and of the
power of the verdict rule, written from the paper's formulas with scipy.special; used by
tests/python/test_moderated.py and by bench/bench_moderated.py (vectorised over cases).
"""
from __future__ import annotations

import numpy as np
from scipy import integrate, special, stats


def trigamma(x):
    return special.polygamma(1, x)


def trigamma_inverse(x):
    """Smyth (2004), appendix: Newton's method on 1/trigamma, vectorised."""
    x = np.asarray(x, dtype=float)
    y = np.where(x > 1e7, 1 / np.sqrt(x), np.where(x < 1e-6, 1 / x, 0.5 + 1 / x))
    todo = (x >= 1e-6) & (x <= 1e7)
    for _ in range(100):
        if not todo.any():
            break
        tri = trigamma(y[todo])
        dif = tri * (1 - tri / x[todo]) / special.polygamma(2, y[todo])
        y[todo] += dif
        done = -dif / y[todo] < 1e-10
        idx = np.flatnonzero(todo)
        todo[idx[done]] = False
    return y


def variance_prior(s2, d, excess_z=0.0, min_cases=3, min_d0=0.5):
    """(d0, s0², fallback, pooled_df) by the method of moments on log s² (Smyth 2004, 6.2);
    excess_z > 0 takes the upper confidence bound V + z se(V) of the sample variance of e."""
    s2 = np.asarray(s2, float)
    d = np.asarray(d, float)
    keep = (s2 > 0) & np.isfinite(s2) & (d >= 1) & np.isfinite(d)
    s2, d = s2[keep], d[keep]
    pooled = d.sum()
    if len(s2) < max(min_cases, 2):
        return 0.0, np.nan, "too_few_cases", pooled
    e = np.log(s2) - special.digamma(d / 2) + np.log(d / 2)
    emean = e.mean()
    g = len(e)
    v = e.var(ddof=1)
    m4 = np.mean((e - emean) ** 4)
    se_v = np.sqrt(max(0.0, m4 - (g - 3) / (g - 1) * v * v) / g)
    excess = v + excess_z * se_v - trigamma(d / 2).mean()
    if excess > 0:
        d0 = 2 * float(trigamma_inverse(np.array([excess]))[0])
        if d0 < min_d0:
            return 0.0, np.nan, "too_heterogeneous", pooled
        return d0, float(np.exp(emean + special.digamma(d0 / 2) - np.log(d0 / 2))), "none", pooled
    return np.inf, float(np.exp(emean)), "none", pooled


def moderate(s2, d, d0, s0sq, pooled):
    """Posterior variance and its df (limma caps d + d0 at the pooled df)."""
    s2 = np.asarray(s2, float)
    d = np.asarray(d, float)
    if not d0 > 0:
        return s2, d
    if np.isinf(d0):
        return np.full_like(s2, s0sq), np.full_like(d, pooled)
    return (d0 * s0sq + d * s2) / (d0 + d), np.minimum(d + d0, pooled)


def rule_power(delta, se, df, q, tau):
    """P(estimate >= max(tau, 0) and estimate - q se_hat > 0), se_hat² ~ se² chi²_df/df."""
    lo = max(tau, 0.0)
    if np.isinf(df):
        return stats.norm.sf(max((lo - delta) / se, q - delta / se))
    f = lambda x: stats.norm.pdf(x, delta, se) * stats.chi2.cdf(df * x * x / (q * se) ** 2, df)
    val, _ = integrate.quad(f, lo, delta + 14 * se + lo, epsabs=1e-13, epsrel=1e-11, limit=200)
    return val
