"""The store's commands: ``benchreport record`` and ``benchreport store export|import`` (docs/store.md).

The store (and pyarrow) is imported when one of these commands runs, not when the parser is
built, so the other commands start as lean as before (tests/python/test_low_memory.py)."""
from __future__ import annotations

import argparse
import sys


def cmd_record(args: argparse.Namespace) -> int:
    from .cli import EXIT_OK, _cli, _load, terminal_safe
    from .store import Store

    environment = _cli.parse_key_values(args.env, "--env", "compiler=gcc-14")
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


#: ``benchreport store ACTION``: each action's line in ``--help`` and its command (options: C++ ``command_options``).
STORE_ACTIONS = {"export": ("write the store as Parquet partitioned by branch and commit", cmd_store_export),
                 "import": ("add the runs of a Parquet export to a store (duplicates skipped)", cmd_store_import)}
