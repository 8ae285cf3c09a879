"""Scaling: how cost grows with input size, fitted per size family and compared base → head.

A thin typed skin over ``benchreport._core.scaling`` (src/compare/scaling.cpp,
src/stats/scaling.cpp, src/presets/scaling.cpp); docs/statistics-scaling.md has
the formulas.

>>> import benchreport as br
>>> ds = br.load("bench.json")                               # doctest: +SKIP
>>> result = br.scaling(ds)                                  # doctest: +SKIP
>>> result.to_pandas()                                       # doctest: +SKIP
>>> result.plot()                                            # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Union

from . import _core
from ._dataset import Dataset, PathLike, load
from ._pickling import remembers_call
from ._presets import _native, _RendersReport, _split_baseline
from ._reports import Report

__all__ = ["ScalingResult", "scaling", "fit_scaling", "compare_growth", "split_size", "GROWTH_MODELS"]

GROWTH_MODELS = tuple(_core.GROWTH_MODELS)
fit_scaling = _core.fit_scaling
compare_growth = _core.compare_growth
split_size = _core.split_size


@dataclass
class ScalingResult(_RendersReport):
    """Result of :func:`scaling`: one fit per family, or base/head fits and the change of growth."""

    core: Any  # _core.ScalingResult
    report: Report

    @property
    def compared(self) -> bool:
        return bool(self.core.compared)

    @property
    def fits(self) -> list:
        return list(self.core.fits)

    @property
    def comparisons(self) -> list:
        return list(self.core.comparisons)

    def columns(self) -> dict:
        """``{field: numpy array}``: one entry per family comparison (``family``, the ``base_`` and ``head_``
        fit fields, the change's fields: ``exponent_change``, ``level_ratio``, ``verdict``, ``at_ratio``, ...)
        or, without two sides, per fit (``family``, ``unit``, ``best``, ``exponent`` with its interval, ``df``,
        ``sigma``, ``google_benchmark_big_o``, ...): the scalar fields of the JSON ``data``."""
        return dict(self.core.columns())

    def to_pandas(self) -> "Any":
        """``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())

    def plot(self, family: Optional[str] = None, ax: Any = None) -> Any:
        """Log–log plot of one family (the first when None): process medians and the fitted model(s)."""
        from .plot import plot_scaling

        return plot_scaling(self, family=family, ax=ax)

    def __repr__(self) -> str:
        n = len(self.core.comparisons) if self.compared else len(self.core.fits)
        return f"<ScalingResult: {n} famil{'y' if n == 1 else 'ies'}{' compared' if self.compared else ''}>"


@remembers_call
def scaling(dataset: Union[Dataset, PathLike, list], *, baseline: Optional[Mapping[str, str]] = None,
            head: Optional[str] = None, name_column: str = "benchmark", size_column: str = "",
            size_argument: int = 0, min_sizes: int = 3, pair_column: str = "pair", confidence: float = 0.95,
            exponent_threshold: float = 0.1, at: Optional[float] = None, far_factor: float = 10.0,
            title: str = "Scaling Report") -> ScalingResult:
    """Fit every size family of ``dataset`` (``BM_x/1024``, ``test_x[1024]``, a hyperfine parameter or
    the label ``size_column``) against 1, log n, n, n log n, n², n³, a power law a·nᵇ and the models with a
    fixed cost c + b·n, c + b·n log n and c + b·nᵏ. Each fit's ``lack_of_fit`` says when no model follows
    the sizes within the spread between processes (then ``fit.best`` is None and ``fit.closest`` names
    the nearest model).

    With two sides (``baseline``, default ``{"revision": "base"}``, present with another value), base and
    head fits are compared: the change of exponent Δb and of cost, a verdict when the growth changed
    (interval of Δb excludes 0 and |Δb| ≥ ``exponent_threshold``), and the change extrapolated to
    ``at`` (a warning beyond ``far_factor`` × the largest size).
    """
    if not isinstance(dataset, Dataset):
        dataset = load(dataset)
    column, value = _split_baseline(baseline or {"revision": "base"})
    options: dict[str, Any]  # keyword options of mixed types
    options = dict(name_column=name_column, size_column=size_column, size_argument=int(size_argument),
                   min_sizes=int(min_sizes), baseline_column=column, baseline_value=value,
                   head_value=head or "", pair_column=pair_column, confidence=float(confidence),
                   exponent_threshold=float(exponent_threshold), far_factor=float(far_factor), title=title)
    if at is not None:
        options["at"] = float(at)
    core, report = _core.scaling(_native(dataset), **options)
    return ScalingResult(core, Report._from_core(report))
