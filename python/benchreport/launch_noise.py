"""Launch noise learned from a branch's stored runs, for base/head comparisons.

A *launch* is one process of one benchmark run. The spread of a case's log process medians over
the recent runs of ``main`` (each segment between change points around its own mean) is the
variance of one launch, which a single base/head process pair cannot show. Where stored runs have two or more
processes (one CI job on one host), the spread of the processes around their run's mean is the *unshared* part
(``LaunchNoise.unshared_variance``): all that a paired base/head difference on one host sees, which paired
comparisons use. :func:`compare_with_store` passes it to :func:`benchreport.compare`
(docs/statistics-comparison.md, "Launch noise from the store").
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._dataset import Dataset

LaunchNoise = _core.compare.LaunchNoise
#: Launch noise of one case from its runs (python/bindings/register_launch_noise.cpp).
estimate = _core.compare.estimate_launch_noise

#: Fewest stored runs of a case whose launch noise is used; with fewer the case is
#: compared as without a store, and its reason says so.
MIN_RUNS: int = _core.compare.LAUNCH_NOISE_MIN_RUNS
#: The most recent stored runs used (cut at their change points).
MAX_RUNS: int = _core.compare.LAUNCH_NOISE_MAX_RUNS

#: Per case name: the stored runs in branch order, each (commit, medians of its processes).
StoredRuns = Dict[str, List[Tuple[str, List[float]]]]


def estimate_all(runs: Mapping[str, Sequence[Tuple[str, Sequence[float]]]], **options: Any) -> Dict[str, LaunchNoise]:
    """:func:`estimate` for every case name of ``runs``."""
    return {name: estimate(case_runs, **options) for name, case_runs in runs.items()}


def case_columns(dataset: Dataset, baseline_column: str, by: Optional[Sequence[str]] = None) -> List[str]:
    """The columns naming a comparison's cases: ``by``, else every label except the baseline column and the
    per-process labels (the default of :func:`benchreport.compare`)."""
    if by:
        return list(by)
    return [c for c in dataset.columns if c != baseline_column and c not in _core.PROCESS_LABELS]


def stored_runs(history: Dataset, by: Sequence[str], run_order: Sequence[str]) -> StoredRuns:
    """Per case (its ``by`` values joined by " / ", as the comparison names it): the runs of ``history``
    in ``run_order`` (values of its ``run`` label), each with the median of every process (sets sharing a
    ``process`` or ``pair`` label are one process, as in a comparison; other sets one each)."""
    labels = history.labels
    missing = [c for c in [*by, "run", "commit"] if c not in labels]
    if missing:
        return {}
    position = {run: i for i, run in enumerate(run_order)}
    groups: Dict[str, Dict[str, Dict[str, List[np.ndarray]]]] = {}
    commits: Dict[str, str] = {}
    for i in range(len(history)):
        run = labels["run"][i]
        if run not in position:
            continue
        name = " / ".join(labels[c][i] or "" for c in by)
        process = str(next((labels[c][i] for c in (_core.PROCESS_LABEL, "pair") if c in labels and labels[c][i]),
                           f"set{i}"))
        commits[run] = labels["commit"][i] or ""
        groups.setdefault(name, {}).setdefault(run, {}).setdefault(process, []).append(history.samples(i))
    out: StoredRuns = {}
    for name, runs in groups.items():
        ordered = sorted(runs, key=lambda r: position[r])
        out[name] = [(commits[r], [float(np.median(np.concatenate(parts))) for parts in runs[r].values()])
                     for r in ordered]
    return out


def from_store(store: Any, branch: str, by: Sequence[str], *, min_runs: int = MIN_RUNS,
               max_runs: int = MAX_RUNS) -> Dict[str, LaunchNoise]:
    """Launch noise of every case the store holds on ``branch`` (a :class:`benchreport.store.Store`)."""
    runs = store.runs(branch)
    # Only the latest runs can be used; a few more than max_runs leave room for a change point's segment.
    recent = runs[-(4 * max_runs):]
    if not recent:
        return {}
    history = store.dataset([r.run_id for r in recent])
    per_case = stored_runs(history, by, [str(r.run_id) for r in recent])
    return estimate_all(per_case, min_runs=min_runs, max_runs=max_runs, branch=branch)


def compare_with_store(dataset: Any, store: Union[str, Any], branch: str = "main", baseline: Any = None,
                       by: Optional[Sequence[str]] = None, *, min_runs: int = MIN_RUNS, max_runs: int = MAX_RUNS,
                       **options: Any) -> Any:
    """:func:`benchreport.compare` with each case's launch noise learned from ``branch``'s runs in ``store``
    (a path or an open :class:`benchreport.store.Store`); cases with fewer than ``min_runs`` runs in the
    current segment fall back to the comparison without a store, and their reason says so."""
    from ._presets import _split_baseline, compare, load
    from .store import Store

    if baseline is not None and not isinstance(baseline, Mapping):
        dataset, baseline = load(base=dataset, head=baseline), None
    if isinstance(dataset, (str, bytes)) or not hasattr(dataset, "columns"):
        dataset = load(dataset)
    column, _ = _split_baseline(baseline if baseline is not None else {"revision": "base"})
    columns = case_columns(dataset, column, by)
    if isinstance(store, Store):
        noise = from_store(store, branch, columns, min_runs=min_runs, max_runs=max_runs)
    else:
        with Store.open(store, create=False) as opened:
            noise = from_store(opened, branch, columns, min_runs=min_runs, max_runs=max_runs)
    # Cases the store does not hold still say so.
    return compare(dataset, baseline, by, launch_noise=noise, **options)
