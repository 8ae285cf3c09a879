"""Ctrl-C while a store history summarises new runs (store/summarise_runs.hpp): the batch being
summarised is finished and kept, KeyboardInterrupt is raised, and a later history continues where
it stopped and gives the full result."""
import signal

import pytest
from store_sim import record_commits, sql

from benchreport import _core
from benchreport._store_history import store_history
from benchreport.store import Store


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def test_an_interrupt_keeps_the_finished_batches_and_a_later_history_continues(tmp_path):
    batch = _core.STORE_RUNS_PER_TRANSACTION
    runs = 2 * batch + 5
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        record_commits(store, range(runs), seed=3, cases=2, processes=1, samples=3, steps={0: [(100, 1.3)]})
        previous = signal.signal(signal.SIGALRM, _interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.001)  # arrives while the first batch is summarised
            with pytest.raises(KeyboardInterrupt):
                store_history(store, "main")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    # read with the store closed: one SQLite copy per file and process (docs/store.md)
    cached = sql(path, "SELECT COUNT(DISTINCT run_id) FROM case_summaries")[0][0]
    assert cached % batch == 0 and cached < runs  # whole batches only, and not all of them
    with Store.open(path) as store:
        resumed = store_history(store, "main")
        assert resumed.summarised_runs == runs - cached
        full = store_history(store, "main", rebuild=True)
        assert resumed.to_json() == full.to_json()
