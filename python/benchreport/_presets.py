"""Report presets: base/head comparison, matrices, runner benchmarks, summaries.

The functions and result classes are the compiled core's (python/bindings/register_presets.cpp,
preset_results.cpp): keywords, defaults, docstrings, rendering and columns live there.
docs/presets.md describes the layouts. What stays here: pickling of results by their call,
``compare(base, head)`` with paths, writing BMF files and the packaged example inputs.

>>> import benchreport as br
>>> ds = br.load([br.example_path("nitro/ios"), br.example_path("nitro/android")])
>>> result = br.compare(ds, baseline={"revision": "base"})
>>> result.to_pandas().head()                                # doctest: +SKIP
>>> print(result.to_markdown())                              # doctest: +SKIP
"""
from __future__ import annotations

import copyreg
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from . import _core
from ._core import (
    SUMMARY_SCHEMA,
    ComparisonCase,
    ComparisonResult,
    MatrixResult,
    RunnersResult,
    SummaryResult,
    canonical_json,
    display_unit,  # noqa: F401  (tests and plot.py read it here)
    fingerprint,
    matrix_report,
    nitro_case_name,
    runners_report,
    sha256_hex,
    summary_report,
)
from ._dataset import Dataset, load
from ._pickling import reduce_remembered, remembers_call
from ._reports import Report

__all__ = [
    "CaseResult",
    "ComparisonCase",
    "ComparisonResult",
    "MatrixResult",
    "RunnersResult",
    "SummaryResult",
    "compare",
    "comparison_report",
    "matrix",
    "matrix_report",
    "runners",
    "runners_report",
    "summary_report",
    "summary",
    "SUMMARY_SCHEMA",
    "example_path",
    "example_reports",
    "nitro_case_name",
    "fingerprint",
    "canonical_json",
    "sha256_hex",
]

_EXAMPLES = Path(__file__).resolve().parent / "examples"

#: The earlier name of :class:`ComparisonCase`, kept for code that uses it.
CaseResult = ComparisonCase

for _result in (ComparisonResult, MatrixResult, RunnersResult, SummaryResult):
    copyreg.pickle(_result, reduce_remembered)

matrix = remembers_call(_core.matrix)
runners = remembers_call(_core.runners)
summary = remembers_call(_core.summary)
_split_baseline = _core.split_baseline  # these two: used by launch_noise, _history and _scaling
_native = _core.native_dataset


#: the ``comparison`` preset as a result; ``compare(base_paths, head_paths)`` reads the two sides first.
compare = remembers_call(_core.compare_dataset)


def comparison_report(dataset: Dataset, baseline: Mapping[str, str] = {"revision": "base"},
                      by: Optional[Sequence[str]] = None, threshold: Optional[float] = None,
                      **options: Any) -> Report:
    """The ``comparison`` preset (the PR performance report) as a Report; options as for :func:`compare`."""
    return compare(dataset, baseline, by, threshold, **options).report


def example_path(name: str = "") -> Path:
    """Path of the example inputs shipped in the package.

    For example ``nitro/ios``, ``runners/runners.json`` or ``zfh/android.log``.
    """
    path = _EXAMPLES / name
    if not path.exists():
        available = sorted(str(p.relative_to(_EXAMPLES)) for p in _EXAMPLES.rglob("*")
                           if p.is_dir() or p.suffix != ".json")
        raise FileNotFoundError(f"no packaged example {name!r}; available: {', '.join(available)}")
    return path


def example_reports(root: Optional[Path] = None, *, resamples: int = 10000) -> dict[str, Report]:
    """The three presets rendered from the example inputs (``root`` defaults to the packaged copy)."""
    base = Path(root) if root is not None else _EXAMPLES
    return {
        "comparison": comparison_report(load([str(base / "nitro" / p) for p in ("ios", "android")]),
                                        resamples=resamples),
        "runners": runners_report(load([str(base / "runners" / "runners.json")])),
        "matrix": matrix_report(load([str(base / "zfh" / p) for p in ("android.log", "ios.log")])),
    }
