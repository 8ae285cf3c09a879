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
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import InputError
from ._dataset import Dataset, PathLike, expand_paths, load

__all__ = ["Store", "RunInfo", "RecordResult", "SCHEMA_VERSION", "APPLICATION_ID", "CI_VARIABLES",
           "environment_diff", "commit_from_metadata", "ci_environment", "STORE_LABELS"]

#: Schema version written by this benchreport (``PRAGMA user_version``).
SCHEMA_VERSION = 2
#: ``PRAGMA application_id`` of a benchreport store: "bRST" (version 1 files may carry 0).
APPLICATION_ID = 0x62525354
#: Page cache of a store connection, KiB.
CACHE_KIB = 65536
#: Seconds a writer waits for another one's transaction before giving up.
DEFAULT_BUSY_TIMEOUT = 600.0

#: Environment variables of CI systems recorded with every run (when set): the runner, its OS image.
CI_VARIABLES: Tuple[str, ...] = (
    "RUNNER_NAME", "RUNNER_OS", "RUNNER_ARCH", "RUNNER_ENVIRONMENT", "ImageOS", "ImageVersion",
    "CI_RUNNER_DESCRIPTION", "CI_RUNNER_TAGS", "CI_RUNNER_VERSION", "BUILDKITE_AGENT_NAME",
)

#: Run-metadata keys naming the commit measured, in the order they are looked for: Nitro's
#: ``configuration.commitSha``, pyperformance's ``commit_id`` (pyperf metadata), any ``commit``.
COMMIT_KEYS: Tuple[str, ...] = ("commitSha", "commit_id", "commit")
#: Run-metadata keys naming the branch (pyperformance's ``commit_branch``).
BRANCH_KEYS: Tuple[str, ...] = ("commit_branch",)

# Tool-context keys that change from launch to launch without describing the machine or build
# (dates, load, durations, temporary paths, ids): left out of the environment so that it names
# what a run ran on, and equal set-ups share one environment row.
_VOLATILE_KEYS = frozenset({
    "date", "startedAt", "durationMs", "duration", "load_avg", "load_avg_1min", "uptime", "boot_time",
    "runId", "commitSha", "commit_id", "commit", "commit_date", "commit_branch", "mem_max_rss",
    "runnable_threads", "executable", "timestamp", "time",
})

Environment = Dict[str, Any]

#: Labels the store adds to every set of a Dataset it reads (Store.dataset), not kept in the set's labels.
STORE_LABELS: Tuple[str, ...] = ("commit", "branch", "run")


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


# ---------------------------------------------------------------- schema and migrations

_SCHEMA_V1 = """
CREATE TABLE runs(
  run_id INTEGER PRIMARY KEY,
  content_hash TEXT UNIQUE NOT NULL,
  commit_sha TEXT NOT NULL,
  branch TEXT NOT NULL,
  time TEXT NOT NULL,
  seq INTEGER NOT NULL,
  tool TEXT,
  source TEXT
);
CREATE TABLE sets(
  set_id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
  name TEXT NOT NULL,
  labels TEXT NOT NULL,
  unit TEXT NOT NULL,
  process INTEGER,
  samples BLOB NOT NULL,
  iterations BLOB
);
CREATE INDEX sets_run ON sets(run_id);
CREATE INDEX runs_branch_seq ON runs(branch, seq);
"""


def _create_v1(db: sqlite3.Connection) -> None:
    for statement in _SCHEMA_V1.split(";"):  # not executescript, which commits the open transaction
        if statement.strip():
            db.execute(statement)


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """Version 2: environments, the reader's per-file and per-set metadata, directions, change
    points and the per-(case, commit) summary cache. Version 1 runs keep NULL environments."""
    for statement in (
        "CREATE TABLE environments(environment_id INTEGER PRIMARY KEY, hash TEXT UNIQUE NOT NULL, json TEXT NOT NULL)",
        "ALTER TABLE runs ADD COLUMN environment_id INTEGER REFERENCES environments",
        "ALTER TABLE runs ADD COLUMN warnings TEXT",
        "CREATE TABLE run_files(run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, position INTEGER NOT NULL,"
        " file TEXT NOT NULL, format TEXT, metadata TEXT NOT NULL, PRIMARY KEY(run_id, position))",
        "ALTER TABLE sets ADD COLUMN direction TEXT",
        "ALTER TABLE sets ADD COLUMN exact INTEGER",
        "ALTER TABLE sets ADD COLUMN file INTEGER",
        "ALTER TABLE sets ADD COLUMN metadata TEXT",
        "CREATE TABLE case_summaries(branch TEXT NOT NULL, case_key TEXT NOT NULL, run_id INTEGER NOT NULL"
        " REFERENCES runs ON DELETE CASCADE, position INTEGER NOT NULL, labels TEXT NOT NULL, unit TEXT NOT NULL,"
        " direction TEXT NOT NULL, value REAL NOT NULL, processes INTEGER NOT NULL, samples INTEGER NOT NULL,"
        " PRIMARY KEY(branch, case_key, run_id))",
        "CREATE INDEX case_summaries_run ON case_summaries(branch, run_id, position)",
        "CREATE TABLE change_points(change_id INTEGER PRIMARY KEY, branch TEXT, case_key TEXT, commit_sha TEXT,"
        " direction TEXT, change REAL, state TEXT CHECK(state IN ('new','confirmed','acknowledged','resolved')),"
        " note TEXT, updated TEXT, UNIQUE(branch, case_key, commit_sha))",
    ):
        db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


#: migrations[v] takes a version-v store to version v + 1.
MIGRATIONS: Dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


# ---------------------------------------------------------------- encodings


def _canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, non-ASCII kept: one text per value, so equal labels and environments
    hash and compare equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _blob(values: np.ndarray) -> bytes:
    return np.ascontiguousarray(values, dtype="<f8").tobytes()


def check_blob(where: str, blob: Any, set_id: int, column: str, size: Optional[int] = None) -> None:
    """A samples/iterations blob must be whole float64 values (and as long as the samples); ``where``
    names the store file in the error."""
    if not isinstance(blob, bytes) or len(blob) % 8 or (size is not None and len(blob) != size):
        length = f"{len(blob)} bytes" if isinstance(blob, bytes) else f"a {type(blob).__name__}"
        want = f"{size} bytes, as the samples" if size is not None else "a multiple of 8 bytes (float64 LE)"
        raise InputError(f"{where}: set {set_id}: column {column} holds {length}, expected {want}")


def _check_blobs(where: str, set_ids: Sequence[int], blobs: Sequence[Any], column: str,
                 samples: Optional[Sequence[bytes]] = None) -> None:
    """:func:`check_blob` of a run's column at once (NULL iterations allowed); the first bad set is named."""
    if all(type(b) is bytes and not len(b) % 8 for b in blobs) if samples is None else all(b is None for b in blobs):
        return  # the usual case, checked without a Python call per set
    for i, blob in enumerate(blobs):
        if samples is None:
            check_blob(where, blob, set_ids[i], column)
        elif blob is not None:
            check_blob(where, blob, set_ids[i], column, len(samples[i]))


def _joined_floats(blobs: Sequence[bytes]) -> np.ndarray:
    """float64 little-endian blobs as one native float64 array (a copy: the Dataset keeps its own memory)."""
    return np.frombuffer(b"".join(blobs), dtype="<f8").astype(np.float64)


def _utc_time(text: Optional[str]) -> str:
    """ISO-8601 UTC (``YYYY-MM-DDTHH:MM:SSZ``, fractions kept); a time without zone is taken as UTC."""
    if text is None:
        return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        parsed = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InputError(f"time {text!r}: expected an ISO-8601 date and time, e.g. 2026-12-05T19:30:00Z") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_dt.timezone.utc)
    utc = parsed.astimezone(_dt.timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + (f".{utc.microsecond:06d}".rstrip("0") if utc.microsecond else "") + "Z"


def _find_key(value: Any, keys: Sequence[str]) -> Optional[str]:
    """The first of ``keys`` found in nested metadata, shallowest first (a non-empty string or number)."""
    level = [value]
    while level:
        for key in keys:
            for node in level:
                if isinstance(node, dict) and isinstance(node.get(key), (str, int)) and str(node[key]).strip():
                    return str(node[key]).strip()
        level = [child for node in level if isinstance(node, (dict, list))
                 for child in (node.values() if isinstance(node, dict) else node)]
    return None


def commit_from_metadata(dataset: Dataset, keys: Sequence[str] = COMMIT_KEYS) -> Optional[str]:
    """The commit the tool wrote into its files (Nitro ``commitSha``, pyperf ``commit_id``), or None.

    Raises InputError when two files name different commits."""
    return _agreed_value(dataset, keys, "commit")


def _agreed_value(dataset: Dataset, keys: Sequence[str], what: str) -> Optional[str]:
    found: Dict[str, str] = {}
    for run, metadata in dataset.runs.items():
        value = _find_key(metadata, keys)
        if value is not None:
            found[run] = value
    if len(set(found.values())) > 1:
        (a, va), (b, vb) = _two_different(found)
        raise InputError(f"{a}: {what} {va!r} but {b}: {what} {vb!r}; record one {what} at a time")
    return next(iter(found.values()), None)


def _two_different(found: Dict[str, str]) -> Tuple[Tuple[str, str], Tuple[str, str]]:
    items = list(found.items())
    first = items[0]
    return first, next(item for item in items if item[1] != first[1])


def ci_environment(environ: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The CI variables of :data:`CI_VARIABLES` that are set (``os.environ`` by default)."""
    environ = os.environ if environ is None else environ
    return {name: environ[name] for name in CI_VARIABLES if environ.get(name)}


def _without_volatile(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_volatile(v) for k, v in value.items() if k not in _VOLATILE_KEYS}
    return value


def _flatten(value: Any, prefix: str = "") -> Dict[str, Any]:
    """Nested objects as dotted keys (``tool.context.num_cpus``); lists and scalars are leaves."""
    if isinstance(value, dict) and value:
        out: Dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value} if prefix else {}


def _tool_context(dataset: Dataset) -> Dict[str, Any]:
    """The reader's run metadata that every input file agrees on, without volatile keys, nested again."""
    flats = [_flatten(_without_volatile(meta)) for meta in dataset.runs.values()]
    if not flats:
        return {}
    common = {k: v for k, v in flats[0].items() if all(k in f and f[k] == v for f in flats[1:])}
    nested: Dict[str, Any] = {}
    for key, value in common.items():
        node = nested
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return nested


def environment_diff(old: Optional[Mapping[str, Any]], new: Optional[Mapping[str, Any]]) -> List[Tuple[str, Any, Any]]:
    """What changed between two environments: ``(dotted key, old value, new value)`` sorted by key,
    None where a side lacks the key; equal environments give []."""
    a, b = _flatten(dict(old or {})), _flatten(dict(new or {}))
    return [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


# ---------------------------------------------------------------- the store


@dataclass
class _Prepared:
    """A dataset turned into rows, ready for one transaction."""

    content_hash: str
    tool: Optional[str]
    source: str
    environment_json: str
    warnings: Optional[str]
    files: List[Tuple[int, str, Optional[str], str]]
    sets: List[Tuple[Any, ...]]


class Store:
    """A benchreport results store (one SQLite file); see the module docstring and docs/store.md."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self._db = db
        self.path = path

    # --- opening ------------------------------------------------------
    @classmethod
    def open(cls, path: PathLike, create: bool = True, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> "Store":
        """Open (and with ``create`` make) the store at ``path``, migrating an older schema forward.

        InputError when the file is not a benchreport store, is newer than this benchreport reads,
        or does not exist and ``create`` is False."""
        text = os.fspath(path)
        exists = os.path.exists(text) and os.path.getsize(text) > 0
        if not exists and not create:
            raise InputError(f"{text}: no such store")
        try:
            db = sqlite3.connect(text, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise InputError(f"{text}: cannot open the store: {exc}") from None
        try:
            store = cls(db, text)
            store._prepare()
        except sqlite3.DatabaseError as exc:
            db.close()
            raise InputError(f"{text}: not a benchreport store ({exc})") from None
        except BaseException:
            db.close()
            raise
        return store

    def _prepare(self) -> None:
        db = self._db
        db.execute("PRAGMA foreign_keys = ON")
        version = self._check_version()
        if version < SCHEMA_VERSION or db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # in WAL: durable at checkpoints, never corrupt
        # Page cache of up to 64 MiB (SQLite's default is 2 MiB): a history writes 10^6 summary rows
        # into the case_summaries index, whose pages then stay in memory instead of being re-read.
        db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        if version == SCHEMA_VERSION:
            return
        with self._transaction():
            version = self._check_version()  # another process may have created or migrated it meanwhile
            if version == 0:
                _create_v1(db)
                version = 1
            while version < SCHEMA_VERSION:
                MIGRATIONS[version](db)
                version += 1
                db.execute(f"PRAGMA user_version = {version}")

    def _check_version(self) -> int:
        db = self._db
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        application = int(db.execute("PRAGMA application_id").fetchone()[0])
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version > SCHEMA_VERSION:
            raise InputError(f"{self.path}: store schema version {version} is newer than this benchreport reads "
                             f"(up to {SCHEMA_VERSION}); upgrade benchreport")
        if application not in (0, APPLICATION_ID) or (version == 0 and tables) or (version and "runs" not in tables):
            raise InputError(f"{self.path}: not a benchreport store (an SQLite database with other tables)")
        return version

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE … COMMIT: one writer at a time (others wait up to the busy timeout), all or nothing."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection (autocommit; wrap writes in BEGIN IMMEDIATE … COMMIT)."""
        return self._db

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
        ``RecordResult(None, note)``."""
        dataset, source = self._as_dataset(dataset_or_paths)
        named = _first_file(source)
        if len(dataset) == 0:
            raise InputError(f"{named}: no sample sets to record")
        commit_sha = _resolve(commit_from_metadata(dataset), commit, "commit", "--commit", named)
        branch_name = _resolve(_agreed_value(dataset, BRANCH_KEYS, "branch"), branch, "branch", "--branch", named)
        when = _utc_time(time)
        env = {"tool": _tool_context(dataset), "ci": ci_environment(),
               "env": {str(k): str(v) for k, v in (environment or {}).items()}}
        prepared = _prepare_rows(dataset, commit_sha, branch_name, source, env)
        with self._transaction():
            existing = self._db.execute("SELECT run_id, commit_sha, branch FROM runs WHERE content_hash = ?",
                                        (prepared.content_hash,)).fetchone()
            if existing is not None:
                return RecordResult(None, f"already recorded as run {existing[0]} (commit {existing[1]} on "
                                          f"{existing[2]}); skipped")
            run_id = self._insert_run(prepared, commit_sha, branch_name, when, None)
        return RecordResult(run_id, f"recorded run {run_id}: {len(prepared.sets)} sets, commit {commit_sha} "
                                    f"on {branch_name}")

    def _as_dataset(self, given: Any) -> Tuple[Dataset, str]:
        if isinstance(given, Dataset):
            return given, "\n".join(r for r in dict.fromkeys(given.run_ids) if r)
        items = [given] if isinstance(given, (str, os.PathLike)) else list(given)
        paths = expand_paths(items)
        return load(paths), "\n".join(paths)

    def _insert_run(self, prepared: _Prepared, commit_sha: str, branch: str, time: str, seq: Optional[int],
                    run_id: Optional[int] = None) -> int:
        db = self._db
        environment_id = self._environment_id(prepared.environment_json)
        if seq is None:
            seq = self._seq_of(branch, commit_sha)
        cursor = db.execute(
            "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq, tool, source, environment_id,"
            " warnings) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (run_id, prepared.content_hash, commit_sha, branch, time, seq, prepared.tool, prepared.source,
             environment_id, prepared.warnings))
        run_id = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO run_files(run_id, position, file, format, metadata) VALUES (?,?,?,?,?)",
                       [(run_id, *f) for f in prepared.files])
        self._insert_sets(run_id, prepared.sets)
        return run_id

    def _insert_sets(self, run_id: int, rows: List[Tuple[Any, ...]]) -> None:
        self._db.executemany(
            "INSERT INTO sets(run_id, name, labels, unit, process, samples, iterations, direction, exact, file,"
            " metadata) VALUES (?,?,?,?,?,?,?,?,?,?,?)", ((run_id, *row) for row in rows))

    def _seq_of(self, branch: str, commit_sha: str) -> int:
        """The commit's place on the branch: its earlier runs' seq, else one past the last."""
        row = self._db.execute("SELECT seq FROM runs WHERE branch = ? AND commit_sha = ? LIMIT 1",
                               (branch, commit_sha)).fetchone()
        if row is not None:
            return int(row[0])
        last = self._db.execute("SELECT MAX(seq) FROM runs WHERE branch = ?", (branch,)).fetchone()[0]
        return 0 if last is None else int(last) + 1

    def _environment_id(self, text: str) -> int:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self._db.execute("INSERT OR IGNORE INTO environments(hash, json) VALUES (?, ?)", (digest, text))
        return int(self._db.execute("SELECT environment_id FROM environments WHERE hash = ?", (digest,)).fetchone()[0])

    # --- reading ------------------------------------------------------
    def runs(self, branch: Optional[str] = None) -> List[RunInfo]:
        """Stored runs in branch order (by branch, then seq, then run id); only ``branch``'s when given."""
        sql = ("SELECT r.run_id, r.commit_sha, r.branch, r.time, r.seq, r.tool, r.source, e.json FROM runs r"
               " LEFT JOIN environments e ON e.environment_id = r.environment_id")
        args: Tuple[Any, ...] = ()
        if branch is not None:
            sql += " WHERE r.branch = ?"
            args = (branch,)
        rows = self._db.execute(sql + " ORDER BY r.branch, r.seq, r.run_id", args).fetchall()
        return [RunInfo(int(r[0]), r[1], r[2], r[3], int(r[4]), r[5], r[6], json.loads(r[7]) if r[7] else {})
                for r in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run by id (InputError when there is none)."""
        return self._runs_by_id([run_id])[0]

    def _runs_by_id(self, run_ids: Sequence[int]) -> List[RunInfo]:
        out = []
        for run_id in run_ids:
            row = self._db.execute(
                "SELECT r.run_id, r.commit_sha, r.branch, r.time, r.seq, r.tool, r.source, e.json FROM runs r"
                " LEFT JOIN environments e ON e.environment_id = r.environment_id WHERE r.run_id = ?",
                (int(run_id),)).fetchone()
            if row is None:
                raise InputError(f"{self.path}: no run {run_id}")
            out.append(RunInfo(int(row[0]), row[1], row[2], row[3], int(row[4]), row[5], row[6],
                               json.loads(row[7]) if row[7] else {}))
        return out

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
        first appearance). One query per run, columns gathered whole (no Python per set but the
        label lookup) and every set added from one CSR buffer with one ``add_sets``."""
        core = _core.Dataset()
        used_names: Dict[str, int] = {}
        parsed: Dict[str, List[Tuple[str, str]]] = {}  # label text -> its pairs, less the store's labels
        columns: Dict[str, List[Any]] = {k: [] for k in ("labels", "units", "blobs", "iterations", "directions",
                                                         "exact", "runs", "metadata")}
        given = {"runs": False, "metadata": False, "exact": False}  # any set with a file, metadata, exact unit
        texts_per_run: List[List[str]] = []
        warnings: List[str] = []
        for info in infos:
            names = self._add_files(core, info.run_id, used_names)
            rows = self._db.execute(
                "SELECT set_id, labels, unit, samples, iterations, direction, exact, file, metadata FROM sets"
                " WHERE run_id = ? ORDER BY set_id", (info.run_id,)).fetchall()
            if not rows:
                texts_per_run.append([])
                continue
            set_ids, texts, units, blobs, iterations, directions, exact, files, metadata = zip(*rows)
            _check_blobs(self.path, set_ids, blobs, "samples")
            _check_blobs(self.path, set_ids, iterations, "iterations", blobs)
            texts_per_run.append(list(dict.fromkeys(texts)))
            extra = [("commit", info.commit_sha), ("branch", info.branch), ("run", str(info.run_id))]
            for text in texts_per_run[-1]:
                if text not in parsed:
                    parsed[text] = [(k, v) for k, v in json.loads(text).items() if k not in STORE_LABELS]
            with_extra = {text: parsed[text] + extra for text in texts_per_run[-1]}
            n = len(rows)
            columns["labels"].extend(map(with_extra.__getitem__, texts))
            columns["units"].extend(units)
            columns["blobs"].extend(blobs)
            columns["iterations"].extend(iterations)
            columns["directions"].extend(directions)
            # Files, metadata and exact units are rare: a run without any costs no Python per set for them.
            has = {"exact": any(exact), "runs": any(f is not None for f in files), "metadata": any(metadata)}
            given = {k: given[k] or has[k] for k in given}
            columns["exact"].extend(map(bool, exact) if has["exact"] else [False] * n)
            columns["runs"].extend([names.get(f, "") if f is not None else "" for f in files]
                                   if has["runs"] else [""] * n)
            columns["metadata"].extend([[tuple(p) for p in json.loads(m)] if m else [] for m in metadata]
                                       if has["metadata"] else [[]] * n)
            row = self._db.execute("SELECT warnings FROM runs WHERE run_id = ?", (info.run_id,)).fetchone()
            warnings.extend(json.loads(row[0]) if row and row[0] else [])
        all_blobs = columns["blobs"]
        offsets = np.zeros(len(all_blobs) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, all_blobs), dtype=np.int64, count=len(all_blobs)) // 8, out=offsets[1:])
        weights = None
        if any(w is not None for w in columns["iterations"]):  # a set without iterations weighs each sample 1
            weights = _joined_floats([w if w is not None else _blob(np.ones(len(b) // 8))
                                      for w, b in zip(columns["iterations"], all_blobs)])
        core.add_sets(_joined_floats(all_blobs), offsets, columns["labels"], columns["units"], weights=weights,
                      directions=columns["directions"], runs=columns["runs"] if given["runs"] else None,
                      metadata=columns["metadata"] if given["metadata"] else None,
                      exact=columns["exact"] if given["exact"] else None, custom_unit_ok=True)
        for warning in warnings:
            core.warn(warning)
        return Dataset(core), texts_per_run

    def _add_files(self, core: Any, run_id: int, used_names: Dict[str, int]) -> Dict[int, str]:
        """Adds a run's files to ``core`` as runs; returns position -> run name (a file name another
        run already used is prefixed with this run's id)."""
        names = {}
        for position, file, fmt, metadata in self._db.execute(
                "SELECT position, file, format, metadata FROM run_files WHERE run_id = ? ORDER BY position", (run_id,)):
            name = file if used_names.setdefault(file, run_id) == run_id else f"{run_id}:{file}"
            core.add_run(name, metadata)
            if fmt:
                core.set_run_format(name, fmt)
            names[position] = name
        return names

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


def _first_file(source: str) -> str:
    """The inputs for a message: the first file, and how many more."""
    files = source.split("\n") if source else []
    if not files:
        return "record"
    return files[0] + (f" (and {len(files) - 1} more)" if len(files) > 1 else "")


def _resolve(from_files: Optional[str], given: Optional[str], what: str, flag: str, source: str) -> str:
    """The files' value wins; a different flag value is an error, not silently overridden."""
    given = given.strip() if given is not None else None
    if from_files is not None:
        if given and given != from_files:
            raise InputError(f"{source}: the file's metadata says {what} {from_files!r} but {flag} says {given!r}")
        return from_files
    if not given:
        raise InputError(f"{source}: no {what}: the files do not name one; pass {flag}")
    return given


def _set_process(labels: Dict[str, str]) -> Optional[int]:
    value = labels.get(_core.PROCESS_LABEL)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _set_name(labels: Dict[str, str]) -> str:
    """The case a set measures: its ``benchmark`` label, else its non-process labels as k=v pairs."""
    if labels.get("benchmark"):
        return labels["benchmark"]
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items()) if k not in _core.PROCESS_LABELS)


def _labels_per_set(dataset: Dataset) -> List[Tuple[str, Dict[str, str]]]:
    """Each set's labels as (canonical JSON, dict), built once per distinct combination of label codes."""
    columns = dataset.columns
    coded = [dataset.label_codes(c) for c in columns]
    code_rows = np.stack([codes for codes, _ in coded], axis=1) if coded else np.zeros((len(dataset), 0), np.int32)
    cache: Dict[bytes, Tuple[str, Dict[str, str]]] = {}
    out = []
    for row in code_rows:
        key = row.tobytes()
        found = cache.get(key)
        if found is None:
            labels = {c: d[k] for c, (_, d), k in zip(columns, coded, row.tolist()) if k >= 0}
            found = cache[key] = (_canonical_json(labels), labels)
        out.append(found)
    return out


def content_hash(commit_sha: str, branch: str, rows: Sequence[Tuple[Any, ...]]) -> str:
    """SHA-256 of what makes a run the same run: commit, branch and, per set in order, labels,
    unit, direction, samples and iterations (rows as ``sets`` columns name..metadata). Time,
    environment and file names are left out: recording the same results again is a duplicate."""
    digest = hashlib.sha256()
    for part in (commit_sha, branch):
        digest.update(part.encode("utf-8") + b"\0")
    for _name, labels, unit, _process, samples, iterations, direction, *_rest in rows:
        for part in (labels, unit, direction or ""):
            digest.update(part.encode("utf-8") + b"\0")
        digest.update(len(samples).to_bytes(8, "little") + samples)
        digest.update(b"-" if iterations is None else len(iterations).to_bytes(8, "little") + iterations)
    return digest.hexdigest()


def _prepare_rows(dataset: Dataset, commit_sha: str, branch: str, source: str, env: Environment) -> _Prepared:
    native = dataset._ds
    values = _blob(native.values)  # one buffer, cut per set below
    offsets = (native.offsets * 8).tolist()
    weights = None if native.weights is None else _blob(native.weights)
    runs = native.runs()
    formats = dict(native.run_formats())
    file_position = {rid: i for i, (rid, _) in enumerate(runs)}
    run_ids = native.run_ids()
    directions = native.directions()
    units = native.unit_symbols()
    metadata = [native.set_metadata(i) for i in range(len(dataset))]
    rows = []
    for i, (labels_text, labels) in enumerate(_labels_per_set(dataset)):
        begin, end = offsets[i], offsets[i + 1]
        iterations = None if weights is None else weights[begin:end]
        row = (_set_name(labels), labels_text, units[i], _set_process(labels), values[begin:end], iterations,
               directions[i], int(native.unit(i).exact), file_position.get(run_ids[i]),
               _canonical_json([list(p) for p in metadata[i]]) if metadata[i] else None)
        rows.append(row)
    tools = sorted({formats.get(rid) or "" for rid, _ in runs} - {""})
    warnings = native.warnings()
    return _Prepared(content_hash(commit_sha, branch, rows), ",".join(tools) or None, source, _canonical_json(env),
                     _canonical_json(warnings) if warnings else None,
                     [(i, rid, formats.get(rid) or None, meta) for i, (rid, meta) in enumerate(runs)], rows)
