"""Summary statistics of raw sample sets.

Every function takes numpy arrays (or anything ``numpy.asarray`` accepts) of
float64 without copying when they are already contiguous float64, and releases
the GIL while the C++ core works. Definitions and references are in
docs/statistics-summary.md. The functions are the compiled core's
(python/bindings/register_summary.cpp), keywords and defaults included.
"""
from __future__ import annotations

from typing import Literal, Tuple

from . import _core
from ._core import Drift, MedianCI, Summary, drift, median_ci, quantile, summarize, summarize_grouped

__all__ = ["Summary", "Drift", "MedianCI", "QUANTILE_METHODS", "STATISTICS",
           "summarize", "summarize_grouped", "quantile", "drift", "median_ci"]

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
