"""Datasets of raw benchmark samples and the readers that fill them.

A :class:`Dataset` holds many ordered sample sets in columnar (CSR) form:
samples stored exactly as read, each set in its own unit (``values_as_read``;
``values`` gives them in base units: seconds, bytes, ops) and ``offsets``
(``n_sets + 1``), dictionary-encoded label columns, a unit and a direction
per set, per-set and per-run metadata kept verbatim, and the warnings of the
reader that filled it. Formats and labels per reader: docs/formats.md; the
model: docs/dataset.md.
"""
from __future__ import annotations

import functools
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core

__all__ = ["Dataset", "Unit", "load", "save", "read_bytes", "detect_format", "parse_unit", "READERS",
           "CANONICAL_SCHEMA"]

#: A parsed unit (C++ ``Unit``): attributes ``symbol``, ``dimension``, ``to_base``, ``higher_is_better``,
#: ``exact``, ``base_symbol``; also readable as a mapping of those names (``unit["symbol"]``).
Unit = _core.Unit

#: Reader names accepted by ``format=``.
READERS: Tuple[str, ...] = tuple(_core.reader_names())
#: Version string of the canonical JSON schema.
CANONICAL_SCHEMA: str = _core.CANONICAL_SCHEMA

PathLike = Union[str, "os.PathLike[str]"]


def parse_unit(symbol: str) -> "_core.Unit":
    """Describe a unit symbol: a :class:`Unit` (``symbol``, ``dimension``, ``to_base``, ``higher_is_better``,
    ``exact``, ``base_symbol``).

    Raises :class:`benchreport.InputError` for an unknown symbol.
    """
    return _core.parse_unit(symbol)


def detect_format(name: str, first_bytes: bytes) -> str:
    """The reader name for a file, from its name and first bytes (InputError if none fits)."""
    return _core.detect_format(name, first_bytes)


class Dataset(_core.DatasetBase):
    """Sample sets with labels, units and metadata (see the module docstring).

    The numpy arrays it hands out (``values``, ``offsets``, ``weights``,
    ``samples(i)``) are read-only views of its own memory, kept alive by the
    arrays themselves. A Dataset is not changed in place after construction:
    ``select``/``concat`` return new ones. The raw arrays, labels, units and
    writers are bound (``_core.DatasetBase``); pandas and parsed metadata are here.
    """

    __slots__ = ()

    # --- construction -------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        values: Any,
        offsets: Any,
        labels: Optional[Mapping[str, Sequence[Optional[str]]]] = None,
        unit: Union[str, Sequence[str]] = "s",
        weights: Any = None,
        directions: Optional[Sequence[Optional[str]]] = None,
    ) -> "Dataset":
        """Build from CSR arrays: set ``i`` is ``values[offsets[i]:offsets[i+1]]`` in ``unit``.

        ``labels`` maps a column name to one value per set (``None`` = absent);
        ``unit`` is one symbol or one per set; ``weights`` aligns with values.
        """
        o = _integer_offsets(offsets)  # a fractional offset is refused, not truncated
        n = max(len(o) - 1, 0) if o.ndim == 1 else 0
        labels = dict(labels or {})
        for name, column in labels.items():
            if len(column) != n:
                raise _core.InputError(f"label column {name!r} has {len(column)} entries for {n} sets")
        columns = [(str(name), column) for name, column in labels.items()]
        set_labels = [[(name, str(col[i])) for name, col in columns if col[i] is not None] for i in range(n)]
        units = [unit] if isinstance(unit, str) else list(unit)
        return cls(_core.dataset_from_csr(values, o, set_labels, units=units, weights=weights,
                                          directions=None if directions is None else list(directions),
                                          custom_unit_ok=False))

    @classmethod
    def from_pandas(
        cls,
        df: Any,
        value: str = "value",
        labels: Optional[Sequence[str]] = None,
        unit: Optional[str] = None,
        unit_column: str = "unit",
        weight: Optional[str] = None,
    ) -> "Dataset":
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
        core = _core.Dataset()
        values = df[value].to_numpy(dtype=np.float64)
        weights = None if weight is None else df[weight].to_numpy(dtype=np.float64)
        groups = df.groupby(key_cols, sort=False, dropna=False).indices if key_cols else {(): np.arange(len(df))}
        for key, rows in groups.items():
            key = key if isinstance(key, tuple) else (key,)
            rows = np.sort(rows)
            set_labels = [(c, str(k)) for c, k in zip(label_cols, key) if not _is_missing(k)]
            set_unit = unit if unit is not None else str(key[-1])
            core.add_set(set_labels, values[rows], set_unit,
                         weights=None if weights is None else weights[rows])
        return cls(core)

    @property
    def metadata(self) -> List[Dict[str, Any]]:
        """Per-set metadata, parsed from the verbatim JSON the readers kept."""
        return [{k: _json_loads(v) for k, v in self._ds.set_metadata(i)} for i in range(len(self))]

    @property
    def runs(self) -> Dict[str, Any]:
        """Run id → run metadata (parsed JSON): device, context, configuration, ..."""
        return {rid: _json_loads(meta) for rid, meta in self._ds.runs()}

    def select(self, **labels: str) -> "Dataset":
        """The sets whose labels equal every given ``column=value``."""
        return Dataset(self._ds.subset(self._ds.select([(k, str(v)) for k, v in labels.items()])))

    def indices(self, **labels: str) -> np.ndarray:
        """Indices of the sets whose labels equal every given ``column=value``."""
        return np.asarray(self._ds.select([(k, str(v)) for k, v in labels.items()]), dtype=np.int64)

    def summarize(self, by: Sequence[str] = (), **options: Any) -> Any:
        """Per-set summaries (benchreport.summarize_grouped) as a DataFrame with the label columns.

        One row per set (or per group with ``by``): the label (or ``by``) columns,
        ``unit``, then one column per statistic; quantiles become ``q<p>`` columns
        (``q0.05``, ``q0.25``, ...). ``options`` go to summarize_grouped.

        ``by`` lists label columns to pool: sets with equal values are
        concatenated (in set order) before summarizing. Values are reported in
        each group's unit (the first set's), not base units.
        """
        from . import _stats

        if by:
            values, offsets, first, group_keys = self.pooled_by(list(by))
            keys: Dict[str, List[Optional[str]]] = {c: [k[j] for k in group_keys] for j, c in enumerate(by)}
        else:
            values, offsets, first, keys = self.values_as_read, self.offsets, list(range(len(self))), self.labels
        result = _stats.summarize_grouped(values, offsets, **options)
        import pandas as pd

        frame = pd.DataFrame(keys)
        frame["unit"] = [self._ds.unit(i).symbol for i in first]
        table = pd.DataFrame(_flat_columns(dict(result)))
        return pd.concat([frame.reset_index(drop=True), table.reset_index(drop=True)], axis=1)

    def to_pandas(self, base_units: bool = False) -> Any:
        """Long form: one row per sample with label columns, ``run``, ``set``, ``sample``,
        ``unit``, ``value`` (in the set's unit unless ``base_units``) and ``weight`` if any."""
        import pandas as pd

        offsets = self.offsets
        counts = np.diff(offsets)
        set_index = np.repeat(np.arange(len(self)), counts)
        data: Dict[str, Any] = {}
        for name, column in self.labels.items():
            data[name] = np.asarray(column, dtype=object)[set_index]
        data["run"] = np.asarray(self.run_ids, dtype=object)[set_index] if len(self) else []
        data["set"] = set_index
        data["sample"] = np.arange(len(self._ds.values)) - np.repeat(offsets[:-1], counts)
        data["unit"] = np.asarray(self.units, dtype=object)[set_index] if len(self) else []
        data["value"] = np.array(self.values if base_units else self.values_as_read)
        if self.weights is not None:
            data["weight"] = np.array(self.weights)
        return pd.DataFrame(data)

    def __reduce__(self) -> Any:
        # Pickles as its canonical JSON, which gives every value, label, unit, direction, weight and
        # run back as read (docs/dataset.md), and the reader of each run, which canonical JSON does
        # not carry and the presets use (Nitro's case names and platform titles).
        return (_from_canonical_json, (self._ds.to_json_string(), self._ds.run_formats()))


def _flat_columns(result: Dict[str, Any]) -> Dict[str, Any]:
    """One 1-D column per statistic: the 2-D ``quantiles`` array becomes ``q<p>`` columns
    (p from ``probabilities``, which is per request, not per set, and is dropped)."""
    probabilities = np.asarray(result.pop("probabilities", ()), dtype=np.float64)
    out: Dict[str, Any] = {}
    for name, column in result.items():
        column = np.asarray(column)
        if column.ndim == 2:
            for j, p in enumerate(probabilities):
                out[f"q{p:g}"] = column[:, j]
        else:
            out[name] = column
    return out


def _is_missing(value: Any) -> bool:
    try:
        return value is None or (isinstance(value, float) and np.isnan(value))
    except TypeError:
        return False


def _limits(max_file_size: Optional[int], max_depth: Optional[int], max_samples: Optional[int],
            threads: Optional[int] = None) -> Dict[str, int]:
    out: Dict[str, int] = {}
    if threads is not None:
        if int(threads) < 0:
            raise ValueError(f"threads={threads}: expected 0 (one per core) or a positive count")
        out["threads"] = int(threads)
    if max_file_size is not None:
        out["max_file_size"] = int(max_file_size)
    if max_depth is not None:
        out["max_depth"] = int(max_depth)
    if max_samples is not None:
        out["max_samples"] = int(max_samples)
    return out


def _from_canonical_json(text: str, run_formats: Sequence[Tuple[str, str]] = ()) -> Dataset:
    native = _core.read_buffer(text.encode("utf-8"), "<pickle>", "json")
    for run, fmt in run_formats:
        native.set_run_format(run, fmt)
    return Dataset(native)


def read_bytes(data: bytes, name: str = "<bytes>", format: str = "auto", **limits: int) -> Dataset:
    """Parse bytes in memory (gzip-compressed bytes are decompressed first, under ``max_file_size``)."""
    return Dataset(_core.read_buffer(data, name, format, **limits))


#: The deepest metadata parsed: json.loads recurses once per level, and readers accept up to
#: their max_depth (documented up to 6000); past this an InputError says so.
_MAX_METADATA_DEPTH = 20000


def _json_loads(text: str) -> Any:
    """json.loads of verbatim metadata, with the recursion limit raised for deep nesting."""
    try:
        return json.loads(text)
    except RecursionError:
        pass
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, _MAX_METADATA_DEPTH + 100))
    try:
        return json.loads(text)
    except RecursionError:
        raise _core.InputError(f"metadata nested deeper than {_MAX_METADATA_DEPTH} levels cannot be parsed "
                               "in Python") from None
    finally:
        sys.setrecursionlimit(old)


def _integer_offsets(offsets: Any) -> np.ndarray:
    """``offsets`` as int64; a float array is accepted only when every entry is a whole number
    within int64 (never silently truncated: 1.5 is an InputError)."""
    o = np.asarray(offsets)
    if o.dtype.kind == "f":
        whole = np.isfinite(o) & (np.floor(o) == o) & (np.abs(o) < 2.0 ** 63)
        if not np.all(whole):
            bad = o[~whole].flat[0] if o.ndim else o
            raise _core.InputError(f"offsets must be whole numbers (got {float(bad)!r}); pass an integer array")
    elif o.size and o.dtype.kind not in "iub":
        raise _core.InputError(f"offsets must be integers (got an array of {o.dtype})")
    return o.astype(np.int64)


#: Sort key that orders numbers by value: base-2.json before base-10.json (only ASCII digits form
#: numbers; io/paths.hpp natural_compare).
natural_key = functools.cmp_to_key(_core.natural_compare)
#: Glob matches in natural order, ``**`` never entering a link to a folder, each file once (io/paths.hpp).
glob_paths = _core.glob_paths
#: Paths as given, glob patterns expanded (the one expander of br.load and the CLI; io/paths.hpp).
expand_paths = _core.expand_paths


def _load_one(path: str, format: str, limits: Dict[str, int]) -> Dataset:
    return Dataset(_core.read(path, format, **limits))


def load(
    path_or_paths: Union[PathLike, Iterable[PathLike], None] = None,
    format: str = "auto",
    *,
    base: Union[PathLike, Iterable[PathLike], None] = None,
    head: Union[PathLike, Iterable[PathLike], None] = None,
    labels: Optional[Mapping[str, str]] = None,
    max_file_size: Optional[int] = None,
    max_depth: Optional[int] = None,
    max_samples: Optional[int] = None,
    threads: Optional[int] = None,
) -> Dataset:
    """Read files, folders (recursively), glob patterns and ``.gz`` files into one Dataset.

    ``format`` is ``"auto"`` (detected per file) or one of :data:`READERS`.
    Limits default to 1 GiB per file, JSON nesting 256, 2**28 samples per
    file. Parsing runs in C++ without the GIL; ``threads`` (default: one
    per core, 1 = serial) lets a Google Benchmark file of 4 MiB or more be
    parsed as two parts at once, with the same result (not ``.gz`` files,
    which are decompressed in memory and read in one pass). ``base=`` and
    ``head=`` (files, folders, globs) read the two sides of a comparison and
    label them as the CLI's ``--base``/``--head`` do: ``revision`` = base or
    head, ``pair`` = the file's position on its side. ``labels`` sets each
    ``key: value`` on every set read (the CLI's ``--label``). Bad input raises
    :class:`benchreport.InputError` naming the file and line or JSON path.
    """
    dataset = _load_all(path_or_paths, format, base, head, _limits(max_file_size, max_depth, max_samples, threads))
    return dataset.with_labels(labels) if labels else dataset


def _load_all(path_or_paths: Any, format: str, base: Any, head: Any, limits: Dict[str, int]) -> Dataset:
    if base is not None or head is not None:
        if path_or_paths is not None or base is None or head is None:
            raise _core.InputError("load(base=..., head=...) takes both sides and no positional paths")
        return label_sides(_side_parts(base, format, limits), _side_parts(head, format, limits))
    if path_or_paths is None:
        raise _core.InputError("no input files given (paths, or base=... and head=...)")
    paths = expand_paths([path_or_paths] if isinstance(path_or_paths, (str, os.PathLike)) else path_or_paths)
    if not paths:
        raise _core.InputError("no input files given")
    parts = [_load_one(p, format, limits) for p in paths]
    return parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:])


#: Label whose values tell processes apart inside one file (pyperf workers, repetitions of a launch).
PROCESS_LABEL: str = _core.PROCESS_LABEL


def label_sides(base: Sequence[Dataset], head: Sequence[Dataset], column: str = _core.SIDE_LABEL,
                base_value: str = "base", head_value: str = "head") -> Dataset:
    """One Dataset from the files of each side: ``column`` names the side; ``pair`` pairs the i-th base
    file with the i-th head file (and, inside a file with several processes, process with process)."""
    return Dataset(_core.label_sides([b._ds for b in base], [h._ds for h in head], column, base_value, head_value))


def _side_parts(paths: Union[PathLike, Iterable[PathLike], Dataset], format: str,
                limits: Dict[str, int]) -> List[Dataset]:
    if isinstance(paths, Dataset):
        return [paths]
    items: List[Any] = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if all(isinstance(item, Dataset) for item in items):
        return items
    return [_load_one(p, format, limits) for p in expand_paths(items)]


def save(dataset: Dataset, path: PathLike, format: Optional[str] = None) -> None:
    """Write canonical JSON or CSV (``format`` from the extension when None)."""
    fmt = format or ("csv" if os.fspath(path).endswith(".csv") else "json")
    if fmt == "json":
        dataset.to_json(path)
    elif fmt == "csv":
        dataset.to_csv(path)
    else:
        raise _core.InputError(f"cannot save as {fmt!r}: expected 'json' or 'csv'")
