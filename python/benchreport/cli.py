"""The ``benchreport`` command line: a CI step or a terminal in front of the core.

Exit codes: 0 report produced; 1 gate tripped (only with ``--fail-on``);
2 usage or input error (one line naming the file and problem; a traceback
only with ``--debug``).
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

from ._version import __version__

FORMATS = ("markdown", "html", "text", "csv", "json")
EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2
GITHUB_COMMENT_BUDGET = 65536


class UsageError(Exception):
    """A problem with the command line or its inputs: reported in one line, exit 2."""


# ---------------------------------------------------------------- inputs

def expand_inputs(inputs: Sequence[str], stdin=None) -> List[str]:
    """Files, folders and globs as given; ``-`` reads stdin into a temporary file."""
    paths: List[str] = []
    for item in inputs:
        if item == "-":
            paths.append(_spool_stdin(stdin or sys.stdin))
        elif os.path.exists(item):
            paths.append(item)
        else:
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                raise UsageError(f"{item}: no such file, folder or glob match")
            paths.extend(matches)
    if not paths:
        raise UsageError("no input files given")
    return paths


def _spool_stdin(stream) -> str:
    data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
    suffix = ".csv" if data[:1] not in (b"{", b"[", b"\x1f") else ".json"
    handle = tempfile.NamedTemporaryFile(prefix="benchreport-stdin-", suffix=suffix, delete=False)
    with handle:
        handle.write(data)
    return handle.name


def _load(paths: Sequence[str], fmt: str):
    from . import load

    return load(list(paths), format=fmt)


def _parse_baseline(text: str) -> dict:
    if "=" not in text:
        raise UsageError(f"--baseline {text!r}: expected LABEL=VALUE, e.g. revision=base")
    key, value = text.split("=", 1)
    return {key.strip(): value.strip()}


def _split_columns(values: Optional[Sequence[str]]) -> List[str]:
    out: List[str] = []
    for v in values or []:
        out.extend(c.strip() for c in v.split(",") if c.strip())
    return out


# ---------------------------------------------------------------- output

def _render(report, fmt: str, budget: int, color: bool) -> str:
    if fmt == "markdown":
        return report.to_markdown(budget=budget)
    if fmt == "html":
        return report.to_html()
    if fmt == "text":
        return report.to_text(color=color)
    if fmt == "csv":
        return report.to_csv()
    return report.to_json()


def _emit(report, args) -> None:
    color = args.output is None and sys.stdout.isatty() and args.format == "text"
    text = _render(report, args.format, args.budget, color)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if getattr(args, "github", False):
        _write_github(report, args)


def _write_github(report, args) -> None:
    """Append to $GITHUB_STEP_SUMMARY and write a PR comment body within the budget."""
    body = report.to_markdown(budget=min(args.budget or GITHUB_COMMENT_BUDGET, GITHUB_COMMENT_BUDGET))
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as fh:
            fh.write(body + "\n")
    comment = args.comment_file or "benchreport-comment.md"
    Path(comment).write_text(body, encoding="utf-8")
    print(f"benchreport: PR comment body written to {comment}", file=sys.stderr)


# ---------------------------------------------------------------- commands

def cmd_summary(args) -> int:
    from ._summary_report import summary_report

    ds = _load(expand_inputs(args.inputs), args.input_format)
    _emit(summary_report(ds, by=_split_columns(args.by) or None), args)
    return EXIT_OK


def cmd_compare(args) -> int:
    from ._presets import comparison_report

    ds = _load(expand_inputs(args.inputs), args.input_format)
    report = comparison_report(
        ds,
        baseline=_parse_baseline(args.baseline),
        by=_split_columns(args.by) or None,
        threshold=args.threshold,
        alpha=args.alpha,
        seed=args.seed,
        resamples=args.resamples,
        gate=args.fail_on is not None,
    )
    _emit(report, args)
    if args.fail_on == "slower" and report.gate_tripped:
        print("benchreport: gate tripped: at least one case is slower", file=sys.stderr)
        return EXIT_GATE
    return EXIT_OK


def cmd_runners(args) -> int:
    from ._presets import runners_report

    ds = _load(expand_inputs(args.inputs), args.input_format)
    _emit(runners_report(ds), args)
    return EXIT_OK


def cmd_matrix(args) -> int:
    from ._presets import matrix_report

    ds = _load(expand_inputs(args.inputs), args.input_format)
    report = matrix_report(ds, rows=_split_columns(args.rows) or None,
                           cols=_split_columns(args.cols) or None, stat=args.stat)
    _emit(report, args)
    return EXIT_OK


def cmd_convert(args) -> int:
    ds = _load(expand_inputs(args.inputs), args.input_format)
    target = args.to
    if target is None:
        target = "csv" if (args.output or "").endswith(".csv") else "json"
    text = ds.to_csv() if target == "csv" else ds.to_json()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_validate(args) -> int:
    status = EXIT_OK
    for path in expand_inputs(args.inputs):
        try:
            ds = _load([path], args.input_format)
        except (ValueError, OSError) as exc:
            print(f"INVALID {exc}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        n_sets = len(ds)
        n_values = int(ds.offsets[-1]) if n_sets else 0
        print(f"ok {path}: {n_sets} sample sets, {n_values} samples")
        for warning in ds.warnings:
            print(f"  warning: {warning}")
    return status


def demo_reports():
    """The three presets rendered from the example data shipped in the package."""
    from ._presets import comparison_report, example_path, matrix_report, runners_report
    from . import load

    yield "comparison", comparison_report(load(example_path("nitro")))
    yield "runners", runners_report(load(example_path("runners")))
    yield "matrix", matrix_report(load(example_path("zfh")))


def cmd_demo(args) -> int:
    out_dir = Path(args.output_dir) if args.output_dir else None
    for name, report in demo_reports():
        text = _render(report, args.format, args.budget, color=False)
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)
            ext = {"markdown": "md", "html": "html", "text": "txt", "csv": "csv", "json": "json"}[args.format]
            (out_dir / f"{name}.{ext}").write_text(text, encoding="utf-8")
            print(f"wrote {out_dir / f'{name}.{ext}'}")
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.write("\n")
    return EXIT_OK


# ---------------------------------------------------------------- parser

def _add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", "-f", choices=FORMATS, default="markdown", help="output format")
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.add_argument("--budget", type=int, default=GITHUB_COMMENT_BUDGET,
                   help="Markdown size budget in characters (0 = unlimited)")


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", help="files, folders, globs, or - for stdin")
    p.add_argument("--input-format", default="auto",
                   help="reader name (auto, json, csv, google-benchmark, hyperfine, pyperf, "
                        "pytest-benchmark, go, nitro, criterion, zfh)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="benchreport", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"benchreport {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("compare", help="base vs head comparison report")
    _add_input_options(p)
    _add_output_options(p)
    p.add_argument("--baseline", default="revision=base", help="LABEL=VALUE selecting the baseline side")
    p.add_argument("--by", action="append", help="case columns (comma-separated)")
    p.add_argument("--threshold", type=float, default=0.05, help="notable change, fraction (0.05 = 5%%)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--resamples", type=int, default=10000, help="bootstrap resamples")
    p.add_argument("--fail-on", choices=["slower"], help="exit 1 when a case is slower")
    p.add_argument("--github", action="store_true",
                   help="append to $GITHUB_STEP_SUMMARY and write a PR comment body")
    p.add_argument("--comment-file", help="where --github writes the comment body")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("summary", help="per-set summary statistics")
    _add_input_options(p)
    _add_output_options(p)
    p.add_argument("--by", action="append", help="group columns (comma-separated)")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("runners", help="CI runner comparison report")
    _add_input_options(p)
    _add_output_options(p)
    p.set_defaults(func=cmd_runners)

    p = sub.add_parser("matrix", help="rows x columns matrix of medians")
    _add_input_options(p)
    _add_output_options(p)
    p.add_argument("--rows", action="append", help="row label columns (comma-separated)")
    p.add_argument("--cols", action="append", help="column label columns (comma-separated)")
    p.add_argument("--stat", default="median", help="cell statistic")
    p.set_defaults(func=cmd_matrix)

    p = sub.add_parser("convert", help="convert any input to canonical JSON or CSV")
    _add_input_options(p)
    p.add_argument("--to", choices=["json", "csv"], help="target (default from --output suffix, else json)")
    p.add_argument("--output", "-o")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("validate", help="check that inputs read cleanly")
    _add_input_options(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("demo", help="render all three presets from bundled example data")
    _add_output_options(p)
    p.add_argument("--output-dir", help="write one file per preset into this folder")
    p.set_defaults(func=cmd_demo, format="text")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (UsageError, ValueError, OSError) as exc:
        if args.debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"benchreport: error: {message}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
