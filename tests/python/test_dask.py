"""benchreport.dask (issue 15): per-case summaries and change points over a Dask DataFrame
partitioned by case equal the single-process path (same numbers, change points and order),
on the default scheduler and on a two-process LocalCluster."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")

import benchreport as br  # noqa: E402
import benchreport.dask as brd  # noqa: E402

# asan_slow: under scripts/sanitize.sh every LocalCluster worker process would carry the ASan runtime.
pytestmark = pytest.mark.asan_slow

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from history_sim import write_parquet_history  # noqa: E402

CASES, COMMITS, PROCESSES, SAMPLES = 5, 36, 2, 12


@pytest.fixture(scope="module")
def history_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("dask-history")
    write_parquet_history(str(root), CASES, COMMITS, PROCESSES, SAMPLES, seed=7)
    return root


@pytest.fixture(scope="module")
def single(history_dir):
    """The single-process path on the whole table: (summaries by case and commit, per set, change points)."""
    dataset = br.read_arrow(pq.read_table(history_dir))
    return (dataset.summarize(by=["case", "commit"]), dataset.summarize(),
            br.history(dataset, order="commit", seed=3).to_pandas())


@pytest.fixture(scope="module")
def cluster_client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def dask_results(history_dir):
    frame = brd.read_parquet(history_dir)
    assert frame.npartitions == CASES  # one partition per case file
    return brd.compute(brd.summaries(frame, by=["case", "commit"], threads=1), brd.summaries(frame, threads=1),
                       brd.change_points(frame, seed=3))


def analyzed(history_dir):
    """The one-pass path: (summaries by case and commit, change points)."""
    return brd.analyze(brd.read_parquet(history_dir), by=["case", "commit"], seed=3)


def assert_identical(got, expected):
    for g, e in zip(got, expected):
        pd.testing.assert_frame_equal(g, e, check_exact=True)


def test_single_process_path_finds_the_planted_shifts(single):
    by_commit, per_set, changes = single
    assert len(by_commit) == CASES * COMMITS and len(per_set) == CASES * COMMITS * PROCESSES
    assert set(changes["case"]) == {f"case{i:04d}" for i in range(CASES)}  # every case has a planted shift


def test_default_scheduler_equals_single_process(history_dir, single):
    with dask.config.set(scheduler="threads"):  # even after a test below made a Client the default
        assert_identical(dask_results(history_dir), single)
        assert_identical(analyzed(history_dir), (single[0], single[2]))


def test_local_cluster_equals_single_process(history_dir, single, cluster_client):
    assert_identical(dask_results(history_dir), single)


def test_analyze_on_local_cluster_equals_single_process(history_dir, single, cluster_client):
    assert_identical(analyzed(history_dir), (single[0], single[2]))


def _without(dropped):
    """Empties the partition of one case (a filter Dask cannot push down into the Parquet read)."""
    def run(part):
        return part.iloc[:0] if (part["case"] == dropped).any() else part
    return run


def test_an_emptied_partition_gives_no_rows(history_dir):
    dropped = "case0001"
    frame = brd.read_parquet(history_dir)
    frame = frame.map_partitions(_without(dropped), meta=frame._meta)
    dataset = br.read_arrow(pq.read_table(history_dir, filters=[("case", "!=", dropped)]))
    expected = (dataset.summarize(by=["case", "commit"]), br.history(dataset, order="commit", seed=3).to_pandas())
    with dask.config.set(scheduler="threads"):
        assert_identical(brd.analyze(frame, by=["case", "commit"], seed=3), expected)
        assert_identical(brd.compute(brd.summaries(frame, by=["case", "commit"]), brd.change_points(frame, seed=3)),
                         expected)


def test_repeated_runs_are_identical(history_dir):
    assert_identical(dask_results(history_dir), dask_results(history_dir))


def test_case_split_across_partitions_is_refused(history_dir):
    frame = dd.from_pandas(pq.read_table(history_dir).to_pandas(), npartitions=CASES + 2, sort=False)
    with pytest.raises(br.InputError, match="split across partitions"):
        brd.change_points(frame)
    with pytest.raises(br.InputError, match="split across partitions"):
        brd.summaries(frame, by=["case", "commit"])
    with pytest.raises(br.InputError, match="split across partitions"):
        brd.analyze(frame, by=["case", "commit"])


def test_summaries_by_must_hold_the_case_columns(history_dir):
    with pytest.raises(br.InputError, match="case columns"):
        brd.summaries(brd.read_parquet(history_dir), by=["commit"])


# --- store_history: a store's Parquet export, summarised per commit, shuffled as summaries (issue 34) ---
from store_sim import record_commits, sha  # noqa: E402
from test_store_history import _random_run  # noqa: E402

from benchreport._store_history import store_history as cached_history  # noqa: E402
from benchreport.store import Store  # noqa: E402

STORE_STEPS = {0: [(20, 1.2)], 3: [(12, 0.85), (30, 1.25)], 6: [(25, 1.1)]}


@pytest.fixture(scope="module")
def exported_store(tmp_path_factory):
    """A seeded store (8 cases × 40 commits, planted steps, commit 17 recorded twice so its processes
    are pooled, a side branch) and its Parquet export."""
    root = tmp_path_factory.mktemp("dask-store")
    with Store.open(root / "s.db") as store:
        record_commits(store, range(40), seed=5, cases=8, processes=2, samples=6, steps=STORE_STEPS)
        record_commits(store, range(17, 18), seed=6, cases=8, processes=2, samples=6, steps=STORE_STEPS)
        record_commits(store, range(3), seed=7, cases=8, branch="side")
        store.export_parquet(root / "export")
    return root


def _cached(root, **options):
    with Store.open(root / "s.db") as store:
        return cached_history(store, "main", **options).to_pandas()


def test_store_history_equals_history_store_on_the_same_runs(exported_store):
    expected = _cached(exported_store, seed=4)
    assert len(expected) >= 4 and set(expected["name"]) >= {"case00000", "case00003", "case00006"}
    with dask.config.set(scheduler="threads"):
        for npartitions in (1, 3):  # one case partition, and cases spread over three
            got = brd.store_history(exported_store / "export", "main", npartitions=npartitions, seed=4)
            pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_store_history_on_a_local_cluster(exported_store, cluster_client):
    got = brd.store_history(exported_store / "export", "main", npartitions=2, max_p_value=0.01)
    pd.testing.assert_frame_equal(got, _cached(exported_store, max_p_value=0.01), check_exact=True)


def test_store_history_of_mixed_runs_equals_history_store(tmp_path):
    """Runs of varied shape (labels some runs lack, sets without a process, several units, weights),
    a few commits recorded twice: the same change points as history --store."""
    rng = np.random.default_rng(3401)
    with Store.open(tmp_path / "s.db") as store:
        for run in range(40):
            commit = run - 1 if run % 13 == 5 else run
            store.record(_random_run(rng, run), commit=sha(commit), branch="main",
                         time=f"2026-01-01T00:{run:02d}:00Z")
        expected = cached_history(store, "main", max_p_value=0.2, min_magnitude=0.0).to_pandas()
        store.export_parquet(tmp_path / "export")
    with dask.config.set(scheduler="threads"):
        got = brd.store_history(tmp_path / "export", "main", npartitions=2, max_p_value=0.2, min_magnitude=0.0)
    assert len(expected) > 0
    pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_store_history_bad_input_is_a_clear_error(exported_store):
    with pytest.raises(br.InputError, match="no runs of branch 'nope'"):
        brd.store_history(exported_store / "export", "nope")
    with pytest.raises(TypeError, match="bogus"):
        brd.store_history(exported_store / "export", "main", bogus=1)
