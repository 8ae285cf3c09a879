"""Base → head comparison, rank tests, robust estimators and roll-ups.

The functions are the compiled core's ``benchreport._core.compare``
(python/bindings/register_compare.cpp): keywords, defaults, argument conversion
(a side as one array, a list of per-process arrays, or samples with process ids)
and docstrings live there. Arrays are passed without copying when they are
float64 and C-contiguous; heavy work runs with the GIL released. What stays here
is the pickling of comparisons by their call and :class:`CaseComparisons`, a list
with a columnar view and notebook display. Formulas and defaults:
docs/statistics-comparison.md.
"""
# ruff: noqa: F405  (__all__ names the classes and functions star-imported from the core)
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, List, TypeVar, cast

import numpy as np

from ._core import compare as _c
from ._core.compare import *  # noqa: F403  (the classes and functions of __all__)
from ._core.compare import CaseComparison
from ._pickling import reduce_remembered, remembers_call

__all__ = [
    "CaseComparison", "CompareResult", "CaseComparisons", "Bounds", "MannWhitneyResult", "BrunnerMunzelResult",
    "WilcoxonResult", "BootstrapInterval", "LogTInterval", "Rollup", "NoiseCalibration",
    "compare_samples", "compare_many",
    "mann_whitney_u", "brunner_munzel", "wilcoxon_signed_rank",
    "hodges_lehmann_shift", "shift_bounds", "ratio", "ratio_bounds", "disparity", "center", "center_bounds", "spread",
    "spread_bounds", "disparity_bounds",
    "bootstrap_median_ratio_ci", "paired_t_interval", "welch_t_interval",
    "adjust_pvalues", "rollup", "calibrate_noise",
]

#: The earlier name of :data:`CaseComparison`, kept for code that uses it.
CompareResult = CaseComparison


class CaseComparisons(List[CaseComparison]):
    """The CaseComparisons of :func:`compare_many`, in input order: a list with a columnar view
    (the fields of a JSON case, C++ ``report/case_fields.hpp``) and notebook display."""

    def columns(self) -> Dict[str, np.ndarray]:
        """``{field: numpy array}``, one entry per result: ``name`` and the fields of a JSON case."""
        return dict(_c.case_columns(list(self)))

    def to_pandas(self) -> Any:
        """``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())

    __reduce__ = reduce_remembered

    def _repr_html_(self) -> str:
        from .notebook import to_html

        return to_html(list(self))

    def _repr_markdown_(self) -> str:
        from .notebook import to_markdown

        return to_markdown(list(self))


_Function = TypeVar("_Function", bound=Callable[..., Any])


def _remembered(function: _Function, result: Callable[[Any], Any] = lambda r: r) -> _Function:
    """The core's function, whose results pickle as the call: unpickling calls it again by its name here.
    ``result`` turns the core's return value into the skin's (a list into :class:`CaseComparisons`)."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        return result(function(*args, **kwargs))

    call.__module__ = __name__
    return remembers_call(cast(_Function, call))


compare_samples = _remembered(_c.compare_samples)
compare_many = _remembered(_c.compare_many, CaseComparisons)
