"""The results store (benchreport.store, docs/store.md): recording, reading back bit-exact,
concurrency, crash safety, migrations, Parquet round trips and bad input."""
import datetime
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from store_sim import sql

import benchreport as br
from benchreport import _core
from benchreport import store as st
from benchreport.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
NITRO_BASE = str(DATA / "nitro" / "raw" / "android" / "base-*.json")
PYPERF = DATA / "pyperf" / "two_benchmarks.json"
GBENCH = DATA / "google_benchmark" / "repetitions.json"


def _bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


def _synthetic(n_cases=3, n=7, seed=0, weights=False):
    rng = np.random.default_rng(seed)
    values = rng.lognormal(size=n_cases * n) * 1e-3
    values[0] = np.nextafter(values[0], 1.0)  # a value whose last bit matters
    offsets = np.arange(0, n_cases * n + 1, n)
    labels = {"benchmark": [f"case_{i}" for i in range(n_cases)], "process": ["1"] * n_cases}
    w = rng.integers(1, 100, size=n_cases * n).astype(float) if weights else None
    return br.Dataset.from_arrays(values, offsets, labels, unit="s", weights=w)


def _run(*argv, env=None):
    return subprocess.run([sys.executable, "-m", "benchreport", *map(str, argv)], capture_output=True, text=True,
                          env=env)


# ---------------------------------------------------------------- recording and reading back

def test_record_then_dataset_is_bit_exact_with_labels_added(tmp_path):
    original = br.load(NITRO_BASE)
    with Store.open(tmp_path / "s.db") as store:
        result = store.record(NITRO_BASE, branch="main")
        assert result.run_id == 1 and "6 sets" in result.note
        got = store.dataset([result.run_id])
    assert np.array_equal(_bits(got.values_as_read), _bits(original.values_as_read))
    assert np.array_equal(got.offsets, original.offsets)
    assert got.units == original.units and got.directions == original.directions
    assert got.metadata == original.metadata and got.runs == original.runs
    for i in range(len(original)):
        expected = {**original.set_labels(i), "commit": "a" * 40, "branch": "main", "run": "1"}
        assert got.set_labels(i) == expected


def test_weights_and_several_runs_read_back_in_the_order_asked(tmp_path):
    a, b = _synthetic(weights=True, seed=1), _synthetic(seed=2)
    with Store.open(tmp_path / "s.db") as store:
        ra = store.record(a, commit="c1", branch="main").run_id
        rb = store.record(b, commit="c2", branch="main").run_id
        got = store.dataset([rb, ra])
    assert np.array_equal(_bits(got.values_as_read), _bits(np.concatenate([b.values_as_read, a.values_as_read])))
    # b had no weights (ones), a's iterations come back exactly
    assert np.array_equal(_bits(got.weights[len(b.values):]), _bits(a.weights))
    assert got.labels["commit"] == ["c2"] * 3 + ["c1"] * 3


def test_commit_comes_from_the_files_metadata_and_a_conflicting_flag_is_refused(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        assert store.record(NITRO_BASE, branch="main").run_id == 1
        (run,) = store.runs()
        assert run.commit_sha == "a" * 40 and run.tool == "nitro"
        with pytest.raises(br.InputError, match="metadata says commit 'a{40}' but --commit says 'b'"):
            store.record(NITRO_BASE, branch="main", commit="b")
        assert store.record(NITRO_BASE, branch="main", commit="a" * 40).run_id is None  # agreeing flag: fine


def test_files_naming_two_commits_are_refused(tmp_path):
    with Store.open(tmp_path / "s.db") as store, pytest.raises(br.InputError, match="head-1.json: commit 'b{40}'"):
        store.record(str(DATA / "nitro" / "raw" / "android" / "*.json"), branch="main")


def test_pyperf_commit_id_metadata_names_the_commit_and_branch(tmp_path):
    data = json.loads(PYPERF.read_text())
    data["metadata"].update(commit_id="feedbeef", commit_branch="release")
    path = tmp_path / "with_commit.json"
    path.write_text(json.dumps(data))
    with Store.open(tmp_path / "s.db") as store:
        store.record(path)
        (run,) = store.runs()
    assert (run.commit_sha, run.branch, run.tool) == ("feedbeef", "release", "pyperf")


def test_seq_orders_commits_on_each_branch(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.record(_synthetic(seed=1), commit="c1", branch="main", time="2026-01-01T00:00:00Z")
        store.record(_synthetic(seed=2), commit="f1", branch="feature/x", time="2026-01-02T00:00:00+02:00")
        store.record(_synthetic(seed=3), commit="c2", branch="main")
        store.record(_synthetic(seed=4), commit="c1", branch="main")  # a second run of c1 keeps c1's place
        runs = store.runs()
        main = store.runs("main")
    assert [(r.branch, r.commit_sha, r.seq) for r in runs] == [
        ("feature/x", "f1", 0), ("main", "c1", 0), ("main", "c1", 0), ("main", "c2", 1)]
    assert [r.run_id for r in main] == [1, 4, 3]
    assert runs[0].time == "2026-01-01T22:00:00Z"


def test_duplicate_record_is_skipped_with_a_note(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        first = store.record(PYPERF, commit="c1", branch="main", time="2026-01-01T00:00:00Z")
        again = store.record(PYPERF, commit="c1", branch="main", time="2026-02-01T00:00:00Z")
        other_commit = store.record(PYPERF, commit="c2", branch="main")
        assert len(store.runs()) == 2
    assert first.run_id == 1 and again.run_id is None
    assert again.note == "already recorded as run 1 (commit c1 on main); skipped"
    assert other_commit.run_id == 2
    done = _run("record", PYPERF, "--commit", "c1", "--branch", "main", "--store", tmp_path / "s.db")
    assert done.returncode == 0 and "already recorded as run 1" in done.stderr


def test_environment_is_recorded_and_diffed(tmp_path, monkeypatch):
    monkeypatch.setenv("RUNNER_NAME", "runner-7")
    monkeypatch.setenv("ImageOS", "ubuntu24")
    with Store.open(tmp_path / "s.db") as store:
        a = store.record(GBENCH, commit="c1", branch="main", environment={"compiler": "gcc-14"}).run_id
        monkeypatch.setenv("ImageOS", "ubuntu26")
        b = store.record(_synthetic(), commit="c2", branch="main", environment={"compiler": "gcc-15"}).run_id
        env_a = store.run(a).environment
        diff = store.environment_diff(a, b)
    n_environments = sql(tmp_path / "s.db", "SELECT COUNT(*) FROM environments")[0][0]
    assert env_a["ci"] == {"RUNNER_NAME": "runner-7", "ImageOS": "ubuntu24"}
    assert env_a["env"] == {"compiler": "gcc-14"}
    assert env_a["tool"]["context"]["num_cpus"] == 2 and "date" not in env_a["tool"]["context"]
    keys = [k for k, _, _ in diff]
    assert ("ci.ImageOS", "ubuntu24", "ubuntu26") in diff and ("env.compiler", "gcc-14", "gcc-15") in diff
    assert ("tool.context.num_cpus", 2, None) in diff and keys == sorted(keys)
    assert n_environments == 2
    assert st.environment_diff({"a": {"b": 1}}, {"a": {"b": 1}}) == []


def test_equal_environments_share_one_row(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.record(_synthetic(seed=1), commit="c1", branch="main")
        store.record(_synthetic(seed=2), commit="c2", branch="main")
    assert sql(tmp_path / "s.db", "SELECT COUNT(*) FROM environments") == [(1,)]


# ---------------------------------------------------------------- bad input

def test_missing_commit_is_a_clear_error(tmp_path):
    with Store.open(tmp_path / "s.db") as store, pytest.raises(br.InputError, match="no commit.*pass --commit"):
        store.record(PYPERF, branch="main")
    done = _run("record", PYPERF, "--branch", "main", "--store", tmp_path / "s.db")
    assert done.returncode == 2
    assert "two_benchmarks.json: no commit: the files do not name one; pass --commit" in done.stderr


def test_missing_branch_and_bad_time_are_clear_errors(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        with pytest.raises(br.InputError, match="no branch.*pass --branch"):
            store.record(PYPERF, commit="c1")
        with pytest.raises(br.InputError, match="time 'yesterday': expected an ISO-8601"):
            store.record(PYPERF, commit="c1", branch="main", time="yesterday")
        assert store.runs() == []


def _python_utc_time(text):
    """The time normalisation the Python store did, as the reference for the C++ one."""
    parsed = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone.utc)
    utc = parsed.astimezone(datetime.timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + (f".{utc.microsecond:06d}".rstrip("0") if utc.microsecond else "") + "Z"


TIMES = ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00+02:00", " 2026-12-05T19:30:00z ", "2026-12-05", "2026-12-05T19",
         "2026-12-05T1930", "20261205T193000", "20261205", "2026-12-05 19:30:00.5", "2026-12-05x19:30:00,25",
         "2026-12-05T19:30:00.1234567", "2026-03-01T00:30:00.250+01:00", "2026-01-01T10:30-0530", "2026-01-01T10:30+05",
         "2026-01-01T10:30:00+05:30:10.5", "2026-W01-1", "2026W011", "2026-W53-7", "2020-W53-7", "2024-02-29T23:59:59-00:01",
         "2026-12-31T23:00:00-01:00", "yesterday", "2026-13-01", "2026-02-30", "2026-01-01T24:00", "2026-1-01",
         "2026-01-01T10:30:60", "2026-01-01T10:3", "2026-01-01T10:30:00.", "2026-01-01T10:30:00+24:00", "", "2026",
         "2026-01-01T10:30:00Z junk", "2026-01-01T", "2026-01-01Té10:30"]


@pytest.mark.parametrize("text", TIMES)
def test_the_utc_time_is_what_python_made_of_it(text):
    try:
        expected = _python_utc_time(text)
    except ValueError:
        with pytest.raises(br.InputError, match=re.escape(f"time {text!r}: expected an ISO-8601 date and time")):
            _core.store_utc_time(text)
    else:
        assert _core.store_utc_time(text) == expected
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", _core.store_utc_time())


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just text\n" * 10)
    with pytest.raises(br.InputError, match="notes.db: not a benchreport store"):
        Store.open(text)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE customers(id INTEGER)")
    with pytest.raises(br.InputError, match="other.db: not a benchreport store"):
        Store.open(other)
    with pytest.raises(br.InputError, match="missing.db: no such store"):
        Store.open(tmp_path / "missing.db", create=False)
    with pytest.raises(br.InputError, match="cannot open the store: unable to open database file"):
        Store.open(tmp_path)  # a folder
    with Store.open(tmp_path / "s.db") as store, pytest.raises(br.InputError, match="s.db: no run 99"):
        store.dataset([99])


def test_a_newer_schema_version_is_refused(tmp_path):
    path = tmp_path / "future.db"
    Store.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {st.SCHEMA_VERSION + 1}")
    with pytest.raises(br.InputError, match=r"schema version 3 is newer than this benchreport reads \(up to 2\)"):
        Store.open(path)
    done = _run("store", "export", path, tmp_path / "out")
    assert done.returncode == 2 and "schema version 3 is newer" in done.stderr


def test_an_empty_dataset_is_refused(tmp_path):
    with Store.open(tmp_path / "s.db") as store, pytest.raises(br.InputError, match="no sample sets"):
        store.record(br.Dataset(), commit="c", branch="main")


# ---------------------------------------------------------------- schema and migration

V1_SCHEMA = """
CREATE TABLE runs(run_id INTEGER PRIMARY KEY, content_hash TEXT UNIQUE NOT NULL, commit_sha TEXT NOT NULL,
  branch TEXT NOT NULL, time TEXT NOT NULL, seq INTEGER NOT NULL, tool TEXT, source TEXT);
CREATE TABLE sets(set_id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
  name TEXT NOT NULL, labels TEXT NOT NULL, unit TEXT NOT NULL, process INTEGER, samples BLOB NOT NULL,
  iterations BLOB);
PRAGMA user_version = 1;
"""


def test_migration_from_schema_version_1(tmp_path):
    """A version-1 file written with raw SQL (as a C++ harness of that time would) opens, is
    migrated to version 2 and keeps its runs; new runs record next to them."""
    path = tmp_path / "v1.db"
    samples = np.array([1.5e-3, 1.25e-3, np.nextafter(1e-3, 1.0)], dtype="<f8")
    with sqlite3.connect(path) as db:
        db.executescript(V1_SCHEMA)
        db.execute("INSERT INTO runs VALUES (1, 'h1', 'abc', 'main', '2025-01-01T00:00:00Z', 0, 'harness', 'x.json')")
        db.execute("INSERT INTO sets(run_id, name, labels, unit, process, samples, iterations) VALUES "
                   "(1, 'BM_a', '{\"benchmark\":\"BM_a\"}', 's', 1, ?, NULL)", (samples.tobytes(),))
    with Store.open(path) as store:
        assert store.schema_version == 2
        (run,) = store.runs()
        assert (run.commit_sha, run.seq, run.environment) == ("abc", 0, {})
        got = store.dataset([1])
        store.record(_synthetic(), commit="def", branch="main")
        assert [r.seq for r in store.runs("main")] == [0, 1]
    assert np.array_equal(_bits(got.values_as_read), _bits(samples))
    assert got.set_labels(0) == {"benchmark": "BM_a", "commit": "abc", "branch": "main", "run": "1"}
    with Store.open(path) as store:  # its own content hash ('h1') survives a Parquet round trip
        store.export_parquet(tmp_path / "export")
    with Store.open(tmp_path / "copy.db") as copy:
        assert copy.import_parquet(tmp_path / "export") == {"imported": 2, "skipped": 0}
        assert np.array_equal(_bits(copy.dataset([1]).values_as_read), _bits(samples))
    assert sql(tmp_path / "copy.db", "SELECT content_hash FROM runs WHERE run_id = 1") == [("h1",)]
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"runs", "sets", "environments", "change_points", "case_summaries", "run_files"} <= tables
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA application_id").fetchone()[0] == st.APPLICATION_ID


def test_change_point_states_are_constrained(tmp_path):
    Store.open(tmp_path / "s.db").close()
    insert = "INSERT INTO change_points(branch, case_key, commit_sha, state) VALUES ('main', ?, 'c', ?)"
    sql(tmp_path / "s.db", insert, "a", "new")
    with pytest.raises(sqlite3.IntegrityError):
        sql(tmp_path / "s.db", insert, "b", "x")


def test_a_blob_that_is_not_float64_is_a_clear_error(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        store.record(_synthetic(), commit="c1", branch="main")
    sql(path, "UPDATE sets SET samples = x'00112233445566778899' WHERE set_id = 2")
    with Store.open(path) as store:
        with pytest.raises(br.InputError, match=r"s.db: set 2: column samples holds 10 bytes, expected a multiple of 8"):
            store.dataset([1])
        with pytest.raises(br.InputError, match="set 2: column samples holds 10 bytes"):
            store.export_parquet(tmp_path / "out")


def test_iterations_of_the_wrong_length_are_a_clear_error(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.record(_synthetic(weights=True), commit="c1", branch="main")
    sql(tmp_path / "s.db", "UPDATE sets SET iterations = zeroblob(16) WHERE set_id = 3")
    with Store.open(tmp_path / "s.db") as store:
        with pytest.raises(br.InputError, match=r"set 3: column iterations holds 16 bytes, expected 56 bytes, as the"):
            store.dataset([1])


def test_a_run_written_with_raw_sql_reads_back(tmp_path):
    """docs/store.md tells a C++ harness how to write a run; this does the same in SQL."""
    path = tmp_path / "s.db"
    Store.open(path).close()
    values = np.array([3.0, 2.5, 2.75], dtype="<f8")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("INSERT INTO runs(content_hash, commit_sha, branch, time, seq, tool) VALUES "
                   "('harness:1', 'c0ffee', 'main', '2026-12-05T00:00:00Z', 0, 'my-harness')")
        db.execute("INSERT INTO sets(run_id, name, labels, unit, samples) VALUES (1, 'BM_x', "
                   "'{\"benchmark\":\"BM_x\"}', 'ms', ?)", (values.tobytes(),))
    with Store.open(path) as store:
        got = store.dataset([1])
    assert got.units == ["ms"] and got.directions == ["lower"]
    assert np.array_equal(_bits(got.values_as_read), _bits(values))


# ---------------------------------------------------------------- concurrency and crashes

WRITER = textwrap.dedent("""
    import sys
    import numpy as np
    import benchreport as br
    from benchreport.store import Store
    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sys.stdout.write("ready\\n"); sys.stdout.flush()
    sys.stdin.readline()  # both writers start together
    with Store.open(path) as store:
        for i in range(count):
            values = np.full(50, float(i)) + (0.5 if name == "b" else 0.0)
            data = br.Dataset.from_arrays(values, [0, 50], {"benchmark": [f"{name}-{i}"]})
            assert store.record(data, commit=f"{name}{i}", branch="main").run_id is not None
""")


def test_two_concurrent_writers_lose_nothing(tmp_path):
    path = tmp_path / "s.db"
    Store.open(path).close()
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, "40"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for name in ("a", "b")]
    for w in writers:
        assert w.stdout.readline() == "ready\n"
    for w in writers:
        w.stdin.write("go\n")
        w.stdin.flush()
    for w in writers:
        w.stdin.close()
        assert w.wait() == 0
    with Store.open(path) as store:
        runs = store.runs("main")
        data = store.dataset([r.run_id for r in runs])
    assert len(runs) == 80 and sorted(r.seq for r in runs) == list(range(80))
    assert sorted(r.commit_sha for r in runs) == sorted([f"a{i}" for i in range(40)] + [f"b{i}" for i in range(40)])
    assert len(data) == 80 and len(data.values) == 80 * 50


KILLED = textwrap.dedent("""
    import sys
    import numpy as np
    import benchreport as br
    from benchreport import store as st
    values = np.arange(4000, dtype=float)
    data = br.Dataset.from_arrays(values, np.arange(0, 4001, 40), {"benchmark": [f"c{i}" for i in range(100)]})
    with st.Store.open(sys.argv[1]) as store:
        store.record(data, commit="doomed", branch="main")
""")
# Half the sets in, the insert of set c50 runs a query that never ends: the record is mid-transaction.
STALL = """CREATE TRIGGER stall AFTER INSERT ON sets WHEN NEW.name = 'c50' BEGIN
  SELECT COUNT(*) FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n);
END"""


def _write_locked(path):
    """Whether another connection holds the store's write lock (a transaction is open)."""
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        db.close()


def test_kill_9_mid_record_leaves_the_store_as_it_was(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        store.record(_synthetic(), commit="c1", branch="main")
        before = store.dataset([1]).to_json()
    sql(path, STALL)
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(path)])
    while not _write_locked(path):  # the run and half its sets are written, not committed
        assert child.poll() is None
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait() == -signal.SIGKILL
    sql(path, "DROP TRIGGER stall")
    assert sql(path, "SELECT COUNT(*) FROM sets") == [(3,)]
    assert sql(path, "PRAGMA integrity_check") == [("ok",)]
    with Store.open(path) as store:
        assert [r.commit_sha for r in store.runs()] == ["c1"]
        assert store.dataset([1]).to_json() == before
        assert store.record(_synthetic(seed=5), commit="c2", branch="main").run_id == 2


def test_a_failed_record_leaves_nothing_and_names_the_real_error(tmp_path):
    path = tmp_path / "s.db"
    Store.open(path).close()
    sql(path, "CREATE TRIGGER refuse AFTER INSERT ON sets WHEN NEW.name = 'case_2' BEGIN"
               " SELECT RAISE(ABORT, 'refused by a trigger'); END")
    with Store.open(path) as store:
        with pytest.raises(st.StoreError, match=r"s\.db: refused by a trigger") as raised:
            store.record(_synthetic(), commit="c1", branch="main")
        assert isinstance(raised.value, sqlite3.OperationalError)
        assert store.runs() == []
    assert sql(path, "SELECT (SELECT COUNT(*) FROM sets) + (SELECT COUNT(*) FROM run_files)") == [(0,)]


HOLDER = textwrap.dedent("""
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    print("holding", flush=True)
    time.sleep(1.5)
    db.execute("COMMIT")
""")


def test_a_writer_waits_for_another_process_then_succeeds(tmp_path):
    path = tmp_path / "s.db"
    Store.open(path).close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "holding\n"
    started = time.monotonic()
    with Store.open(path) as store:
        assert store.record(_synthetic(), commit="c1", branch="main").run_id == 1
    assert time.monotonic() - started > 0.5 and holder.wait() == 0


def test_a_closed_store_says_so_and_closes_twice(tmp_path):
    store = Store.open(tmp_path / "s.db")
    store.close()
    store.close()
    with pytest.raises(st.StoreError, match=r"s\.db: the store is closed"):
        store.runs()
    with pytest.raises(sqlite3.OperationalError, match="the store is closed"):
        store.record(_synthetic(), commit="c1", branch="main")


def test_a_file_name_that_is_not_utf8_works(tmp_path):
    path = os.path.join(os.fsencode(tmp_path), b"caf\xe9.db")
    with Store.open(path) as store:
        assert store.record(_synthetic(), commit="c1", branch="main").run_id == 1
        assert store.path == os.fsdecode(path)
    with Store.open(path, create=False) as store:
        assert len(store.dataset([1])) == 3
    assert os.path.exists(path)


# ---------------------------------------------------------------- Parquet

def _filled_store(path):
    store = Store.open(path)
    store.record(NITRO_BASE, branch="main", time="2026-01-01T00:00:00Z")
    store.record(PYPERF, commit="c1", branch="main", environment={"cc": "gcc"})
    store.record(GBENCH, commit="c2", branch="feature/x")
    store.record(_synthetic(weights=True), commit="c3", branch="main")
    return store


def test_parquet_round_trip_is_bit_exact(tmp_path):
    with _filled_store(tmp_path / "a.db") as a:
        counts = a.export_parquet(tmp_path / "export")
        runs_a = a.runs()
        data_a = a.dataset([r.run_id for r in runs_a])
    assert counts == {"runs": 4, "sets": 26, "samples": 130, "files": 4}
    assert (tmp_path / "export" / "branch=feature%2Fx" / "commit=c2" / "run-3.parquet").is_file()
    with Store.open(tmp_path / "b.db") as b:
        assert b.import_parquet(tmp_path / "export") == {"imported": 4, "skipped": 0}
        assert b.import_parquet(tmp_path / "export") == {"imported": 0, "skipped": 4}
        runs_b = b.runs()
        data_b = b.dataset([r.run_id for r in runs_b])
    assert runs_a == runs_b
    assert np.array_equal(_bits(data_a.values_as_read), _bits(data_b.values_as_read))
    assert np.array_equal(_bits(data_a.weights), _bits(data_b.weights))
    assert data_a.to_json() == data_b.to_json() and data_a.metadata == data_b.metadata
    # Dask (and pyarrow) read the folder as a hive dataset of the samples alone, names decoded
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.read_parquet(tmp_path / "export").compute()
    assert sorted(frame["branch"].astype(str).unique()) == ["feature/x", "main"]
    assert len(frame) == 130 and sorted(frame.columns)[:2] == ["benchmark", "branch"]


def test_import_into_a_store_with_runs_appends(tmp_path):
    with _filled_store(tmp_path / "a.db") as a:
        a.export_parquet(tmp_path / "export")
    with Store.open(tmp_path / "b.db") as b:
        b.record(_synthetic(seed=9), commit="z0", branch="main")
        assert b.import_parquet(tmp_path / "export") == {"imported": 4, "skipped": 0}
        assert [(r.commit_sha, r.seq) for r in b.runs("main")] == [("z0", 0), ("a" * 40, 1), ("c1", 2), ("c3", 3)]


def test_a_damaged_export_is_refused(tmp_path):
    with _filled_store(tmp_path / "a.db") as a:
        a.export_parquet(tmp_path / "export")
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = tmp_path / "export" / "branch=main" / "commit=c1" / "run-2.parquet"
    table = pq.read_table(path)
    values = table.column("value").to_numpy().copy()
    values[0] = np.nextafter(values[0], 0.0)
    pq.write_table(table.set_column(table.column_names.index("value"), "value", pa.array(values)), path)
    with Store.open(tmp_path / "b.db") as b:
        with pytest.raises(br.InputError, match="run 2 does not match its checksum"):
            b.import_parquet(tmp_path / "export")
        assert b.runs() == []  # all or nothing
    with pytest.raises(br.InputError, match="not a benchreport store export"):
        Store.open(tmp_path / "c.db").import_parquet(tmp_path)
    with pytest.raises(br.InputError, match="must be new or empty"):
        Store.open(tmp_path / "a.db").export_parquet(tmp_path / "export")


def test_store_cli_export_import(tmp_path):
    path = tmp_path / "s.db"
    done = _run("record", NITRO_BASE, "--branch", "main", "--store", path, "--env", "cc=clang")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("recorded run 1: 6 sets, commit aaaa")
    done = _run("store", "export", path, tmp_path / "out")
    assert done.returncode == 0 and done.stdout == f"exported 1 runs, 6 sets, 30 samples to {tmp_path / 'out'}\n"
    done = _run("store", "import", tmp_path / "copy.db", tmp_path / "out")
    assert done.returncode == 0 and done.stdout == "imported 1 runs, skipped 0 already stored\n"
    with Store.open(tmp_path / "copy.db") as copy:
        assert copy.runs()[0].environment["env"] == {"cc": "clang"}
    bad = _run("record", NITRO_BASE, "--branch", "main", "--store", path, "--env", "novalue")
    assert bad.returncode == 2 and "--env 'novalue': expected KEY=VALUE" in bad.stderr


def test_dask_reads_the_export_and_runs_history_on_it(tmp_path):
    brd = pytest.importorskip("benchreport.dask")
    rng = np.random.default_rng(3)
    with Store.open(tmp_path / "s.db") as store:
        for k in range(12):
            for rerun in range(2 if k == 4 else 1):  # commit 4 is measured twice: two launches
                values = rng.normal(1.0, 0.01, size=(3, 5))
                values[1] *= 1.0 if k < 6 else 1.3  # case_1 steps up at commit 6
                data = br.Dataset.from_arrays(values.ravel(), np.arange(0, 16, 5),
                                              {"benchmark": [f"case_{i}" for i in range(3)], "process": ["1"] * 3})
                store.record(data, commit=f"sha{k:02d}", branch="main")
        store.record(_synthetic(), commit="other", branch="feature")
        store.export_parquet(tmp_path / "export")
        expected = store.dataset([r.run_id for r in store.runs("main")])
    frame = brd.read_store(tmp_path / "export", "main", npartitions=2)
    assert list(frame.columns) == ["benchmark", "process", "run", "seq", "unit", "value"]
    local = frame.compute()
    for case in ("case_0", "case_1", "case_2"):
        rows = local[local["benchmark"] == case]
        want = [expected.samples(int(i), base=False) for i in expected.indices(benchmark=case)]
        assert np.array_equal(_bits(rows["value"]), _bits(np.concatenate(want)))  # branch order, recorded order
        assert rows["run"].tolist() == [expected.set_labels(int(i))["run"] for i in expected.indices(benchmark=case)
                                        for _ in range(5)]
    _, changes = brd.analyze(frame, order="seq")
    commits = brd.commit_of(tmp_path / "export", "main")
    assert [(c, commits[int(s)]) for c, s in zip(changes["benchmark"], changes["commit"])] == [("case_1", "sha06")]
    # the single-process history of Store.dataset (commit names sort as seq does here) finds the same
    single = br.history(expected, order="commit", by=["benchmark"]).to_pandas()
    columns = ["index", "before", "after", "change", "lower", "upper", "p_value"]
    assert single["commit"].tolist() == ["sha06"]
    assert np.array_equal(single[columns].to_numpy(float), changes[columns].to_numpy(float))
    with pytest.raises(br.InputError, match="no runs of branch 'nope'"):
        brd.read_store(tmp_path / "export", "nope")


def test_a_store_failure_is_one_line_and_exit_2(tmp_path):
    """An SQLite failure (here a trigger refusing the insert) is StoreError: one line naming it, exit 2
    (an input error), never a traceback with exit 1, the gate's code."""
    path = tmp_path / "s.db"
    Store.open(path).close()
    sql(path, "CREATE TRIGGER refuse BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'no more runs'); END")
    done = _run("record", PYPERF, "--commit", "c1", "--branch", "main", "--store", path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("benchreport: error: ") and "no more runs" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
