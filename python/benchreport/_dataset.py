"""Datasets of raw benchmark samples and the readers that fill them.

A :class:`Dataset` holds many ordered sample sets in columnar (CSR) form:
samples stored exactly as read, each set in its own unit (``values_as_read``;
``values`` gives them in base units: seconds, bytes, ops) and ``offsets``
(``n_sets + 1``), dictionary-encoded label columns, a unit and a direction
per set, per-set and per-run metadata kept verbatim, and the warnings of the
reader that filled it. Formats and labels per reader: docs/formats.md; the
model: docs/dataset.md.

The readers, ``from_arrays``'s argument checks, selection, metadata, pickling and the
writers are the compiled core's (python/bindings/dataset_api.cpp); what is here is the
pandas glue and the wrapping of core results in :class:`Dataset`.
"""
from __future__ import annotations

import functools
import os
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import detect_format, parse_unit, save

__all__ = ["Dataset", "Unit", "load", "save", "read_bytes", "detect_format", "parse_unit", "READERS",
           "CANONICAL_SCHEMA"]

#: A parsed unit (C++ ``Unit``): attributes ``symbol``, ``dimension``, ``to_base``, ``higher_is_better``,
#: ``exact``, ``base_symbol``; also readable as a mapping of those names (``unit["symbol"]``).
Unit = _core.Unit

#: Reader names accepted by ``format=``.
READERS: Tuple[str, ...] = tuple(_core.reader_names())
#: Version string of the canonical JSON schema.
CANONICAL_SCHEMA: str = _core.CANONICAL_SCHEMA
#: Label whose values tell processes apart inside one file (pyperf workers, repetitions of a launch).
PROCESS_LABEL: str = _core.PROCESS_LABEL

PathLike = Union[str, "os.PathLike[str]"]


class Dataset(_core.DatasetBase):
    """Sample sets with labels, units and metadata (see the module docstring).

    The numpy arrays it hands out (``values``, ``offsets``, ``weights``,
    ``samples(i)``) are read-only views of its own memory, kept alive by the
    arrays themselves. A Dataset is not changed in place after construction:
    ``select``/``concat`` return new ones. Everything but pandas is bound
    (``_core.DatasetBase``).
    """

    __slots__ = ()

    @classmethod
    def from_arrays(cls, values: Any, offsets: Any, labels: Optional[Mapping[str, Sequence[Optional[str]]]] = None,
                    unit: Union[str, Sequence[str]] = "s", weights: Any = None,
                    directions: Optional[Sequence[Optional[str]]] = None) -> "Dataset":
        """Build from CSR arrays: set ``i`` is ``values[offsets[i]:offsets[i+1]]`` in ``unit``.

        ``labels`` maps a column name to one value per set (``None`` = absent);
        ``unit`` is one symbol or one per set; ``weights`` aligns with values.
        """
        return cls(_core.dataset_from_arrays(values, offsets, labels, unit, weights, directions))

    @classmethod
    def from_pandas(cls, df: Any, value: str = "value", labels: Optional[Sequence[str]] = None,
                    unit: Optional[str] = None, unit_column: str = "unit", weight: Optional[str] = None) -> "Dataset":
        """Build from a long DataFrame: one sample per row.

        Rows with equal ``labels`` (and unit) form one set, in order of first
        appearance; samples keep row order. ``labels`` defaults to every
        column except value, unit and weight. The unit is ``unit`` for all
        rows or, when ``unit`` is None, the ``unit_column`` column.
        """
        if value not in df.columns:
            raise _core.InputError(f"no column {value!r} (the sample values); columns are {list(df.columns)}")
        if unit is None and unit_column not in df.columns:
            raise _core.InputError(f"pass unit=... or give a {unit_column!r} column")
        reserved = {value, weight, unit_column if unit is None else None}
        label_cols = list(labels) if labels is not None else [c for c in df.columns if c not in reserved]
        missing = [c for c in label_cols if c not in df.columns]
        if missing:
            raise _core.InputError(f"label columns {missing} not in the DataFrame")
        key_cols = label_cols + ([unit_column] if unit is None else [])
        groups = df.groupby(key_cols, sort=False, dropna=False).indices if key_cols else {(): np.arange(len(df))}
        rows = [np.sort(r) for r in groups.values()]  # pandas' groups: rows of each set, sets in first-seen order
        keys = [k if isinstance(k, tuple) else (k,) for k in groups]
        set_labels = [[(c, str(v)) for c, v in zip(label_cols, k) if not _is_missing(v)] for k in keys]
        order = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
        weights = None if weight is None else df[weight].to_numpy(dtype=np.float64)[order]
        return cls(_core.dataset_from_csr(df[value].to_numpy(dtype=np.float64)[order], offsets, set_labels,
                                          units=[unit] if unit is not None else [str(k[-1]) for k in keys],
                                          weights=weights, custom_unit_ok=False))

    def summarize(self, by: Sequence[str] = (), **options: Any) -> Any:
        """Per-set summaries (benchreport.summarize_grouped) as a DataFrame with the label columns.

        One row per set (or per group with ``by``): the label (or ``by``) columns,
        ``unit``, then one column per statistic; quantiles become ``q<p>`` columns
        (``q0.05``, ``q0.25``, ...). ``options`` go to summarize_grouped.

        ``by`` lists label columns to pool: sets with equal values are
        concatenated (in set order) before summarizing. Values are reported in
        each group's unit (the first set's), not base units.
        """
        import pandas as pd

        keys, units, statistics = self._summary_columns(list(by), options)
        frame = pd.DataFrame(keys)
        frame["unit"] = units
        return pd.concat([frame.reset_index(drop=True), pd.DataFrame(statistics).reset_index(drop=True)], axis=1)

    def to_pandas(self, base_units: bool = False) -> Any:
        """Long form: one row per sample with label columns, ``run``, ``set``, ``sample``,
        ``unit``, ``value`` (in the set's unit unless ``base_units``) and ``weight`` if any."""
        import pandas as pd

        return pd.DataFrame(self._long_columns(base_units))


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and bool(np.isnan(value)))


def _returning_dataset(function: Callable[..., Any]) -> Callable[..., Dataset]:
    """The core's function (its keywords and docstring), returning a :class:`Dataset`."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Dataset:
        return Dataset(function(*args, **kwargs))

    return call


load = _returning_dataset(_core.load)
read_bytes = _returning_dataset(_core.read_bytes)
label_sides = _returning_dataset(_core.label_sides)

#: Sort key that orders numbers by value: base-2.json before base-10.json (only ASCII digits form
#: numbers; io/paths.hpp natural_compare).
natural_key = functools.cmp_to_key(_core.natural_compare)
#: Glob matches in natural order, ``**`` never entering a link to a folder, each file once (io/paths.hpp).
glob_paths = _core.glob_paths
#: Paths as given, glob patterns expanded (the one expander of br.load and the CLI; io/paths.hpp).
expand_paths = _core.expand_paths
