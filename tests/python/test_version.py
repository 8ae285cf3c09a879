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
