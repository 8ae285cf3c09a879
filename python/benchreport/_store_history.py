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
the series is back nearer the old level than the new one. The work is C++ (store/alert_states.hpp,
bound in python/bindings/register_history.cpp); this is its skin.
"""
from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional, Tuple

from . import _core
from ._core import Alert, StoreHistoryResult
from .store import Store

__all__ = ["Alert", "StoreHistoryResult", "store_history", "acknowledge", "STATES", "commit_summaries",
           "analyze_series"]

#: The alert states, in the order a change point can pass through them.
STATES = ("new", "confirmed", "acknowledged", "resolved")


def commit_summaries(dataset: Any, threads: int) -> Tuple[List[str], List[Tuple[Dict[str, str], Any]]]:
    """The case columns, and (case labels in column order, series) of every case, of a native
    Dataset holding the runs of one commit (as :meth:`Store.dataset` labels them), summarised as one
    commit: build_history's own per-commit summary, so a value is the full run's to the bit.
    benchreport.dask.store_history summarises each commit of a Parquet export with it."""
    history = _core.analyze_history(dataset, order="commit", threads=threads).history
    return list(history.by), [(dict(zip(history.by, s.key)), s) for s in history.series]


def analyze_series(history: Any, *, min_magnitude: float = 0.01, confidence: float = 0.95, threshold: float = 0.05,
                   method: str = "steps", max_p_value: float = 0.02, permutations: int = 199, seed: int = 0,
                   screen_p_value: float = 5e-4, threads: int = 0) -> Any:
    """The change-point analysis of an assembled ``_core.History`` with :func:`store_history`'s
    options (benchreport.dask.store_history runs it on each case partition)."""
    return _core.analyze_history(
        history, max_p_value=float(max_p_value), permutations=int(permutations), seed=int(seed),
        min_magnitude=float(min_magnitude), confidence=float(confidence), threshold=float(threshold),
        threads=int(threads), screen_p_value=float(screen_p_value), method=str(method))


@functools.wraps(_core.store_history, assigned=("__doc__",))
def store_history(store: Store, branch: str = "main", **options: Any) -> StoreHistoryResult:
    return _core.store_history(store._native, branch, **options)


def acknowledge(store: Store, case: str, commit: str, note: str, branch: Optional[str] = None) -> Tuple[str, str]:
    """Marks the change point of ``case`` at ``commit`` (a full sha or a unique prefix) acknowledged,
    with ``note``; returns (case key, commit sha). A history must have found it first."""
    key, sha = store._native.acknowledge(case, commit, note, branch)
    return key, sha
