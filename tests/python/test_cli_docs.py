"""Every `benchreport ...` command in the docs parses, and those whose inputs are in
the repository run (from a temporary folder, so outputs do not land in the tree)."""
import glob
import re
import shlex
from pathlib import Path

import pytest

import benchreport as br
from benchreport import cli

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "docs" / name for name in ("cli.md", "quickstart.md", "user-guide.md", "index.md")]
PLACEHOLDERS = REPO / "tests" / "data" / "docs"
FENCE = re.compile(r"^```(\w*)\s*$")


def documented_commands():
    """(doc name, argv) for every shell line starting with `benchreport ` (continuations joined)."""
    out = []
    for doc in DOCS:
        if not doc.exists():
            continue
        in_shell, pending = False, ""
        for line in doc.read_text(encoding="utf-8").splitlines():
            fence = FENCE.match(line.strip())
            if fence:
                in_shell = not in_shell and fence.group(1) in ("sh", "bash")
                continue
            if not in_shell:
                continue
            text = pending + line.strip()
            if text.endswith("\\"):
                pending = text[:-1] + " "
                continue
            pending = ""
            if text.startswith("benchreport ") and "INPUT" not in text and "COMMAND" not in text:
                out.append((doc.name, shlex.split(text, comments=True)[1:]))
    return out


COMMANDS = documented_commands()


def test_docs_have_commands():
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("doc,argv", COMMANDS, ids=[" ".join(a)[:60] for _, a in COMMANDS])
def test_documented_command(doc, argv, tmp_path, monkeypatch, capsys):
    parser = cli.build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # pragma: no cover - the assertion explains
        pytest.fail(f"{doc}: `benchreport {' '.join(argv)}` does not parse (exit {exc.code})")
    for field in ("inputs", "base", "head"):
        items = getattr(args, field, None) or []
        resolved = []
        for item in items:
            path = REPO / item
            if not (path.exists() or glob.glob(str(path))):
                path = PLACEHOLDERS / item  # old.json, new.json, results/base-*.json
            if not (path.exists() or glob.glob(str(path))):
                pytest.fail(f"{doc}: input {item} is neither in the repository nor in tests/data/docs/")
            resolved.append(str(path))
        if items:
            setattr(args, field, resolved)
    if hasattr(args, "resamples"):
        args.resamples = min(args.resamples, 300)  # same code path, fewer bootstrap resamples
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    try:
        code = args.func(args)
    except br.InputError as exc:
        if "not implemented" in str(exc):
            pytest.skip(f"reader not implemented in this build: {exc}")
        raise
    err = capsys.readouterr().err
    if code == cli.EXIT_INPUT and "not implemented" in err:
        pytest.skip(f"reader not implemented in this build: {err.strip()}")
    assert code in (cli.EXIT_OK, cli.EXIT_GATE), f"{doc}: exit {code}: {err}"


def python_blocks(doc):
    """The ```python blocks of a doc, in order."""
    blocks, current = [], None
    for line in doc.read_text(encoding="utf-8").splitlines():
        fence = FENCE.match(line.strip())
        if fence and current is None and fence.group(1) == "python":
            current = []
        elif fence and current is not None:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


@pytest.mark.parametrize("name", ["quickstart.md", "user-guide.md"])
def test_documented_python_runs(name, monkeypatch, tmp_path):
    """The Python snippets of a doc run top to bottom in one namespace, as a reader would paste them."""
    pytest.importorskip("pandas", reason="the snippets call to_pandas")
    matplotlib = pytest.importorskip("matplotlib", reason="the snippets plot")
    matplotlib.use("Agg")
    blocks = python_blocks(REPO / "docs" / name)
    assert blocks
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks:
        exec(compile(block, f"{name} snippet", "exec"), namespace)  # noqa: S102 - our own docs
    import matplotlib.pyplot as plt

    plt.close("all")
