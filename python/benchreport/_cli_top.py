"""The top of the command line, loadable without numpy or the compiled core.

``benchreport --version`` and ``benchreport --help`` are answered from here by
the package's ``__init__`` before it imports numpy and ``_core`` (about
150 ms of CPU); every other command line goes on to :mod:`benchreport.cli`, whose
parser starts from :func:`top_parser` and adds each command's arguments.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn, Sequence, Tuple

from ._version import __version__

DESCRIPTION = "The benchreport command line: a CI step or a terminal in front of the core."
#: Each command and its line in ``--help`` (cli.py adds the command's arguments).
COMMAND_HELP = {
    "compare": "base vs head comparison report",
    "summary": "per-set (or per-group) summary statistics",
    "scaling": "growth with input size per size family; base vs head growth change",
    "history": "change points across commits, per case",
    "runners": "CI runner comparison report",
    "matrix": "rows x columns matrix of medians",
    "convert": "convert any input to canonical JSON or CSV",
    "validate": "check that inputs read cleanly",
    "demo": "render all three presets from bundled example data",
    "record": "store one run of results (the sets of the inputs at one commit)",
    "store": "store maintenance: export to / import from Parquet",
    "ack": "acknowledge a change point remembered in a store",
}
#: The command lines this module answers alone (argparse prints and exits 0).
QUICK_ARGUMENTS = (["--version"], ["--help"], ["-h"])


def top_parser() -> Tuple[argparse.ArgumentParser, "argparse._SubParsersAction[argparse.ArgumentParser]"]:
    """The parser's options common to every command, and the (still empty) set of commands."""
    parser = argparse.ArgumentParser(prog="benchreport", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"benchreport {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser, parser.add_subparsers(dest="command", required=True, metavar="COMMAND")


def invoked_as_command() -> bool:
    """Whether this process is ``benchreport ...`` or ``python -m benchreport ...`` (whose
    package import runs while sys.argv[0] is still ``-m``)."""
    return os.path.basename(sys.argv[0] or "") == "benchreport" or sys.argv[0] == "-m"


def answer_without_core(argv: Sequence[str]) -> None:
    """``--version`` and ``--help`` print and exit 0 here; any other command line returns."""
    if list(argv) not in QUICK_ARGUMENTS:
        return
    parser, sub = top_parser()
    for name, text in COMMAND_HELP.items():
        sub.add_parser(name, help=text)
    _exit(parser, argv)


def _exit(parser: argparse.ArgumentParser, argv: Sequence[str]) -> NoReturn:
    parser.parse_args(argv)
    raise SystemExit(0)  # not reached: argparse exits after --version and --help
