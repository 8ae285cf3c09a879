"""Notebook display for every benchreport result, plus ``to_pandas`` for all of them.

Reports and the preset results (``br.compare``, ``br.matrix``) display
themselves. The lower-level results — :class:`benchreport.Summary`,
:class:`benchreport.CompareResult` (and lists or dicts of them from
``compare_many``), :class:`benchreport.Dataset` — get their display here:

>>> import benchreport.notebook as nb
>>> nb.enable()            # register HTML/Markdown/pretty formatters with IPython
>>> nb.to_pandas(result)   # any result as a DataFrame

``to_report`` turns any of them into a :class:`benchreport.Report`, so the
same table renders as HTML (verdict colours, inline SVG sparklines where
samples are known, each cell's alignment inline so that JupyterLab's
right-align-all rule leaves text left and numbers right), Markdown or text. Needs no matplotlib; ``to_pandas``
needs pandas.
"""
from __future__ import annotations

import math
import sys
from typing import Any, Dict, Iterable, List, Mapping, Optional

from . import _core
from ._reports import Cell, Report

__all__ = ["enable", "to_report", "to_pandas", "summary_row", "to_html", "to_markdown", "to_text",
           "flatten", "VERDICT_ROLES"]

#: Cell role (colour) per verdict, as the comparison preset colours them; the HTML renderer styles ``role-<name>``.
VERDICT_ROLES: Dict[str, str] = dict(_core.VERDICT_ROLES)


# ---------------------------------------------------------------- what is what

def _is_compare_result(obj: Any) -> bool:
    from ._compare import CompareResult

    return isinstance(obj, CompareResult)


def _is_summary(obj: Any) -> bool:
    from ._stats import Summary

    return isinstance(obj, Summary)


def _is_dataset(obj: Any) -> bool:
    from ._dataset import Dataset

    return isinstance(obj, Dataset)


def _compare_results(obj: Any) -> Optional[List[Any]]:
    """The CompareResults in obj (one, a list/tuple, or a dict's values), else None."""
    if _is_compare_result(obj):
        return [obj]
    items = list(obj.values()) if isinstance(obj, Mapping) else list(obj) if isinstance(obj, (list, tuple)) else None
    if items and all(_is_compare_result(item) for item in items):
        return items
    return None


# ---------------------------------------------------------------- pandas

def flatten(record: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """One flat row from a nested mapping: dicts become ``outer_inner`` columns,
    2-tuples ``_lower``/``_upper``; lists stay as cells."""
    out: Dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, f"{name}_"))
        elif isinstance(value, tuple) and len(value) == 2:
            out[f"{name}_lower"], out[f"{name}_upper"] = value
        else:
            out[name] = value
    return out


def summary_row(s: Any) -> Dict[str, Any]:
    """The DataFrame row of one :class:`benchreport.Summary` (quantiles as ``q<p>`` columns)."""
    ci, drift = s.median_ci, s.drift
    return {
        "n": s.n, "n_omitted": s.n_omitted, "min": s.min, "max": s.max, "mean": s.mean, "std": s.std,
        "std_sample": s.std_sample, "cv": s.cv, "median": s.median,
        **{f"q{p:g}": q for p, q in zip(s.probabilities, s.quantiles)},
        "iqr": s.iqr, "mad": s.mad, "mad_over_median_pct": s.mad_over_median_pct, "robust_cv": s.robust_cv,
        "median_ci_lower": ci.lower, "median_ci_upper": ci.upper, "median_ci_achieved": ci.achieved,
        "drift": drift.change, "drift_reason": drift.change_reason, "theil_sen_relative": drift.theil_sen_relative,
        "mann_kendall_p": drift.mann_kendall_p, "tukey_mild": s.tukey_mild, "tukey_severe": s.tukey_severe,
        "modified_z_outliers": s.modified_z_outliers,
    }


def to_pandas(obj: Any) -> Any:
    """Any benchreport result as a pandas DataFrame.

    Objects with their own ``to_pandas`` (Dataset, ComparisonResult,
    MatrixResult) use it; a Summary is one row (:func:`summary_row`); a
    CompareResult, or a list or dict of them, is one row per case with the
    fields of a JSON case (``_core.compare.case_columns``); a ``summarize_grouped`` dict is one
    row per set (quantiles as ``q<p>`` columns).
    """
    import pandas as pd

    if hasattr(obj, "to_pandas"):
        return obj.to_pandas()
    results = _compare_results(obj)
    if results is not None:
        return pd.DataFrame(_core.compare.case_columns(results))
    if _is_summary(obj):
        return pd.DataFrame([summary_row(obj)])
    if isinstance(obj, Mapping) and "quantiles" in obj and "probabilities" in obj:
        columns = {k: v for k, v in obj.items() if k not in ("quantiles", "probabilities")}
        for j, p in enumerate(obj["probabilities"]):
            columns[f"q{p:g}"] = obj["quantiles"][:, j]
        return pd.DataFrame(columns)
    raise TypeError(f"no pandas view for {type(obj).__name__}")


# ---------------------------------------------------------------- reports

def _number(x: Any) -> Optional[float]:
    return float(x) if isinstance(x, (int, float)) and math.isfinite(x) else None


def _compare_report(results: Iterable[Any], title: str) -> Report:
    return Report._from_core(_core.presets_case_comparisons_report(list(results), title))


def _summary_report(summary: Any, title: str) -> Report:
    s, ci, drift = summary, summary.median_ci, summary.drift
    report = Report(title)
    table = report.add_table(["Statistic", ("Value", "right")], id="summary")
    rows = [("n", s.n), ("median", s.median), ("mean", s.mean), ("std (ddof 0)", s.std), ("CV", s.cv),
            ("MAD", s.mad), ("MAD / p50 %", s.mad_over_median_pct), ("IQR", s.iqr), ("min", s.min), ("max", s.max)]
    rows += [(f"quantile {p:g}", float(q)) for p, q in zip(s.probabilities, s.quantiles)]
    if ci.available:
        rows.append((f"median CI ({ci.achieved:.1%} achieved)", f"{ci.lower:.6g} – {ci.upper:.6g}"))
    rows.append(("drift", drift.change if drift.change_available else f"n/a ({drift.change_reason})"))
    for label, value in rows:
        text = f"{value:.6g}" if isinstance(value, float) else str(value)
        table.add_row(label, Cell(text, value=_number(value)))
    return report


#: A Dataset of more sets than this displays its first and last DATASET_EDGE_ROWS sets only (pandas:
#: ``display.max_rows`` 60, ``display.min_rows`` 10).
DATASET_MAX_ROWS = 60
DATASET_EDGE_ROWS = 5


def _dataset_report(dataset: Any, title: Optional[str]) -> Report:
    """The summary table of a Dataset; beyond DATASET_MAX_ROWS sets, its head and tail with the counts."""
    from ._presets import summary_report

    n = len(dataset)
    # A short heading (the one-line repr made a page-wide <h1>); the table says the rest.
    heading = title if title is not None else f"Dataset: {n} sample sets"
    if n <= DATASET_MAX_ROWS:
        return summary_report(dataset, title=heading)
    edge = DATASET_EDGE_ROWS
    shown = dataset.take([*range(edge), *range(n - edge, n)])
    report = summary_report(shown, title=heading)
    report.add_paragraph(f"Sets 1–{edge} and {n - edge + 1}–{n} of {n} shown ({n - 2 * edge} not shown); "
                         "summary_report(dataset) shows every set, dataset.to_pandas() every sample.")
    return report


def to_report(obj: Any, title: Optional[str] = None) -> Report:
    """A :class:`Report` for a Summary, CompareResult(s), Dataset (its summary table) or Report."""
    from ._presets import ComparisonResult, MatrixResult

    if isinstance(obj, Report):
        return obj
    if isinstance(obj, (ComparisonResult, MatrixResult)):
        return obj.report
    results = _compare_results(obj)
    if results is not None:
        return _compare_report(results, title if title is not None else "Comparison")
    if _is_summary(obj):
        return _summary_report(obj, title if title is not None else "Summary")
    if _is_dataset(obj):
        return _dataset_report(obj, title)
    raise TypeError(f"no report view for {type(obj).__name__}")


def to_html(obj: Any) -> str:
    """An HTML fragment (scoped CSS, inline SVG sparklines) for notebooks."""
    return to_report(obj).to_html_fragment()


def to_markdown(obj: Any, budget: int = 0) -> str:
    """GitHub-flavoured Markdown (``budget`` bytes, 0 = unlimited)."""
    return to_report(obj).to_markdown(budget=budget)


def to_text(obj: Any) -> str:
    """Aligned plain text."""
    return to_report(obj).to_text()


# ---------------------------------------------------------------- IPython

def _install_display_methods() -> None:
    """``_repr_html_`` and ``_repr_markdown_`` (and ``_repr_pretty_`` for results) on the result
    types that lack them, so that IPython displays them with no formatter registered at import."""
    for t in _display_types():
        for method, render in (("_repr_html_", to_html), ("_repr_markdown_", to_markdown)):
            if not hasattr(t, method):
                setattr(t, method, render)
        # A Dataset keeps its one-line repr as plain text; results print as their report.
        if not hasattr(t, "_repr_pretty_") and t.__name__ != "Dataset":
            setattr(t, "_repr_pretty_", _pretty)  # noqa: B010  (mypy: a class object has no such attribute)


def _display_types() -> List[type]:
    from ._compare import CompareResult
    from ._dataset import Dataset
    from ._presets import ComparisonResult, MatrixResult
    from ._stats import Summary

    return [CompareResult, Summary, Dataset, ComparisonResult, MatrixResult]


def _pretty(obj: Any, printer: Any, cycle: bool) -> None:
    printer.text(repr(obj) if cycle else to_text(obj))


def enable(shell: Any = None) -> List[type]:
    """Register HTML, Markdown and pretty-text formatters with IPython for the result
    types that lack them (and for lists of CompareResults). Returns the types given
    at least one formatter; methods a type defines itself are left alone.

    ``shell`` defaults to the running IPython; outside IPython nothing happens (and
    IPython is not imported), so calling it unconditionally on import is cheap.
    """
    if shell is None:
        # A running IPython has imported itself; never import it just to find out.
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return []
    formatters = shell.display_formatter.formatters
    registered = []
    for t in _display_types():
        added = False
        for method, mime, render in (("_repr_html_", "text/html", to_html),
                                     ("_repr_markdown_", "text/markdown", to_markdown)):
            if not hasattr(t, method):
                formatters[mime].for_type(t, render)
                added = True
        # A Dataset keeps its one-line repr as plain text; results print as their report.
        if not hasattr(t, "_repr_pretty_") and t.__name__ != "Dataset":
            formatters["text/plain"].for_type(t, _pretty)
            added = True
        if added:
            registered.append(t)
    # compare_many returns a list: show it as one table when every item is a CompareResult.
    formatters["text/html"].for_type(list, lambda obj: to_html(obj) if _compare_results(obj) else None)
    return registered
