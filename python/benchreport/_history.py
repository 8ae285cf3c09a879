"""History: change points across commits (``br.history``), and Parquet/Arrow input.

Keywords, defaults, docstrings, the work and HistoryResult are the compiled core's (python/bindings/
register_history.cpp, preset_results.cpp; docs/statistics-history.md). What stays here: reading
files and Arrow tables.
"""
from __future__ import annotations

import copyreg
import functools
import os
from pathlib import Path
from typing import Any, Optional, Sequence

from . import _core
from ._core import HistoryResult, StoreHistoryResult, commit_entries, e_divisive
from ._dataset import Dataset, expand_paths, load
from ._pickling import reduce_remembered, remembers_call

__all__ = ["HistoryResult", "history", "e_divisive", "read_arrow", "label_commits", "ARROW_SUFFIXES", "HISTORY_SCHEMA"]

HISTORY_SCHEMA = _core.HISTORY_SCHEMA
for _result in (HistoryResult, StoreHistoryResult):  # by the call that made them (br.history)
    copyreg.pickle(_result, reduce_remembered)
#: Files read through pyarrow (the ``arrow`` extra) instead of the C++ readers.
ARROW_SUFFIXES = (".parquet", ".pq", ".arrow", ".feather")


def read_arrow(source: Any, *, value: str = "value", unit: str = "unit", default_unit: str = "s",
               labels: Optional[Sequence[str]] = None) -> Dataset:
    """A long table (one row per sample) as a Dataset: a Parquet/Feather file or a ``pyarrow.Table``.

    ``value`` is the float column; every other column (or ``labels``) is a label, except ``unit``
    (one unit symbol per row, constant within a set; absent = ``default_unit``). Consecutive rows
    with equal labels are one set, in row order (data/long_table.hpp). When the value column is one
    float64 chunk without nulls it is handed to C++ in place (no copy).
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.feather as feather
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError("reading Parquet/Arrow needs pyarrow, an optional extra: "
                          "pip install 'benchreport[arrow]'") from exc
    is_table = isinstance(source, pa.Table)
    path = "<table>" if is_table else os.fspath(source)
    table = source if is_table else (pq if path.endswith((".parquet", ".pq")) else feather).read_table(path)
    name = getattr(source, "name", None) or path
    if value not in table.column_names:
        raise _core.InputError(f"{name}: no column {value!r} (columns: {', '.join(table.column_names)})")
    column = table.column(value)
    if column.null_count:
        raise _core.InputError(f"{name}: column {value!r} has {column.null_count} null values")
    if column.num_chunks == 1 and pa.types.is_float64(column.type):
        values = column.chunk(0).to_numpy(zero_copy_only=True)  # a view of the Arrow buffer
    else:
        values = column.combine_chunks().cast(pa.float64()).to_numpy(zero_copy_only=False)

    def coded(key: str) -> tuple:  # (name, int32 codes with -1 for null, dictionary) of a column as text
        encoded = pc.dictionary_encode(table.column(key).combine_chunks().cast(pa.string()))
        return key, pc.fill_null(encoded.indices, -1).to_numpy(), encoded.dictionary.to_pylist()

    keys = list(labels) if labels is not None else [c for c in table.column_names if c not in (value, unit)]
    units = coded(unit) if unit in table.column_names else None
    offsets, per_set, set_units = _core.long_table_sets(len(values), [coded(k) for k in keys], units, default_unit)
    return Dataset(_core.dataset_from_csr(values, offsets, per_set, units=set_units or [default_unit],
                                          custom_unit_ok=len(set(set_units)) <= 1))  # as Dataset.from_arrays when mixed


def label_commits(parts: Sequence[Dataset], names: Sequence[str], column: str = "commit") -> Dataset:
    """One Dataset from per-commit parts in series order: each part without a ``column`` label gets
    ``column`` = its name (e.g. the input file's name)."""
    return Dataset(_core.label_commits([p._ds for p in parts], list(names), column))


def _history_dataset(data: Any, order: Optional[str], format: str) -> Dataset:
    items = [data] if isinstance(data, (str, os.PathLike)) else list(data)
    paths = expand_paths(items if order is not None else commit_entries(items))
    if not paths:
        raise _core.InputError("history: no input files given")
    parts = [read_arrow(p) if p.endswith(ARROW_SUFFIXES) else load(p, format=format) for p in paths]
    return parts[0].concat(*parts[1:]) if order is not None else label_commits(parts, [Path(p).name for p in paths])


@remembers_call
@functools.wraps(_core.history, assigned=("__doc__",))
def history(data: Any, **options: Any) -> HistoryResult:
    if not isinstance(data, Dataset):
        data = _history_dataset(data, options.get("order"), options.get("format", "auto"))
    return _core.history(data, **options)
