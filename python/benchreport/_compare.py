"""Base → head comparison, rank tests, robust estimators and roll-ups.

A thin typed skin over ``benchreport._core.compare`` (C++). Arrays are passed
to the core without copying (float64, C-contiguous); heavy work runs with the
GIL released. Formulas and defaults: docs/statistics-comparison.md.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import compare as _c
from ._pickling import reduce_remembered, remembers_call

__all__ = [
    "CaseComparison",
    "CompareResult",
    "CaseComparisons",
    "Bounds",
    "MannWhitneyResult",
    "BrunnerMunzelResult",
    "WilcoxonResult",
    "BootstrapInterval",
    "LogTInterval",
    "Rollup",
    "NoiseCalibration",
    "compare_samples",
    "compare_many",
    "mann_whitney_u",
    "brunner_munzel",
    "wilcoxon_signed_rank",
    "hodges_lehmann_shift",
    "shift_bounds",
    "ratio",
    "ratio_bounds",
    "disparity",
    "center",
    "center_bounds",
    "spread",
    "spread_bounds",
    "disparity_bounds",
    "bootstrap_median_ratio_ci",
    "paired_t_interval",
    "welch_t_interval",
    "adjust_pvalues",
    "rollup",
    "calibrate_noise",
]

ArrayLike = Union[Sequence[float], np.ndarray]
Side = Union[ArrayLike, Sequence[ArrayLike]]


#: Result types are the C++ structs, bound with read-only properties.
#: One base → head comparison of a case (C++ ``CaseComparison``, compare/case.hpp).
CaseComparison = _c.CaseComparison
#: The earlier name of :data:`CaseComparison`, kept for code that uses it.
CompareResult = CaseComparison
Bounds = _c.Bounds
MannWhitneyResult = _c.MannWhitneyResult
BrunnerMunzelResult = _c.BrunnerMunzelResult
WilcoxonResult = _c.WilcoxonResult
BootstrapInterval = _c.BootstrapInterval
LogTInterval = _c.LogTInterval
Rollup = _c.Rollup
NoiseCalibration = _c.NoiseCalibration


class CaseComparisons(List[CaseComparison]):
    """The CaseComparisons of :func:`compare_many`, in input order: a list with a columnar view
    (the fields of a JSON case, C++ ``report/case_fields.hpp``) and notebook display."""

    def columns(self) -> Dict[str, np.ndarray]:
        """``{field: numpy array}``, one entry per result: ``name`` and the fields of a JSON case."""
        return dict(_c.case_columns(list(self)))

    def to_pandas(self) -> Any:
        """``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())

    def __reduce__(self) -> Any:
        return reduce_remembered(self)

    def _repr_html_(self) -> str:
        from .notebook import to_html

        return to_html(list(self))

    def _repr_markdown_(self) -> str:
        from .notebook import to_markdown

        return to_markdown(list(self))


def _array(x: ArrayLike) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=np.float64)


def _processes(side: Side, process: Optional[ArrayLike], which: str) -> List[np.ndarray]:
    """Split one side into per-process arrays.

    ``side`` is a 1-D array (optionally with ``process``, an int id per sample)
    or a list of 1-D arrays, one per process. Processes are ordered by id; the
    i-th base process is paired with the i-th head process.
    """
    if process is None:
        if isinstance(side, np.ndarray) and side.ndim == 1:
            return [_array(side)]
        items = list(side)
        if items and all(np.ndim(p) == 1 for p in items):
            return [_array(p) for p in items]
        return [_array(items)]
    values = _array(side)  # type: ignore[arg-type]
    ids = np.asarray(process)
    if ids.shape != values.shape:
        raise ValueError(f"{which}_process must have one id per {which} sample "
                         f"({ids.shape[0] if ids.ndim else 0} ids for {values.shape[0]} samples)")
    order = np.argsort(ids, kind="stable")  # keeps measurement order within a process
    _, starts = np.unique(ids[order], return_index=True)
    return [np.ascontiguousarray(part) for part in np.split(values[order], starts[1:])]


def _options(threshold: float, alpha: float, confidence: float, resamples: int, seed: int, misrate: float,
             direction: str, exact_unit: bool, noise_limit: float) -> Dict[str, Any]:
    return dict(threshold=threshold, alpha=alpha, confidence=confidence, resamples=resamples, seed=seed,
                misrate=misrate, direction=direction, exact_unit=exact_unit, noise_limit=noise_limit)


@remembers_call
def compare_samples(base: Side, head: Side, *, base_process: Optional[ArrayLike] = None,
                    head_process: Optional[ArrayLike] = None, name: str = "", threshold: float = 0.05,
                    alpha: float = 0.05, confidence: float = 0.95, resamples: int = 10000, seed: int = 0,
                    misrate: float = 1e-3, direction: str = "lower", exact_unit: bool = False,
                    noise_limit: float = 0.25, pairing: str = "auto",
                    assume_launches_identical: bool = False) -> CaseComparison:
    """Compare head against base for one case.

    ``base``/``head``: a 1-D array of samples, or a list of 1-D arrays (one per
    process). ``base_process``/``head_process``: alternatively an int process id
    per sample; processes are sorted by id and paired by position. ``direction``
    is ``"lower"`` (times) or ``"higher"`` (rates). With >= 2 processes per side
    the change interval is a t interval on log process medians: paired
    (``pairing="auto"`` with equal process counts, or ``"paired"``) or Welch
    (``"unpaired"``); with one process it covers within-process noise only, and
    the verdict is ``inconclusive`` (``one_launch_per_side``) unless
    ``assume_launches_identical`` (the old behaviour: every launch runs at the
    same speed). Raises
    :class:`benchreport.InputError` (a ValueError) on empty sides, NaN/inf or
    non-positive values, naming the case.
    """
    b = _processes(base, base_process, "base")
    h = _processes(head, head_process, "head")
    opts = _options(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit, noise_limit)
    return _c.compare_case(b, h, name, pairing=pairing, assume_launches_identical=assume_launches_identical, **opts)


@remembers_call
def compare_many(cases: Mapping[str, Tuple[Side, Side]], *, threads: int = 0, threshold: float = 0.05,
                 alpha: float = 0.05, confidence: float = 0.95, resamples: int = 10000, seed: int = 0,
                 misrate: float = 1e-3, direction: str = "lower", exact_unit: bool = False,
                 noise_limit: float = 0.25, pairing: str = "auto",
                 control_fdr: bool = True, moderate: bool = True,
                 assume_launches_identical: bool = False) -> CaseComparisons:
    """Compare many cases ``{name: (base, head)}`` on worker threads.

    Each case's bootstrap stream comes from its name, so results do not depend
    on ``threads``. ``control_fdr``: Benjamini–Hochberg adjust the cases'
    ``p_value`` (``p_adjusted``) and demote slower/faster with an adjusted
    p >= alpha to inconclusive. ``moderate``: the empirical-Bayes moderated t across
    the cases' process-level variances (docs/statistics-comparison.md).
    """
    names = list(cases)
    bases = [_processes(cases[n][0], None, "base") for n in names]
    heads = [_processes(cases[n][1], None, "head") for n in names]
    opts = _options(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit, noise_limit)
    return CaseComparisons(_c.compare_cases(names, bases, heads, threads=threads, pairing=pairing,
                                           control_fdr=control_fdr, moderate=moderate,
                                           assume_launches_identical=assume_launches_identical, **opts))


def mann_whitney_u(x: ArrayLike, y: ArrayLike) -> MannWhitneyResult:
    """Two-sided Mann–Whitney U test, as ``scipy.stats.mannwhitneyu(x, y)`` (method="auto")."""
    return _c.mann_whitney_u(_array(x), _array(y))


def brunner_munzel(x: ArrayLike, y: ArrayLike) -> BrunnerMunzelResult:
    """Two-sided Brunner–Munzel test (t distribution), as ``scipy.stats.brunnermunzel``."""
    return _c.brunner_munzel(_array(x), _array(y))


def wilcoxon_signed_rank(d: ArrayLike) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of differences ``d``, as ``scipy.stats.wilcoxon(d)``."""
    return _c.wilcoxon_signed_rank(_array(d))


def hodges_lehmann_shift(x: ArrayLike, y: ArrayLike) -> float:
    """Median of all pairwise differences ``y_j − x_i``."""
    return _c.hodges_lehmann_shift(_array(x), _array(y))


def shift_bounds(x: ArrayLike, y: ArrayLike, misrate: float = 1e-3) -> Bounds:
    """Distribution-free bounds of the shift (exact Mann–Whitney margins when feasible)."""
    return _c.shift_bounds(_array(x), _array(y), misrate)


def ratio(x: ArrayLike, y: ArrayLike) -> float:
    """``exp(shift(log x, log y))`` for positive data."""
    return _c.ratio(_array(x), _array(y))


def ratio_bounds(x: ArrayLike, y: ArrayLike, misrate: float = 1e-3) -> Bounds:
    """Bounds of :func:`ratio` (exp of the shift bounds of the logs)."""
    return _c.ratio_bounds(_array(x), _array(y), misrate)


def disparity(x: ArrayLike, y: ArrayLike) -> float:
    """Shift over the average Shamos spread: a robust effect size."""
    return _c.disparity(_array(x), _array(y))


def center(x: ArrayLike) -> float:
    """Hodges–Lehmann pseudomedian: median of the Walsh averages."""
    return _c.center(_array(x))


def center_bounds(x: ArrayLike, misrate: float = 1e-3) -> Bounds:
    """Distribution-free bounds of :func:`center` (signed-rank margins)."""
    return _c.center_bounds(_array(x), misrate)


def spread(x: ArrayLike) -> float:
    """Shamos estimator: median of ``|x_i − x_j|`` over pairs (raw scale)."""
    return _c.spread(_array(x))


def spread_bounds(x: ArrayLike, misrate: float = 1e-3, *, seed: int = 0) -> Bounds:
    """Distribution-free bounds of the population Shamos spread.

    A sign test on ``|x_a − x_b|`` over a random disjoint pairing of the
    samples (Fisher–Yates from a Xoshiro256 seeded with ``seed``): exact for
    i.i.d. continuous data; the same seed gives the same bounds everywhere.
    """
    return _c.spread_bounds(_array(x), misrate, seed)


def disparity_bounds(x: ArrayLike, y: ArrayLike, misrate: float = 1e-3, *, seed: int = 0) -> Bounds:
    """Bounds of :func:`disparity`: shift bounds at ``misrate/2`` over the average
    of the two spread bounds at ``misrate/4`` each (Bonferroni; ±inf on a side
    the spread bounds cannot keep away from 0)."""
    return _c.disparity_bounds(_array(x), _array(y), misrate, seed)


def bootstrap_median_ratio_ci(base: Side, head: Side, *, resamples: int = 10000, confidence: float = 0.95,
                              seed: int = 0, method: str = "resampling") -> BootstrapInterval:
    """Bootstrap interval of ``median(head) / median(base)`` (percentile and BCa).

    ``method="resampling"``: sides given as lists of arrays are resampled
    hierarchically (processes, then samples); same seed → identical result on
    every platform. ``method="exact"``: the resampling-free bootstrap
    distribution of each median (flat samples only; ``resamples`` and ``seed``
    are ignored).
    """
    return _c.bootstrap_median_ratio_ci(_processes(base, None, "base"), _processes(head, None, "head"),
                                        resamples=resamples, confidence=confidence, seed=seed, method=method)


def paired_t_interval(base_logs: ArrayLike, head_logs: ArrayLike, confidence: float = 0.95) -> LogTInterval:
    """Paired t interval of mean(head_logs − base_logs), as ``scipy.stats.ttest_rel``."""
    return _c.paired_t_interval(_array(base_logs), _array(head_logs), confidence)


def welch_t_interval(base_logs: ArrayLike, head_logs: ArrayLike, confidence: float = 0.95) -> LogTInterval:
    """Welch t interval of mean(head_logs) − mean(base_logs), as ``scipy.stats.ttest_ind(equal_var=False)``."""
    return _c.welch_t_interval(_array(base_logs), _array(head_logs), confidence)


def adjust_pvalues(p: ArrayLike, method: str = "bh") -> np.ndarray:
    """Adjusted p-values: ``"bh"`` (Benjamini–Hochberg) or ``"holm"``."""
    if method == "bh":
        return np.asarray(_c.adjust_bh(_array(p)))
    if method == "holm":
        return np.asarray(_c.adjust_holm(_array(p)))
    raise ValueError(f'method must be "bh" or "holm", got {method!r}')


def rollup(results: Iterable[CaseComparison], *, threshold: float = 0.05, confidence: float = 0.95,
           resamples: int = 10000, seed: int = 0) -> Rollup:
    """Run-level figures over matched cases: median |Δ|, cases ≥ threshold, largest |Δ|,
    geometric mean of ratios with a t-interval over the cases' log ratios, verdict counts, BH/Holm
    adjustment of the cases' verdict p-values."""
    return _c.rollup(list(results), threshold=threshold, confidence=confidence, resamples=resamples, seed=seed)


def calibrate_noise(aa: Union[Iterable[CaseComparison], Mapping[str, ArrayLike]], *, minimum_threshold: float = 0.05,
                    factor: float = 1.5) -> NoiseCalibration:
    """Noise floor per case and a suggested threshold from same-code (A/A) comparisons.

    ``aa``: A/A :class:`CaseComparison` objects (one per case and run), or a
    mapping ``{case: [change, ...]}``. Suggested threshold =
    max(minimum_threshold, factor × p95 of |change|).
    """
    names: List[str] = []
    changes: List[float] = []
    if isinstance(aa, Mapping):
        for name, values in aa.items():
            for v in np.atleast_1d(np.asarray(values, dtype=np.float64)):
                names.append(str(name))
                changes.append(float(v))
    else:
        for r in aa:
            names.append(r.case)
            changes.append(r.change)
    return _c.calibrate_noise(names, _array(changes), minimum_threshold=minimum_threshold, factor=factor)
