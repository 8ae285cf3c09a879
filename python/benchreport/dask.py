"""Per-case summaries and change points over a Dask DataFrame (the ``dask`` extra).

The data is a long table (one row per sample, as :func:`benchreport.read_arrow`
reads) whose Dask partitions each hold whole cases: every partition goes
through the same single-process functions (``read_arrow`` then
``Dataset.summarize`` / ``history``), so the results equal the single-process
ones on the concatenated table, in the same order. Dask only schedules; the
statistics are the C++ kernels. docs/dask.md shows a run on a cluster.

>>> import benchreport.dask as brd                                        # doctest: +SKIP
>>> frame = brd.read_parquet("history/")       # one partition per case file  # doctest: +SKIP
>>> summaries, changes = brd.analyze(frame, by=["case", "commit"])        # doctest: +SKIP

A store's Parquet export has its own path, :func:`store_history`: each commit is summarised where it
lies and only the per-(case, commit) summaries are shuffled into cases (as ``history --store`` works
from its cached summaries), so the raw samples never move.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import dask
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

from . import _core
from ._history import history as _history
from ._history import read_arrow

__all__ = ["read_parquet", "read_store", "store_history", "commit_of", "case_columns", "check_cases", "summaries",
           "change_points", "compute", "analyze"]

#: Labels that name a process or repetition, never a case (data/label_roles.hpp, as history uses them).
PROCESS_COLUMNS: tuple[str, ...] = tuple(_core.PROCESS_LABELS)

# The columns of HistoryResult.to_pandas after the case labels, with a value of each one's type:
# an empty partition's frame is built from them so that its dtypes match a non-empty one's.
_CHANGE_POINT_EXAMPLE = {"unit": "", "commit": "", "index": 0, "before": 0.0, "after": 0.0, "change": 0.0,
                         "lower": 0.0, "upper": 0.0, "p_value": 0.0, "relative": True,
                         "test": "", "regression": False}


def read_parquet(path: Any, **options: Any) -> dd.DataFrame:
    """A Parquet file or folder (e.g. hive-partitioned by case, ``case=.../part-0000.parquet``) read
    with one Dask partition per file, so that a case written to its own files never straddles two
    partitions that also hold other cases. ``options`` go to ``dask.dataframe.read_parquet``."""
    options.setdefault("split_row_groups", False)
    return dd.read_parquet(path, **options)


def read_store(path: Any, branch: str, *, npartitions: Optional[int] = None) -> dd.DataFrame:
    """One branch of a store's Parquet export (``Store.export_parquet``, docs/store.md) as a frame
    ready for :func:`analyze` with ``order="seq"``: the label columns, ``run`` (the run id, a
    per-process label: two runs of one commit are two launches), ``seq`` (the commit's position on
    the branch), ``unit`` and ``value``. The export is partitioned by commit (one file per run, read
    as one Dask partition); here the rows are shuffled by the case labels so that each case is whole
    in one partition, its rows in branch order and each run's samples in recorded order.
    ``commit_of(path, branch)`` maps seq back to commits."""
    from ._store_parquet import partition_path

    files = [(f"{path}/{partition_path(branch, commit)}/run-{run}.parquet", run, seq)
             for runs in _export_commits(path, branch) for run, _, commit, seq in runs]
    meta = _read_run_file(files[0]).iloc[:0]
    frame = dd.from_map(_read_run_file, files, meta=meta)
    cases = _core.case_labels(list(meta.columns), ["seq", "unit", "value", "_run", "_row"])
    shuffled = frame.shuffle(on=cases or ["seq"], npartitions=npartitions or len(files))
    return shuffled.map_partitions(_branch_order, meta=meta.drop(columns=["_run", "_row"]))


def _export_commits(path: Any, branch: str) -> List[List[Tuple[int, int, str, int]]]:
    """The runs of ``branch`` grouped by commit in branch order: (run id, its _sets.arrow batch, commit, seq)."""
    import pyarrow.feather as feather

    runs = feather.read_table(f"{path}/_runs.arrow", columns=["run_id", "branch", "commit_sha", "seq"]).to_pydict()
    return _core.export_commits(runs["run_id"], runs["branch"], runs["commit_sha"], runs["seq"], branch,
                                where=str(path))


def _read_run_file(item: Tuple[str, int, int]) -> pd.DataFrame:
    """One run's sample file with its run id, seq and each row's place (so order survives the shuffle)."""
    import pyarrow.parquet as pq

    file, run, seq = item
    part = pq.read_table(file).to_pandas()
    labels = [c for c in part.columns if c not in ("unit", "value")]
    return part[labels].assign(run=pd.Series([str(run)] * len(part), dtype=part["unit"].dtype), seq=seq,
                               unit=part["unit"], value=part["value"], _run=run, _row=range(len(part)))


def _branch_order(part: pd.DataFrame) -> pd.DataFrame:
    ordered = part.sort_values(["seq", "_run", "_row"], kind="stable")  # run ids as numbers: 9 before 10
    return ordered.drop(columns=["_run", "_row"]).reset_index(drop=True)


def commit_of(path: Any, branch: str) -> dict:
    """seq → commit of a branch in a store's Parquet export."""
    return {runs[0][3]: runs[0][2] for runs in _export_commits(path, branch)}


def case_columns(frame: dd.DataFrame, *, value: str = "value", unit: str = "unit", order: str = "commit",
                 by: Optional[Sequence[str]] = None) -> List[str]:
    """The labels that identify a case: ``by``, or every column except the value, unit, order and
    per-process columns (how :func:`benchreport.history` chooses them)."""
    return _core.case_labels(list(frame.columns), [value, unit, order], list(by or []))


def _distinct(part: pd.DataFrame) -> pd.DataFrame:
    return part.drop_duplicates()


def check_cases(frame: dd.DataFrame, columns: Sequence[str]) -> None:
    """Raise InputError when a case (a combination of ``columns``) appears in two partitions.

    Reads only ``columns``; per-partition results are only correct when each case is whole in one
    partition, which ``read_parquet`` gives when every file holds one case (or whole cases)."""
    cols = list(columns)
    if not cols:
        return
    _core.refuse_split_cases(cols, frame[cols].map_partitions(_distinct, meta=frame._meta[cols]).compute())


def _table(part: pd.DataFrame) -> pa.Table:
    """A partition as Arrow, columns in the frame's order (what read_arrow reads a Parquet file as)."""
    return pa.Table.from_pandas(part, preserve_index=False)


def _summarize_part(part: pd.DataFrame, by: Sequence[str], options: dict) -> pd.DataFrame:
    return read_arrow(_table(part)).summarize(by=by, **options)


def _changes_part(part: pd.DataFrame, options: dict) -> pd.DataFrame:
    return _history(read_arrow(_table(part)), **options).to_pandas()


def _empty_like(kernel: Any, meta: pd.DataFrame, unit: str, *args: Any) -> pd.DataFrame:
    """The kernel's output on Dask's stand-in rows, emptied: the columns and dtypes of a real result.

    Dask's stand-in strings are "a" and "foo", which are no units: a ``unit`` column gets "s"."""
    stand_in = dd.utils.meta_nonempty(meta)
    if unit in stand_in.columns:
        stand_in = stand_in.assign(**{unit: "s"})
    return kernel(stand_in, *args).iloc[:0]


def _or_empty(kernel: Any, empty: pd.DataFrame) -> Any:
    """Run ``kernel`` on non-empty partitions; give ``empty`` for empty ones (read_arrow refuses them)."""
    def run(part: pd.DataFrame, *args: Any) -> pd.DataFrame:
        return empty if len(part) == 0 else kernel(part, *args)
    return run


def summaries(frame: dd.DataFrame, *, by: Sequence[str] = (), check: bool = True, value: str = "value",
              unit: str = "unit", order: str = "commit", threads: int = 1, **options: Any) -> dd.DataFrame:
    """Lazy ``Dataset.summarize(by=by, **options)`` of each partition, concatenated in partition order.

    With ``by=()`` one row per set (consecutive rows with equal labels), else per group of ``by``,
    which must contain every case column (a group must not span partitions). ``options`` go to
    ``summarize_grouped`` (quantiles, stats, ...); ``threads=1`` leaves the cores to Dask's workers.
    ``check`` first verifies that no case spans two partitions (reads the case columns once)."""
    cases = case_columns(frame, value=value, unit=unit, order=order)
    _core.require_case_columns(list(by), cases, "summaries")
    if check:
        check_cases(frame, cases)
    options = {"threads": threads, **options}
    empty = _empty_like(_summarize_part, frame._meta, unit, list(by), options)
    return frame.map_partitions(_or_empty(_summarize_part, empty), list(by), options, meta=empty,
                                align_dataframes=False)


def change_points(frame: dd.DataFrame, *, order: str = "commit", by: Optional[Sequence[str]] = None,
                  check: bool = True, value: str = "value", unit: str = "unit", threads: int = 1,
                  **options: Any) -> dd.DataFrame:
    """Lazy change points per case (the rows of ``HistoryResult.to_pandas``), partition by partition.

    Each partition is ``benchreport.history(read_arrow(partition), order=order, by=by, ...)``: commits
    sorted by ``order`` (numerically when all are numbers), the permutation stream of a case taken
    from its key, so a case's change points do not depend on the other cases of its partition.
    ``options`` go to ``history`` (max_p_value, permutations, seed, min_magnitude, ...)."""
    cases = case_columns(frame, value=value, unit=unit, order=order, by=by)
    if check:
        check_cases(frame, cases)
    kwargs = {"order": order, "by": by, "threads": threads, **options}
    empty = _change_points_empty(cases)
    return frame.map_partitions(_or_empty(_changes_part, empty), kwargs, meta=empty, align_dataframes=False)


def _change_points_empty(cases: Sequence[str]) -> pd.DataFrame:
    """No change points, with the columns and dtypes of HistoryResult.to_pandas."""
    return pd.DataFrame([{**dict.fromkeys(cases, ""), **_CHANGE_POINT_EXAMPLE}]).iloc[:0]


def _analyze_part(part: pd.DataFrame, cases: List[str], by: Sequence[str], summarize_options: dict,
                  history_options: dict, empty: Tuple[pd.DataFrame, pd.DataFrame]) -> Tuple[pd.DataFrame, ...]:
    """Both results of one partition from one read_arrow, and its distinct case keys."""
    if len(part) == 0:
        return (*empty, part[cases].iloc[:0])
    dataset = read_arrow(_table(part))
    return (dataset.summarize(by=by, **summarize_options), _history(dataset, **history_options).to_pandas(),
            _distinct(part[cases]))


def analyze(frame: dd.DataFrame, *, by: Sequence[str] = (), order: str = "commit",
            cases: Optional[Sequence[str]] = None, value: str = "value", unit: str = "unit", threads: int = 1,
            summarize_options: Optional[dict] = None, **history_options: Any) -> Tuple[pd.DataFrame, pd.DataFrame]:
    """Summaries (as :func:`summaries`) and change points (as :func:`change_points`) in one pass.

    Each partition is read and handed to ``read_arrow`` once (one Dask task per partition, made
    with ``dask.delayed``); the case-alignment check rides along (each task also returns its case
    keys) and is made once the results are in, so nothing is read twice. ``cases`` are the case
    labels (default :func:`case_columns`, also the history's ``by``). Returns pandas frames."""
    case_cols = case_columns(frame, value=value, unit=unit, order=order, by=cases)
    _core.require_case_columns(list(by), case_cols, "analyze")
    summarize_options = {"threads": threads, **(summarize_options or {})}
    history_options = {"order": order, "by": cases, "threads": threads, **history_options}
    empty = (_empty_like(_summarize_part, frame._meta, unit, list(by), summarize_options),
             _change_points_empty(case_cols))
    task = dask.delayed(_analyze_part, nout=3, pure=True)
    parts = [task(p, case_cols, list(by), summarize_options, history_options, empty) for p in frame.to_delayed()]
    summaries_parts, changes_parts, keys = dask.compute([p[0] for p in parts], [p[1] for p in parts],
                                                        [p[2] for p in parts])
    _core.refuse_split_cases(case_cols, pd.concat(keys, ignore_index=True))  # a repeat: a case in two partitions
    return (pd.concat(summaries_parts, ignore_index=True), pd.concat(changes_parts, ignore_index=True))


def compute(*frames: dd.DataFrame, **options: Any) -> Tuple[pd.DataFrame, ...]:
    """Compute lazy results together (one read of the shared input) as pandas frames indexed 0..n-1.

    Uses the current ``dask.distributed.Client`` when there is one; ``options`` go to ``dask.compute``."""
    results = dask.compute(*frames, **options)
    return tuple(r.reset_index(drop=True) for r in results)


# --- History of a store's Parquet export ------------------------------------------------------------
# The columns of the per-(case, commit) summaries that store_history shuffles by case.
_SUMMARY_META = pd.DataFrame(_core.export_summary_schema())


def store_history(path: Any, branch: str = "main", *, npartitions: Optional[int] = None, threads: int = 1,
                  **options: Any) -> pd.DataFrame:
    """The change points of ``branch`` in a store's Parquet export (``Store.export_parquet``), equal
    to those of ``benchreport history --store`` on the same runs: the rows of
    ``StoreHistoryResult.to_pandas()``, in its order (cases by first appearance). No alert states:
    they live in the store, not in the export.

    One Dask task per commit reads that commit's run files and summarises every case with
    ``history --store``'s own per-commit summary (the median of the per-process medians, processes
    pooled across the commit's runs); only these summaries, one row per (case, commit), are shuffled
    by case into ``npartitions`` partitions (default: one per 16 commits), where each partition
    builds its cases' series and runs the change-point analysis. ``options`` are
    :func:`benchreport.store_history`'s (max_p_value, permutations, seed, min_magnitude, ...)."""
    from ._store_history import analyze_series

    analyze_series(_core.History("commit", [], [], []), **options)  # unknown options fail here, not in a task
    root = str(path)
    commit_runs = _export_commits(root, branch)
    tasks = [dask.delayed(_summarise_commit, nout=2, pure=True)(root, branch, index, items, threads)
             for index, items in enumerate(commit_runs)]
    columns = dask.delayed(_union_columns, pure=True)([t[1] for t in tasks])
    summaries = dd.from_delayed([t[0] for t in tasks], meta=_SUMMARY_META, verify_meta=False)
    cases = summaries.shuffle(on="case_key", npartitions=npartitions or max(1, len(tasks) // 16),
                              shuffle_method=_shuffle_method())
    commits = [items[0][2] for items in commit_runs]
    changes, by = dask.compute([dask.delayed(_cases_history, pure=True)(p, columns, commits, threads, options)
                                for p in cases.to_delayed()], columns)
    found = [c for c in changes if c is not None]
    if not found:
        return _change_points_empty(by)
    found = pd.concat(found, ignore_index=True).sort_values(["_commit", "_position", "index"], kind="stable")
    return found.drop(columns=["_commit", "_position"]).reset_index(drop=True)


def _shuffle_method() -> Optional[str]:
    """The configured shuffle, else Dask's choice (p2p) on a distributed client's scheduler and
    "tasks" on any other: Dask picks p2p whenever a client exists, even when the computation runs
    on the threaded scheduler, where p2p cannot run."""
    configured = dask.config.get("dataframe.shuffle.method", None)
    if configured:
        return str(configured)
    scheduler = getattr(dask.base.get_scheduler(), "__self__", None)
    return None if type(scheduler).__name__ == "Client" else "tasks"


def _summarise_commit(root: str, branch: str, index: int, items: Sequence[Tuple[int, int, str, int]],
                      threads: int) -> Tuple[pd.DataFrame, List[str]]:
    """One commit's per-case summaries (the rows of _SUMMARY_META) and its case columns: its runs' sets
    read from the export (their _sets.arrow batches, samples from the run files), summarised as
    history --store summarises a commit (C++ compare/export_history.hpp)."""
    from ._store_parquet import _set_rows

    with pa.memory_map(f"{root}/_sets.arrow") as source:
        reader = pa.ipc.open_file(source)
        batches = [reader.get_batch(batch).to_pylist() for _, batch, _, _ in items]
    rows = []
    for (run, _, commit, _), sets in zip(items, batches):
        if any(int(s["run_id"]) != run for s in sets):
            raise _core.InputError(f"{root}/_sets.arrow: the sets of run {run} are not where the export puts them")
        read = _set_rows(Path(root), {"run_id": run, "commit_sha": commit, "branch": branch}, sets)
        rows += [(run, text, unit, samples, weights, direction, bool(exact))
                 for _, text, unit, _, samples, weights, direction, exact, _, _ in read]
    columns, by = _core.summarise_export_commit(rows, items[0][2], branch, f"{root}/_sets.arrow", threads)
    frame = pd.DataFrame(columns).assign(commit=index, position=range(len(columns["value"])))
    return frame[_SUMMARY_META.columns].astype(_SUMMARY_META.dtypes.to_dict()), by


def _union_columns(per_commit: Sequence[Sequence[str]]) -> List[str]:
    """The case columns of the whole branch: each commit's, in order of first appearance."""
    return list(dict.fromkeys(c for columns in per_commit for c in columns))


def _cases_history(part: pd.DataFrame, columns: List[str], commits: List[str], threads: int,
                   options: dict) -> Optional[pd.DataFrame]:
    """The change points of the whole cases in ``part`` (summary rows), each row with where its
    case first appears (commit, position) so that the partitions' rows can be put in branch order."""
    from ._store_history import analyze_series

    if len(part) == 0:
        return None
    history, first = _core.assemble_export_cases(
        part["case_key"].tolist(), part["unit"].tolist(), part["direction"].tolist(), part["commit"].to_numpy("int64"),
        part["position"].to_numpy("int64"), part["value"].to_numpy("float64"), part["processes"].to_numpy("int64"),
        part["samples"].to_numpy("int64"), by=columns, commits=commits)
    analysis = analyze_series(history, threads=threads, **options)
    found = pd.DataFrame(dict(analysis.columns()))
    where = [w for w, changes in zip(first, analysis.changes) for _ in changes.change_points]
    return found.assign(_commit=[w[0] for w in where], _position=[w[1] for w in where]) if len(found) else None
