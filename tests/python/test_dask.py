"""benchreport.dask (issue 15): per-case summaries and change points over a Dask DataFrame
partitioned by case equal the single-process path (same numbers, change points and order),
on the default scheduler and on a two-process LocalCluster."""
from __future__ import annotations

import sys
from pathlib import Path

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
