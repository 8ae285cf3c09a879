"""Plots for notebooks: distributions base vs head, samples in measurement order
with the drift windows marked, and a forest plot of changes with their CIs.

matplotlib is an optional extra (``pip install benchreport[plot]``); it is
imported only when a plot is drawn, and a missing install raises an
ImportError that says how to get it. Every function draws on ``ax`` (a new
figure when None) and returns the Axes, so plots compose with the rest of a
notebook's figures.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import plot as _plot
from ._core.plot import display_scale, drift_windows, forest_rows, human_number

__all__ = ["plot_distributions", "plot_samples", "plot_forest", "forest_rows", "drift_windows", "plot_scaling",
           "plot_history", "display_scale", "human_number"]

ArrayLike = Union[np.ndarray, Sequence[float]]

#: Colours of the base and head sides, and of each verdict (report/plot_layout.hpp).
BASE_COLOR, HEAD_COLOR, VERDICT_COLORS = _plot.BASE_COLOR, _plot.HEAD_COLOR, dict(_plot.VERDICT_COLORS)


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised by monkeypatching in tests
        raise ImportError(
            "benchreport.plot needs matplotlib, an optional extra: pip install 'benchreport[plot]' "
            "(or pip install matplotlib)") from exc
    return plt


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    _, new_ax = _pyplot().subplots(figsize=(7, 3.5))
    return new_ax


def plot_distributions(base: Union[ArrayLike, Sequence[ArrayLike]], head: Union[ArrayLike, Sequence[ArrayLike]],
                       *, ax: Any = None, bins: int = 30, unit: str = "", labels: Tuple[str, str] = ("base", "head"),
                       ) -> Any:
    """Histograms of base and head samples on shared bins, with each side's median as a dashed line.

    ``base`` and ``head`` are 1-D arrays or lists of per-process arrays
    (pooled for the plot) in ``unit`` (e.g. ``"s"`` for ``Dataset.samples``,
    which are in base units); values are shown scaled as the reports show them
    (``19.74 µs``). Returns the Axes.
    """
    plot = _plot.distributions(base, head, unit=unit, labels=labels)
    ax = _axes(ax)
    edges = np.histogram_bin_edges(np.concatenate([side.values for side in plot.sides]), bins=bins)
    for side in plot.sides:
        ax.hist(side.values, bins=edges, alpha=0.5, color=side.color, label=side.label)
        ax.axvline(side.median, color=side.color, linestyle="--", linewidth=1.5)
    ax.set_xlabel(plot.x_label)
    ax.set_ylabel("samples")
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_samples(values: ArrayLike, k: int = 5, *, ax: Any = None, unit: str = "", label: str = "samples") -> Any:
    """Samples in measurement order with the two drift windows shaded.

    The first and last ``k`` samples are the windows drift compares
    (median(last k) / median(first k) − 1); each window's median is drawn
    across it and the drift is shown in the title. With fewer than 2k samples
    the title says why drift is not available. ``unit`` is the unit of
    ``values``; they are shown scaled as the reports show them. Returns the Axes.
    """
    plot = _plot.samples(values, k=k, unit=unit, label=label)
    ax = _axes(ax)
    ax.plot(np.arange(plot.values.size), plot.values, marker="o", markersize=3, linewidth=0.8, color=BASE_COLOR,
            label=label)
    for window in plot.windows:
        ax.axvspan(window.begin, window.end, color="#999999", alpha=0.2)
        ax.hlines(window.median, window.begin, window.end, colors=HEAD_COLOR, linewidth=2, label=window.label)
    ax.set_title(plot.title)
    ax.set_xlabel("sample (measurement order)")
    ax.set_ylabel(plot.y_label)
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_forest(result: Any, *, ax: Any = None, threshold: Optional[float] = 0.05, max_cases: int = 60) -> Any:
    """Forest plot: each case's change (as a percentage) with its confidence interval.

    Points are coloured by verdict; dotted lines mark ±``threshold`` (None to
    omit). Cases are sorted by change; past ``max_cases`` only the largest
    |change| are kept (and the title says so). The legend names the verdict
    of each colour and the threshold lines; the x axis is in percent. Returns the Axes.
    """
    plot = _plot.forest(result, max_cases=max_cases, threshold=threshold)
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(7, plot.height))
    for y, mark in enumerate(plot.marks):
        if mark.interval:
            ax.hlines(y, mark.lower, mark.upper, colors=mark.color, linewidth=2)
        ax.plot(mark.change, y, "o", color=mark.color, markersize=5)
    ax.axvline(0, color="black", linewidth=0.8)
    for i, edge in enumerate(plot.thresholds):
        ax.axvline(edge, color="#888888", linewidth=0.8, linestyle=":", label=None if i else plot.threshold_label)
    for entry in plot.verdicts:  # one legend entry per verdict shown
        ax.plot([], [], "o-", color=entry.color, label=entry.label)
    ax.legend(loc="best", fontsize="small")
    ax.set_yticks(range(len(plot.names)))
    ax.set_yticklabels(plot.names, fontsize="small")
    ax.set_xlabel("change of median, % (head vs base) with CI")
    if plot.title:
        ax.set_title(plot.title)
    return ax


def _human_log_axis(axis: Any) -> None:
    """1-2-5 ticks on a log axis, labelled with :func:`human_number` (no ``10^k`` or exponents)."""
    from matplotlib import ticker

    axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: human_number(v)))
    axis.set_minor_formatter(ticker.NullFormatter())


def plot_scaling(result: Any, family: Optional[str] = None, ax: Any = None) -> Any:
    """Log–log plot of one family of a :class:`benchreport.ScalingResult`: every process median as a
    point and the best model's curve (base and head for a comparison; a dashed curve where no model
    fits). Costs are drawn in the unit the reports show them in (``µs``, not base seconds); both
    axes have 1-2-5 ticks with plain labels (``200k``); the x axis is named after the size's label."""
    ax = _axes(ax)
    plot = _plot.scaling(result.core, family)
    for side in plot.sides:
        ax.scatter(side.sizes, side.costs, s=12, color=side.color, alpha=0.7, label=side.points_label)
        grid = np.geomspace(side.first_size, side.last_size, 48)
        ax.plot(grid, side.curve(grid), color=side.color, linestyle="-" if side.fits else "--", label=side.curve_label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    _human_log_axis(ax.xaxis)
    _human_log_axis(ax.yaxis)
    ax.set_xlabel(plot.x_label)
    ax.set_ylabel(plot.y_label)
    ax.set_title(plot.title)
    ax.legend(fontsize="small")
    return ax


def plot_history(result: Any, *, ax: Any = None, max_cases: int = 12, relative: Optional[bool] = None) -> Any:
    """Each case's per-commit summaries (``br.history`` result), change points as markers: red where the
    case got worse, green where it got better. At most ``max_cases`` lines.

    ``relative`` (default: when more than one case is drawn, or their units differ) divides each line by its
    first commit; otherwise the summaries are drawn in the unit the reports show them in (``ms``, not base
    seconds), with that unit on the y axis."""
    ax = _axes(ax)
    plot = _plot.history(result.core, max_cases=max_cases, relative=relative)
    for drawn in plot.lines:
        line, = ax.plot(np.asarray(drawn.commits), drawn.values, linewidth=1, label=drawn.label)
        for change in drawn.changes:
            ax.axvline(change.commit, color=change.color, alpha=0.35, linewidth=1)
            ax.plot([change.commit], [change.value], "o", color=line.get_color(), markersize=4)
    ax.set_xticks(plot.ticks)
    ax.set_xticklabels(plot.tick_labels, rotation=30, ha="right", fontsize=8)
    if not plot.relative:
        from matplotlib import ticker

        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: human_number(v)))
    ax.set_ylabel(plot.y_label)
    ax.set_xlabel(plot.x_label)
    if len(plot.lines) > 1:
        ax.legend(fontsize=7, loc="best")
    return ax
