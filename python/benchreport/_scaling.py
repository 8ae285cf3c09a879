"""Scaling: how cost grows with input size, fitted per size family and compared base → head.

``scaling`` and ``ScalingResult`` are the compiled core's (python/bindings/register_scaling.cpp:
keywords, defaults, docstrings; src/compare/scaling.cpp, src/presets/scaling.cpp);
docs/statistics-scaling.md has the formulas. What stays here: reading paths, and pickling by the call.

>>> import benchreport as br
>>> result = br.scaling(br.load("bench.json"))               # doctest: +SKIP
>>> result.to_pandas()                                       # doctest: +SKIP
"""
from __future__ import annotations

import copyreg
import functools
from typing import Any

from . import _core
from ._core import ScalingResult, compare_growth, fit_scaling, split_size
from ._dataset import Dataset, load
from ._pickling import reduce_remembered, remembers_call

__all__ = ["ScalingResult", "scaling", "fit_scaling", "compare_growth", "split_size", "GROWTH_MODELS"]

GROWTH_MODELS = tuple(_core.GROWTH_MODELS)


@remembers_call
@functools.wraps(_core.scaling, assigned=("__doc__",))
def scaling(dataset: Any, **options: Any) -> ScalingResult:
    return _core.scaling(dataset if isinstance(dataset, Dataset) else load(dataset), **options)


copyreg.pickle(ScalingResult, reduce_remembered)
