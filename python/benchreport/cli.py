"""The benchreport command line: a CI step or a terminal in front of the core.

Exit codes: 0 report produced; 1 gate tripped (only with ``--fail-on``);
2 usage or input error (one line naming the file and problem; a traceback
only with ``--debug``), or out of memory (``benchreport: error: out of memory
...``, never an abort or a crash).

Every message that shows input text (file names, benchmark names, labels,
units, warnings) goes through :func:`terminal_safe`, the one rule the text
renderer applies too, so no escape sequence or bidi control from an input
reaches the terminal.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import _core, _limits
from ._cli_top import COMMAND_HELP, top_parser
from ._core import InputError
from ._dataset import Dataset, expand_paths, label_sides, natural_key  # noqa: F401  (natural_key: part of the CLI module API)
from ._output import Output, write_outputs
from ._version import __version__  # noqa: F401  (part of the CLI module API)

FORMATS = _core.FORMATS
EXTENSIONS = {"markdown": "md", "html": "html", "text": "txt", "csv": "csv", "json": "json"}
EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2
GITHUB_COMMENT_BUDGET = _core.DEFAULT_MARKDOWN_BUDGET
#: A progress bar appears (on a TTY only, never with --quiet) from this many inputs on,
PROGRESS_MIN_INPUTS = 8
#: or when the inputs hold this many bytes in all (a few large files);
PROGRESS_MIN_BYTES = 64 << 20
#: a status line says the comparison is running from this many sample sets on.
PROGRESS_MIN_SETS = 200
STDIN_NAME = "<stdin>"
#: stdin is read up to this many bytes (the readers' default ``max_file_size``, 1 GiB).
MAX_STDIN_BYTES = int(_core.DEFAULT_MAX_FILE_SIZE)
OUT_OF_MEMORY = ("out of memory: the inputs need more memory than this process may use "
                 "(ulimit -v, a container limit); give it more, or fewer inputs at once")


def terminal_safe(text: Any) -> str:
    """Input text made safe to print: invalid UTF-8 -> U+FFFD, control characters (ESC, C1, newline,
    tab, DEL) -> a space, bidi controls -> U+FFFD (C++ ``neutralize_text``, as in the text renderer)."""
    return _core.neutralize_text(text if isinstance(text, bytes) else str(text))


class UsageError(Exception):
    """A problem with the command line or its inputs: reported in one line, exit 2."""


# ---------------------------------------------------------------- inputs

@dataclass(frozen=True)
class Source:
    """One input: a path (file or folder) or the bytes read from stdin."""

    name: str
    data: Optional[bytes] = None

    @property
    def is_stdin(self) -> bool:
        return self.data is not None


def expand_inputs(inputs: Sequence[str], stdin: Optional[Any] = None, max_bytes: int = MAX_STDIN_BYTES) -> List[Source]:
    """Files, folders and globs as given (globs in natural order); ``-`` reads stdin once (at most ``max_bytes``)."""
    sources: List[Source] = []
    for item in inputs:
        if item == "-":
            if any(s.is_stdin for s in sources):
                raise UsageError("-: stdin can be given only once")
            sources.append(Source(STDIN_NAME, _read_stream(stdin if stdin is not None else sys.stdin, max_bytes)))
            continue
        try:
            paths = expand_paths([item])
        except InputError:
            paths = []
        if not paths or not os.path.exists(paths[0]):
            raise UsageError(f"{item}: no such file, folder or glob match")
        sources.extend(Source(p) for p in paths)
    if not sources:
        raise UsageError("no input files given")
    return sources


def _read_stream(stream: Any, max_bytes: int = MAX_STDIN_BYTES) -> bytes:
    """The whole stream, refused past ``max_bytes`` (read stops one byte after the limit)."""
    source = stream.buffer if hasattr(stream, "buffer") else stream
    data = source.read(max_bytes + 1)
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(data) > max_bytes:
        raise UsageError(f"{STDIN_NAME}: more than {max_bytes} bytes exceeds the input size limit "
                         f"(the readers' max_file_size; pass a file instead)")
    if not data.strip():
        raise UsageError(f"{STDIN_NAME}: empty input")
    return data


class Progress:
    """A one-line progress bar on ``stream``, drawn only when it is a terminal."""

    def __init__(self, total: int, stream: Optional[TextIO] = None, label: str = "reading", *,
                 size: int = 0, quiet: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.label = label
        large = total >= PROGRESS_MIN_INPUTS or size >= PROGRESS_MIN_BYTES
        self.enabled = large and not quiet and total > 0 and _isatty(self.stream)

    def update(self, done: int, name: str = "") -> None:
        if not self.enabled:
            return
        width = 24
        filled = width * done // self.total
        tail = f" {terminal_safe(name)}" if name else ""
        if len(tail) > 40:
            tail = " …" + tail[-38:]
        self.stream.write(f"\r\x1b[K{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}{tail}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


@contextmanager
def status_line(text: str, enabled: bool, stream: Optional[TextIO] = None) -> Iterator[None]:
    """``text`` on one stderr line while the block runs (a TTY only, when ``enabled``), erased after."""
    stream = stream if stream is not None else sys.stderr
    shown = enabled and _isatty(stream)
    if shown:
        stream.write(f"\r\x1b[K{terminal_safe(text)}")
        stream.flush()
    try:
        yield
    finally:
        if shown:
            stream.write("\r\x1b[K")
            stream.flush()


def _input_bytes(sources: Sequence[Source]) -> int:
    """Bytes of the inputs (files; folders summed over their files; stdin as read)."""
    total = 0
    for source in sources:
        if source.is_stdin:
            total += len(source.data or b"")
            continue
        path = Path(source.name)
        try:
            files = path.rglob("*") if path.is_dir() else [path]
            total += sum(f.stat().st_size for f in files if f.is_file())
        except OSError:
            pass  # reading it reports the problem
    return total


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _read_source(source: Source, fmt: str, limits: Optional[dict] = None) -> Dataset:
    from . import load, read_bytes

    if source.data is not None:  # stdin
        return read_bytes(source.data, source.name, fmt, **(limits or {}))
    return load(source.name, format=fmt, **(limits or {}))


def _source_bytes(source: Source) -> int:
    """Bytes a source decompresses to: stdin as read, files by size (a ``.gz`` by the larger of its
    size and its gzip trailer's length, modulo 2^32 as gzip keeps it), folders summed."""
    if source.is_stdin:
        return len(source.data or b"")
    path = Path(source.name)
    files = path.rglob("*") if path.is_dir() else [path]
    total = 0
    for f in files:
        try:
            if not f.is_file():
                continue
            size = f.stat().st_size
            if f.suffix == ".gz" and size >= 18:
                with open(f, "rb") as fh:
                    fh.seek(-4, os.SEEK_END)
                    size = max(size, int.from_bytes(fh.read(4), "little"))
            total += size
        except OSError:
            pass  # reading it reports the problem
    return total


class InputBudget:
    """The totals of --max-samples and --max-input-bytes over every input of a command: each read
    gets the rest as its reader limits (``max_samples``, ``max_file_size``), and the sum is checked.
    Under a cgroup memory limit, inputs whose estimated need exceeds it are refused before reading."""

    def __init__(self, max_samples: Optional[int] = None, max_bytes: Optional[int] = None,
                 memory: Optional[_limits.MemoryLimit] = None) -> None:
        self.samples = max_samples
        self.bytes = max_bytes
        self.memory = memory
        self.total_samples = self.total_bytes = 0

    def limits(self) -> dict:
        out = {}
        if self.samples is not None:
            out["max_samples"] = max(self.samples - self.total_samples, 0)
        if self.bytes is not None:
            out["max_file_size"] = max(self.bytes - self.total_bytes, 0)
        return out

    def before(self, source: Source) -> None:
        if self.bytes is None and self.memory is None:
            return
        self.total_bytes += _source_bytes(source)
        if self.bytes is not None and self.total_bytes > self.bytes:
            raise UsageError(f"{source.name}: the inputs so far hold {self.total_bytes} bytes, more than "
                             f"--max-input-bytes {self.bytes}")
        if self.memory is not None:
            need = _limits.resident_bytes() + _limits.estimated_need(self.total_bytes)
            if need > self.memory.bytes:
                raise UsageError(f"{source.name}: the inputs so far ({self.total_bytes} bytes after decompression) "
                                 f"need about {need} bytes, more than {_limits.describe(self.memory)}; give the "
                                 f"job more memory, or fewer inputs at once")

    def explain(self, exc: InputError) -> Exception:
        """A reader's limit error that came from these totals names the option, not ReadOptions."""
        text = str(exc)
        if self.samples is not None:
            text = text.replace("(raise ReadOptions::max_samples)",
                                f"(--max-samples {self.samples} in all; {self.total_samples} read before this input)")
        if self.bytes is not None:
            text = text.replace("(raise ReadOptions::max_file_size)", f"(--max-input-bytes {self.bytes} in all)")
            text = text.replace("(raise max_file_size)", f"(--max-input-bytes {self.bytes} in all)")
        return exc if text == str(exc) else InputError(text)

    def after(self, source: Source, dataset: Any) -> None:
        if self.samples is None:
            return
        self.total_samples += len(dataset.values_as_read)
        if self.total_samples > self.samples:
            raise UsageError(f"{source.name}: the inputs so far hold {self.total_samples} samples, more than "
                             f"--max-samples {self.samples}")


def load_sources(sources: Sequence[Source], fmt: str = "auto", progress_stream: Optional[TextIO] = None,
                 quiet: bool = False, budget: Optional[InputBudget] = None, verbose: bool = False) -> list:
    """Read every source (in the order given), with a progress bar on a TTY for many or large inputs
    (none with ``quiet``); one Dataset per source. ``budget`` caps the samples and bytes of all of them.
    ``verbose`` prints the readers' normal notes (aggregate rows kept apart, calibration runs) on stderr."""
    budget = budget or InputBudget()
    stream = progress_stream if progress_stream is not None else sys.stderr
    size = _input_bytes(sources) if not quiet and _isatty(stream) else 0
    progress = Progress(len(sources), stream, size=size, quiet=quiet)
    parts = []
    try:
        for i, source in enumerate(sources):
            progress.update(i, source.name)
            limits = budget.limits()
            budget.before(source)
            try:
                parts.append(_read_source(source, fmt, limits))
            except InputError as exc:
                raise budget.explain(exc) from None
            budget.after(source, parts[-1])
        progress.update(len(sources))
    finally:
        progress.close()
    if verbose:
        for part in parts:
            for note in part.notes:
                print(f"benchreport: note: {terminal_safe(note)}", file=sys.stderr)
    return parts


def _budget(args: argparse.Namespace) -> InputBudget:
    return InputBudget(getattr(args, "max_samples", None), getattr(args, "max_input_bytes", None),
                       getattr(args, "memory_limit", None))


def _user_labels(args: argparse.Namespace) -> dict:
    """--label KEY=VALUE options as a dict (the last one wins for a repeated key)."""
    labels = {}
    for text in getattr(args, "label", None) or []:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--label {text!r}: expected KEY=VALUE, e.g. runner=ubuntu-24")
        labels[key.strip()] = value.strip()
    return labels


def _labelled(dataset: Dataset, args: argparse.Namespace) -> Dataset:
    labels = _user_labels(args)
    return dataset.with_labels(labels) if labels else dataset


def _load(args: argparse.Namespace) -> Dataset:
    parts = load_sources(expand_inputs(args.inputs), args.input_format, quiet=args.quiet, budget=_budget(args),
                         verbose=args.verbose)
    return _labelled(parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:]), args)


def load_sides(base: Sequence[str], head: Sequence[str], column: str, base_value: str, head_value: str,
               fmt: str = "auto", quiet: bool = False, budget: Optional[InputBudget] = None,
               verbose: bool = False) -> Dataset:
    """Label each --base/--head input as a process of its side (``_dataset.label_sides``).

    Inputs pair in the order given (globs in natural order): base-1 with head-1, and so on.
    """
    base_sources, head_sources = expand_inputs(base), expand_inputs(head)
    parts = load_sources([*base_sources, *head_sources], fmt, quiet=quiet, budget=budget, verbose=verbose)
    return label_sides(parts[:len(base_sources)], parts[len(base_sources):], column, base_value, head_value)


def _parse_baseline(text: str) -> dict:
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise UsageError(f"--baseline {text!r}: expected LABEL=VALUE, e.g. revision=base")
    return {key.strip(): value.strip()}


def _split_columns(values: Optional[Sequence[str]]) -> List[str]:
    out: List[str] = []
    for v in values or []:
        out.extend(c.strip() for c in v.split(",") if c.strip())
    return out


def _check_columns(dataset: Any, columns: Sequence[str], option: str) -> None:
    """Name unknown grouping columns here, before a preset fails on them less clearly."""
    known = list(dataset.columns)
    unknown = [c for c in columns if c not in known]
    if unknown:
        have = ", ".join(known) or "no labels"
        hint = (" (for files without side labels: benchreport compare OLD NEW, or --base ... --head ...)"
                if option.startswith("--baseline") else "")
        raise UsageError(f"{option} {','.join(unknown)}: no such label; the inputs have {have}; "
                         f"add one with --label KEY=VALUE{hint}")


def parse_threshold(text: str) -> float:
    """``5%`` or ``0.05`` → 0.05. A bare number of 1 or more is refused: ``--threshold 5`` would mean 500 %."""
    value = str(text).strip()
    try:
        number = float(value[:-1]) / 100.0 if value.endswith("%") else float(value)
    except ValueError:
        raise UsageError(f"--threshold {text!r}: expected a percentage such as 5% or a fraction such as 0.05") from None
    if not value.endswith("%") and number >= 1:
        raise UsageError(f"--threshold {text}: a fraction must be below 1; did you mean {text}%?")
    return _check_fraction(number, "--threshold", upper=10.0)


def _check_fraction(value: float, option: str, upper: float = 1.0) -> float:
    """A fraction in (0, upper): 0.05 means 5 %."""
    if not 0.0 < value < upper:
        raise UsageError(f"{option} {value!r}: expected a fraction between 0 and {upper:g}, e.g. 0.05 for 5%")
    return value


# ---------------------------------------------------------------- output

def render(report: Any, fmt: str, budget: int = GITHUB_COMMENT_BUDGET, color: bool = False) -> str:
    """A report as text in one of ``FORMATS`` (the C++ dispatcher picks the renderer)."""
    return report.render(fmt, markdown_budget=budget, color=color)


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _emit(report: Any, args: argparse.Namespace, extra: Sequence[Output] = ()) -> None:
    """Render everything asked for (--github, and ``extra`` files already rendered, e.g. --bmf-dir),
    check every path, then write them all: -o first, rendered straight into its temporary file, so a
    failure to render it leaves every path untouched."""
    color = args.output is None and args.format == "text" and _isatty(sys.stdout)
    if args.output:  # rendered into the file while it is written: a large report is never held whole
        outputs = [Output(args.output, write_to=functools.partial(
            report.render_to_fd, format=args.format, markdown_budget=args.budget))]
    else:
        text = render(report, args.format, args.budget, color)
        outputs = []
    outputs += list(extra)
    if getattr(args, "github", False):
        outputs += github_outputs(report, args.budget, args.comment_file)
    write_outputs(outputs)
    if not args.output:
        sys.stdout.write(_with_newline(text))
    if getattr(args, "github", False):
        _say_github_written(outputs)


def github_outputs(report: Any, budget: int = GITHUB_COMMENT_BUDGET,
                   comment_file: Optional[str] = None) -> List[Output]:
    """The PR comment body (held to ``budget``, never more than GitHub's 65 536-character comment
    limit; 0 means that limit) and, when $GITHUB_STEP_SUMMARY is set, the same text appended there."""
    limit = min(budget, GITHUB_COMMENT_BUDGET) if budget > 0 else GITHUB_COMMENT_BUDGET
    body = report.to_markdown(budget=limit)
    outputs = [Output(comment_file or "benchreport-comment.md", body)]
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        outputs.append(Output(summary, _with_newline(body), append=True))
    return outputs


def _say_github_written(outputs: Sequence[Output]) -> str:
    """One stderr line naming the comment file (the last replaced output) and the step summary."""
    comment = [o.path for o in outputs if not o.append][-1]
    summary = [o.path for o in outputs if o.append]
    where = f" and appended to {summary[0]}" if summary else ""
    print(terminal_safe(f"benchreport: PR comment body written to {comment}{where}"), file=sys.stderr)
    return comment


def write_github(report: Any, budget: int = GITHUB_COMMENT_BUDGET, comment_file: Optional[str] = None) -> str:
    """Append the Markdown report to $GITHUB_STEP_SUMMARY (when set) and write a PR comment body
    (see :func:`github_outputs`); every path is checked before either is written. Returns the
    comment file's path."""
    outputs = github_outputs(report, budget, comment_file)
    write_outputs(outputs)
    return _say_github_written(outputs)


# ---------------------------------------------------------------- commands

def _with_file_column(sources: Sequence[Source], parts: list) -> Dataset:
    """Several inputs whose sets carry the same labels (base.json and head.json of one suite) get a
    ``file`` label, so that their rows can be told apart; otherwise the inputs are joined as they are."""
    if len(parts) == 1:
        return parts[0]  # one input: nothing to tell apart (the check below is a Python loop over every set)
    seen: set = set()
    clash = False
    for part in parts:
        keys = {tuple(sorted(part.set_labels(i).items())) for i in range(len(part))}
        clash = clash or bool(seen & keys)
        seen |= keys
    if clash:
        parts = [part.with_labels({"file": source.name}) for source, part in zip(sources, parts)]
    return parts[0].concat(*parts[1:])


def cmd_summary(args: argparse.Namespace) -> int:
    from ._presets import summary_report

    sources = expand_inputs(args.inputs)
    ds = _labelled(_with_file_column(sources, load_sources(sources, args.input_format, quiet=args.quiet,
                                                           budget=_budget(args), verbose=args.verbose)), args)
    by = _split_columns(args.by)
    _check_columns(ds, by, "--by")
    _emit(summary_report(ds, by=by or None, k=args.k), args)
    return EXIT_OK


def cmd_history(args: argparse.Namespace) -> int:
    from ._history import ARROW_SUFFIXES, commit_entries, history, label_commits, read_arrow

    if args.store:
        from ._store_history_cli import cmd_history_store
        return cmd_history_store(args)
    if args.fail_on not in (None, "regressed"):
        raise UsageError(f"--fail-on {args.fail_on} reads change point states, which need --store")
    if not args.inputs:
        raise UsageError("history: give input files, or --store PATH")

    sources = expand_inputs(commit_entries(args.inputs) if not args.order else args.inputs)
    arrow = [s for s in sources if not s.is_stdin and s.name.endswith(ARROW_SUFFIXES)]
    parts = [read_arrow(s.name) if s in arrow else load_sources([s], args.input_format, verbose=args.verbose)[0]
             for s in sources]
    if args.order:
        ds = parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:])
    else:
        ds = label_commits(parts, [Path(s.name).name for s in sources])
    ds = _labelled(ds, args)
    by = _split_columns(args.by)
    _check_columns(ds, by + ([args.order] if args.order else []), "--by/--order")
    result = history(ds, order=args.order, by=by or None, max_p_value=args.max_p_value,
                     permutations=args.permutations, seed=args.seed, min_magnitude=parse_threshold(args.min_magnitude),
                     threshold=parse_threshold(args.threshold), screen_p_value=args.screen_p_value,
                     method=args.method.replace("-", "_"))
    _emit(result.report, args)
    if args.fail_on == "regressed" and any(c.regressed_since is not None for c in result.core.changes):
        return EXIT_GATE
    return EXIT_OK


def _positional_sides(args: argparse.Namespace, baseline: dict) -> Dataset:
    """Positional inputs: already labelled with the baseline column, or OLD NEW (base then head), as
    compare.py, benchstat and pyperf compare_to take them."""
    (column, base_value), = baseline.items()
    per_item = [expand_inputs([item]) for item in args.inputs]
    parts = load_sources([s for sources in per_item for s in sources], args.input_format, quiet=args.quiet,
                         budget=_budget(args), verbose=args.verbose)
    if any(column in part.columns for part in parts):
        return parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:])
    if len(per_item) != 2:
        have = sorted({c for part in parts for c in part.columns})
        raise UsageError(f"{len(per_item)} input(s) and none has a '{column}' label (the inputs have "
                         f"{', '.join(have) or 'no labels'}): give two inputs (benchreport compare OLD NEW), "
                         f"the sides as --base OLD... --head NEW..., or an existing label with --baseline LABEL=VALUE")
    n_base = len(per_item[0])
    return label_sides(parts[:n_base], parts[n_base:], column, base_value, args.head_value or "head")


def _compare_inputs(args: argparse.Namespace, baseline: dict) -> Dataset:
    """The dataset to compare: positional inputs as labelled, or --base/--head labelled here."""
    if bool(args.base) != bool(args.head):
        raise UsageError("--base and --head go together: give both, or neither and label the inputs")
    if not args.base:
        if not args.inputs:
            raise UsageError("no input files given (positional inputs, or --base and --head)")
        return _labelled(_positional_sides(args, baseline), args)
    if args.inputs:
        raise UsageError(f"{args.inputs[0]}: give inputs either positionally or with --base/--head, not both")
    (column, base_value), = baseline.items()
    return _labelled(load_sides(args.base, args.head, column, base_value, args.head_value or "head", args.input_format,
                                 quiet=args.quiet, budget=_budget(args), verbose=args.verbose), args)


def cmd_compare(args: argparse.Namespace) -> int:
    from ._presets import compare

    if args.store:  # each case's launch noise from the branch's stored runs
        from .launch_noise import compare_with_store

        compare = functools.partial(compare_with_store, store=args.store, branch=args.branch)

    baseline = _parse_baseline(args.baseline)
    threshold = parse_threshold(args.threshold)
    alpha = _check_fraction(args.alpha, "--alpha")
    confidence = _check_fraction(args.confidence, "--confidence")
    if args.resamples < 1:
        raise UsageError(f"--resamples {args.resamples}: expected a positive count")
    ds = _compare_inputs(args, baseline)
    by = _split_columns(args.by)
    _check_columns(ds, [*baseline, *by], "--baseline/--by")
    with status_line(f"comparing {len(ds)} sample sets ({args.resamples} resamples)…",
                     len(ds) >= PROGRESS_MIN_SETS and not args.quiet):
        result = compare(ds, baseline=baseline, by=by or None, threshold=threshold, alpha=alpha,
                         confidence=confidence, seed=args.seed,
                         resamples=args.resamples, gate=args.fail_on is not None, head_value=args.head_value,
                         check_comparability=not args.no_check,
                         assume_launches_identical=args.assume_launches_identical)
    bmf = []
    if args.bmf_dir:
        bmf = [Output(os.path.join(args.bmf_dir, name), text) for name, text in result.bmf_files()]
        os.makedirs(args.bmf_dir, exist_ok=True)
    _emit(result.report, args, bmf)
    if args.fail_on == "slower":
        slower = _slower_measurements(result)
        if slower:
            shown = ", ".join(terminal_safe(name) for name in slower[:5])
            shown += f" and {len(slower) - 5} more" if len(slower) > 5 else ""
            print(f"benchreport: gate tripped: {len(slower)} case(s) slower: {shown}", file=sys.stderr)
            return EXIT_GATE
    return EXIT_OK


def _slower_measurements(result: Any) -> List[str]:
    """Names of the slower cases, one per measurement: real_time, cpu_time and bytes_per_second of one
    Google Benchmark run are one measurement (its key without ``metric``), named by its first slower metric."""
    names: Dict[tuple, str] = {}
    for case in result.cases:
        if case.verdict == "slower":
            names.setdefault(tuple((k, v) for k, v in case.key.items() if k != "metric"), case.name)
    return list(names.values())


def _scaling_inputs(args: argparse.Namespace, baseline: dict) -> Dataset:
    """Inputs for ``scaling``: as labelled (one side, or both sides labelled), or --base/--head."""
    if bool(args.base) != bool(args.head):
        raise UsageError("--base and --head go together: give both, or neither")
    if args.base:
        if args.inputs:
            raise UsageError(f"{args.inputs[0]}: give inputs either positionally or with --base/--head, not both")
        (column, base_value), = baseline.items()
        return _labelled(load_sides(args.base, args.head, column, base_value, args.head_value or "head",
                                    args.input_format, budget=_budget(args)), args)
    if not args.inputs:
        raise UsageError("no input files given (positional inputs, or --base and --head)")
    return _load(args)


def _parse_size(text: Optional[str]) -> Optional[float]:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--at {text!r}: expected a size such as 1e6") from None
    if not value > 0:
        raise UsageError(f"--at {text}: expected a size > 0")
    return value


def cmd_scaling(args: argparse.Namespace) -> int:
    from ._scaling import scaling

    baseline = _parse_baseline(args.baseline)
    confidence = _check_fraction(args.confidence, "--confidence")
    ds = _scaling_inputs(args, baseline)
    if args.size_label:
        _check_columns(ds, [args.size_label], "--size-label")
    result = scaling(ds, baseline=baseline, head=args.head_value, size_column=args.size_label or "",
                     size_argument=args.size_argument, confidence=confidence,
                     exponent_threshold=args.exponent_threshold, at=_parse_size(args.at))
    _emit(result.report, args)
    return EXIT_OK


def cmd_runners(args: argparse.Namespace) -> int:
    from ._presets import runners_report

    _emit(runners_report(_load(args)), args)
    return EXIT_OK


def cmd_matrix(args: argparse.Namespace) -> int:
    from ._presets import matrix_report

    ds = _load(args)
    options: dict[str, Any] = {}
    for option in ("rows", "cols", "tables"):
        columns = _split_columns(getattr(args, option))
        if columns:
            _check_columns(ds, columns, f"--{option}")
            options[option] = columns
    _emit(matrix_report(ds, stat=args.stat, **options), args)
    return EXIT_OK


def cmd_convert(args: argparse.Namespace) -> int:
    ds = _load(args)
    target = args.to or ("csv" if (args.output or "").endswith(".csv") else "json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = ds.to_csv() if target == "csv" else ds.to_bmf() if target == "bmf" else ds.to_json()
    assert text is not None  # no path: the writers return the text
    for note in caught:  # what CSV cannot carry: said once, plainly, on stderr
        print(f"benchreport: warning: {terminal_safe(note.message)}", file=sys.stderr)
    if args.output:
        write_outputs([Output(args.output, text)])
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    """One line per input: ``ok <name>: ...`` on stdout or ``INVALID <problem>`` on stderr."""
    status = EXIT_OK
    for source in expand_inputs(args.inputs):
        try:
            ds = _read_source(source, args.input_format)
        except (ValueError, OSError) as exc:
            message = _one_line(exc)
            if source.name not in message:
                message = f"{source.name}: {message}"
            print(f"INVALID {terminal_safe(message)}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        n_values = int(ds.offsets[-1]) if len(ds) else 0
        columns = ", ".join(ds.columns) or "-"
        print(terminal_safe(f"ok {source.name}: {len(ds)} sample sets, {n_values} samples, labels: {columns}"))
        for warning in ds.warnings:
            print(f"  warning: {terminal_safe(warning)}")
        for note in ds.notes if args.verbose else []:
            print(f"  note: {terminal_safe(note)}")
    return status


def demo_reports(resamples: int = 10000) -> Iterator[Tuple[str, Any]]:
    """The three presets (comparison, runners, matrix) from the example data shipped in the package."""
    from ._presets import example_reports

    yield from example_reports(resamples=resamples).items()


def cmd_demo(args: argparse.Namespace) -> int:
    out_dir = Path(args.output_dir) if args.output_dir else None
    pieces = []
    if args.resamples < 1:
        raise UsageError(f"--resamples {args.resamples}: expected a positive count")
    for name, report in demo_reports(args.resamples):
        text = _with_newline(render(report, args.format, args.budget, color=False))
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)
            path = out_dir / f"{name}.{EXTENSIONS[args.format]}"
            write_outputs([Output(str(path), text)])
            print(terminal_safe(f"wrote {path}"))
        else:
            pieces.append(text)
    if pieces:
        joined = "\n".join(pieces)
        if args.output:
            write_outputs([Output(args.output, joined)])
        else:
            sys.stdout.write(joined)
    return EXIT_OK


# ---------------------------------------------------------------- parser

def _add_output_options(p: argparse.ArgumentParser, default_format: str = "markdown") -> None:
    p.add_argument("--format", "-f", choices=FORMATS, default=default_format,
                   help=f"output format (default {default_format})")
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.add_argument("--budget", type=int, default=GITHUB_COMMENT_BUDGET,
                   help=f"Markdown size budget in bytes (default {GITHUB_COMMENT_BUDGET}, a GitHub comment; "
                        "0 = unlimited)")


def _add_github_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--github", action="store_true",
                   help="also append the Markdown report to $GITHUB_STEP_SUMMARY (when set) "
                        "and write a PR comment body within the budget")
    p.add_argument("--comment-file", help="where --github writes the comment body (default benchreport-comment.md)")


def _add_input_options(p: argparse.ArgumentParser, required: bool = True) -> None:
    p.add_argument("inputs", nargs="+" if required else "*", help="files, folders, globs, or - for stdin")
    p.add_argument("--input-format", default="auto",
                   help=f"reader name (auto, {', '.join(_core.reader_names())})")
    p.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                   help="set a label on every set read (repeatable), e.g. --label runner=ubuntu-24")
    _add_limit_options(p)
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress on stderr (shown only on a terminal, for many or large inputs)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also print the readers' normal notes on stderr (aggregate rows kept apart, calibration "
                        "runs skipped); warnings are in the report either way")


def _add_limit_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-samples", type=int, default=None, metavar="N",
                   help="refuse inputs holding more than N samples in all (exit 2; default: the readers' "
                        "per-file limit, 2^28)")
    p.add_argument("--max-input-bytes", type=int, default=None, metavar="N",
                   help="refuse inputs of more than N bytes in all, after decompression (exit 2; default: "
                        "the readers' per-file limit, 1 GiB)")


def build_parser() -> argparse.ArgumentParser:
    parser, sub = top_parser()

    p = sub.add_parser("compare", help=COMMAND_HELP["compare"])
    _add_input_options(p, required=False)
    p.add_argument("--base", nargs="+", metavar="INPUT",
                   help="baseline inputs, one process each: labelled with the --baseline value and pair=1, 2, ...")
    p.add_argument("--head", nargs="+", metavar="INPUT",
                   help="head inputs, one process each: labelled with the head value and pair=1, 2, ...")
    p.add_argument("--head-value", help="value of the baseline label on the head side "
                                        "(default: the only other value; 'head' with --base/--head)")
    p.add_argument("--no-check", action="store_true",
                   help="compare even when suite hashes, devices, toolchains or per-case iterations differ")
    _add_output_options(p)
    _add_github_options(p)
    p.add_argument("--baseline", default="revision=base", help="LABEL=VALUE selecting the baseline side")
    p.add_argument("--by", action="append", help="case columns (comma-separated; default: every other label)")
    p.add_argument("--threshold", default="5%",
                   help="notable change: a percentage (5%%) or a fraction below 1 (0.05); default 5%%")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the change intervals and the equivalence test (default 0.95)")
    p.add_argument("--assume-launches-identical", action="store_true",
                   help="with one process per side, judge on within-process noise alone (assumes every launch "
                        "runs at the same speed; by default such cases are inconclusive)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--resamples", type=int, default=10000, help="bootstrap resamples (default 10000)")
    p.add_argument("--fail-on", choices=["slower"], help="exit 1 when a case is slower (a CI gate)")
    p.add_argument("--bmf-dir", help="also write Bencher Metric Format files there: bencher-<platform>.json (head), "
                                     "bencher-base-<platform>.json")
    p.add_argument("--store", metavar="PATH",
                   help="results store: each case's launch noise from --branch's recent runs (a real interval with "
                        "one process per side; cases with fewer than 10 runs fall back)")
    p.add_argument("--branch", default="main", help="branch of the store whose runs give the launch noise (main)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("summary", help=COMMAND_HELP["summary"])
    _add_input_options(p)
    _add_output_options(p)
    _add_github_options(p)
    p.add_argument("--by", action="append", help="pool sets by these label columns (comma-separated)")
    p.add_argument("-k", type=int, default=5, help="drift window: first and last k samples (default 5)")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("scaling", help=COMMAND_HELP["scaling"])
    _add_input_options(p, required=False)
    p.add_argument("--base", nargs="+", metavar="INPUT", help="baseline inputs, one process each")
    p.add_argument("--head", nargs="+", metavar="INPUT", help="head inputs, one process each")
    p.add_argument("--head-value", help="value of the baseline label on the head side (default: the only other value)")
    p.add_argument("--baseline", default="revision=base", help="LABEL=VALUE selecting the baseline side")
    p.add_argument("--size-label", help="label holding the size (default: from names such as BM_x/1024 or "
                                        "test_x[1024], else the only all-numeric label)")
    p.add_argument("--size-argument", type=int, default=0,
                   help="which numeric argument of a name is the size (BM_x/8/1024: 0 = 8, 1 = 1024; default 0)")
    p.add_argument("--at", help="also extrapolate the base → head change to this size, e.g. 1e6")
    p.add_argument("--exponent-threshold", type=float, default=0.1,
                   help="smallest change of the exponent b that counts as a change of growth (default 0.1)")
    p.add_argument("--confidence", type=float, default=0.95, help="interval confidence (default 0.95)")
    _add_output_options(p)
    _add_github_options(p)
    p.set_defaults(func=cmd_scaling)

    p = sub.add_parser("history", help=COMMAND_HELP["history"])
    _add_input_options(p, required=False)
    _add_output_options(p)
    _add_github_options(p)
    p.add_argument("--order", metavar="LABEL",
                   help="label giving each set's commit or time, sorted (numerically when all are numbers); "
                        "default: each input is one commit, in the order given, named by its file")
    p.add_argument("--by", action="append", help="case columns (comma-separated; default: every other label)")
    p.add_argument("--threshold", default="5%",
                   help="'still regressed' when the latest segment is worse than the first by more (default 5%%)")
    p.add_argument("--min-magnitude", default="1%",
                   help="smallest change point kept, |after/before - 1| of segment medians (default 1%%)")
    p.add_argument("--method", choices=["steps", "e-divisive"], default="steps",
                   help="steps: the steps a person would mark, not the slopes or seasons between them (default); "
                        "e-divisive: E-divisive means with permutation tests, as Otava (the options below)")
    p.add_argument("--max-p-value", type=float, default=0.02,
                   help="e-divisive: permutation test level (default 0.02)")
    p.add_argument("--permutations", type=int, default=199, help="e-divisive: permutations per test (default 199)")
    p.add_argument("--seed", type=int, default=0, help="e-divisive: permutation seed (default 0)")
    p.add_argument("--screen-p-value", type=float, default=5e-4,
                   help="e-divisive: keep a split without permutations when its Welch t-test, times the splits "
                        "its segment allows, is at most this (default 0.0005; 0 = always permute)")
    from . import _store_history_cli  # history --store, ack (docs/statistics-history.md, "Alert states")

    _store_history_cli.add_history_options(p)
    p.add_argument("--fail-on", choices=_store_history_cli.FAIL_ON,
                   help="exit 1 when a case is still regressed (regressed), or, with --store, when a regression "
                        "change point is new or confirmed (open-regression) or confirmed (confirmed-regression)")
    p.set_defaults(func=cmd_history)

    p = sub.add_parser("runners", help=COMMAND_HELP["runners"])
    _add_input_options(p)
    _add_output_options(p)
    _add_github_options(p)
    p.set_defaults(func=cmd_runners)

    p = sub.add_parser("matrix", help=COMMAND_HELP["matrix"])
    _add_input_options(p)
    _add_output_options(p)
    _add_github_options(p)
    p.add_argument("--rows", action="append", help="row label columns (comma-separated; default algorithm)")
    p.add_argument("--cols", action="append", help="column label columns (comma-separated; default engine)")
    p.add_argument("--tables", action="append",
                   help="one full matrix per combination of these labels (default platform,size)")
    p.add_argument("--stat", default="median", help="cell statistic (median, pooled_median, mean, min)")
    p.set_defaults(func=cmd_matrix)

    p = sub.add_parser("convert", help=COMMAND_HELP["convert"])
    _add_input_options(p)
    p.add_argument("--to", choices=["json", "csv", "bmf"],
                   help="target: json, csv or bmf (Bencher Metric Format) (default from --output suffix, else json)")
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("validate", help=COMMAND_HELP["validate"])
    _add_input_options(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("demo", help=COMMAND_HELP["demo"])
    _add_output_options(p, default_format="text")
    p.add_argument("--output-dir", help="write one file per preset into this folder")
    p.add_argument("--resamples", type=int, default=10000, help="bootstrap resamples (default 10000)")
    p.set_defaults(func=cmd_demo)

    from . import _store_cli  # record, store export/import (the results store, docs/store.md)

    _store_cli.add_parsers(sub, _add_input_options)
    _store_history_cli.add_ack_parser(sub)
    return parser


def _one_line(exc: BaseException) -> str:
    """The exception as one line, safe for a terminal: an InputError whole (input text in it may hold
    newlines, which become spaces), anything else its first line."""
    text = str(exc).strip()
    if isinstance(exc, InputError):
        return terminal_safe(text) if text else type(exc).__name__
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    if isinstance(exc, KeyError) and exc.args:
        text = f"no such label or key: {exc.args[0]}"
    return terminal_safe(text.splitlines()[0]) if text else type(exc).__name__


# Integer options and the range the core takes (C++ std::uint64_t seeds, 32-bit counts, byte
# budgets within int64): a value outside is a usage error (exit 2, one line), never a binding's TypeError.
_INTEGER_OPTIONS = {
    "seed": (0, 2**64 - 1, "a seed from 0 to 2^64-1"),
    "budget": (0, 2**63 - 1, "a size in bytes, or 0 for unlimited"),
    "resamples": (0, 2**31 - 1, "a count from 0 to 2^31-1"),
    "permutations": (0, 2**31 - 1, "a count from 0 to 2^31-1"),
    "k": (0, 2**31 - 1, "a count from 0 to 2^31-1"),
    "size_argument": (0, 2**31 - 1, "an argument index from 0 to 2^31-1"),
    "max_samples": (1, 2**63 - 1, "a count of samples from 1 to 2^63-1"),
    "max_input_bytes": (1, 2**63 - 1, "a size in bytes from 1 to 2^63-1"),
}


def _check_integer_options(args: argparse.Namespace) -> None:
    for name, (low, high, expected) in _INTEGER_OPTIONS.items():
        value = getattr(args, name, None)
        if isinstance(value, int) and not low <= value <= high:
            option = "-k" if name == "k" else "--" + name.replace("_", "-")
            raise UsageError(f"{option} {value}: expected {expected}")


class Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt for SIGINT so a half-written temporary output file
    is removed on the way out (``_output.write_atomic``); the exit code is 143 (128 + 15)."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


@contextlib.contextmanager
def _command_guards(args: argparse.Namespace) -> Iterator[None]:
    """While a command runs: SIGTERM raises Terminated (when it has its default action, in the main
    thread) and a cgroup memory limit caps the address space; both are put back afterwards."""
    import signal
    import threading

    main_thread = threading.current_thread() is threading.main_thread()
    sigterm = main_thread and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if sigterm:
        signal.signal(signal.SIGTERM, _raise_terminated)
    args.memory_limit = _limits.memory_limit()
    address_space = _limits.address_space_limit()
    if args.memory_limit is not None:
        _limits.cap_address_space(args.memory_limit)
    try:
        yield
    finally:
        if args.memory_limit is not None:
            _limits.restore_address_space_limit(address_space)
        if sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (also for usage errors, --help and --version)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: usage error (2), --help or --version (0)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    try:
        with _command_guards(args):
            _check_integer_options(args)
            return args.func(args)
    except (UsageError, ValueError, OSError, KeyError) as exc:
        if args.debug:
            raise
        print(f"benchreport: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INPUT
    except MemoryError:  # std::bad_alloc from the core arrives as MemoryError too
        if args.debug:
            raise
        limit = getattr(args, "memory_limit", None)
        where = f" (under {_limits.describe(limit)})" if limit is not None else ""
        print(f"benchreport: error: {OUT_OF_MEMORY}{where}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except Terminated:
        return 143
