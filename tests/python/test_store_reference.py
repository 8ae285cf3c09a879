"""The C++ store against tests/data/store/reference.db, written by the Python store it replaced
(make_reference.py): the same inputs recorded again give the same rows byte for byte and the same
content hashes, and the old file opens and reads back."""
import sqlite3
import sys
from pathlib import Path

import numpy as np
import pytest

import benchreport as br
from benchreport import store as st
from benchreport.store import Store

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "store"
sys.path.insert(0, str(REFERENCE))
import make_reference  # noqa: E402

# Every column but those holding the absolute paths of the inputs (runs.source, run_files.file).
TABLES = {
    "runs": "run_id, content_hash, commit_sha, branch, time, seq, tool, environment_id, warnings",
    "sets": "set_id, run_id, name, labels, unit, process, samples, iterations, direction, exact, file, metadata",
    "run_files": "run_id, position, format, metadata",
    "environments": "environment_id, hash, json",
}


def _rows(path, table):
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT {TABLES[table]} FROM {table} ORDER BY 1, 2").fetchall()


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    for name in st.CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "again.db"
    with Store.open(path) as store:
        for inputs, commit, branch, time in make_reference.RECORDS:
            store.record(inputs, commit=commit, branch=branch, time=time, environment={"compiler": "gcc-14"})
        store.record(make_reference.weighted(), commit="d00d", branch="main", time="2026-01-05T00:00:00Z")
    return path


@pytest.mark.parametrize("table", sorted(TABLES))
def test_recording_again_writes_the_reference_rows_byte_for_byte(recorded, table):
    expected = _rows(REFERENCE / "reference.db", table)
    assert expected and _rows(recorded, table) == expected


def test_the_reference_store_opens_and_reads_back(tmp_path):
    copy = tmp_path / "reference.db"
    copy.write_bytes((REFERENCE / "reference.db").read_bytes())
    with Store.open(copy, create=False) as store:
        assert store.schema_version == st.SCHEMA_VERSION
        runs = store.runs()
        assert [(r.run_id, r.branch, r.seq) for r in runs] == [(3, "feature", 0), (1, "main", 0), (2, "main", 1),
                                                                 (4, "main", 2)]
        assert store.run(2).time == "2026-01-02T23:00:00Z" and store.run(2).environment["env"] == {
            "compiler": "gcc-14"}
        weighted = store.dataset([4])
    original = make_reference.weighted()
    assert np.array_equal(weighted.values_as_read.view(np.int64), original.values_as_read.view(np.int64))
    assert np.array_equal(weighted.weights, original.weights)
    assert weighted.set_labels(0) == {**original.set_labels(0), "commit": "d00d", "branch": "main", "run": "4"}


def test_reads_and_writes_share_the_one_connection(tmp_path):
    """Every read and write goes through the C++ connection: a write is seen by the next read, a
    failed record leaves nothing, and the file holds exactly what was read once the store is closed."""
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        first = store.record(make_reference.weighted(), commit="c1", branch="main")
        assert [r.run_id for r in store.runs()] == [first.run_id]
        with pytest.raises(br.InputError, match="time 'soon'"):
            store.record(make_reference.weighted(), commit="c2", branch="main", time="soon")
        assert len(store.runs()) == 1 and len(store.dataset([first.run_id])) == 2
        second = store.record(make_reference.weighted(), commit="c2", branch="main")
        assert [r.seq for r in store.runs()] == [0, 1]
    assert [r[0] for r in _rows(path, "runs")] == [first.run_id, second.run_id]
