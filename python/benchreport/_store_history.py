"""History from a results store, incrementally, with remembered alert states (issue 34).

``benchreport history --store PATH --branch main`` and :func:`store_history`. Reading samples is the
cost of a history, so each (case, run) summary that the series needs (the median of the run's
per-process medians, its process and sample counts, the case's unit and direction) is computed
once, when the run is first seen, and kept in the store's ``case_summaries`` table; a later history
reads only the runs recorded since. The change points are then found on the whole series again
(they depend on every commit), so the result is the one a full re-run gives, byte for byte.

Each change point found is remembered in ``change_points`` with a state (docs/statistics-history.md,
"Alert states"): ``new``; ``confirmed`` once ``confirm_after`` later commits sit on the new level;
``acknowledged`` by :func:`acknowledge` (``benchreport ack``); ``resolved`` when a later segment of
the series is back nearer the old level than the new one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _core
from ._history import HistoryResult
from ._reports import Report
from .store import RunInfo, Store

__all__ = ["Alert", "StoreHistoryResult", "store_history", "acknowledge", "STATES", "commit_summaries",
           "analyze_series"]

#: The alert states, in the order a change point can pass through them.
STATES = ("new", "confirmed", "acknowledged", "resolved")
#: At most this many environment differences are named as a change point's likely cause.
MAX_CAUSES = 4


@dataclass(frozen=True)
class Alert:
    """What the store remembers of one change point."""

    state: str
    note: str = ""
    cause: str = ""


@dataclass
class StoreHistoryResult(HistoryResult):
    """:class:`HistoryResult` of a store's branch, with each change point's :class:`Alert`
    (``alerts[i][k]`` for change point k of series i) and how many runs were summarised now."""

    alerts: List[List[Alert]] = field(default_factory=list)
    summarised_runs: int = 0

    def regressions_in(self, states: Sequence[str]) -> int:
        """Regression change points whose state is one of ``states``."""
        return sum(1 for changes, alerts in zip(self.core.changes, self.alerts)
                   for cp, alert in zip(changes.change_points, alerts) if cp.regression and alert.state in states)


def commit_summaries(dataset: Any, threads: int) -> Tuple[List[str], List[Tuple[Dict[str, str], Any]]]:
    """The case columns, and (case labels in column order, series) of every case, of a native
    Dataset holding the runs of one commit (as :meth:`Store.dataset` labels them), summarised as one
    commit: build_history's own per-commit summary, so a value is the full run's to the bit.
    benchreport.dask.store_history summarises each commit of a Parquet export with it."""
    history = _core.analyze_history(dataset, order="commit", threads=threads).history
    return list(history.by), [(dict(zip(history.by, s.key)), s) for s in history.series]


def _alert_states(analysis: Any, keys: List[str], stored: Dict[Tuple[str, str], Tuple[str, str]],
                  confirm_after: int) -> List[List[str]]:
    """Each change point's state (compare/alert_state.hpp), an acknowledgement held until resolved."""
    commits = analysis.history.commits
    acknowledged = [[stored.get((key, commits[cp.commit]), ("",))[0] == "acknowledged" for cp in changes.change_points]
                    for key, changes in zip(keys, analysis.changes)]
    return _core.alert_states(analysis, confirm_after, acknowledged)


def _cause(store: Store, runs_at: Dict[int, List[int]], before: int, at: int) -> str:
    """The environment differences between the last run of the commit before and the first run at
    the change point, as text ("" when the environments are equal or unknown)."""
    diff = store.environment_diff(runs_at[before][-1], runs_at[at][0])
    if not diff:
        return ""
    parts = [f"{key}: {old if old is not None else '(none)'} \u2192 {new if new is not None else '(none)'}"
             for key, old, new in diff[:MAX_CAUSES]]
    more = f" (+{len(diff) - MAX_CAUSES} more)" if len(diff) > MAX_CAUSES else ""
    return "environment changed: " + "; ".join(parts) + more


def _update_states(store: Store, branch: str, analysis: Any, runs: Sequence[RunInfo],
                   confirm_after: int) -> List[List[Alert]]:
    """Each change point's state, written to ``change_points``: acknowledgements are kept, rows of
    change points no longer found are dropped unless acknowledged."""
    history = analysis.history
    db = store.connection
    stored = {(r[0], r[1]): (r[2], r[3] or "") for r in db.execute(
        "SELECT case_key, commit_sha, state, note FROM change_points WHERE branch = ?", (branch,))}
    runs_at: Dict[int, List[int]] = {}
    commit_index = {c: i for i, c in enumerate(history.commits)}
    for r in runs:
        runs_at.setdefault(commit_index[r.commit_sha], []).append(r.run_id)
    updated = runs[-1].time  # deterministic: the newest run's time, not the clock's
    keys = [_core.store_case_key(history.by, series.key) for series in history.series]
    states = _alert_states(analysis, keys, stored, confirm_after)
    alerts: List[List[Alert]] = []
    found = set()
    writes = []
    for key, series, changes, series_states in zip(keys, history.series, analysis.changes, states):
        row = []
        for cp, state in zip(changes.change_points, series_states):
            sha = history.commits[cp.commit]
            old_state, note = stored.get((key, sha), ("", ""))
            cause = _cause(store, runs_at, series.commits[cp.index - 1], cp.commit) if cp.index > 0 else ""
            row.append(Alert(state, note, cause))
            found.add((key, sha))
            if state != old_state:
                writes.append((branch, key, sha, "regression" if cp.regression else "improvement",
                               float(cp.change), state, note or None, updated))
        alerts.append(row)
    gone = [(branch, k, c) for (k, c), (s, _) in stored.items() if (k, c) not in found and s != "acknowledged"]
    with store._transaction():
        db.executemany("INSERT INTO change_points(branch, case_key, commit_sha, direction, change, state, note,"
                       " updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT(branch, case_key, commit_sha) DO UPDATE SET direction = excluded.direction,"
                       " change = excluded.change, state = excluded.state,"
                       " updated = excluded.updated", writes)
        db.executemany("DELETE FROM change_points WHERE branch = ? AND case_key = ? AND commit_sha = ?", gone)
    return alerts


def analyze_series(history: Any, *, min_magnitude: float = 0.01, confidence: float = 0.95, threshold: float = 0.05,
                   method: str = "steps", max_p_value: float = 0.02, permutations: int = 199, seed: int = 0,
                   screen_p_value: float = 5e-4, threads: int = 0) -> Any:
    """The change-point analysis of an assembled ``_core.History`` with :func:`store_history`'s
    options (benchreport.dask.store_history runs it on each case partition)."""
    return _core.analyze_history(
        history, max_p_value=float(max_p_value), permutations=int(permutations), seed=int(seed),
        min_magnitude=float(min_magnitude), confidence=float(confidence), threshold=float(threshold),
        threads=int(threads), screen_p_value=float(screen_p_value), method=str(method))


def store_history(store: Store, branch: str = "main", *, confirm_after: int = 3, rebuild: bool = False,
                  threads: int = 0, title: str = "History", min_magnitude: float = 0.01, confidence: float = 0.95,
                  threshold: float = 0.05, method: str = "steps", max_p_value: float = 0.02, permutations: int = 199,
                  seed: int = 0, screen_p_value: float = 5e-4) -> StoreHistoryResult:
    """The history of ``branch`` in ``store`` (cases = every label but commit and the per-process
    ones, commits in branch order), summarising only the runs not summarised before
    (``rebuild=True``: every run again), and the change points' alert states, updated in the store.
    The options are :func:`benchreport.history`'s."""
    if confirm_after < 1:
        raise _core.InputError(f"confirm_after is {confirm_after}: it must be at least 1")
    runs = store.runs(branch)
    if not runs:
        raise _core.InputError(f"{store.path}: no runs on branch {branch!r}")
    named = [(r.run_id, r.commit_sha, r.branch) for r in runs]
    summarised = store._native.summarise_new_runs(branch, named, rebuild, threads)
    analysis = analyze_series(
        store._native.cached_history(branch, named, threads),
        max_p_value=max_p_value, permutations=permutations, seed=seed,
        min_magnitude=min_magnitude, confidence=confidence, threshold=threshold, threads=threads,
        screen_p_value=screen_p_value, method=method)
    alerts = _update_states(store, branch, analysis, runs, confirm_after)
    core_alerts = [[(a.state, a.note, a.cause) for a in row] for row in alerts]
    report = Report._from_core(_core.presets_history_report(analysis, title=str(title), alerts=core_alerts))
    return StoreHistoryResult(analysis, report, alerts, summarised)


def acknowledge(store: Store, case: str, commit: str, note: str, branch: Optional[str] = None) -> Tuple[str, str]:
    """Marks the change point of ``case`` at ``commit`` (a full sha or a unique prefix) acknowledged,
    with ``note``; returns (case key, commit sha). A history must have found it first."""
    key, sha = store._native.acknowledge(case, commit, note, branch)
    return key, sha
