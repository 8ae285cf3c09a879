"""History: change points across commits (``br.history``), and Parquet/Arrow input.

A thin typed skin over ``benchreport._core`` (src/compare/series.cpp,
src/compare/history.cpp, src/stats/edivisive.cpp, src/presets/history.cpp).
docs/statistics-history.md defines the statistics.

>>> import benchreport as br
>>> result = br.history(["run-001.json", "run-002.json", "run-003.json"])   # doctest: +SKIP
>>> result.to_pandas()                                                      # doctest: +SKIP
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, List, Optional, Sequence, Union

import numpy as np

from . import _core
from ._dataset import Dataset, PathLike, expand_paths, load, natural_key
from ._pickling import remembers_call
from ._presets import _native, _RendersReport
from ._reports import Report

__all__ = ["HistoryResult", "history", "e_divisive", "read_arrow", "label_commits", "ARROW_SUFFIXES", "HISTORY_SCHEMA"]

HISTORY_SCHEMA = _core.HISTORY_SCHEMA
#: Files read through pyarrow (the ``arrow`` extra) instead of the C++ readers.
ARROW_SUFFIXES = (".parquet", ".pq", ".arrow", ".feather")


def e_divisive(x: Any, *, max_p_value: float = 0.05, permutations: int = 199, min_segment: int = 2,
               seed: int = 0, stream: int = 0, within: str = "pairs", search_end: bool = True,
               screen_p_value: float = 5e-4) -> List[Any]:
    """Significant E-divisive means splits of one series (``EDivisiveSplit``: index, q, p_value, permuted), ascending.

    A split whose Welch t-test between the two sides of its segment, times the number of splits the
    segment allows, is at most ``min(screen_p_value, max_p_value)`` is kept without permutations
    (``permuted`` False, ``p_value`` that bound); ``screen_p_value=0`` always permutes.

    ``within="pairs"`` averages within-segment distances over distinct pairs (Matteson & James 2014);
    ``"squares"`` over all n² ordered pairs, as signal-processing-algorithms 2.x does.
    ``search_end=True`` also searches where the second segment ends (Matteson & James, Otava);
    False lets it run to the end of the segment (signal-processing-algorithms)."""
    return list(_core.e_divisive(np.ascontiguousarray(x, dtype=np.float64), max_p_value=float(max_p_value),
                                 permutations=int(permutations), min_segment=int(min_segment), seed=int(seed),
                                 stream=int(stream), within=str(within), search_end=bool(search_end),
                                 screen_p_value=float(screen_p_value)))


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.compute
    except ImportError as exc:
        raise ImportError("reading Parquet/Arrow needs pyarrow, an optional extra: "
                          "pip install 'benchreport[arrow]'") from exc
    return pyarrow


def _arrow_table(source: Any) -> Any:
    pa = _pyarrow()
    if isinstance(source, pa.Table):
        return source
    path = os.fspath(source)
    if path.endswith((".parquet", ".pq")):
        import pyarrow.parquet as pq
        return pq.read_table(path)
    import pyarrow.feather as feather
    return feather.read_table(path)


def read_arrow(source: Any, *, value: str = "value", unit: str = "unit", default_unit: str = "s",
               labels: Optional[Sequence[str]] = None) -> Dataset:
    """A long table (one row per sample) as a Dataset: a Parquet/Feather file or a ``pyarrow.Table``.

    ``value`` is the float column; every other column (or ``labels``) is a label,
    except ``unit`` (one unit symbol per row, constant within a set; absent =
    ``default_unit``). Consecutive rows with equal labels are one set, in row
    order. When the value column is one float64 chunk without nulls it is handed to
    C++ in place (no copy); the label columns are read once per set.
    """
    pa = _pyarrow()
    import pyarrow.compute as pc
    table = _arrow_table(source)
    name = getattr(source, "name", None) or (os.fspath(source) if not isinstance(source, pa.Table) else "<table>")
    if value not in table.column_names:
        raise _core.InputError(f"{name}: no column {value!r} (columns: {', '.join(table.column_names)})")
    keys = list(labels) if labels is not None else [c for c in table.column_names if c not in (value, unit)]
    column = table.column(value)
    if column.null_count:
        raise _core.InputError(f"{name}: column {value!r} has {column.null_count} null values")
    if column.num_chunks == 1 and pa.types.is_float64(column.type):
        values = column.chunk(0).to_numpy(zero_copy_only=True)  # a view of the Arrow buffer
    else:
        values = column.combine_chunks().cast(pa.float64()).to_numpy(zero_copy_only=False)
    key_columns = [keys_as_text(table.column(k)) for k in keys]
    units = keys_as_text(table.column(unit)) if unit in table.column_names else None
    n = len(values)
    starts = np.zeros(n, dtype=bool)
    if n:
        starts[0] = True
    for col in key_columns + ([units] if units is not None else []):
        codes = np.asarray(pc.dictionary_encode(col).indices.to_numpy(zero_copy_only=False)) if n else np.zeros(0)
        starts[1:] |= codes[1:] != codes[:-1]
    begins = np.flatnonzero(starts)
    offsets = np.append(begins, n).astype(np.int64)
    per_set = [[(k, col[int(b)].as_py()) for k, col in zip(keys, key_columns) if col[int(b)].is_valid] for b in begins]
    set_units = [units[int(b)].as_py() for b in begins] if units is not None else [default_unit] * len(begins)
    if len(set(set_units)) <= 1:
        return Dataset(_core.dataset_from_csr(values, offsets, per_set, set_units[0] if set_units else default_unit))
    by_key = {k: [dict(pairs).get(k) for pairs in per_set] for k in keys}
    return Dataset.from_arrays(values, offsets, by_key, unit=set_units)


def keys_as_text(column: Any) -> Any:
    """A label column as one string array (numbers and dates as their text)."""
    import pyarrow as pa
    chunked = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    return chunked if pa.types.is_string(chunked.type) else chunked.cast(pa.string())


def label_commits(parts: Sequence[Dataset], names: Sequence[str], column: str = "commit") -> Dataset:
    """One Dataset from per-commit parts in series order: each part without a ``column`` label gets
    ``column`` = its name (e.g. the input file's name)."""
    if not parts:
        raise _core.InputError("history: no inputs")
    labelled = [p if column in p.columns and all(v is not None for v in p.labels[column])
                else p.with_labels({column: n}) for p, n in zip(parts, names)]
    return labelled[0].concat(*labelled[1:])


def commit_entries(items: Iterable[PathLike]) -> List[str]:
    """Inputs with each folder replaced by its entries (files and subfolders, hidden ones skipped) in
    natural file-name order (``run-2`` before ``run-10``): one commit per entry. A folder read whole
    would be one commit."""
    out: List[str] = []
    for item in items:
        text = os.fspath(item)
        if not os.path.isdir(text):
            out.append(text)
            continue
        entries = sorted((e for e in os.listdir(text) if not e.startswith(".")), key=natural_key)
        if not entries:
            raise _core.InputError(f"{text}: empty folder (history takes one commit per file in it)")
        out.extend(os.path.join(text, e) for e in entries)
    return out


def _load_part(path: str, format: str) -> Dataset:
    return read_arrow(path) if path.endswith(ARROW_SUFFIXES) else load(path, format=format)


def _history_dataset(data: Union[Dataset, PathLike, Iterable[PathLike]], order: Optional[str], format: str) -> Dataset:
    if isinstance(data, Dataset):
        return data
    items = [data] if isinstance(data, (str, os.PathLike)) else list(data)
    paths = expand_paths(items if order is not None else commit_entries(items))
    if not paths:
        raise _core.InputError("history: no input files given")
    parts = [_load_part(p, format) for p in paths]
    if order is not None:
        return parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:])
    return label_commits(parts, [Path(p).name for p in paths])


@dataclass
class HistoryResult(_RendersReport):
    """Result of :func:`history`: the series, their change points and the report."""

    core: Any  # _core.HistoryAnalysis
    report: Report = field(repr=False)

    @property
    def commits(self) -> List[str]:
        return list(self.core.history.commits)

    @property
    def by(self) -> List[str]:
        return list(self.core.history.by)

    def _keys(self, series: Any) -> dict:
        return dict(zip(self.by, series.key))

    def columns(self) -> dict:
        """``{field: numpy array}``, one entry per change point: the case labels, ``unit`` (base unit)
        and the fields of a JSON change point (commit, index, before, after, change, lower, upper,
        p_value, test, regression)."""
        return dict(self.core.columns())

    def to_pandas(self) -> Any:
        """One row per change point: ``DataFrame(self.columns())``; ``relative`` False means change, lower
        and upper are after - before in the base unit (the series has a value <= 0)."""
        import pandas as pd

        return pd.DataFrame(self.columns())

    def series_frame(self) -> Any:
        """One row per (case, commit): case labels, commit, position, value (base unit), processes, samples."""
        import pandas as pd
        history = self.core.history
        if not history.series:
            return pd.DataFrame()
        points = history.points()  # {series, position, value, processes, samples}
        at = points.pop("series")
        keys = np.empty((len(history.series), len(history.by)), dtype=object)
        keys[:] = [list(s.key) for s in history.series]
        labels = {k: keys[at, i] for i, k in reversed(list(enumerate(history.by)))}  # last label first, as always
        return pd.DataFrame({**labels, "commit": np.array(history.commits, dtype=object)[points["position"]],
                             **points})

    def plot(self, *, ax: Any = None, max_cases: int = 12) -> Any:
        """Each case's summaries relative to its first commit, change points marked (matplotlib)."""
        from .plot import plot_history
        return plot_history(self, ax=ax, max_cases=max_cases)


@remembers_call
def history(data: Union[Dataset, PathLike, Iterable[PathLike]], *, order: Optional[str] = None,
            by: Optional[Sequence[str]] = None, max_p_value: float = 0.02, permutations: int = 199,
            min_segment: int = 2, seed: int = 0, min_magnitude: float = 0.01, confidence: float = 0.95,
            threshold: float = 0.05, threads: int = 0, title: str = "History", format: str = "auto",
            screen_p_value: float = 5e-4, method: str = "steps") -> HistoryResult:
    """Change points of every case across commits.

    ``data`` is a Dataset, or files/folders/globs (Parquet/Feather too): with
    ``order=None`` each input is one commit, in the order given, labelled
    ``commit`` = its file name (unless its sets already carry ``commit``); with
    ``order="LABEL"`` the commits are that label's values, sorted (numerically
    when every value is a number). A commit's summary is the median of its
    processes' medians. ``method="steps"`` (default) finds the steps a person
    would mark and not the slopes or seasons between them (a step against a
    local level and slope, docs/statistics-history.md); ``method="e_divisive"``
    is E-divisive means (permutation p <= ``max_p_value``; a split whose
    Bonferroni-adjusted Welch t-test is at most ``screen_p_value`` is kept
    without permutations, 0 always permutes; ``permutations``, ``seed`` and
    ``min_segment`` apply to it alone). Changes below ``min_magnitude`` are
    dropped. A series with a value <= 0 gets absolute changes (after - before)
    instead of relative ones (``ChangePoint.relative``). The latest segment
    worse than the first by more than ``threshold`` is "still regressed".
    """
    dataset = _history_dataset(data, order, format)
    analysis = _core.analyze_history(
        _native(dataset), order=order or "commit", sort=order is not None, by=list(by) if by else [],
        max_p_value=float(max_p_value), permutations=int(permutations), min_segment=int(min_segment),
        seed=int(seed), min_magnitude=float(min_magnitude), confidence=float(confidence), threshold=float(threshold),
        threads=int(threads), screen_p_value=float(screen_p_value), method=str(method))
    report = Report._from_core(_core.presets_history_report(analysis, title=str(title)))
    return HistoryResult(analysis, report)
