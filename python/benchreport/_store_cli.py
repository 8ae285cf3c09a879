"""The store's commands: ``benchreport record`` and ``benchreport store export|import`` (docs/store.md).

The store (and sqlite3) is imported when one of these commands runs, not when the parser is
built, so the other commands start as lean as before (tests/python/test_low_memory.py)."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Dict

from ._cli_top import COMMAND_HELP


def add_parsers(sub: Any, add_input_options: Callable[..., None]) -> None:
    """Register ``record`` and ``store`` on the CLI's subparsers."""
    p = sub.add_parser("record", help=COMMAND_HELP["record"])
    add_input_options(p)
    p.add_argument("--store", required=True, metavar="PATH", help="the store file (created when missing)")
    p.add_argument("--commit", help="commit measured (default: from the files' metadata: Nitro commitSha, "
                                    "pyperf commit_id; required when they name none)")
    p.add_argument("--branch", help="branch of the commit (default: from the files' metadata, pyperf "
                                    "commit_branch; required when they name none)")
    p.add_argument("--time", help="when the run was measured, ISO-8601 (default now, UTC)")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                   help="environment facts to record with the run (repeatable), e.g. --env compiler=gcc-14")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("store", help=COMMAND_HELP["store"])
    actions = p.add_subparsers(dest="store_command", required=True, metavar="ACTION")
    e = actions.add_parser("export", help="write the store as Parquet partitioned by branch and commit")
    e.add_argument("store", metavar="PATH", help="the store file")
    e.add_argument("directory", metavar="DIR", help="new or empty folder to write")
    e.set_defaults(func=cmd_store_export)
    i = actions.add_parser("import", help="add the runs of a Parquet export to a store (duplicates skipped)")
    i.add_argument("store", metavar="PATH", help="the store file (created when missing)")
    i.add_argument("directory", metavar="DIR", help="a folder written by 'store export'")
    i.set_defaults(func=cmd_store_import)


def _environment_flags(items: Any) -> Dict[str, str]:
    from .cli import UsageError

    out: Dict[str, str] = {}
    for text in items:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--env {text!r}: expected KEY=VALUE, e.g. compiler=gcc-14")
        out[key.strip()] = value.strip()
    return out


def cmd_record(args: argparse.Namespace) -> int:
    from .cli import EXIT_OK, _load, terminal_safe
    from .store import Store

    environment = _environment_flags(args.env)
    dataset = _load(args)
    with Store.open(args.store) as store:
        result = store.record(dataset, commit=args.commit, branch=args.branch, time=args.time,
                              environment=environment)
    print(terminal_safe(result.note), file=sys.stderr if result.run_id is None else sys.stdout)
    return EXIT_OK


def cmd_store_export(args: argparse.Namespace) -> int:
    from .cli import EXIT_OK
    from .store import Store

    with Store.open(args.store, create=False) as store:
        counts = store.export_parquet(args.directory)
    print(f"exported {counts['runs']} runs, {counts['sets']} sets, {counts['samples']} samples "
          f"to {args.directory}")
    return EXIT_OK


def cmd_store_import(args: argparse.Namespace) -> int:
    from .cli import EXIT_OK
    from .store import Store

    with Store.open(args.store) as store:
        counts = store.import_parquet(args.directory)
    print(f"imported {counts['imported']} runs, skipped {counts['skipped']} already stored")
    return EXIT_OK
