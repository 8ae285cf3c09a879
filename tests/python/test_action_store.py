"""The Action's results store (issue 34; scripts/action_store.sh): the store
file kept on a data branch of a real git remote (a bare repository here), the
`benchreport record` and `benchreport compare --store` command lines the Action
runs, and two jobs recording at once.

`benchreport record` belongs to the store's own engineers; until it is in this
checkout, a stand-in interpreter writes each command line it is given into the
store file, so what moves through the branch and what the Action asked for are
both visible. With the real command present, the first test records a real run."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_action import FakeGitHub, run_action, write_results

REPO = Path(__file__).resolve().parents[2]
STORE = REPO / "scripts" / "action_store.sh"
COMMIT = "c0ffee" + "0" * 34

STAND_IN = """#!/usr/bin/env python3
# Stands in for `python -m benchreport record`: appends its arguments to the --store file as one line.
# With RACE set, the first call first lets another job record and push (a job that finished first).
import os, subprocess, sys
args = sys.argv[3:]
assert sys.argv[1:3] == ["-m", "benchreport"] and args[0] == "record", sys.argv
race = os.environ.get("RACE")
if race and os.path.exists(race):
    os.unlink(race)
    env = dict(os.environ, BR_REPO=os.environ["RACE_REPO"], BR_COMMIT="other" + "0" * 35,
               BR_STORE_PATH=os.environ["RACE_STORE"])
    subprocess.run(["bash", os.environ["STORE_SCRIPT"], "restore"], env=env, check=True)
    subprocess.run(["bash", os.environ["STORE_SCRIPT"], "record"], env=env, check=True)
store = args[args.index("--store") + 1]
with open(store, "a") as fh:
    fh.write(" ".join(args) + "\\n")
"""


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def remote(tmp_path):
    """A bare origin with a main branch, and a workspace cloned from it (actions/checkout's)."""
    origin = tmp_path / "origin.git"
    git("init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp_path / "seed"
    git("clone", "-q", str(origin), str(seed))
    (seed / "README").write_text("project\n")
    git("-c", "user.name=t", "-c", "user.email=t@t", "-C", str(seed), "add", "README")
    git("-c", "user.name=t", "-c", "user.email=t@t", "-C", str(seed), "commit", "-qm", "init")
    git("-C", str(seed), "push", "-q", "origin", "main")
    return origin


def workspace(tmp_path: Path, origin: Path, name: str) -> Path:
    path = tmp_path / name
    git("clone", "-q", str(origin), str(path))
    return path


def store_env(tmp_path: Path, repo: Path, name: str, **extra: str) -> dict:
    stand_in = tmp_path / "python-stand-in"
    if not stand_in.exists():
        stand_in.write_text(STAND_IN)
        stand_in.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BR_", "GIT_"))}
    env.update(BR_STORE="branch", BR_REPO=str(repo),
               BR_STORE_PATH=str(tmp_path / "runner-temp" / name / "results.sqlite"),
               BR_HEAD="results/run-1.json\nresults/run-2.json", BR_COMMIT=COMMIT, BR_PYTHON=str(stand_in),
               STORE_SCRIPT=str(STORE), GIT_CONFIG_NOSYSTEM="1", HOME=str(tmp_path))
    env.update(extra)
    return env


def run_store(step: str, env: dict):
    return subprocess.run(["bash", str(STORE), step], env=env, capture_output=True, text=True, timeout=120)


def branch_file(origin: Path, name: str = "results.sqlite") -> str:
    return git("--git-dir", str(origin), "show", f"benchreport-data:{name}")


def test_record_pushes_the_store_to_the_data_branch_and_a_later_job_restores_it(tmp_path, remote):
    job = workspace(tmp_path, remote, "main-job")
    env = store_env(tmp_path, job, "main-job")
    first = run_store("restore", env)
    assert first.returncode == 0 and "no branch benchreport-data yet" in first.stdout, first.stderr
    recorded = run_store("record", env)
    assert recorded.returncode == 0, recorded.stderr
    assert branch_file(remote) == (f"record results/run-1.json results/run-2.json --commit {COMMIT} --branch main "
                                   f"--store {env['BR_STORE_PATH']}\n")
    # One commit whose tree is the store file alone; the project's branches and the checkout are untouched.
    assert git("--git-dir", str(remote), "ls-tree", "--name-only", "benchreport-data") == "results.sqlite\n"
    assert git("--git-dir", str(remote), "rev-list", "--count", "benchreport-data") == "1\n"
    assert git("--git-dir", str(remote), "rev-list", "--count", "main") == "1\n"
    assert git("-C", str(job), "status", "--porcelain") == ""

    # The next push to main: a new job restores what the first recorded, records, replaces the commit.
    later = workspace(tmp_path, remote, "later-job")
    env2 = store_env(tmp_path, later, "later-job", BR_COMMIT="beef" + "0" * 36, BR_STORE_MAIN="trunk")
    restored = run_store("restore", env2)
    assert restored.returncode == 0 and "store restored from benchreport-data" in restored.stdout
    assert Path(env2["BR_STORE_PATH"]).read_text() == branch_file(remote)
    assert run_store("record", env2).returncode == 0
    lines = branch_file(remote).splitlines()
    assert len(lines) == 2 and "--commit beef" in lines[1] and "--branch trunk" in lines[1]
    assert git("--git-dir", str(remote), "rev-list", "--count", "benchreport-data") == "1\n"


def test_two_jobs_recording_at_once_lose_nothing(tmp_path, remote):
    """Job A reads the branch, job B records and pushes before A: A's push is refused by the lease, and A
    fetches B's store and records again."""
    a, b = workspace(tmp_path, remote, "job-a"), workspace(tmp_path, remote, "job-b")
    race = tmp_path / "race"
    race.write_text("once")
    env_b = store_env(tmp_path, b, "job-b")
    env = store_env(tmp_path, a, "job-a", RACE=str(race), RACE_REPO=str(b), RACE_STORE=env_b["BR_STORE_PATH"])
    assert run_store("restore", env).returncode == 0
    ran = run_store("record", env)
    assert ran.returncode == 0, ran.stderr
    assert "another job recorded" in ran.stderr
    lines = branch_file(remote).splitlines()
    assert [line.split("--commit ")[1][:5] for line in lines] == ["other", "c0ffe"]


def test_bad_store_settings_are_errors_that_name_the_input(tmp_path, remote):
    job = workspace(tmp_path, remote, "job")
    for extra, message in (({"BR_STORE": "s3"}, "store must be cache or branch"),
                           ({"BR_STORE_BRANCH": "bad..name"}, "store-branch 'bad..name' is not a valid branch name"),
                           ({"BR_HEAD": " \n"}, "record needs the files"),
                           ({"BR_COMMIT": "", "GITHUB_SHA": ""}, "record needs the commit")):
        ran = run_store("record", store_env(tmp_path, job, "job", **extra))
        assert ran.returncode == 2 and message in ran.stderr, (extra, ran.stderr)
    assert "benchreport-data" not in git("--git-dir", str(remote), "branch")


def test_cache_store_records_in_place(tmp_path):
    env = store_env(tmp_path, tmp_path, "cache-job", BR_STORE="cache")
    ran = run_store("record", env)
    assert ran.returncode == 0, ran.stderr
    assert Path(env["BR_STORE_PATH"]).read_text().startswith("record results/run-1.json results/run-2.json --commit")


def test_compare_learns_launch_noise_only_from_an_existing_store(tmp_path):
    """The compare command line: --store PATH --branch MAIN when the store was restored; without one, a notice."""
    write_results(tmp_path / "results", head_factor=1.0)
    spy = tmp_path / "spy"
    spy.write_text('#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$SPY_ARGS"\n')
    spy.chmod(0o755)
    store = tmp_path / "store" / "results.sqlite"
    with FakeGitHub() as github:
        ran = run_action(tmp_path, github, comment="false", BR_STORE_PATH=str(store), BR_STORE_MAIN="main")
        assert ran.returncode == 0 and "no results store yet" in ran.stderr
        store.parent.mkdir()
        store.write_bytes(b"")
        spied = run_action(tmp_path, github, comment="false", BR_STORE_PATH=str(store), BR_STORE_MAIN="trunk",
                           BR_PYTHON=str(spy), SPY_ARGS=str(tmp_path / "args.txt"))
    args = (tmp_path / "args.txt").read_text().splitlines()
    assert args[:3] == ["-m", "benchreport", "compare"]
    assert args[args.index("--store") + 1] == str(store) and args[args.index("--branch") + 1] == "trunk"
    assert spied.returncode == 0


def test_the_real_record_command_when_present(tmp_path, remote):
    help_text = subprocess.run([sys.executable, "-m", "benchreport", "record", "--help"], capture_output=True,
                               text=True)
    if help_text.returncode != 0:
        pytest.skip("`benchreport record` is not in this checkout yet (issue 34's store)")
    job = workspace(tmp_path, remote, "job")
    write_results(job / "results", head_factor=1.0)
    env = store_env(tmp_path, job, "job", BR_PYTHON=sys.executable, BR_HEAD=f"{job}/results/base-1.csv",
                    PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    assert run_store("restore", env).returncode == 0
    ran = run_store("record", env)
    assert ran.returncode == 0, ran.stderr
    assert git("--git-dir", str(remote), "cat-file", "-s", "benchreport-data:results.sqlite").strip() != "0"
