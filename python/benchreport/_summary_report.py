"""The report of ``benchreport summary``: one row per sample set (or per group of
pooled sets) with n, median, MAD / p50, CV, min–max, drift and a sparkline.

Needs numpy only (no pandas), so the CLI works with the package's one runtime
dependency. Statistics come from one ``summarize_grouped`` call over the
groups in CSR form; definitions are in docs/statistics-summary.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._reports import (Cell, Report, format_bytes, format_byte_rate, format_change_percent, format_fixed,
                       format_percent, format_rate, format_time)
from ._stats import summarize_grouped

__all__ = ["SummaryGroups", "summary_groups", "summary_report", "format_value", "SUMMARY_SCHEMA"]

SUMMARY_SCHEMA = "benchreport-summary/1"
#: Drift at or beyond this (either direction) is highlighted, as in the comparison preset.
DRIFT_LIMIT = 0.10
_STATS = ["moments", "median", "mad", "drift"]


@dataclass
class SummaryGroups:
    """Pooled sample sets ready for the grouped kernel.

    ``values`` are in base units (seconds, bytes, ...), group after group;
    ``keys`` holds one tuple of label values per group (for ``columns``);
    ``units`` the unit description of each group's first set (its display unit).
    """

    columns: List[str]
    keys: List[Tuple[str, ...]]
    units: List[Dict[str, Any]]
    values: np.ndarray
    offsets: np.ndarray

    def samples(self, i: int) -> np.ndarray:
        return self.values[self.offsets[i]:self.offsets[i + 1]]


def _group_name(columns: Sequence[str], key: Sequence[str]) -> str:
    return ", ".join(f"{c}={v}" for c, v in zip(columns, key)) or "all samples"


def summary_groups(dataset: Any, by: Optional[Sequence[str]] = None) -> SummaryGroups:
    """Group ``dataset`` by the ``by`` label columns (pooling sets in set order), or one group per set.

    Raises :class:`benchreport.InputError` when a group mixes dimensions
    (e.g. times with throughputs), which cannot be pooled.
    """
    if by:
        columns = list(by)
        groups = [(tuple(key), [int(s) for s in sets]) for key, sets in dataset.group_by(*columns)]
    else:
        columns = list(dataset.columns)
        labels = dataset.labels
        groups = [(tuple(labels[c][i] or "" for c in columns), [i]) for i in range(len(dataset))]
    pieces, units = [], []
    for key, sets in groups:
        first = dataset.unit(sets[0])
        for s in sets[1:]:
            other = dataset.unit(s)
            if other["dimension"] != first["dimension"]:
                raise _core.InputError(
                    f"group {_group_name(columns, key)} mixes units {first['symbol']} and {other['symbol']}; "
                    "add a label such as metric to --by")
        pieces.append(np.concatenate([dataset.samples(s) for s in sets]))
        units.append(first)
    offsets = np.zeros(len(pieces) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(p) for p in pieces])
    values = np.concatenate(pieces) if pieces else np.zeros(0)
    return SummaryGroups(columns, [k for k, _ in groups], units, values, offsets)


def format_value(base_value: float, unit: Dict[str, Any]) -> str:
    """A value in base units, shown the way its dimension is shown elsewhere in reports."""
    dimension = unit["dimension"]
    if dimension == "time":
        return format_time(base_value)
    if dimension == "bytes":
        return format_bytes(base_value)
    if dimension == "rate_bytes":
        return format_byte_rate(base_value)
    own = base_value / unit["to_base"]
    if dimension == "rate_time":
        return format_rate(own, unit["symbol"])
    symbol = unit["symbol"]
    return format_fixed(own, 2) if symbol == "1" else f"{format_fixed(own, 2)} {symbol}"


def _finite(x: float) -> Optional[float]:
    return float(x) if math.isfinite(x) else None


def _drift_cell(stats: Dict[str, np.ndarray], i: int, drift_limit: float) -> Cell:
    if not stats["drift_available"][i]:
        return Cell("n/a", role="muted")
    drift = float(stats["drift"][i])
    role = "inconclusive" if abs(drift) >= drift_limit else "none"
    return Cell(format_change_percent(drift), role=role, value=drift)


def _row(groups: SummaryGroups, stats: Dict[str, np.ndarray], i: int, drift_limit: float) -> List[Any]:
    unit = groups.units[i]
    lo, hi = float(stats["min"][i]), float(stats["max"][i])
    return [
        *groups.keys[i],
        Cell(str(int(stats["n"][i])), value=int(stats["n"][i])),
        Cell(format_value(float(stats["median"][i]), unit), value=float(stats["median"][i])),
        Cell(format_percent(float(stats["mad_over_median_pct"][i]) / 100.0),
             value=float(stats["mad_over_median_pct"][i])),
        Cell(format_percent(float(stats["cv"][i]), 2), value=float(stats["cv"][i])),
        Cell(f"{format_value(lo, unit)} – {format_value(hi, unit)}"),
        _drift_cell(stats, i, drift_limit),
        Cell("", samples=groups.samples(i)),
    ]


def _payload(groups: SummaryGroups, stats: Dict[str, np.ndarray], k: int) -> Dict[str, Any]:
    rows = []
    for i, key in enumerate(groups.keys):
        rows.append({
            "labels": dict(zip(groups.columns, key)),
            "unit": groups.units[i]["base_symbol"],
            "display_unit": groups.units[i]["symbol"],
            "n": int(stats["n"][i]),
            "median": _finite(stats["median"][i]),
            "mad": _finite(stats["mad"][i]),
            "mad_over_median_pct": _finite(stats["mad_over_median_pct"][i]),
            "cv": _finite(stats["cv"][i]),
            "min": _finite(stats["min"][i]),
            "max": _finite(stats["max"][i]),
            "drift": _finite(stats["drift"][i]) if stats["drift_available"][i] else None,
            "drift_reason": str(stats["drift_reason"][i]),
        })
    return {"schema": SUMMARY_SCHEMA, "by": groups.columns, "drift_k": k,
            "methods": {"cv": "population std / mean (ddof 0)", "mad_over_median_pct": "raw MAD / median x 100",
                        "drift": f"median(last {k}) / median(first {k}) - 1"},
            "groups": rows}


def summary_report(dataset: Any, by: Optional[Sequence[str]] = None, *, k: int = 5,
                   drift_limit: float = DRIFT_LIMIT, title: str = "Summary") -> Report:
    """A report with one row per sample set, or per group of sets pooled by ``by``.

    Columns: the label values, n, median (p50), MAD / p50, CV (population σ /
    mean), min – max, drift (median of the last ``k`` samples over the first
    ``k`` − 1; |drift| ≥ ``drift_limit`` highlighted) and a sparkline of the
    samples in measurement order. Reader warnings become a warning note;
    ``report.data`` carries every number in base units.
    """
    groups = summary_groups(dataset, by)
    if not groups.keys:
        raise _core.InputError("no sample sets to summarise")
    stats = summarize_grouped(groups.values, groups.offsets, k=k, stats=_STATS)
    report = Report(title)
    n_sets = len(dataset)
    grouping = f", pooled by {', '.join(groups.columns)} into {len(groups.keys)} groups" if by else ""
    report.add_paragraph(f"{n_sets} sample sets, {len(groups.values)} samples{grouping}.")
    warnings = list(dataset.warnings)
    if warnings:
        report.add_note(f"The readers reported {len(warnings)} warning(s).", kind="warning")
        report.add_list(warnings)
    drifting = [i for i in range(len(groups.keys))
                if stats["drift_available"][i] and abs(float(stats["drift"][i])) >= drift_limit]
    if drifting:
        report.add_note(f"{len(drifting)} of {len(groups.keys)} rows drift by {format_percent(drift_limit, 0)} or more "
                        f"between the first and last {k} samples.", kind="warning")
    columns = [*groups.columns, ("n", "right"), ("p50", "right"), ("MAD / p50", "right"), ("CV", "right"),
               ("min – max", "right"), ("drift", "right"), "samples"]
    table = report.add_table(columns, id="summary")
    for i in range(len(groups.keys)):
        table.add_row(*_row(groups, stats, i, drift_limit))
    table.footnote = (f"p50 = median; MAD / p50 = median absolute deviation over the median; CV = population "
                      f"standard deviation over the mean; drift = median of the last {k} samples over the first "
                      f"{k} − 1 (n/a below {2 * k} samples).")
    report.data = _payload(groups, stats, k)
    return report
