"""History from a results store (python/benchreport/_store_history.py): incremental = full, byte
for byte; the alert states and their transitions; ack; --fail-on on states; the environment named
as a change point's likely cause; bad input."""
import json
import subprocess
import sys

import numpy as np
import pytest
from store_sim import record_commits, sha, sql

import benchreport as br
from benchreport import _core
from benchreport._store_history import acknowledge, store_history
from benchreport.store import Store


def _run(*argv):
    return subprocess.run([sys.executable, "-m", "benchreport", *map(str, argv)], capture_output=True, text=True)


def _independent_json(store, result):
    """The plain history report of the incremental analysis, and br.history's over the stored samples
    (a full build from every run's samples, no cache), both as JSON text."""
    full = br.history(store.dataset([r.run_id for r in store.runs("main")]))
    mine = br.Report._from_core(_core.presets_history_report(result.core, title="History"))
    return mine.to_json(), full.report.to_json()


def _states(result):
    return [[a.state for a in row] for row in result.alerts]


def _table_states(path):
    """The change_points table's states (read with the store closed: one SQLite copy per file and process)."""
    return {(json.loads(k)["name"], c): s for k, c, s in sql(path, "SELECT case_key, commit_sha, state FROM change_points")}


STEPS = {0: [(300, 1.15)], 1: [(500, 0.85), (700, 1.2)], 2: [(900, 1.1)]}


def test_incremental_equals_full_on_a_1000_commit_store(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        record_commits(store, range(1000), seed=34, steps=STEPS, compiler_change=500)
        first = store_history(store)
        assert first.summarised_runs == 1000
        mine, full = _independent_json(store, first)
        assert mine == full
        again = store_history(store)  # nothing new: every summary from the cache
        assert again.summarised_runs == 0
        rebuilt = store_history(store, rebuild=True)
        assert rebuilt.summarised_runs == 1000
        assert again.report.to_json() == first.report.to_json() == rebuilt.report.to_json()
        found = {(case, cp.commit) for case, ch in enumerate(first.core.changes) for cp in ch.change_points}
        assert {(0, 300), (1, 500), (1, 700), (2, 900)} <= found


def test_runs_added_one_at_a_time_equal_a_full_rerun(tmp_path):
    steps = {0: [(30, 1.2)], 1: [(45, 0.8)]}
    with Store.open(tmp_path / "s.db") as store:
        record_commits(store, range(25), seed=7, steps=steps)
        store_history(store)
        for commit in range(25, 60):
            record_commits(store, range(commit, commit + 1), seed=7, steps=steps)
            step = store_history(store)
            assert step.summarised_runs == 1
            mine, full = _independent_json(store, step)
            assert mine == full
            assert step.report.to_json() == store_history(store, rebuild=True).report.to_json()


def test_a_commit_recorded_twice_pools_its_processes_as_a_full_run_does(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        record_commits(store, range(20), seed=1, steps={0: [(10, 1.3)]})
        record_commits(store, range(12, 13), seed=2, steps={0: [(10, 1.3)]})  # a second run of commit 12
        assert len(store.runs("main")) == 21
        result = store_history(store)
        series = result.core.history.series[0]
        # both runs label their processes 0 and 1: build_history pools sets sharing a process label
        # within a commit, so commit 12 has 2 processes of 10 samples, in the cache path too
        assert series.processes[12] == 2 and series.samples[12] == 20 and series.samples[11] == 10
        mine, full = _independent_json(store, result)
        assert mine == full


def test_new_becomes_confirmed_after_n_later_commits_on_the_new_level(tmp_path):
    n = 5
    seen = []
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        record_commits(store, range(30), seed=3, steps={0: [(30, 1.25)]})
    for commit in range(30, 30 + 12):
        with Store.open(path) as store:
            record_commits(store, range(commit, commit + 1), seed=3, steps={0: [(30, 1.25)]})
            result = store_history(store, confirm_after=n)
        cps = result.core.changes[0].change_points
        if not cps:
            continue
        assert len(cps) == 1
        at = cps[0].commit  # a change point seen on its first few commits may still move
        later = commit - at  # commits after the change point, all on the new level
        expected = "confirmed" if later >= n else "new"
        assert _states(result)[0] == [expected]
        # the table holds this change point only: one found before at another commit is dropped
        assert _table_states(path) == {("case00000", sha(at)): expected}
        seen.append(expected)
    assert at == 30 and "new" in seen and seen[-1] == "confirmed"
    assert seen == sorted(seen, key=["new", "confirmed"].index)  # never back from confirmed to new


def test_acknowledge_keeps_its_note_and_quiets_the_gate_until_resolved(tmp_path):
    path = tmp_path / "s.db"
    steps = {0: [(20, 1.25)]}
    with Store.open(path) as store:
        record_commits(store, range(30), seed=5, steps=steps)
    gate = _run("history", "--store", path, "--fail-on", "confirmed-regression", "--format", "json")
    assert gate.returncode == 1, gate.stderr
    assert json.loads(gate.stdout)["data"]["series"][0]["change_points"][0]["state"] == "confirmed"
    ack = _run("ack", "name=case00000", sha(20)[:10], "--note", "new allocator, accepted", "--store", path)
    assert ack.returncode == 0, ack.stderr
    assert sha(20) in ack.stdout
    after = _run("history", "--store", path, "--fail-on", "confirmed-regression", "--format", "json")
    assert after.returncode == 0, after.stderr
    cp = json.loads(after.stdout)["data"]["series"][0]["change_points"][0]
    assert (cp["state"], cp["note"]) == ("acknowledged", "new allocator, accepted")
    text = _run("history", "--store", path, "--format", "text").stdout
    assert "acknowledged: new allocator, accepted" in text
    with Store.open(path) as store:  # more commits on the new level: still acknowledged
        record_commits(store, range(30, 35), seed=5, steps=steps)
        assert _states(store_history(store))[0] == ["acknowledged"]
        # the series returns to the old level: resolved overrides the acknowledgement
        record_commits(store, range(35, 50), seed=5, steps={0: [(20, 1.25), (35, 0.8)]})
        states = _states(store_history(store))[0]
        assert states[0] == "resolved"
    assert _table_states(path)[("case00000", sha(20))] == "resolved"


def test_open_regression_gate_counts_new_and_confirmed_but_not_improvements(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        record_commits(store, range(30), seed=6, steps={0: [(20, 0.8)]})  # an improvement only
    assert _run("history", "--store", path, "--fail-on", "open-regression").returncode == 0
    with Store.open(path) as store:
        record_commits(store, range(30, 34), seed=6, steps={0: [(20, 0.8)], 1: [(31, 1.3)]})
        result = store_history(store)
        assert _states(result)[1] == ["new"]
        assert result.regressions_in(("new", "confirmed")) == 1
    assert _run("history", "--store", path, "--fail-on", "open-regression").returncode == 1
    assert _run("history", "--store", path, "--fail-on", "confirmed-regression").returncode == 0


def test_an_environment_change_at_a_change_point_is_named_as_its_likely_cause(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        record_commits(store, range(40), seed=8, steps={0: [(20, 1.3)], 1: [(10, 1.3)]}, compiler_change=20)
        result = store_history(store)
        alerts = {result.core.history.commits[cp.commit]: a
                  for ch, row in zip(result.core.changes, result.alerts) for cp, a in zip(ch.change_points, row)}
        assert alerts[sha(20)].cause == "environment changed: env.compiler: gcc-13 \u2192 gcc-14"
        assert alerts[sha(10)].cause == ""
        data = result.report.to_dict()["data"]
        assert data["series"][1]["change_points"][0]["cause"] is None
        for fmt in ("markdown", "html", "text", "csv"):
            out = result.report.render(fmt)
            assert "gcc-13" in out and "confirmed" in out, fmt


def test_bad_input_is_a_clear_error(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        with pytest.raises(br.InputError, match="no runs on branch 'main'"):
            store_history(store)
        record_commits(store, range(12), seed=9)
        with pytest.raises(br.InputError, match="confirm_after is 0"):
            store_history(store, confirm_after=0)
        with pytest.raises(br.InputError, match="no change point of case 'case00000' at commit 'ffff'"):
            acknowledge(store, "case00000", "ffff", "x")
    missing = _run("history", "--store", tmp_path / "none.db")
    assert missing.returncode == 2 and "no such store" in missing.stderr
    files = _run("history", path, "--store", path)
    assert files.returncode == 2 and "give no input files" in files.stderr
    no_store = _run("history", tmp_path / "x.json", "--fail-on", "confirmed-regression")
    assert no_store.returncode == 2 and "need --store" in no_store.stderr


def _random_run(rng, run):
    """A run of mixed shape: cases with and without a process label (some processes in two sets, so
    pooled), odd and even sample counts, several units (a case keeps its dimension), a label only
    some runs or cases have, and weights."""
    values, offsets, names, procs, metric, extra, units, weights = [], [0], [], [], [], [], [], []
    for c in range(int(rng.integers(3, 7))):
        unit = ["ns", "us", "ms", "s"][int(rng.integers(0, 4))] if c % 3 else "B"
        for p in range(int(rng.integers(1, 4))):
            for _part in range(1 + int(c == 2 and p == 0)):
                n = int(rng.integers(1, 12))
                values.append(rng.lognormal(float(c), 0.3, n))
                weights.append(rng.integers(1, 5, n).astype(float))
                offsets.append(offsets[-1] + n)
                names.append(f"case{c}")
                procs.append(None if c == 1 else str(p))
                metric.append("time" if c % 3 else "size")
                extra.append("x" if run % 2 and c == 0 else None)
                units.append(unit)
    labels = {"name": names, "process": procs, "metric": metric, "variant": extra}
    return br.Dataset.from_arrays(np.concatenate(values), offsets, labels, unit=units, weights=np.concatenate(weights))


def _reference_rows(store, branch):
    """case_summaries rows the plain way: each run alone through Store.dataset and build_history."""
    rows = []
    for run in store.runs(branch):
        history = _core.analyze_history(store.dataset([run.run_id])._ds, order="commit").history
        for position, s in enumerate(history.series):
            labels = dict(zip(history.by, s.key))
            rows.append((json.dumps(labels, sort_keys=True, separators=(",", ":"), ensure_ascii=False), run.run_id,
                         position, json.dumps(list(labels.items())), s.unit, s.direction, float(s.values[0]),
                         int(s.processes[0]), int(s.samples[0])))
    return sorted(rows)


def test_summaries_equal_a_plain_per_run_build_on_random_runs(tmp_path):
    rng = np.random.default_rng(3434)
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        for run in range(40):
            commit = run - 1 if run % 13 == 5 else run  # a few commits recorded twice: pooled
            store.record(_random_run(rng, run), commit=sha(commit), branch="main",
                         time=f"2026-01-01T00:{run:02d}:00Z")
        result = store_history(store, rebuild=True)
        assert result.summarised_runs == 40
        reference = _reference_rows(store, "main")
        mine, full = _independent_json(store, result)
        assert mine == full
    cached = sorted(sql(path, "SELECT case_key, run_id, position, labels, unit, direction, value, processes,"
                              " samples FROM case_summaries WHERE branch = 'main'"))
    assert len(cached) == len(reference) > 150
    for got, want in zip(cached, reference):  # values bit for bit: float equality, not a tolerance
        assert got == want


def test_a_truncated_samples_blob_is_an_input_error_naming_the_set(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        record_commits(store, range(3), seed=1)
    set_id = sql(path, "SELECT MIN(set_id) FROM sets")[0][0]
    sql(path, "UPDATE sets SET samples = X'0102030405' WHERE set_id = ?", set_id)
    with Store.open(path) as store:
        with pytest.raises(br.InputError, match=f"s.db: set {set_id}: column samples holds 5 bytes"):
            store_history(store, rebuild=True)
