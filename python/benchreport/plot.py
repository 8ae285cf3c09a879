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

BASE_COLOR = "#4c72b0"
HEAD_COLOR = "#dd8452"
VERDICT_COLORS = {
    "faster": "#2a9d3f",
    "slower": "#c8372d",
    "inconclusive": "#d49a00",
    "equivalent": "#5b6b7a",
    "unchanged": "#5b6b7a",
}


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
    base_values, head_values = _plot.plot_values(base, labels[0]), _plot.plot_values(head, labels[1])
    factor, unit = display_scale(np.concatenate([base_values, head_values]), unit)
    base_values, head_values = base_values * factor, head_values * factor
    ax = _axes(ax)
    edges = np.histogram_bin_edges(np.concatenate([base_values, head_values]), bins=bins)
    for values, color, label in ((base_values, BASE_COLOR, labels[0]), (head_values, HEAD_COLOR, labels[1])):
        median = float(np.median(values))
        ax.hist(values, bins=edges, alpha=0.5, color=color,
                label=f"{label} (n={values.size}, median {_plot.value_with_unit(median, unit)})")
        ax.axvline(median, color=color, linestyle="--", linewidth=1.5)
    ax.set_xlabel(f"value ({unit})" if unit else "value")
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
    samples = _plot.plot_values(values, label)
    factor, unit = display_scale(samples, unit)
    samples = samples * factor
    ax = _axes(ax)
    ax.plot(np.arange(samples.size), samples, marker="o", markersize=3, linewidth=0.8, color=BASE_COLOR, label=label)
    windows = drift_windows(samples.size, k)
    if windows is None:
        ax.set_title(f"drift n/a: {samples.size} samples, needs at least {2 * k} (k = {k})")
    else:
        for (lo, hi), name in zip(windows, ("first", "last")):
            median = float(np.median(samples[lo:hi]))
            ax.axvspan(lo - 0.5, hi - 0.5, color="#999999", alpha=0.2)
            ax.hlines(median, lo - 0.5, hi - 0.5, colors=HEAD_COLOR, linewidth=2,
                      label=f"median of {name} {k}: {_plot.value_with_unit(median, unit)}")
        from ._stats import drift  # the one drift (stats/drift.hpp), not recomputed here

        ax.set_title(f"drift {drift(samples, k).change:+.2%} (median of last {k} / first {k} − 1)")
    ax.set_xlabel("sample (measurement order)")
    ax.set_ylabel(f"value ({unit})" if unit else "value")
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_forest(result: Any, *, ax: Any = None, threshold: Optional[float] = 0.05, max_cases: int = 60) -> Any:
    """Forest plot: each case's change (as a percentage) with its confidence interval.

    Points are coloured by verdict; dotted lines mark ±``threshold`` (None to
    omit). Cases are sorted by change; past ``max_cases`` only the largest
    |change| are kept (and the title says so). The legend names the verdict
    of each colour and the threshold lines; the x axis is in percent. Returns the Axes.
    """
    rows = forest_rows(result)
    if not rows:
        raise ValueError("nothing to plot: the comparison has no matched cases")
    shown = _plot.forest_shown(rows, max_cases)
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(7, max(2.0, 0.28 * len(shown) + 1)))
    positions = np.arange(len(shown))
    for y, (_, change, lower, upper, verdict) in zip(positions, shown):
        color = VERDICT_COLORS.get(verdict, BASE_COLOR)
        if np.isfinite(lower) and np.isfinite(upper):
            ax.hlines(y, 100 * lower, 100 * upper, colors=color, linewidth=2)
        ax.plot(100 * change, y, "o", color=color, markersize=5)
    ax.axvline(0, color="black", linewidth=0.8)
    if threshold:
        for i, edge in enumerate((-threshold, threshold)):
            ax.axvline(100 * edge, color="#888888", linewidth=0.8, linestyle=":",
                       label=f"\u00b1{100 * threshold:g}% threshold" if i == 0 else None)
    for verdict in dict.fromkeys(r[4] for r in shown):  # one legend entry per verdict shown, first-seen order
        ax.plot([], [], "o-", color=VERDICT_COLORS.get(verdict, BASE_COLOR), label=f"{verdict} (change, CI)")
    ax.legend(loc="best", fontsize="small")
    ax.set_yticks(positions)
    ax.set_yticklabels([r[0] for r in shown], fontsize="small")
    ax.set_xlabel("change of median, % (head vs base) with CI")
    if len(shown) < len(rows):
        ax.set_title(f"{len(shown)} of {len(rows)} cases (largest |change|)")
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
    title, sides, factor, unit = _plot.scaling_family(result.core, family)
    for (side, fit), color in zip(sides, (BASE_COLOR, HEAD_COLOR)):
        xs = [n for n, values in zip(fit.sizes, fit.process_values) for _ in values]
        ys = [factor * v for values in fit.process_values for v in values]
        ax.scatter(xs, ys, s=12, color=color, alpha=0.7, label=f"{side} processes".strip())
        grid = np.geomspace(fit.sizes[0], fit.sizes[-1], 48)
        name = f"O({fit.fit.closest})" if fit.fit.best is not None else f"no model fits (closest O({fit.fit.closest}))"
        ax.plot(grid, [factor * fit.fit.predict(float(n)) for n in grid], color=color,
                linestyle="-" if fit.fit.best is not None else "--",
                label=f"{side} {name}, b = {fit.fit.power.exponent:.2f}".strip())
    ax.set_xscale("log")
    ax.set_yscale("log")
    _human_log_axis(ax.xaxis)
    _human_log_axis(ax.yaxis)
    size_source = result.core.size_source
    ax.set_xlabel("size n" if size_source in ("", "name") else size_source)
    ax.set_ylabel(f"cost ({unit})" if unit else "cost")
    ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


def plot_history(result: Any, *, ax: Any = None, max_cases: int = 12, relative: Optional[bool] = None) -> Any:
    """Each case's per-commit summaries (``br.history`` result), change points as markers: red where the
    case got worse, green where it got better. At most ``max_cases`` lines.

    ``relative`` (default: when more than one case is drawn, or their units differ) divides each line by its
    first commit; otherwise the summaries are drawn in the unit the reports show them in (``ms``, not base
    seconds), with that unit on the y axis."""
    ax = _axes(ax)
    commits = result.commits
    drawn = list(zip(result.core.history.series, result.core.changes))[:max_cases]
    relative, factor, unit = _plot.history_axis([series for series, _ in drawn], relative)
    for series, changes in drawn:
        values = np.asarray(series.values, dtype=np.float64)
        shown = values / values[0] if relative else values * factor
        line, = ax.plot(np.asarray(series.commits), shown, linewidth=1, label=" / ".join(series.key) or "all sets")
        for cp in changes.change_points:
            color = VERDICT_COLORS["slower"] if cp.regression else VERDICT_COLORS["faster"]
            ax.axvline(cp.commit, color=color, alpha=0.35, linewidth=1)
            ax.plot([cp.commit], [shown[cp.index]], "o", color=line.get_color(), markersize=4)
    ticks = np.unique(np.linspace(0, max(len(commits) - 1, 0), num=min(len(commits), 8)).astype(int))
    ax.set_xticks(ticks)
    ax.set_xticklabels([commits[t][:12] for t in ticks], rotation=30, ha="right", fontsize=8)
    if relative:
        ax.set_ylabel("summary / first commit")
    else:
        from matplotlib import ticker

        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: human_number(v)))
        ax.set_ylabel(f"summary ({unit})" if unit else "summary")
    ax.set_xlabel(result.core.history.order)
    if len(drawn) > 1:
        ax.legend(fontsize=7, loc="best")
    return ax
