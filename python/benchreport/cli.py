"""The benchreport command line: a CI step or a terminal in front of the core.

Exit codes: 0 report produced; 1 gate tripped (only with ``--fail-on``); 2 usage or input error (one line
naming the file and problem; a traceback only with ``--debug``), or out of memory (``benchreport: error: out
of memory ...``, never an abort or a crash). Every message that shows input text goes through
:func:`terminal_safe`, the one rule the text renderer applies too. The work below argparse is C++
(``_core.cli``, include/benchreport/cli/); this module holds the parser, the commands' glue and main().
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import _core, _limits
from ._cli_top import COMMAND_HELP, top_parser
from ._core import InputError
from ._dataset import Dataset, label_sides, natural_key  # noqa: F401  (natural_key: part of the CLI module API)
from ._output import Output, write_outputs
from ._version import __version__  # noqa: F401  (part of the CLI module API)

_cli = _core.cli
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
STDIN_NAME = _cli.STDIN_NAME
#: stdin is read up to this many bytes (the readers' default ``max_file_size``, 1 GiB).
MAX_STDIN_BYTES = _cli.MAX_STDIN_BYTES
OUT_OF_MEMORY = ("out of memory: the inputs need more memory than this process may use "
                 "(ulimit -v, a container limit); give it more, or fewer inputs at once")
UsageError = _cli.UsageError
Source = _cli.Source
parse_threshold = _cli.parse_threshold


def terminal_safe(text: Any) -> str:
    """Input text made safe to print: invalid UTF-8 -> U+FFFD, control characters (ESC, C1, newline,
    tab, DEL) -> a space, bidi controls -> U+FFFD (C++ ``neutralize_text``, as in the text renderer)."""
    return _core.neutralize_text(text if isinstance(text, bytes) else str(text))


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _writer(stream: TextIO) -> Any:
    return lambda text: (stream.write(text), stream.flush())


def expand_inputs(inputs: Sequence[str], stdin: Optional[Any] = None, max_bytes: int = MAX_STDIN_BYTES) -> List[Any]:
    """Files, folders and globs as given (globs in natural order); ``-`` reads stdin once (at most ``max_bytes``)."""
    def read(limit: int) -> bytes:
        stream = stdin if stdin is not None else sys.stdin
        data = (stream.buffer if hasattr(stream, "buffer") else stream).read(limit)
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return _cli.expand_inputs(inputs, read, max_bytes)


def Progress(total: int, stream: Optional[TextIO] = None, label: str = "reading", *, size: int = 0,
             quiet: bool = False) -> Any:
    """A one-line progress bar on ``stream`` (default stderr), drawn only when it is a terminal."""
    stream = stream if stream is not None else sys.stderr
    return _cli.Progress(total, _writer(stream), label, size=size, quiet=quiet, terminal=_isatty(stream),
                         min_inputs=PROGRESS_MIN_INPUTS, min_bytes=PROGRESS_MIN_BYTES)


@contextlib.contextmanager
def status_line(text: str, enabled: bool, stream: Optional[TextIO] = None) -> Iterator[None]:
    """``text`` on one stderr line while the block runs (a TTY only, when ``enabled``), erased after."""
    write = _writer(stream if stream is not None else sys.stderr)
    shown = enabled and _isatty(stream if stream is not None else sys.stderr)
    if shown:
        write(_cli.status_text(text))
    try:
        yield
    finally:
        if shown:
            write("\r\x1b[K")


def _read_source(source: Any, fmt: str, limits: Optional[dict] = None) -> Dataset:
    from . import load, read_bytes

    if source.is_stdin:
        return read_bytes(source.data, source.name, fmt, **(limits or {}))
    return load(source.name, format=fmt, **(limits or {}))


def load_sources(sources: Sequence[Any], fmt: str = "auto", progress_stream: Optional[TextIO] = None,
                 quiet: bool = False, budget: Optional[Any] = None, verbose: bool = False) -> list:
    """Read every source in order (``_core.cli.load_sources``), with a progress bar on a TTY for many or
    large inputs; ``budget`` caps the samples and bytes of all; ``verbose`` prints the readers' notes."""
    stream = progress_stream if progress_stream is not None else sys.stderr
    size = _cli.input_bytes(sources) if not quiet and _isatty(stream) else 0
    parts = _cli.load_sources(sources, budget or _cli.InputBudget(), Progress(len(sources), stream, size=size,
                              quiet=quiet), lambda source, limits: _read_source(source, fmt, limits))
    for note in (note for part in parts for note in part.notes) if verbose else ():
        print(f"benchreport: note: {terminal_safe(note)}", file=sys.stderr)
    return parts


def _budget(args: argparse.Namespace) -> Any:
    limit = getattr(args, "memory_limit", None)
    memory = {} if limit is None else {"memory_bytes": limit.bytes, "memory_description": _limits.describe(limit),
                                       "memory_need": lambda n: _limits.resident_bytes() + _limits.estimated_need(n)}
    return _cli.InputBudget(getattr(args, "max_samples", None), getattr(args, "max_input_bytes", None), **memory)


def _labelled(dataset: Dataset, args: argparse.Namespace) -> Dataset:
    labels = _cli.parse_labels(getattr(args, "label", None) or [])
    return dataset.with_labels(labels) if labels else dataset


def _joined(parts: list) -> Dataset:
    return parts[0] if len(parts) == 1 else parts[0].concat(*parts[1:])


def _load(args: argparse.Namespace) -> Dataset:
    return _labelled(_joined(load_sources(expand_inputs(args.inputs), args.input_format, quiet=args.quiet,
                                          budget=_budget(args), verbose=args.verbose)), args)


def load_sides(base: Sequence[str], head: Sequence[str], column: str, base_value: str, head_value: str,
               fmt: str = "auto", quiet: bool = False, budget: Optional[Any] = None, verbose: bool = False) -> Dataset:
    """Label each --base/--head input as a process of its side (``_dataset.label_sides``); inputs pair in
    the order given (globs in natural order): base-1 with head-1, and so on."""
    base_sources, head_sources = expand_inputs(base), expand_inputs(head)
    parts = load_sources([*base_sources, *head_sources], fmt, quiet=quiet, budget=budget, verbose=verbose)
    return label_sides(parts[:len(base_sources)], parts[len(base_sources):], column, base_value, head_value)


def _columns(ds: Dataset, values: Optional[Sequence[str]], option: str, extra: Sequence[str] = ()) -> List[str]:
    columns = _cli.split_columns(values)
    _cli.check_columns(list(ds.columns), [*extra, *columns], option)
    return columns


# ---------------------------------------------------------------- output

def render(report: Any, fmt: str, budget: int = GITHUB_COMMENT_BUDGET, color: bool = False) -> str:
    """A report as text in one of ``FORMATS`` (the C++ dispatcher picks the renderer)."""
    return report.render(fmt, markdown_budget=budget, color=color)


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _emit(report: Any, args: argparse.Namespace, extra: Sequence[Output] = ()) -> None:
    """Render everything asked for, check every path, then write them all: -o first, rendered straight
    into its temporary file, so a failure to render it leaves every path untouched."""
    color = args.output is None and args.format == "text" and _isatty(sys.stdout)
    outputs = [Output(args.output, write_to=functools.partial(report.render_to_fd, format=args.format,
                                                              markdown_budget=args.budget))] if args.output else []
    text = "" if args.output else render(report, args.format, args.budget, color)
    github = getattr(args, "github", False)
    outputs += list(extra) + (github_outputs(report, args.budget, args.comment_file) if github else [])
    write_outputs(outputs)
    sys.stdout.write("" if args.output else _with_newline(text))
    if github:
        _say_github_written(outputs)


def github_outputs(report: Any, budget: int = GITHUB_COMMENT_BUDGET, comment_file: Optional[str] = None) -> list:
    """The PR comment body (held to ``budget``, never more than GitHub's 65 536-character comment
    limit; 0 means that limit) and, when $GITHUB_STEP_SUMMARY is set, the same text appended there."""
    body = report.to_markdown(budget=min(budget, GITHUB_COMMENT_BUDGET) if budget > 0 else GITHUB_COMMENT_BUDGET)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    return [Output(comment_file or "benchreport-comment.md", body),
            *([Output(summary, _with_newline(body), append=True)] if summary else [])]


def _say_github_written(outputs: Sequence[Output]) -> str:
    comment, summary = [o.path for o in outputs if not o.append][-1], [o.path for o in outputs if o.append]
    where = f" and appended to {summary[0]}" if summary else ""
    print(terminal_safe(f"benchreport: PR comment body written to {comment}{where}"), file=sys.stderr)
    return comment


def write_github(report: Any, budget: int = GITHUB_COMMENT_BUDGET, comment_file: Optional[str] = None) -> str:
    """Append the Markdown report to $GITHUB_STEP_SUMMARY (when set) and write a PR comment body (see
    :func:`github_outputs`); every path is checked before either is written. Returns the comment file's path."""
    outputs = github_outputs(report, budget, comment_file)
    write_outputs(outputs)
    return _say_github_written(outputs)


# ---------------------------------------------------------------- commands

def _with_file_column(sources: Sequence[Any], parts: list) -> Dataset:
    """Inputs whose sets carry the same labels (base.json and head.json of one suite) get a ``file``
    label, so that their rows can be told apart; otherwise the inputs are joined as they are."""
    if _cli.needs_file_column(parts):
        parts = [part.with_labels({"file": source.name}) for source, part in zip(sources, parts)]
    return _joined(parts)


def cmd_summary(args: argparse.Namespace) -> int:
    from ._presets import summary_report

    sources = expand_inputs(args.inputs)
    ds = _labelled(_with_file_column(sources, load_sources(sources, args.input_format, quiet=args.quiet,
                                                           budget=_budget(args), verbose=args.verbose)), args)
    by = _columns(ds, args.by, "--by")
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
    parts = [read_arrow(s.name) if not s.is_stdin and s.name.endswith(ARROW_SUFFIXES)
             else load_sources([s], args.input_format, verbose=args.verbose)[0] for s in sources]
    ds = _labelled(_joined(parts) if args.order else label_commits(parts, [Path(s.name).name for s in sources]), args)
    by = _columns(ds, args.by, "--by/--order", [args.order] if args.order else [])
    result = history(ds, order=args.order, by=by or None, max_p_value=args.max_p_value,
                     permutations=args.permutations, seed=args.seed, min_magnitude=parse_threshold(args.min_magnitude),
                     threshold=parse_threshold(args.threshold), screen_p_value=args.screen_p_value,
                     method=args.method.replace("-", "_"))
    _emit(result.report, args)
    regressed = args.fail_on == "regressed" and any(c.regressed_since is not None for c in result.core.changes)
    return EXIT_GATE if regressed else EXIT_OK


def _positional_sides(args: argparse.Namespace, column: str, base_value: str) -> Dataset:
    """Positional inputs: already labelled with the baseline column, or OLD NEW (base then head)."""
    per_item = [expand_inputs([item]) for item in args.inputs]
    parts = load_sources([s for sources in per_item for s in sources], args.input_format, quiet=args.quiet,
                         budget=_budget(args), verbose=args.verbose)
    if any(column in part.columns for part in parts):
        return _joined(parts)
    if len(per_item) != 2:
        have = ", ".join(sorted({c for part in parts for c in part.columns})) or "no labels"
        raise UsageError(f"{len(per_item)} input(s) and none has a '{column}' label (the inputs have {have}): give "
                         f"two inputs (benchreport compare OLD NEW), the sides as --base OLD... --head NEW..., or an "
                         f"existing label with --baseline LABEL=VALUE")
    return label_sides(parts[:len(per_item[0])], parts[len(per_item[0]):], column, base_value,
                       args.head_value or "head")


def _side_inputs(args: argparse.Namespace, baseline: dict, positional: Any) -> Dataset:
    """The dataset of compare or scaling: positional inputs (``positional``), or --base/--head labelled here."""
    if bool(args.base) != bool(args.head):
        raise UsageError("--base and --head go together: give both, or neither" +
                         (" and label the inputs" if args.func is cmd_compare else ""))
    if not args.base and not args.inputs:
        raise UsageError("no input files given (positional inputs, or --base and --head)")
    if not args.base:
        return positional()
    if args.inputs:
        raise UsageError(f"{args.inputs[0]}: give inputs either positionally or with --base/--head, not both")
    (column, base_value), = baseline.items()
    return _labelled(load_sides(args.base, args.head, column, base_value, args.head_value or "head",
                                args.input_format, quiet=args.quiet, budget=_budget(args), verbose=args.verbose), args)


def cmd_compare(args: argparse.Namespace) -> int:
    from ._presets import compare

    if args.store:  # each case's launch noise from the branch's stored runs
        from .launch_noise import compare_with_store

        compare = functools.partial(compare_with_store, store=args.store, branch=args.branch)
    baseline = _cli.parse_baseline(args.baseline)
    threshold = parse_threshold(args.threshold)
    alpha = _cli.check_fraction(args.alpha, "--alpha")
    confidence = _cli.check_fraction(args.confidence, "--confidence")
    if args.resamples < 1:
        raise UsageError(f"--resamples {args.resamples}: expected a positive count")
    ds = _side_inputs(args, baseline, lambda: _labelled(_positional_sides(args, *next(iter(baseline.items()))), args))
    by = _columns(ds, args.by, "--baseline/--by", list(baseline))
    with status_line(f"comparing {len(ds)} sample sets ({args.resamples} resamples)…",
                     len(ds) >= PROGRESS_MIN_SETS and not args.quiet):
        result = compare(ds, baseline=baseline, by=by or None, threshold=threshold, alpha=alpha, confidence=confidence,
                         seed=args.seed, resamples=args.resamples, gate=args.fail_on is not None,
                         head_value=args.head_value, check_comparability=not args.no_check,
                         assume_launches_identical=args.assume_launches_identical)
    bmf = [Output(os.path.join(args.bmf_dir, name), text) for name, text in result.bmf_files()] if args.bmf_dir else []
    if args.bmf_dir:
        os.makedirs(args.bmf_dir, exist_ok=True)
    _emit(result.report, args, bmf)
    gate = _cli.gate_message(result.cases) if args.fail_on == "slower" else None
    if gate:
        print(gate, file=sys.stderr)
    return EXIT_GATE if gate else EXIT_OK


def cmd_scaling(args: argparse.Namespace) -> int:
    from ._scaling import scaling

    baseline = _cli.parse_baseline(args.baseline)
    confidence = _cli.check_fraction(args.confidence, "--confidence")
    ds = _side_inputs(args, baseline, lambda: _load(args))
    _columns(ds, None, "--size-label", [args.size_label] if args.size_label else [])
    result = scaling(ds, baseline=baseline, head=args.head_value, size_column=args.size_label or "",
                     size_argument=args.size_argument, confidence=confidence,
                     exponent_threshold=args.exponent_threshold, at=_cli.parse_size(args.at))
    _emit(result.report, args)
    return EXIT_OK


def cmd_runners(args: argparse.Namespace) -> int:
    from ._presets import runners_report

    _emit(runners_report(_load(args)), args)
    return EXIT_OK


def cmd_matrix(args: argparse.Namespace) -> int:
    from ._presets import matrix_report

    ds = _load(args)
    options: Dict[str, Any] = {name: _columns(ds, getattr(args, name), f"--{name}") for name in ("rows", "cols")}
    options["tables"] = _columns(ds, args.tables, "--tables")
    _emit(matrix_report(ds, stat=args.stat, **{k: v for k, v in options.items() if v}), args)
    return EXIT_OK


def cmd_convert(args: argparse.Namespace) -> int:
    ds = _load(args)
    target = args.to or ("csv" if (args.output or "").endswith(".csv") else "json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = ds.to_csv() if target == "csv" else ds.to_bmf() if target == "bmf" else ds.to_json()
    for note in caught:  # what CSV cannot carry: said once, plainly, on stderr
        print(f"benchreport: warning: {terminal_safe(note.message)}", file=sys.stderr)
    assert text is not None  # no path: the writers return the text
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
            sys.stdout.write(_cli.validate_ok_lines(source.name, _read_source(source, args.input_format), args.verbose))
        except (ValueError, OSError) as exc:
            print(_cli.validate_invalid_line(source.name, _one_line(exc)), file=sys.stderr)
            status = EXIT_INPUT
    return status


def demo_reports(resamples: int = 10000) -> Iterator[Tuple[str, Any]]:
    """The three presets (comparison, runners, matrix) from the example data shipped in the package."""
    from ._presets import example_reports

    yield from example_reports(resamples=resamples).items()


def cmd_demo(args: argparse.Namespace) -> int:
    if args.resamples < 1:
        raise UsageError(f"--resamples {args.resamples}: expected a positive count")
    pieces = []
    for name, report in demo_reports(args.resamples):
        pieces.append(_with_newline(render(report, args.format, args.budget, color=False)))
        if args.output_dir:
            os.makedirs(args.output_dir, exist_ok=True)
            path = Path(args.output_dir) / f"{name}.{EXTENSIONS[args.format]}"
            write_outputs([Output(str(path), pieces.pop())])
            print(terminal_safe(f"wrote {path}"))
    if pieces and args.output:
        write_outputs([Output(args.output, "\n".join(pieces))])
    elif pieces:
        sys.stdout.write("\n".join(pieces))
    return EXIT_OK


# ---------------------------------------------------------------- parser and main

def _add_options(p: argparse.ArgumentParser, command: str) -> None:
    """The command's options, declared in C++ (``_core.cli.command_options``)."""
    for flags, kwargs in _cli.command_options(command):
        p.add_argument(*flags, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    from ._store_cli import STORE_ACTIONS, cmd_record  # the store's commands (docs/store.md)
    from ._store_history_cli import cmd_ack

    parser, sub = top_parser()
    funcs = {"record": cmd_record, "ack": cmd_ack}
    for name, text in COMMAND_HELP.items():
        p = sub.add_parser(name, help=text)
        if name == "store":  # store export|import
            actions = p.add_subparsers(dest="store_command", required=True, metavar="ACTION")
            for action, (action_help, func) in STORE_ACTIONS.items():
                a = actions.add_parser(action, help=action_help)
                _add_options(a, f"store {action}")
                a.set_defaults(func=func)
        else:
            _add_options(p, name)
            p.set_defaults(func=funcs.get(name) or globals()["cmd_" + name])
    return parser


def _one_line(exc: BaseException) -> str:
    """The exception as one terminal-safe line: an InputError whole, anything else its first line."""
    text = str(exc)
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    if isinstance(exc, KeyError) and exc.args and not isinstance(exc, InputError):
        text = f"no such label or key: {exc.args[0]}"
    return _cli.one_line(text, isinstance(exc, InputError), type(exc).__name__)


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

    sigterm = (threading.current_thread() is threading.main_thread()
               and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
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
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: usage error (2), --help or --version (0)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    try:
        with _command_guards(args):
            for name, value in vars(args).items():
                if isinstance(value, int) and not isinstance(value, bool):
                    _cli.check_integer_option(name, str(value))
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
