"""One version: python/benchreport/_version.py, read by CMake (the C++ core's
version string) and by scikit-build-core (the wheel's metadata)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

import benchreport as br
from benchreport import _core, cli

REPO = Path(__file__).resolve().parents[2]


def test_cli_version_is_the_package_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"benchreport {br.__version__}"
    out = subprocess.run([sys.executable, "-m", "benchreport", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"benchreport {br.__version__}"


def test_core_and_package_agree():
    assert re.fullmatch(r"\d+\.\d+\.\d+", br.__version__)
    assert _core.__version__ == br.__version__


def test_version_source_is_the_one_file():
    source = REPO / "python" / "benchreport" / "_version.py"
    if not source.exists():
        pytest.skip("not run from a checkout")
    assert f'__version__ = "{br.__version__}"' in source.read_text()
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'input = "python/benchreport/_version.py"' in pyproject
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
    assert f"## [{br.__version__}]" in (REPO / "CHANGELOG.md").read_text()


def test_installed_metadata_matches():
    from importlib import metadata

    try:
        installed = metadata.version("benchreport")
    except metadata.PackageNotFoundError:
        pytest.skip("benchreport is not installed (build-tree run)")
    if not Path(br.__file__).resolve().is_relative_to(Path(metadata.distribution("benchreport").locate_file(""))
                                                      .resolve()):
        pytest.skip("the imported benchreport is not the installed distribution")
    assert installed == br.__version__


# The modules `benchreport --version` and `--help` must not load: numpy and the compiled core
# (together about a third of a second of start-up, docs/performance.md).
HEAVY = ("numpy", "benchreport._core", "benchreport._dataset")
# Runs the console script's own import (`from benchreport.cli import main`) as `benchreport ARGS`,
# and prints, at exit, which of HEAVY were imported.
PROBE = """
import atexit, sys
sys.argv = ["benchreport", *sys.argv[1:]]
atexit.register(lambda: print("loaded:", sorted(m for m in {heavy!r} if m in sys.modules)))
from benchreport.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"]])
def test_version_and_help_do_not_load_numpy_or_the_core(args):
    probe = PROBE.format(heavy=HEAVY)
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("loaded: []")
    assert ("benchreport 0" in out.stdout) == (args == ["--version"])
    # every other command line loads them, as it needs them
    out = subprocess.run([sys.executable, "-c", probe, "compare", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.rstrip().endswith(f"loaded: {sorted(HEAVY)}")


def test_python_m_version_and_help_do_not_import_numpy():
    for args in (["--version"], ["--help"]):
        out = subprocess.run([sys.executable, "-X", "importtime", "-m", "benchreport", *args], capture_output=True,
                             text=True, timeout=60)
        assert out.returncode == 0
        imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
        assert "benchreport._cli_top" in imported
        assert not {"numpy", "benchreport._core"} & imported


def test_quick_help_is_the_full_parsers_help(capsys):
    """The help answered without the core is the one the full parser prints (same commands, same words)."""
    from benchreport import _cli_top

    with pytest.raises(SystemExit) as stop:
        _cli_top.answer_without_core(["--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == cli.build_parser().format_help()
    assert _cli_top.answer_without_core(["compare", "--help"]) is None  # not answered here
    assert _cli_top.answer_without_core([]) is None
