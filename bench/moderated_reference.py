"""Reference implementation of the empirical-Bayes moderated t (Smyth 2004) and of the
power of the verdict rule, written from the paper's formulas with scipy.special; used by
tests/python/test_moderated.py and by bench/bench_moderated.py (vectorised over cases).
"""
from __future__ import annotations

import numpy as np
from scipy import integrate, optimize, special, stats


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


def log_f_density_u(z, d1, u):
    """log density of log F(d1, 1/u) at z, continuous at u = 0 (log of chi2_d1 / d1)."""
    h = d1 / 2
    if u == 0:
        return h * np.log(h) + h * z - h * np.exp(z) - special.gammaln(h)
    d0 = 1 / u
    return (h * np.log(d1 * u) + h * z - (d1 + d0) / 2 * np.log1p(d1 * u * np.exp(z))
            - special.betaln(h, d0 / 2))


def profile_loglik(x, d, u):
    """max over c of sum_g log f(x_g - c; d_g, 1/u), x = log s²: the log-likelihood of
    s²_g ~ exp(c) F(d_g, 1/u) with the scale profiled out (Newton on c; the log-F density is
    log-concave in its location, so the root of the score is the maximum)."""
    h = d / 2
    c = np.log(np.sum(d * np.exp(x)) / d.sum())  # the u = 0 maximum
    for _ in range(100):
        ez = np.exp(x - c)
        if u == 0:
            score, curv = np.sum(h - h * ez), -np.sum(h * ez)
        else:
            p = d * u * ez / (1 + d * u * ez)
            w = (d + 1 / u) / 2
            score, curv = np.sum(h - w * p), -np.sum(w * p * (1 - p))
        step = np.clip(score / curv, -2, 2)  # d/dc = -score, d2/dc2 = curv: Newton on c
        c += step
        if abs(step) < 1e-13:
            break
    return float(np.sum(log_f_density_u(x - c, d, u))), c


def censored_profile_loglik(x, d, u, low=0.05, high=0.1):  # WINSOR_LOW, WINSOR_HIGH (defined below)
    """profile_loglik with the values outside the sample quantiles `low` and 1 - `high` of x censored
    there (they contribute log P(below) or log P(above)): the likelihood twin of Phipson's winsorising.
    Concave in the location c (log-concave density, cdf and sf), so Brent's method finds its maximum."""
    xl, xh = np.quantile(x, low), np.quantile(x, 1 - high)
    mid, below, above = (x > xl) & (x < xh), x <= xl, x >= xh
    h = d / 2

    def total(c):
        dm, db, da = d[mid], d[below], d[above]
        val = np.sum(log_f_density_u(x[mid] - c, dm, u))
        if u == 0:
            val += np.sum(np.log(special.chdtr(db, db * np.exp(xl - c))))
            val += np.sum(np.log(special.chdtrc(da, da * np.exp(xh - c))))
        else:
            val += np.sum(np.log(special.fdtr(db, 1 / u, np.exp(xl - c))))
            val += np.sum(np.log(special.fdtrc(da, 1 / u, np.exp(xh - c))))
        return val

    c0 = np.log(np.sum(d * np.exp(x)) / d.sum()) if h.size else 0.0
    res = optimize.minimize_scalar(lambda c: -total(c), bracket=(c0 - 1, c0 + 1), method="brent",
                                   options={"xtol": 1e-10})
    return float(-res.fun), float(res.x)


PROFILE_LEVEL = 0.95  # one-sided level of the profile-likelihood lower bound of d0


def profile_d0_bound(s2, d, level=PROFILE_LEVEL, max_u=2.0, censored=False):
    """One-sided lower confidence bound of d0 from the profile likelihood in u = 1/d0 on [0, max_u]
    (u = 0: one common variance): the largest u with 2 (l(u_hat) - l(u)) <= the chi2_1 quantile at
    1 - 2 (1 - level), returned as (1 / that u, u_hat); (0, u_hat) when even u = max_u is allowed.
    l is maximised on a grid of u (0 and 24 log-spaced points) refined by bounded Brent; the bound is
    Brent's root between the maximum and the first grid point right of it below the cut."""
    x = np.log(s2)
    crit = stats.chi2.ppf(1 - 2 * (1 - level), 1) / 2
    lik = censored_profile_loglik if censored else profile_loglik
    ll = lambda u: lik(x, d, u)[0]  # noqa: E731
    grid = np.concatenate([[0.0], np.geomspace(1e-3, max_u, 24)])
    vals = np.array([ll(u) for u in grid])
    i = int(np.argmax(vals))
    if 0 < i < len(grid) - 1:
        res = optimize.minimize_scalar(lambda u: -ll(u), bounds=(grid[i - 1], grid[i + 1]), method="bounded",
                                       options={"xatol": 1e-10})
        u_hat, l_hat = (res.x, -res.fun) if -res.fun > vals[i] else (grid[i], vals[i])
    else:
        u_hat, l_hat = grid[i], vals[i]
    target = l_hat - crit
    if ll(max_u) >= target:
        return 0.0, u_hat
    j = max(int(np.searchsorted(grid, u_hat, side="right")), 1)
    while vals[j] >= target:  # first grid point right of u_hat below the target
        j += 1
    lo = max(grid[j - 1], u_hat)
    u_up = optimize.brentq(lambda u: ll(u) - target, lo, grid[j], xtol=1e-14, rtol=1e-12)
    return 1 / u_up, u_hat


def variance_prior(s2, d, excess_z=0.0, min_cases=3, min_d0=0.5, method="moments", level=None):
    """(d0, s0², fallback, pooled_df) by the method of moments on log s² (Smyth 2004, 6.2);
    excess_z > 0 takes the upper confidence bound V + z se(V) of the sample variance of e.
    Tried, not the library's (bench/RESULTS-inference.md, "Tried: a profile-likelihood bound"):
    method="profile": d0 is the profile-likelihood lower bound (profile_d0_bound) at `level`, s0² from
    the moments at that d0; "profile_censored": the same with the likelihood censored where Phipson's
    step winsorises; "profile_bulk": the bound from the cases whose outlier share is at least 1/2."""
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
    if method in ("profile", "profile_censored", "profile_bulk"):
        # profile_bulk: the bound from the cases whose outlier share is at least 1/2 (the bulk)
        bulk = outlier_shares(s2, d, min_d0) >= 0.5 if method == "profile_bulk" else np.ones(len(s2), bool)
        level = PROFILE_LEVEL if level is None else level
        d0 = profile_d0_bound(s2[bulk], d[bulk], level, max_u=1 / min_d0, censored=method == "profile_censored")[0]
        if d0 < min_d0:
            return 0.0, np.nan, "too_heterogeneous", pooled
        return d0, float(np.exp(emean + special.digamma(d0 / 2) - np.log(d0 / 2))), "none", pooled
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


# --- Robust prior (Phipson, Lee, Majewski, Alexander & Smyth 2016, Ann. Appl. Stat. 10(2)) ---
WINSOR_LOW, WINSOR_HIGH = 0.05, 0.1  # the paper's default tail proportions


_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


def log_f_density(z, d1, d0):
    """log density of log F(d1, d0) at z (d0 = inf: of log(chi2_d1 / d1))."""
    h = d1 / 2
    if np.isinf(d0):
        return h * np.log(h) + h * z - h * np.exp(z) - special.gammaln(h)
    return (h * np.log(d1 / d0) + h * z - (d1 + d0) / 2 * np.log1p(d1 / d0 * np.exp(z))
            - special.betaln(h, d0 / 2))


def winsorised_log_f_moments(d1, d0, low=WINSOR_LOW, high=WINSOR_HIGH, pieces=8):
    """Mean and variance of log F(d1, d0) winsorised at its `low` and 1 - `high` quantiles
    (d0 = inf: log of chi2_d1 / d1): 20-point Gauss-Legendre on `pieces` equal pieces between
    the quantiles (tests/python/test_moderated.py checks it against scipy's adaptive quad)."""
    if np.isinf(d0):
        zl, zh = np.log(special.chdtri(d1, 1 - low) / d1), np.log(special.chdtri(d1, high) / d1)
    else:
        zl, zh = np.log(special.fdtri(d1, d0, low)), np.log(special.fdtri(d1, d0, 1 - high))
    edges = np.linspace(zl, zh, pieces + 1)
    half = (edges[1:] - edges[:-1])[:, None] / 2
    z = ((edges[1:] + edges[:-1])[:, None] / 2 + half * _GL_X).ravel()
    w = (half * _GL_W).ravel() * np.exp(log_f_density(z, d1, d0))
    mean = np.sum(w * z) + low * zl + high * zh
    return mean, np.sum(w * z * z) + low * zl * zl + high * zh * zh - mean * mean


def winsorised_fit(zw, dm, min_d0=0.5, low=WINSOR_LOW, high=WINSOR_HIGH):
    """(d0, s0²) whose winsorised log F(dm, d0) has the mean and variance of the clamped values zw;
    (0, nan) when even d0 = min_d0 is too narrow."""
    mean_w, v = zw.mean(), zw.var(ddof=1)
    gap = lambda d0: winsorised_log_f_moments(dm, d0, low, high)[1] - v  # noqa: E731  decreasing in d0
    if gap(np.inf) >= 0:
        d0 = np.inf
    elif gap(min_d0) < 0:
        return 0.0, np.nan
    else:
        lo, hi = min_d0, 2 * min_d0
        while gap(hi) > 0:
            lo, hi = hi, 2 * hi
            if hi > 1e6:
                break
        d0 = np.inf if gap(hi) > 0 else optimize.brentq(gap, lo, hi, xtol=1e-13, rtol=1e-13)
    return d0, float(np.exp(mean_w - winsorised_log_f_moments(dm, d0, low, high)[0]))


def robust_variance_prior(s2, d, excess_z=0.0, min_cases=3, min_d0=0.5, low=WINSOR_LOW, high=WINSOR_HIGH,
                          method="moments"):
    """(d0, s0², fallback, pooled_df, per-case d0): Smyth's prior (variance_prior) with a smaller d0 for
    likely outliers. Outliers are judged against the winsorised fit: the log variances, on the scale of
    the median df, clamped to their low and 1 - high sample quantiles, their mean and variance matched
    to those of a winsorised log F(d, d0); a case's tail probability under it over its empirical one is
    its share of d0."""
    s2 = np.asarray(s2, float)
    d = np.asarray(d, float)
    d0, s0sq, fallback, pooled = variance_prior(s2, d, excess_z, min_cases, min_d0, method)
    if not d0 > 0:
        return d0, s0sq, fallback, pooled, np.zeros(len(s2))
    share = outlier_shares(s2, d, min_d0, low, high)
    case_d0 = np.where(share < 1, share * min(d0, pooled), d0)  # d0 = inf weighs like the pooled df
    return d0, s0sq, fallback, pooled, case_d0


def outlier_shares(s2, d, min_d0=0.5, low=WINSOR_LOW, high=WINSOR_HIGH):
    """Each case's share of the prior df (1: ordinary, towards 0: a likely outlier; unusable cases 1).
    Outliers are judged against the winsorised fit: the log variances, on the scale of the median df,
    clamped to their low and 1 - high sample quantiles, their mean and variance matched to those of a
    winsorised log F(d, d0); a case's tail probability under it over its empirical one is its share."""
    s2 = np.asarray(s2, float)
    d = np.asarray(d, float)
    out = np.ones(len(s2))
    keep = (s2 > 0) & np.isfinite(s2) & (d >= 1) & np.isfinite(d)
    g = int(keep.sum())
    if g < 3:
        return out
    dm = float(np.median(d[keep]))
    shift = lambda x: special.digamma(x / 2) - np.log(x / 2)  # noqa: E731  E log(chi2_x / x)
    z = np.log(s2[keep]) - shift(d[keep]) + shift(dm)  # on the scale of the common df dm
    zw = np.clip(z, np.quantile(z, low), np.quantile(z, 1 - high))
    dz, sz = winsorised_fit(zw, dm, min_d0, low, high)
    if not dz > 0:  # the bulk itself is too spread to single any case out
        return out
    f = s2[keep] / sz
    tail = stats.chi2.sf(f * d[keep], d[keep]) if np.isinf(dz) else stats.f.sf(f, d[keep], dz)
    order = np.argsort(f, kind="stable")
    rank = np.empty(g)
    rank[order] = np.arange(1, g + 1)
    not_out = np.minimum(tail / ((g - rank + 0.5) / g), 1.0)
    # a larger variance never gets more prior weight: from the largest down, the running maximum
    down = order[::-1]
    not_out[down] = np.maximum.accumulate(not_out[down])
    out[np.flatnonzero(keep)] = not_out
    return out


ONE_DF_EXCESS_Z = 2.5  # the bound's z when a case has one df (paired, 2 processes)


def prior_excess_z_for(d, excess_z):
    """The excess_z of a prior over the dfs d: at least ONE_DF_EXCESS_Z when any case has 1 <= d < 2."""
    d = np.asarray(d, float)
    return max(excess_z, ONE_DF_EXCESS_Z) if np.any((d >= 1) & (d < 2)) else excess_z


def paired_robust_prior(s2, d, side, side_d, excess_z=0.0, method="moments"):
    """robust_variance_prior of the paired variances s2 with each case's d0 also limited by the outlier
    shares of its sides' pooled variance `side` (on side_d df), excess_z raised for one-df cases
    (prior_excess_z_for): the library's paired prior."""
    d0, s0sq, fallback, pooled, case_d0 = robust_variance_prior(s2, d, prior_excess_z_for(d, excess_z),
                                                                method=method)
    if d0 > 0:
        share = outlier_shares(side, side_d)
        case_d0 = np.minimum(case_d0, np.where(share < 1, share * min(d0, pooled), d0))
    return d0, s0sq, fallback, pooled, case_d0


def moderate_each(s2, d, case_d0, s0sq, pooled):
    """moderate() with a prior df per case (0: the case's own variance, inf: s0²)."""
    s2 = np.asarray(s2, float)
    d = np.asarray(d, float)
    post, df = s2.copy(), d.copy()
    inf = np.isinf(case_d0)
    mid = (case_d0 > 0) & ~inf
    post[inf], df[inf] = s0sq, pooled
    post[mid] = (case_d0[mid] * s0sq + d[mid] * s2[mid]) / (case_d0[mid] + d[mid])
    df[mid] = np.minimum(d[mid] + case_d0[mid], pooled)
    return post, df
