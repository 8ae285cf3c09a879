"""Report presets: base/head comparison, matrices, runner benchmarks.

A thin typed skin over ``benchreport._core`` (src/compare/dataset.cpp,
src/compare/matrix.cpp, src/presets/*.cpp). docs/presets.md describes the layouts.

>>> import benchreport as br
>>> ds = br.load([br.example_path("nitro/ios"), br.example_path("nitro/android")])
>>> result = br.compare(ds, baseline={"revision": "base"})
>>> result.to_pandas().head()                                # doctest: +SKIP
>>> print(result.to_markdown())                              # doctest: +SKIP
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from . import _core
from ._dataset import Dataset, PathLike, load
from ._output import Output, write_outputs
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


def _native(dataset: Dataset) -> "_core.Dataset":
    """The C++ Dataset behind a :class:`benchreport.Dataset`."""
    if not isinstance(dataset, Dataset):
        kind = f"{type(dataset).__module__}.{type(dataset).__qualname__}"
        raise TypeError(f"expected a benchreport.Dataset (br.load, Dataset.from_pandas), got {kind}")
    return dataset._ds


def _split_baseline(baseline: Mapping[str, str]) -> tuple[str, str]:
    if len(baseline) != 1:
        raise ValueError(f"baseline must have exactly one label, e.g. {{'revision': 'base'}}; got {dict(baseline)!r}")
    (column, value), = baseline.items()
    return str(column), str(value)


class _RendersReport:
    """Rendering and notebook display of a result through its ``report``."""

    report: Report

    def __reduce__(self) -> Any:
        return reduce_remembered(self)

    def to_markdown(self, **kwargs: Any) -> str:
        return self.report.to_markdown(**kwargs)

    def to_html(self, **kwargs: Any) -> str:
        return self.report.to_html(**kwargs)

    def to_text(self, **kwargs: Any) -> str:
        return self.report.to_text(**kwargs)

    def to_json(self, **kwargs: Any) -> str:
        return self.report.to_json(**kwargs)

    def _repr_html_(self) -> str:
        return self.report.to_html_fragment()

    def _repr_markdown_(self) -> str:
        return self.to_markdown()


@dataclass(frozen=True)
class ComparisonCase:
    """One matched case of :func:`compare` (C++ ``ComparisonCase``): its key (label values of ``by``),
    display name, section, process pairs and its :class:`CaseComparison` (``comparison``; ``stats`` is
    the same object under its earlier name)."""

    key: dict[str, str]
    name: str
    section: str
    pairs: list[str]
    stats: Any  # benchreport.CompareResult

    @property
    def comparison(self) -> Any:
        """The case's :class:`CaseComparison`."""
        return self.stats

    @property
    def change(self) -> float:
        """head p50 / base p50 - 1 over pooled samples."""
        return float(self.stats.change)

    @property
    def verdict(self) -> str:
        return str(self.stats.verdict)

    def __repr__(self) -> str:
        return f"<CaseResult {self.name!r}: {self.change:+.2%} {self.verdict}>"


#: The earlier name of :class:`ComparisonCase`, kept for code that uses it.
CaseResult = ComparisonCase


def display_unit(base_value: float, unit: Any) -> tuple[str, float]:
    """``(symbol, base units per display unit)`` a value given in base units is shown in: times as the
    reports pick them (ns, µs, ms, s, min, h, after rounding), anything else in its own unit."""
    return _core.display_unit(base_value, unit)


def _bmf_suffix(value: str, values: Sequence[str]) -> str:
    """The file-name part of a split value: unsafe characters as ``_``; the empty value is ``empty``
    (``empty_`` etc. when a value ``empty`` exists too)."""
    if value:
        return re.sub(r'[^A-Za-z0-9._-]+', '_', value)
    name = "empty"
    while name in values:
        name += "_"
    return name


@dataclass
class ComparisonResult(_RendersReport):
    """Result of :func:`compare`: matched cases, new/removed cases and the rendered report."""

    by: list[str]
    base_value: str
    head_value: str
    base_commit: str
    head_commit: str
    same_revision: bool
    new_cases: list[dict[str, str]]
    removed_cases: list[dict[str, str]]
    report: Report = field(repr=False)
    _dataset: Optional[Dataset] = field(default=None, repr=False, compare=False)
    _baseline_column: str = field(default="revision", repr=False, compare=False)
    _view: Any = field(default=None, repr=False, compare=False)  # the C++ view, until cases are first read
    _cases: Optional[list] = field(default=None, repr=False, compare=False)
    _columns: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def cases(self) -> list[ComparisonCase]:
        """The matched cases in input order (:class:`ComparisonCase`), made on first access.

        A report of 100 000 cases rendered without reading them (the CLI) never builds their Python objects.
        They are copies: the report's JSON payload is rendered from the same view."""
        if self._cases is None:
            self._cases = [ComparisonCase(key=dict(zip(self.by, c.key)), name=c.name, section=c.section,
                                      pairs=list(c.pairs), stats=c.comparison) for c in self._view.cases]
            self._view = None
        return self._cases

    def to_bmf(self, side: str = "head", path: Optional[PathLike] = None, *, confidence: float = 0.95,
               **labels: str) -> Optional[str]:
        """One side (``"head"`` or ``"base"``) as Bencher Metric Format JSON, one benchmark per case
        (named by the case key), optionally only the sets with the given ``labels``
        (e.g. ``platform="ios"``; that label then leaves the name). See :meth:`Dataset.to_bmf`."""
        if side not in ("head", "base"):
            raise ValueError(f"side must be 'head' or 'base', got {side!r}")
        if self._dataset is None:
            raise ValueError("this ComparisonResult does not carry its dataset (made by br.compare?)")
        value = self.head_value if side == "head" else self.base_value
        ds = self._dataset.select(**{self._baseline_column: value}, **labels)
        if len(ds) == 0:
            raise ValueError(f"no {side} sets with {labels!r}")
        by = [c for c in self.by if c not in labels]
        return ds.to_bmf(path, by=by or None, confidence=confidence)

    def bmf_files(self, *, split: str = "platform", confidence: float = 0.95) -> list[tuple[str, str]]:
        """(file name, BMF text) pairs: ``bencher-<split value>.json`` (head) and
        ``bencher-base-<split value>.json`` (base) per value of the ``split`` label (Nitro's naming),
        or ``bencher.json`` / ``bencher-base.json`` when the sets have no such label (a value ``""`` is
        ``bencher-empty.json``); a side with no
        sets there (all cases new or removed) gets no file."""
        if self._dataset is None:
            raise ValueError("this ComparisonResult does not carry its dataset (made by br.compare?)")
        column = self._dataset.labels.get(split)
        values = sorted({v for v in column if v is not None}) if column else []
        files = []
        for value in values if values else [None]:
            labels = {split: value} if value is not None else {}
            # a value "" is a platform of its own: bencher-empty.json
            suffix = "" if value is None else f"-{_bmf_suffix(value, values)}"
            for side, prefix in (("head", "bencher"), ("base", "bencher-base")):
                side_value = self.head_value if side == "head" else self.base_value
                if len(self._dataset.select(**{self._baseline_column: side_value}, **labels)) == 0:
                    continue
                text = self.to_bmf(side, confidence=confidence, **labels)
                assert text is not None  # no path: to_bmf returns the text
                files.append((f"{prefix}{suffix}.json", text))
        return files

    def write_bmf_dir(self, directory: PathLike, *, split: str = "platform", confidence: float = 0.95) -> list[Path]:
        """Writes :meth:`bmf_files` into ``directory`` (made if missing): every file rendered and
        every path checked first, each file replaced atomically, never through a symbolic link.
        Returns the paths written."""
        files = self.bmf_files(split=split, confidence=confidence)
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        write_outputs([Output(str(out / name), text) for name, text in files])
        return [out / name for name, _ in files]

    def __repr__(self) -> str:
        verdicts: dict[str, int] = {}
        for case in self.cases:
            verdicts[case.verdict] = verdicts.get(case.verdict, 0) + 1
        counts = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        return (f"<ComparisonResult {self.head_value} vs {self.base_value}: {len(self.cases)} cases ({counts}); "
                f"{len(self.new_cases)} new, {len(self.removed_cases)} removed>")

    def columns(self) -> dict[str, Any]:
        """The columnar view: ``{field: numpy array}``, one entry per matched case, with exactly the
        scalar fields of the JSON ``data`` cases (``key`` and ``robust`` flattened, ``section`` from the
        case's section); values in base units (``unit_base``). Built in C++ from the fields the JSON
        rows are built from (src/report/case_fields.hpp)."""
        return dict(self._columns)

    def to_pandas(self) -> Any:
        """One row per case: ``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())


@remembers_call
def compare(dataset: Any, baseline: Any = None, by: Optional[Sequence[str]] = None,
            threshold: Optional[float] = None, *, head_value: Optional[str] = None, alpha: Optional[float] = None,
            confidence: Optional[float] = None, resamples: Optional[int] = None, seed: Optional[int] = None,
            noise_limit: Optional[float] = None, pair_column: Optional[str] = None,
            process_columns: Optional[Sequence[str]] = None, check_comparability: Optional[bool] = None,
            allow_new_and_removed: Optional[bool] = None, threads: Optional[int] = None,
            section_column: Optional[str] = None, section_order: Optional[Sequence[str]] = None,
            section_titles: Optional[Mapping[str, str]] = None, display_names: Optional[Mapping[str, str]] = None,
            drift_limit: Optional[float] = None, drift_k: Optional[int] = None, gate: Optional[bool] = None,
            title: Optional[str] = None, moderate: Optional[bool] = None,
            assume_launches_identical: Optional[bool] = None,
            launch_noise: Optional[Mapping[str, Any]] = None) -> ComparisonResult:
    """Compare head against the baseline side of ``dataset`` per case.

    ``baseline`` picks the base side by one label (``{"revision": "base"}``); the
    head side is the other value of that label (or ``head_value``). Cases are the
    distinct values of ``by`` (default: every label except the baseline and
    per-process labels). Processes pair by the ``pair_column`` label (``pair``). Refuses
    (``InputError``) when suite hashes, devices, OS versions, architectures,
    toolchains, runner settings or per-case iterations differ, unless
    ``check_comparability=False``. ``threshold`` is the relative change that matters (5 %).

    Every keyword is the field of the same name of the C++ ``ComparisonReportOptions`` /
    ``DatasetCompareOptions`` / ``CompareOptions`` (docs/presets.md); None keeps its C++ default
    (alpha 0.05, confidence 0.95, resamples 10 000, seed 0, section_column ``platform``, drift_limit 10 %,
    title "Performance Report").
    ``confidence`` is the level of the intervals (and of the equivalence test); ``moderate``: the
    moderated t across cases (docs/statistics-comparison.md). With one process per side no
    slower/faster/equivalent claim is made unless ``assume_launches_identical`` (every launch assumed
    to run at one speed). ``launch_noise`` maps case names to ``LaunchNoise`` learned from a branch's stored
    runs (:mod:`benchreport.launch_noise`; :func:`benchreport.launch_noise.compare_with_store` builds it).

    ``compare(base, head)`` with two Datasets, paths, folders or globs (one or
    a list each) compares them as the sides, labelled as ``load(base=, head=)``.
    """
    if baseline is None:
        baseline = {"revision": "base"}
    elif not isinstance(baseline, Mapping):
        dataset, baseline = load(base=dataset, head=baseline), {"revision": "base"}
    column, value = _split_baseline(baseline)
    options: dict[str, Any]  # keyword options of mixed types
    options = dict(baseline_column=column, baseline_value=value, by=None if by is None else list(by),
                   threshold=threshold, head_value=head_value, alpha=alpha, confidence=confidence,
                   resamples=resamples, seed=seed, noise_limit=noise_limit, pair_column=pair_column,
                   process_columns=None if process_columns is None else list(process_columns),
                   check_comparability=check_comparability, allow_new_and_removed=allow_new_and_removed,
                   threads=threads, section_column=section_column,
                   section_order=None if section_order is None else list(section_order),
                   section_titles=None if section_titles is None else dict(section_titles),
                   display_names=None if display_names is None else dict(display_names), drift_limit=drift_limit,
                   drift_k=drift_k, gate=gate, title=title, moderate=moderate,
                   assume_launches_identical=assume_launches_identical,
                   launch_noise=None if launch_noise is None else dict(launch_noise))
    view, report, columns = _core.presets_comparison(_native(dataset), **options)
    by_columns = list(view.by)
    return ComparisonResult(
        by=by_columns, base_value=view.base_value, head_value=view.head_value,
        base_commit=view.base_commit, head_commit=view.head_commit, same_revision=view.same_revision,
        new_cases=[dict(zip(by_columns, k)) for k in view.new_cases],
        removed_cases=[dict(zip(by_columns, k)) for k in view.removed_cases], report=Report._from_core(report),
        _dataset=dataset, _baseline_column=column, _view=view, _columns=columns)


def comparison_report(dataset: Dataset, baseline: Mapping[str, str] = {"revision": "base"},
                      by: Optional[Sequence[str]] = None, threshold: Optional[float] = None,
                      **options: Any) -> Report:
    """The ``comparison`` preset (the PR performance report) as a Report; options as for :func:`compare`."""
    return compare(dataset, baseline, by, threshold, **options).report


@dataclass
class MatrixResult(_RendersReport):
    """Rows × columns of one statistic; ``values`` are in the base unit (seconds for times), NaN = no data."""

    row_columns: list[str]
    col_columns: list[str]
    rows: list[str]
    cols: list[str]
    values: Any
    unit: str
    base_unit: str
    higher_is_better: bool
    stat: str
    report: Report = field(repr=False)
    core: Any = field(repr=False, compare=False, default=None)  # the C++ Matrix (best_col)

    _columns: dict = field(default_factory=dict, repr=False)

    def columns(self) -> dict[str, Any]:
        """The long form, ``{field: numpy array}`` with one entry per cell: the row and column labels,
        ``value`` (base unit, NaN = no data), ``unit``, ``sets`` and ``best`` (the fields of the JSON
        ``data["cells"]``)."""
        return dict(self._columns)

    def to_pandas(self) -> Any:
        """One row per cell: ``DataFrame(self.columns())``; :meth:`pivot` gives rows × columns."""
        import pandas as pd

        return pd.DataFrame(self.columns())

    def pivot(self) -> Any:
        """Rows × columns of ``values`` as a DataFrame indexed by the row and column names."""
        import pandas as pd

        return pd.DataFrame(self.values, index=pd.Index(self.rows, name=" / ".join(self.row_columns)),
                            columns=pd.Index(self.cols, name=" / ".join(self.col_columns)))

    def best(self) -> list[Optional[str]]:
        """Best column per row (direction-aware; the first on a tie), None for an empty row."""
        best = (self.core.best_col(r) for r in range(len(self.rows)))
        return [None if c is None else self.cols[c] for c in best]


@remembers_call
def matrix(dataset: Dataset, rows: Sequence[str], cols: Sequence[str], stat: str = "median",
           names: Optional[Mapping[str, str]] = None) -> MatrixResult:
    """Rows × columns of ``stat`` (median of run medians, pooled_median, mean, min) over the whole dataset."""
    native = _native(dataset)
    m = _core.presets_matrix(native, list(rows), list(cols), stat)
    report, columns = _core.presets_matrix_report(native, rows=list(rows), cols=list(cols), tables=[], stat=stat,
                                                  names=dict(names) if names else None, columns=True)
    return MatrixResult(
        row_columns=m.row_columns, col_columns=m.col_columns, rows=m.row_names, cols=m.col_names, values=m.values,
        unit=m.unit, base_unit=m.base_unit, higher_is_better=m.higher_is_better, stat=m.stat,
        report=Report._from_core(report), core=m, _columns=columns)


def matrix_report(dataset: Dataset, rows: Sequence[str] = ("algorithm",), cols: Sequence[str] = ("engine",),
                  tables: Sequence[str] = ("platform", "size"), stat: str = "median",
                  names: Optional[Mapping[str, str]] = None, quick_rows: Optional[Sequence[str]] = None,
                  quick_row_count: int = 4, ratio_baseline: Optional[str] = None, title: str = "Benchmarks") -> Report:
    """The ``matrix`` preset: key take-aways, quick comparison and one full matrix per ``tables`` combination.

    ``names`` maps label values to display names, over those the data brings (a ZFH log names its engines)."""
    report, _ = _core.presets_matrix_report(
        _native(dataset), rows=list(rows), cols=list(cols), tables=list(tables), stat=stat,
        names=dict(names) if names else None, quick_rows=list(quick_rows) if quick_rows else None,
        quick_row_count=int(quick_row_count), ratio_baseline=ratio_baseline or None, title=title)
    return Report._from_core(report)


@dataclass
class RunnersResult(_RendersReport):
    """Result of :func:`runners`: the runners preset's report and its columnar view."""

    report: Report = field(repr=False)
    _columns: dict = field(default_factory=dict, repr=False)

    def columns(self) -> dict[str, Any]:
        """``{field: numpy array}``, one entry per compared set (the fields of the JSON
        ``data["results"]``): runner, suite, metric, backend, service, unit, pinned, then median, min,
        max, cv_population and n in the set's own unit."""
        return dict(self._columns)

    def to_pandas(self) -> Any:
        """One row per compared set: ``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())


def _runners(dataset: Dataset, fingerprint: Optional[str], protocol_key: str, fingerprint_digits: int,
             runner_column: str, title: str, columns: bool) -> Any:
    return _core.presets_runners_report(
        _native(dataset), protocol_key=protocol_key, fingerprint_digits=int(fingerprint_digits),
        runner_column=runner_column, title=title, fingerprint=fingerprint or None, columns=columns)


@remembers_call
def runners(dataset: Dataset, *, fingerprint: Optional[str] = None, protocol_key: str = "protocol",
            fingerprint_digits: int = 12, runner_column: str = "runner",
            title: str = "Runner Benchmarks") -> RunnersResult:
    """The ``runners`` preset as a result: its report (as :func:`runners_report`) and ``columns()``."""
    report, columns = _runners(dataset, fingerprint, protocol_key, fingerprint_digits, runner_column, title, True)
    return RunnersResult(report=Report._from_core(report), _columns=columns)


def runners_report(dataset: Dataset, *, fingerprint: Optional[str] = None, protocol_key: str = "protocol",
                   fingerprint_digits: int = 12, runner_column: str = "runner",
                   title: str = "Runner Benchmarks") -> Report:
    """The ``runners`` preset: parameter fingerprints, pinned/unpinned CPU results, disk I/O, cache backends."""
    report, _ = _runners(dataset, fingerprint, protocol_key, fingerprint_digits, runner_column, title, False)
    return Report._from_core(report)


#: Schema name of the summary preset's ``report.data``.
SUMMARY_SCHEMA: str = _core.SUMMARY_SCHEMA


def summary_report(dataset: Dataset, by: Optional[Sequence[str]] = None, *, k: int = 5,
                   drift_limit: Optional[float] = None, title: str = "Summary", threads: int = 0) -> Report:
    """The ``summary`` preset: one row per sample set, or per group of sets pooled by ``by``.

    Columns: the label values, n, median (p50), MAD / p50, CV (population σ /
    mean), min – max, drift (median of the last ``k`` samples over the first
    ``k`` − 1; |drift| ≥ ``drift_limit`` highlighted) and a sparkline of the
    samples in measurement order. Reader warnings become a warning note;
    ``report.data`` carries every number in base units. Raises
    :class:`benchreport.InputError` when a group mixes dimensions (e.g. times
    with throughputs), which cannot be pooled. Definitions are in
    docs/statistics-summary.md.
    """
    report, _ = _summary(dataset, by, k, drift_limit, title, threads, columns=False)
    return Report._from_core(report)


def _summary(dataset: Dataset, by: Optional[Sequence[str]], k: int, drift_limit: Optional[float], title: str,
             threads: int, columns: bool) -> Any:
    limit: dict[str, Any] = {} if drift_limit is None else {"drift_limit": float(drift_limit)}  # None: C++ default
    return _core.presets_summary_report(_native(dataset), by=list(by) if by else [], k=int(k), title=str(title),
                                        threads=int(threads), columns=columns, **limit)


@dataclass
class SummaryResult(_RendersReport):
    """Result of :func:`summary`: the summary preset's report and its columnar view."""

    report: Report = field(repr=False)
    _columns: dict = field(default_factory=dict, repr=False)

    def columns(self) -> dict[str, Any]:
        """``{field: numpy array}``, one entry per row: the label values (unprefixed, "" where a set has
        none) and the scalar fields of the JSON ``data`` groups (NaN where JSON has null)."""
        return dict(self._columns)

    def to_pandas(self) -> Any:
        """One row per summary row: ``DataFrame(self.columns())``."""
        import pandas as pd

        return pd.DataFrame(self.columns())


@remembers_call
def summary(dataset: Dataset, by: Optional[Sequence[str]] = None, *, k: int = 5, drift_limit: Optional[float] = None,
            title: str = "Summary", threads: int = 0) -> SummaryResult:
    """The ``summary`` preset as a result: its report (as :func:`summary_report`) and ``columns()``."""
    report, columns = _summary(dataset, by, k, drift_limit, title, threads, columns=True)
    return SummaryResult(report=Report._from_core(report), _columns=columns)


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


def _load(paths: Iterable[Path]) -> Dataset:
    return load([str(p) for p in paths])


def example_reports(root: Optional[Path] = None, *, resamples: int = 10000) -> dict[str, Report]:
    """The three presets rendered from the example inputs (``root`` defaults to the packaged copy)."""
    base = Path(root) if root is not None else _EXAMPLES
    nitro = _load([base / "nitro" / "ios", base / "nitro" / "android"])
    runners = _load([base / "runners" / "runners.json"])
    zfh = _load([base / "zfh" / "android.log", base / "zfh" / "ios.log"])
    return {
        "comparison": comparison_report(nitro, resamples=resamples),
        "runners": runners_report(runners),
        "matrix": matrix_report(zfh),
    }


def nitro_case_name(metric_id: str, platform: str, display_name: str = "") -> str:
    """Display name of a Nitro metric id.

    For example ``('nitro-cpp/function/add-numbers', 'ios')`` → ``'C++ addNumbers()'``.
    """
    return _core.nitro_case_name(metric_id, platform, display_name)


def fingerprint(parameters: Any, hex_digits: int = 12) -> str:
    """Parameter fingerprint: first hex digits of SHA-256 of the canonical JSON of ``parameters``.

    A ``str`` is taken as JSON text; any other object is serialised with ``json.dumps`` first.
    """
    import json

    text = parameters if isinstance(parameters, str) else json.dumps(parameters)
    return _core.fingerprint(text, hex_digits)


def canonical_json(parameters: Any) -> str:
    """Canonical JSON text (sorted keys, no whitespace).

    A ``str`` is JSON text; other objects go through ``json.dumps``.
    """
    import json

    text = parameters if isinstance(parameters, str) else json.dumps(parameters)
    return _core.canonical_json(text)


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 (benchreport's own implementation)."""
    return _core.sha256_hex(bytes(data))
