"""A store as a Parquet dataset partitioned by branch and commit, and back (docs/store.md).

Layout of the export folder::

    _store.json                              {"format": "benchreport-store", "schema_version": 2}
    _runs.arrow                              one row per run (every runs column, the environment, the files,
                                             a checksum: the content hash of the exported rows)
    _sets.arrow                              one row per set (every sets column but the samples; n = sample count)
    branch=<b>/commit=<c>/run-<id>.parquet   one row per sample: the label columns, unit, value

``<b>`` and ``<c>`` are percent-encoded (a branch ``feature/x`` is ``feature%2Fx``), which pyarrow
and Dask decode. The run and set tables are Arrow IPC files, not Parquet, so that
``dask.dataframe.read_parquet(folder)`` sees the sample files only (Dask reads every ``*.parquet``
below the folder, whatever its name). The samples are the
float64 values as stored, so an import gives the same bits back.

The store's rows are read and written through its one C++ connection (``_core.Store.export_runs``,
``export_sets``, ``label_names``, ``import_runs``); this module reads and writes the Arrow files.
"""
from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List

import numpy as np

from ._core import InputError

if TYPE_CHECKING:
    from .store import Store

FORMAT = "benchreport-store"
#: Label names that the partitions (branch, commit) and Store.dataset (run) own: not sample columns.
RESERVED_COLUMNS = ("branch", "commit", "run", "unit", "value")


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ImportError("Parquet export and import need pyarrow: pip install 'benchreport[arrow]'") from exc
    return pyarrow


def partition_path(branch: str, commit: str) -> str:
    """The folder of one (branch, commit), relative to the export root (hive style, percent-encoded)."""
    return f"branch={urllib.parse.quote(branch, safe='')}/commit={urllib.parse.quote(commit, safe='')}"


def export_store(store: "Store", directory: Any) -> Dict[str, int]:
    pa = _pyarrow()
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    root = Path(os.fspath(directory))
    if root.exists() and any(root.iterdir()):
        raise InputError(f"{root}: the export folder must be new or empty")
    root.mkdir(parents=True, exist_ok=True)
    native = store._native
    # Every label name in the store: each sample file has them all (null where a set lacks one), so
    # every file has one schema and a dataset reader keeps every column.
    columns = [n for n in native.label_names() if n not in RESERVED_COLUMNS]
    schema = pa.schema([*(pa.field(c, pa.string()) for c in columns), pa.field("unit", pa.string()),
                        pa.field("value", pa.float64())])
    counts = {"runs": 0, "sets": 0, "samples": 0, "files": 0}
    checksums: Dict[int, str] = {}
    runs = [run[:3] for run in native.runs()]
    # _sets.arrow is written one batch per run (the Arrow IPC file format that feather reads): the
    # set rows of 10^7 sets held at once would take gigabytes of Python objects.
    sets_schema = _sets_schema(pa)
    with pa.ipc.new_file(str(root / "_sets.arrow"), sets_schema,
                         options=pa.ipc.IpcWriteOptions(compression="zstd")) as sets_file:
        for run_id, commit, branch in runs:
            part = native.export_sets(run_id, commit, branch, columns)
            table = _samples_table(pa, part, schema)
            checksums[run_id] = part["checksum"]
            folder = root / partition_path(branch, commit)
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, folder / f"run-{run_id}.parquet")
            sets_file.write_batch(pa.record_batch(part["sets"], schema=sets_schema))
            counts["runs"] += 1
            counts["files"] += 1
            counts["samples"] += table.num_rows
            counts["sets"] += len(part["counts"])
    feather.write_feather(_runs_table(pa, native, checksums), root / "_runs.arrow", compression="zstd")
    (root / "_store.json").write_text(json.dumps({"format": FORMAT, "schema_version": store.schema_version}) + "\n",
                                      encoding="utf-8")
    return counts


def _sets_schema(pa: Any) -> Any:
    return pa.schema([("run_id", pa.int64()), ("name", pa.string()), ("labels", pa.string()), ("unit", pa.string()),
                      ("process", pa.int64()), ("direction", pa.string()), ("exact", pa.int64()),
                      ("file", pa.int64()), ("metadata", pa.string()), ("n", pa.int64()), ("iterations", pa.binary())])


def _samples_table(pa: Any, part: Dict[str, Any], schema: Any) -> Any:
    """One run's samples (``_core.Store.export_sets``) as a table: one row per sample, its set's
    label values (dictionary-encoded per set), unit and value."""
    index = pa.array(np.repeat(np.arange(len(part["counts"]), dtype=np.int32), part["counts"]))
    arrays = [pa.DictionaryArray.from_arrays(index, pa.array(values, pa.string())).cast(pa.string())
              for values in [*part["labels"], part["units"]]]
    arrays.append(pa.array(part["values"], pa.float64()))
    return pa.Table.from_arrays(arrays, schema=schema)


def _runs_table(pa: Any, native: Any, checksums: Dict[int, str]) -> Any:
    data = native.export_runs()
    data["files"] = [json.dumps(files) for files in data["files"]]
    data["checksum"] = [checksums[run_id] for run_id in data["run_id"]]
    types = {"run_id": pa.int64(), "seq": pa.int64()}
    return pa.table({c: pa.array(v, types.get(c, pa.string())) for c, v in data.items()})


def import_store(store: "Store", directory: Any) -> Dict[str, int]:
    _pyarrow()
    import pyarrow.feather as feather

    root = Path(os.fspath(directory))
    marker = root / "_store.json"
    if not marker.is_file():
        raise InputError(f"{root}: not a benchreport store export (no _store.json)")
    try:
        header = json.loads(marker.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(f"{marker}: not valid JSON ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InputError(f"{marker}: format is not {FORMAT!r}")
    runs = feather.read_table(root / "_runs.arrow").to_pylist()
    sets = feather.read_table(root / "_sets.arrow").to_pylist()
    by_run: Dict[int, List[Dict[str, Any]]] = {}
    for row in sets:
        by_run.setdefault(int(row["run_id"]), []).append(row)
    runs_and_rows = [(run, _set_rows(root, run, by_run.get(int(run["run_id"]), []))) for run in runs]
    imported, skipped = store._native.import_runs(runs_and_rows, str(root))
    return {"imported": imported, "skipped": skipped}


def _set_rows(root: Path, run: Dict[str, Any], sets: List[Dict[str, Any]]) -> List[tuple]:
    """A run's rows in the ``sets`` column order, samples cut from its sample file by the set counts."""
    import pyarrow.parquet as pq

    path = root / partition_path(run["branch"], run["commit_sha"]) / f"run-{run['run_id']}.parquet"
    if not path.is_file():
        raise InputError(f"{path}: missing (run {run['run_id']} of the export)")
    column = pq.read_table(path, columns=["value"]).column("value")
    values = column.combine_chunks().to_numpy(zero_copy_only=False)
    counts = [int(s["n"]) for s in sets]
    if sum(counts) != len(values):
        raise InputError(f"{path}: {len(values)} samples but _sets.arrow counts {sum(counts)}")
    ends = np.cumsum(counts)
    out = []
    for s, end, n in zip(sets, ends, counts):
        samples = np.ascontiguousarray(values[end - n:end], dtype="<f8").tobytes()
        out.append((s["name"], s["labels"], s["unit"], s["process"], samples, s["iterations"], s["direction"],
                    s["exact"], s["file"], s["metadata"]))
    return out
