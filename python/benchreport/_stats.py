"""Summary statistics of raw sample sets (typed skin over ``benchreport._core``).

Every function takes numpy arrays (or anything ``numpy.asarray`` accepts) of
float64 without copying when they are already contiguous float64, and releases
the GIL while the C++ core works. Definitions and references are in
docs/statistics-summary.md.
"""
from __future__ import annotations

from typing import Dict, Literal, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import Drift, MedianCI, Summary

__all__ = [
    "Summary",
    "Drift",
    "MedianCI",
    "QUANTILE_METHODS",
    "STATISTICS",
    "summarize",
    "summarize_grouped",
    "quantile",
    "drift",
    "median_ci",
]

# Static typing only (a Literal cannot be built at run time); test_stats checks it equals QUANTILE_METHODS.
QuantileMethodName = Literal[
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
    "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "harrell-davis",
]

#: numpy's Hyndman–Fan method names (types 1–9) plus Harrell–Davis (from the C++ core).
QUANTILE_METHODS: Tuple[str, ...] = _core.QUANTILE_METHODS

#: Names accepted by ``stats=`` (min, max and n are always reported).
STATISTICS: Tuple[str, ...] = _core.STATISTICS

DEFAULT_QUANTILES: Tuple[float, ...] = _core.DEFAULT_QUANTILES
#: Above this many samples exact Theil–Sen (n(n-1)/2 slopes) is reported unavailable.
THEIL_SEN_MAX_N: int = _core.THEIL_SEN_MAX_N

ArrayLike = Union[np.ndarray, Sequence[float]]


def summarize(
    values: ArrayLike,
    *,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    method: QuantileMethodName = "linear",
    ddof: int = 0,
    k: int = 5,
    confidence: float = 0.95,
    mad_scale: Literal["raw", "normal"] = "raw",
    nan_policy: Literal["raise", "omit"] = "raise",
    stats: Optional[Sequence[str]] = None,
    theil_sen_max_n: int = THEIL_SEN_MAX_N,
) -> Summary:
    """Summarise one ordered sample set in a single C++ call.

    Returns a :class:`Summary` with n, n_omitted, min, max, mean, std (ddof 0),
    std_sample (ddof 1), cv (std with ``ddof`` over the mean), median, the
    requested ``quantiles`` (``method``: numpy's names or "harrell-davis"),
    iqr, mad (raw or ``mad_scale="normal"``), mad_over_median_pct, robust_cv,
    median_ci (distribution-free, achieved confidence reported), drift
    (median of the last ``k`` over the first ``k`` minus 1, Theil–Sen, Mann–Kendall)
    and outlier counts. Unavailable fields are NaN and carry a reason.

    Raises :class:`benchreport.InputError` (a ValueError) for an empty set, NaN/±inf
    (unless ``nan_policy="omit"``) or bad options.
    """
    return _core.summarize(values, list(quantiles), method, ddof, k, confidence, mad_scale, nan_policy,
                           None if stats is None else list(stats), theil_sen_max_n)


def summarize_grouped(
    values: ArrayLike,
    offsets: ArrayLike,
    *,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    method: QuantileMethodName = "linear",
    ddof: int = 0,
    k: int = 5,
    confidence: float = 0.95,
    mad_scale: Literal["raw", "normal"] = "raw",
    nan_policy: Literal["raise", "omit"] = "raise",
    stats: Optional[Sequence[str]] = None,
    theil_sen_max_n: int = THEIL_SEN_MAX_N,
    threads: Optional[int] = None,
) -> Dict[str, np.ndarray]:
    """Summarise many sample sets in CSR layout: set i is ``values[offsets[i]:offsets[i+1]]``.

    Returns a dict of numpy arrays, one per statistic (struct of arrays):
    ``n``, ``median``, ``mad``, ... as the :class:`Summary` properties, the
    median CI as ``median_ci_<field>``, drift as ``drift`` and the trend as
    ``theil_sen_*``/``mann_kendall_*``/``kendall_tau``; ``quantiles`` is 2-D
    (n_sets × len(quantiles)).
    Optional statistics come with ``<name>_available`` (bool) and
    ``<name>_reason`` (object: "" when available) arrays. ``stats`` restricts the
    work to some groups (see ``STATISTICS``). ``threads=None`` uses every core;
    results are identical for any thread count. Errors name the lowest bad set.
    """
    return _core.summarize_grouped(values, offsets, list(quantiles), method, ddof, k, confidence, mad_scale,
                                   nan_policy, None if stats is None else list(stats), theil_sen_max_n,
                                   0 if threads is None else threads)


def quantile(values: ArrayLike, p: Union[float, ArrayLike], method: QuantileMethodName = "linear"
             ) -> Union[float, np.ndarray]:
    """Quantile(s) of ``values`` at probability ``p`` (scalar or array in [0, 1]).

    ``method`` takes numpy's names (Hyndman–Fan types 1–9, default "linear") or
    "harrell-davis". A scalar ``p`` gives a float, an array gives an array.
    """
    probs = np.asarray(p, dtype=np.float64)
    out = _core.quantile(values, probs.reshape(-1), method)
    return float(out[0]) if probs.ndim == 0 else out.reshape(probs.shape)


def drift(values: ArrayLike, k: int = 5, *, theil_sen_max_n: int = THEIL_SEN_MAX_N) -> Drift:
    """Drift of one ordered sample set: median(last k) / median(first k) − 1,
    Theil–Sen slope (absolute and relative to the median) and the Mann–Kendall
    trend test (tie-corrected, asymptotic p-value)."""
    return _core.drift(values, k, theil_sen_max_n)


def median_ci(values: ArrayLike, confidence: float = 0.95) -> MedianCI:
    """Distribution-free order-statistic confidence interval for the median,
    with the confidence actually achieved and the 1-based ranks used."""
    return _core.median_ci(values, confidence)
