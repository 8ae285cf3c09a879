"""The Action's install step (scripts/action_install.sh) as the Action runs it:
a clean `git clone` of this repository, a fresh venv made from the runner's
Python, nothing preinstalled beyond the Debian packages, and at the end a
working `benchreport --version` and a compare (issue 35).

The first run builds the wheel (minutes). The wheel is then kept under
build/action-wheel-cache/<key>/, exactly where the Action keeps it with
actions/cache (restored before the step, saved after it), so later runs of
this test on the same commit and runner image reuse it as the Action does;
the second install here is such a cache hit and must not build."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_action import write_results

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "build" / "action-wheel-cache"


def run(cmd, env, cwd=None):
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)


def outputs(path: Path) -> dict:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


@pytest.mark.asan_slow
def test_a_clean_clone_installs_and_compares_as_the_action_does(tmp_path):
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout of benchreport to clone")
    clone = tmp_path / "benchreport"
    cloned = run(["git", "clone", "-q", str(REPO), str(clone)], dict(os.environ))
    assert cloned.returncode == 0, cloned.stderr
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    # What a runner has: its own Python (sys.executable stands in for setup-python's), the Action's env;
    # no BENCHREPORT_* or PYTHONPATH that would let the venv see this checkout's build.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BR_", "PYTHON", "BENCHREPORT"))}
    env.update(RUNNER_TEMP=str(runner_temp), PYTHON=sys.executable, BR_ACTION_REF="test",
               GITHUB_OUTPUT=str(tmp_path / "output.txt"), GITHUB_PATH=str(tmp_path / "path.txt"),
               CCACHE_BASEDIR=str(clone))
    if shutil.which("ccache"):  # only speed: hits across temporary clones (CMake reads the launcher from the env)
        env["CMAKE_CXX_COMPILER_LAUNCHER"] = "ccache"
    script = clone / "scripts" / "action_install.sh"

    keyed = run(["bash", str(script), "key"], env)
    assert keyed.returncode == 0, keyed.stderr
    key = outputs(tmp_path / "output.txt")["key"]
    assert key.startswith("benchreport-wheel-v1-") and f"-cp{sys.version_info[0]}{sys.version_info[1]}-test-" in key
    assert run(["bash", str(script), "key"], env).stdout.strip() == key  # the same checkout: the same key

    cached = CACHE / key
    wheelhouse = runner_temp / "benchreport-wheel"
    if cached.is_dir():  # actions/cache restore
        shutil.copytree(cached, wheelhouse)
    first = run(["bash", str(script), "install"], env)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    version = (clone / "python" / "benchreport" / "_version.py").read_text().split('"')[1]
    assert first.stdout.strip().endswith(version)
    venv_python = runner_temp / "benchreport-venv" / "bin" / "python"
    assert outputs(tmp_path / "output.txt")["python"] == str(venv_python)
    assert (tmp_path / "path.txt").read_text().strip() == str(venv_python.parent)
    if not cached.is_dir():  # actions/cache save
        CACHE.mkdir(parents=True, exist_ok=True)
        shutil.copytree(wheelhouse, cached)

    # The venv is the runner's Python plus the wheel and numpy: it does not see this checkout or its build.
    where = run([str(venv_python), "-c", "import benchreport, sys; print(benchreport.__file__); print(sys.prefix)"],
                env)
    assert where.returncode == 0, where.stderr
    assert where.stdout.splitlines() == [str(venv_python.parents[1] / "lib" /
                                            f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" /
                                            "benchreport" / "__init__.py"), str(venv_python.parents[1])]

    write_results(tmp_path / "results", head_factor=1.3)
    compared = run([str(venv_python.parent / "benchreport"), "compare", "--base", *map(str, sorted(
        (tmp_path / "results").glob("base-*.csv"))), "--head", *map(str, sorted(
        (tmp_path / "results").glob("head-*.csv"))), "--resamples", "300", "--format", "text"], env)
    assert compared.returncode == 0, compared.stderr
    assert "parse" in compared.stdout and "slower" in compared.stdout

    # A second job on the same key: the cache hit installs without building.
    env["BR_VENV"] = str(runner_temp / "second-venv")
    second = run(["bash", str(script), "install"], env)
    assert second.returncode == 0, second.stderr
    assert "using the cached wheel" in second.stdout and "building the wheel" not in second.stdout
    assert second.stdout.strip().endswith(version)
