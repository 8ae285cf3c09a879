"""The benchreport command line: a CI step or a terminal in front of the core.

Exit codes: 0 report produced; 1 gate tripped (only with ``--fail-on``); 2 usage, input or store error (one line
naming the file and problem; a traceback only with ``--debug``), or out of memory (``benchreport: error: out
of memory ...``, never an abort or a crash). Every message that shows input text goes through
:func:`terminal_safe`, the one rule the text renderer applies too. The work below argparse is C++
(``_core.cli``, include/benchreport/cli/; each command is ``cli/run.hpp``); this module holds the parser,
main() with its signal and memory guards, the readers the commands call back, and the public helpers.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import warnings
from typing import Any, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import _core, _limits
from ._cli_top import COMMAND_HELP, top_parser
from ._dataset import Dataset, natural_key  # noqa: F401  (natural_key: part of the CLI module API)
from ._output import Output, write_outputs
from ._version import __version__  # noqa: F401  (part of the CLI module API)

_cli = _core.cli
FORMATS = _core.FORMATS
EXTENSIONS = dict(_cli.EXTENSIONS)
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


def _read_source(source: Any, fmt: str, limits: Optional[dict] = None) -> Dataset:
    from . import load, read_bytes

    if source.is_stdin:
        return read_bytes(source.data, source.name, fmt, **(limits or {}))
    return load(source.name, format=fmt, **(limits or {}))


def _reader(fmt: str = "auto") -> Any:
    return lambda source, limits: _read_source(source, fmt, limits)


def _load(args: argparse.Namespace) -> Dataset:
    """The positional inputs read, joined and labelled (``_core.cli.load_inputs``)."""
    return Dataset(_cli.load_inputs(args, _reader(args.input_format)))


def load_sides(base: Sequence[str], head: Sequence[str], column: str, base_value: str, head_value: str,
               fmt: str = "auto", quiet: bool = False, budget: Optional[Any] = None, verbose: bool = False) -> Dataset:
    """Label each --base/--head input as a process of its side (``_dataset.label_sides``); inputs pair in
    the order given (globs in natural order): base-1 with head-1, and so on."""
    return Dataset(_cli.load_sides(base, head, column, base_value, head_value, _reader(fmt), quiet=quiet,
                                   budget=budget, verbose=verbose))


def render(report: Any, fmt: str, budget: int = GITHUB_COMMENT_BUDGET, color: bool = False) -> str:
    """A report as text in one of ``FORMATS`` (the C++ dispatcher picks the renderer)."""
    return report.render(fmt, markdown_budget=budget, color=color)


#: The report written as the namespace asks: stdout or -o, --github (``_core.cli.emit``).
_emit = _cli.emit
write_github = _cli.write_github


# ---------------------------------------------------------------- commands (C++: cli/run.hpp)

def _run(args: argparse.Namespace, **callbacks: Any) -> int:
    return int(_cli.run_command(args, _reader(getattr(args, "input_format", "auto")), **callbacks))


cmd_summary = cmd_scaling = cmd_runners = cmd_matrix = cmd_validate = _run


def cmd_history(args: argparse.Namespace) -> int:
    from ._history import read_arrow

    if args.store:
        from ._store_history_cli import cmd_history_store
        return cmd_history_store(args)
    return _run(args, read_table=lambda source: read_arrow(source.name))


def cmd_compare(args: argparse.Namespace) -> int:
    if not args.store:
        return _run(args)
    from .launch_noise import compare_with_store  # each case's launch noise from the branch's stored runs

    return _run(args, compare=functools.partial(compare_with_store, store=args.store, branch=args.branch))


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


def demo_reports(resamples: int = 10000) -> Iterator[Tuple[str, Any]]:
    """The three presets (comparison, runners, matrix) from the example data shipped in the package."""
    from ._presets import example_reports

    yield from example_reports(resamples=resamples).items()


def cmd_demo(args: argparse.Namespace) -> int:
    return _run(args, demo_reports=lambda resamples: list(demo_reports(resamples)))


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
    return str(_cli.error_line(exc))


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
    except (UsageError, ValueError, OSError, KeyError, _core.StoreError) as exc:
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
