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
right-align-all rule leaves text left and numbers right), Markdown or text.
Needs no matplotlib; ``to_pandas`` needs pandas.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Tuple

from . import _core
from ._core.notebook import DATASET_EDGE_ROWS as DATASET_EDGE_ROWS
from ._core.notebook import DATASET_MAX_ROWS as DATASET_MAX_ROWS
from ._core.notebook import flatten, summary_row
from ._reports import Report

__all__ = ["enable", "to_report", "to_pandas", "summary_row", "to_html", "to_markdown", "to_text",
           "flatten", "VERDICT_ROLES"]

#: Cell role (colour) per verdict, as the comparison preset colours them; the HTML renderer styles ``role-<name>``.
VERDICT_ROLES: Dict[str, str] = dict(_core.VERDICT_ROLES)
_compare_results = _core.notebook.case_comparisons_in


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
    return pd.DataFrame(_core.notebook.frame_data(obj))


def to_report(obj: Any, title: Optional[str] = None) -> Report:
    """A :class:`Report` for a Summary, CompareResult(s), Dataset (its summary table), Report, or
    ComparisonResult / MatrixResult (their report).

    Past DATASET_MAX_ROWS (60) sets, a Dataset's table is its first and last DATASET_EDGE_ROWS (5), as pandas."""
    return _core.notebook.notebook_report(obj, title)


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

def _display_types() -> List[type]:
    from ._compare import CompareResult
    from ._dataset import Dataset
    from ._presets import ComparisonResult, MatrixResult
    from ._stats import Summary

    return [CompareResult, Summary, Dataset, ComparisonResult, MatrixResult]


def _missing_display(t: type) -> List[Tuple[str, str, Any]]:
    """(method, MIME type, render) of each display method ``t`` lacks (``_core.notebook.missing_display``)."""
    renders = {"text/html": to_html, "text/markdown": to_markdown, "text/plain": _pretty}
    return [(method, mime, renders[mime]) for method, mime in _core.notebook.missing_display(t)]


def _install_display_methods() -> None:
    """The display methods each result type lacks, set on the type at import, so that IPython
    displays results with no formatter registered."""
    for t in _display_types():
        for method, _, render in _missing_display(t):
            setattr(t, method, render)


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
        missing = _missing_display(t)
        for _, mime, render in missing:
            formatters[mime].for_type(t, render)
        if missing:
            registered.append(t)
    # compare_many returns a list: show it as one table when every item is a CompareResult.
    formatters["text/html"].for_type(list, lambda obj: to_html(obj) if _compare_results(obj) else None)
    return registered
