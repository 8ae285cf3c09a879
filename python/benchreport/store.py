"""A results store: runs of benchmark samples kept in one SQLite file (docs/store.md).

>>> from benchreport.store import Store                                   # doctest: +SKIP
>>> with Store.open("results.db") as store:                                # doctest: +SKIP
...     store.record(["bench.json"], commit="abc123", branch="main")
...     dataset = store.dataset([r.run_id for r in store.runs("main")])

A *run* is what one ``record`` call stores: the sets of one or more input files at one commit of
one branch, with the environment they ran in. Samples are kept bit-exact (float64 little-endian
blobs). The file is a plain SQLite database in WAL mode, so two processes may record at once (the
second waits, up to the busy timeout), and every record is one transaction: a process killed
mid-record leaves the store as it was. The schema is versioned (``PRAGMA user_version``) and older
files are migrated forward when opened.

The store is C++ (store/store.hpp and store/write_runs.hpp, bound as ``_core.Store``): the schema,
migrations, recording, import and export, reading runs back. Every read and write of the file goes
through that one C++ connection; no Python sqlite3 connection is opened on a store, since two SQLite
copies in one process (the wheel bundles its own) break each other's file locks. SQLite errors are
:class:`StoreError`, a ``sqlite3.OperationalError``. This skin converts arguments (a Dataset or
paths) and gives results as dataclasses.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _core
from ._dataset import Dataset, PathLike, expand_paths, load

__all__ = ["Store", "StoreError", "RunInfo", "RecordResult", "SCHEMA_VERSION", "APPLICATION_ID", "CI_VARIABLES",
           "environment_diff", "commit_from_metadata", "ci_environment", "STORE_LABELS"]

#: Schema version written by this benchreport (``PRAGMA user_version``).
SCHEMA_VERSION: int = _core.STORE_SCHEMA_VERSION
#: ``PRAGMA application_id`` of a benchreport store: "bRST" (version 1 files may carry 0).
APPLICATION_ID: int = _core.STORE_APPLICATION_ID
#: Page cache of a store connection, KiB.
CACHE_KIB: int = _core.STORE_CACHE_KIB
#: Seconds a writer waits for another one's transaction before giving up.
DEFAULT_BUSY_TIMEOUT: float = _core.STORE_BUSY_TIMEOUT
#: Labels the store adds to every set of a Dataset it reads (Store.dataset), not kept in the set's labels.
STORE_LABELS: Tuple[str, ...] = _core.STORE_LABELS

check_blob = _core.store_check_blob
content_hash = _core.store_content_hash
#: An SQLite failure on a store file (busy, locked, full, closed, I/O), naming the file; a sqlite3.OperationalError.
StoreError = _core.StoreError

#: Environment variables of CI systems recorded with every run (when set): the runner, its OS image.
CI_VARIABLES: Tuple[str, ...] = _core.STORE_CI_VARIABLES

#: Run-metadata keys naming the commit (Nitro ``commitSha``, pyperf ``commit_id``, any ``commit``) and the branch.
COMMIT_KEYS: Tuple[str, ...] = tuple(_core.STORE_COMMIT_KEYS)
BRANCH_KEYS: Tuple[str, ...] = tuple(_core.STORE_BRANCH_KEYS)

Environment = Dict[str, Any]


@dataclass(frozen=True)
class RunInfo:
    """One stored run: where it sits (branch, ``seq`` = the commit's position on the branch,
    ascending), what recorded it and the environment it ran in."""

    run_id: int
    commit_sha: str
    branch: str
    time: str
    seq: int
    tool: Optional[str]
    source: Optional[str]
    environment: Environment = field(default_factory=dict)


@dataclass(frozen=True)
class RecordResult:
    """What ``Store.record`` did: the new run's id, or None when the same run was already stored
    (``note`` says which run holds it)."""

    run_id: Optional[int]
    note: str = ""


def commit_from_metadata(dataset: Dataset, keys: Sequence[str] = COMMIT_KEYS) -> Optional[str]:
    """The commit the tool wrote into its files (Nitro ``commitSha``, pyperf ``commit_id``), or None.

    Raises InputError when two files name different commits."""
    return _core.store_agreed_value(dataset._ds, list(keys), "commit")


def ci_environment(environ: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The CI variables of :data:`CI_VARIABLES` that are set (``os.environ`` by default)."""
    environ = os.environ if environ is None else environ
    return {name: environ[name] for name in CI_VARIABLES if environ.get(name)}


def environment_diff(old: Optional[Mapping[str, Any]], new: Optional[Mapping[str, Any]]) -> List[Tuple[str, Any, Any]]:
    """What changed between two environments: ``(dotted key, old value, new value)`` sorted by key, nested
    objects as dotted keys (``tool.context.num_cpus``), None where a side lacks the key; equal environments
    give [] (C++ store/environment_diff.hpp, which also names a change point's cause)."""
    return _core.store_environment_diff(json.dumps(dict(old or {})), json.dumps(dict(new or {})))


class Store:
    """A benchreport results store (one SQLite file); see the module docstring and docs/store.md."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self.path: str = native.path

    @classmethod
    def open(cls, path: PathLike, create: bool = True, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> "Store":
        """Open (and with ``create`` make) the store at ``path``, migrating an older schema forward.

        InputError when the file is not a benchreport store, is newer than this benchreport reads,
        or does not exist and ``create`` is False."""
        return cls(_core.Store.open(os.fsencode(path), create, busy_timeout))

    def close(self) -> None:
        """Close the connection; closing again does nothing (a closed store's methods raise StoreError)."""
        self._native.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return int(self._native.schema_version)

    # --- recording ----------------------------------------------------
    def record(self, dataset_or_paths: Union[Dataset, PathLike, Iterable[PathLike]], commit: Optional[str] = None,
               branch: Optional[str] = None, time: Optional[str] = None,
               environment: Optional[Mapping[str, str]] = None) -> RecordResult:
        """Store one run: a Dataset, or files read with ``benchreport.load``.

        The commit comes from the files' own metadata where the tool writes it (Nitro ``commitSha``,
        pyperf ``commit_id``), else ``commit``; the branch likewise (pyperf ``commit_branch``) else
        ``branch``. ``time`` is ISO-8601 (default now, UTC). The environment recorded is the tool's
        context, the CI variables set (:data:`CI_VARIABLES`) and ``environment`` (``--env KEY=VALUE``).
        A run whose content (commit, branch, sets and samples) is already stored is skipped:
        ``RecordResult(None, note)``. One transaction: a failed record leaves the store as it was."""
        dataset, source = self._as_dataset(dataset_or_paths)
        env = {str(k): str(v) for k, v in (environment or {}).items()}
        run_id, note = self._native.record(dataset._ds, source, commit, branch, time, ci_environment(), env)
        return RecordResult(run_id, note)

    def _as_dataset(self, given: Any) -> Tuple[Dataset, str]:
        if isinstance(given, Dataset):
            return given, "\n".join(r for r in dict.fromkeys(given.run_ids) if r)
        items = [given] if isinstance(given, (str, os.PathLike)) else list(given)
        paths = expand_paths(items)
        return load(paths), "\n".join(paths)

    # --- reading ------------------------------------------------------
    def runs(self, branch: Optional[str] = None) -> List[RunInfo]:
        """Stored runs in branch order (by branch, then seq, then run id); only ``branch``'s when given."""
        return [_run_info(row) for row in self._native.runs(branch)]

    def run(self, run_id: int) -> RunInfo:
        """One run by id (InputError when there is none)."""
        return self._runs_by_id([run_id])[0]

    def _runs_by_id(self, run_ids: Sequence[int]) -> List[RunInfo]:
        return [_run_info(self._native.run(int(run_id))) for run_id in run_ids]

    def environment_diff(self, old_run: int, new_run: int) -> List[Tuple[str, Any, Any]]:
        """:func:`environment_diff` of two stored runs' environments."""
        old, new = self._runs_by_id([old_run, new_run])
        return environment_diff(old.environment, new.environment)

    def dataset(self, run_ids: Iterable[int]) -> Dataset:
        """The sets of these runs (in the order given, sets in recorded order) as one Dataset, with the
        labels ``commit``, ``branch`` and ``run`` (the run id) added; sample values, iterations, units,
        directions, per-set and per-file metadata exactly as recorded."""
        return self._read_runs(self._runs_by_id(list(run_ids)))[0]

    def _read_runs(self, infos: Sequence[RunInfo]) -> Tuple[Dataset, List[List[str]]]:
        """:meth:`dataset` of ``infos``, and per run its distinct label texts (as stored, in order of
        first appearance)."""
        native, texts = self._native.read_runs([(i.run_id, i.commit_sha, i.branch) for i in infos])
        return Dataset(native), texts

    # --- Parquet ------------------------------------------------------
    def export_parquet(self, directory: PathLike) -> Dict[str, int]:
        """Write the store as a Parquet dataset partitioned by branch and commit (docs/store.md);
        returns counts (runs, sets, samples, files)."""
        from . import _store_parquet
        return _store_parquet.export_store(self, directory)

    def import_parquet(self, directory: PathLike) -> Dict[str, int]:
        """Add the runs of a Parquet export (bit-exact; runs already stored, by content hash, are
        skipped); returns counts (runs imported, skipped)."""
        from . import _store_parquet
        return _store_parquet.import_store(self, directory)


def _run_info(row: Tuple[Any, ...]) -> RunInfo:
    """A ``_core.Store.runs`` row as a RunInfo (the environment parsed)."""
    run_id, commit_sha, branch, time, seq, tool, source, environment = row
    return RunInfo(run_id, commit_sha, branch, time, seq, tool, source, json.loads(environment) if environment else {})
