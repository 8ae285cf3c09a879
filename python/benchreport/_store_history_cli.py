"""The CLI of history from a store: ``benchreport history --store PATH --branch NAME`` and
``benchreport ack CASE COMMIT --note TEXT --store PATH`` (python/benchreport/_store_history.py).

The store (and sqlite3) is imported when a command runs, not when the parser is built, so the
other commands start as lean as before (tests/python/test_low_memory.py)."""
from __future__ import annotations

import argparse
from typing import Any

from ._cli_top import COMMAND_HELP

#: ``--fail-on`` values that read the alert states: the regressions in these states trip the gate.
FAIL_ON_STATES = {"open-regression": ("new", "confirmed"), "confirmed-regression": ("confirmed",)}
#: ``history --fail-on`` values: "regressed" (a case still regressed) and the alert states'.
FAIL_ON = ["regressed", *FAIL_ON_STATES]


def add_history_options(p: argparse.ArgumentParser) -> None:
    """The ``history`` options that read a store."""
    p.add_argument("--store", metavar="PATH",
                   help="read the runs of --branch from this store instead of files; summarises only the runs "
                        "not seen before and remembers each change point's state (docs/statistics-history.md)")
    p.add_argument("--branch", default="main", help="with --store: the branch whose history to analyse (default main)")
    p.add_argument("--confirm-after", type=int, default=3, metavar="N",
                   help="with --store: a change point is confirmed once N later commits are on its new level "
                        "(default 3)")
    p.add_argument("--rebuild", action="store_true",
                   help="with --store: summarise every run again instead of using the store's summary cache")


def add_ack_parser(sub: Any) -> None:
    p = sub.add_parser("ack", help=COMMAND_HELP["ack"])
    p.add_argument("case", metavar="CASE", help="the case: LABEL=VALUE[,LABEL=VALUE...] or one label's value")
    p.add_argument("commit", metavar="COMMIT", help="the change point's commit (full sha or a unique prefix)")
    p.add_argument("--note", required=True, help="why it is acknowledged (shown in the history report)")
    p.add_argument("--store", required=True, metavar="PATH", help="the store file")
    p.add_argument("--branch", help="the branch (default: any branch, when the match is unique)")
    p.set_defaults(func=cmd_ack)


def cmd_history_store(args: argparse.Namespace) -> int:
    from ._store_history import store_history
    from .cli import EXIT_GATE, EXIT_OK, UsageError, _emit, parse_threshold
    from .store import Store

    if args.inputs or args.order or args.by:
        raise UsageError("history --store reads its runs from the store: give no input files, --order or --by")
    with Store.open(args.store, create=False) as store:
        result = store_history(store, args.branch, confirm_after=args.confirm_after, rebuild=args.rebuild,
                               max_p_value=args.max_p_value, permutations=args.permutations, seed=args.seed,
                               min_magnitude=parse_threshold(args.min_magnitude),
                               threshold=parse_threshold(args.threshold), screen_p_value=args.screen_p_value,
                               method=args.method.replace("-", "_"))
    _emit(result.report, args)
    if args.fail_on == "regressed" and any(c.regressed_since is not None for c in result.core.changes):
        return EXIT_GATE
    if args.fail_on in FAIL_ON_STATES and result.regressions_in(FAIL_ON_STATES[args.fail_on]):
        return EXIT_GATE
    return EXIT_OK


def cmd_ack(args: argparse.Namespace) -> int:
    from ._store_history import acknowledge
    from .cli import EXIT_OK, terminal_safe
    from .store import Store

    with Store.open(args.store, create=False) as store:
        key, sha = acknowledge(store, args.case, args.commit, args.note, branch=args.branch)
    print(terminal_safe(f"acknowledged {key} at {sha}: {args.note}"))
    return EXIT_OK
