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
#: Each case's stored runs in a Dataset of a store's runs (python/bindings/register_launch_noise.cpp).
stored_runs = _core.compare.stored_runs
#: :func:`estimate` for every case name of a dict of stored runs.
estimate_all = _core.compare.estimate_launch_noise_all


def case_columns(dataset: Dataset, baseline_column: str, by: Optional[Sequence[str]] = None) -> List[str]:
    """The columns naming a comparison's cases: ``by``, else every label except the baseline column and the
    per-process labels (the default of :func:`benchreport.compare`)."""
    return _core.case_labels(list(dataset.columns), [baseline_column], list(by or []))


def from_store(store: Any, branch: str, by: Sequence[str], *, min_runs: int = MIN_RUNS,
               max_runs: int = MAX_RUNS) -> Dict[str, LaunchNoise]:
    """Launch noise of every case the store holds on ``branch`` (a :class:`benchreport.store.Store`)."""
    recent = _core.compare.launch_noise_window([r.run_id for r in store.runs(branch)], max_runs=max_runs)
    if not recent:
        return {}
    return _core.compare.estimate_stored_launch_noise(store.dataset(recent), by, recent, min_runs=min_runs,
                                                      max_runs=max_runs, branch=branch)


def compare_with_store(dataset: Any, store: Union[str, Any], branch: str = "main", baseline: Any = None,
                       by: Optional[Sequence[str]] = None, *, min_runs: int = MIN_RUNS, max_runs: int = MAX_RUNS,
                       **options: Any) -> Any:
    """:func:`benchreport.compare` with each case's launch noise learned from ``branch``'s runs in ``store``
    (a path or an open :class:`benchreport.store.Store`); cases with fewer than ``min_runs`` runs in the
    current segment fall back to the comparison without a store, and their reason says so."""
    from ._dataset import load
    from ._presets import compare
    from .store import Store

    if baseline is not None and not isinstance(baseline, Mapping):
        dataset, baseline = load(base=dataset, head=baseline), None
    if isinstance(dataset, (str, bytes)) or not hasattr(dataset, "columns"):
        dataset = load(dataset)
    baseline_labels = baseline if baseline is not None else {"revision": "base"}
    if len(baseline_labels) != 1:  # compare says why, before the store is opened
        return compare(dataset, baseline, by, **options)
    columns = case_columns(dataset, str(next(iter(baseline_labels))), by)
    if isinstance(store, Store):
        noise = from_store(store, branch, columns, min_runs=min_runs, max_runs=max_runs)
    else:
        with Store.open(store, create=False) as opened:
            noise = from_store(opened, branch, columns, min_runs=min_runs, max_runs=max_runs)
    # Cases the store does not hold still say so.
    return compare(dataset, baseline, by, launch_noise=noise, **options)
