"""The CLI of history from a store: ``benchreport history --store PATH --branch NAME`` and
``benchreport ack CASE COMMIT --note TEXT --store PATH`` (python/benchreport/_store_history.py).

The store is imported when a command runs, not when the parser is built, so the
other commands start as lean as before (tests/python/test_low_memory.py)."""
from __future__ import annotations

import argparse

#: ``--fail-on`` values that read the alert states: the regressions in these states trip the gate.
FAIL_ON_STATES = {"open-regression": ("new", "confirmed"), "confirmed-regression": ("confirmed",)}


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
