"""action.yml and the example workflows in examples/ci/ (issues 34, 35): they
parse, have the keys GitHub requires, never expand `${{ }}` inside a `run:`
script (untrusted values reach scripts through env only), run only scripts
that exist, pass `bash -n` (and shellcheck where installed), name only inputs
that exist, and keep the trusted-reporting pair apart: the pull-request half
holds no write permission, the workflow_run half checks out nothing."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((REPO / "action.yml").read_text())
WORKFLOWS = sorted((REPO / "examples" / "ci").glob("*.yml"))
MODES = {"compare", "compare-only", "post-only", "record"}


def load(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text())
    if True in workflow:  # YAML 1.1 reads the key `on` as a boolean
        workflow["on"] = workflow.pop(True)
    return workflow


def steps_of(document: dict) -> list:
    if "runs" in document:
        return document["runs"]["steps"]
    return [step for job in document["jobs"].values() for step in job["steps"]]


def all_documents():
    return [("action.yml", ACTION)] + [(path.name, load(path)) for path in WORKFLOWS]


def shell_check(script: str, where: str) -> None:
    syntax = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True)
    assert syntax.returncode == 0, f"{where}: {syntax.stderr}"
    if shutil.which("shellcheck"):
        # GitHub runs `run:` with bash -e; GITHUB_* variables come from the runner.
        checked = subprocess.run(["shellcheck", "-s", "bash", "-e", "SC2154", "-"], input=script,
                                 capture_output=True, text=True)
        assert checked.returncode == 0, f"{where}:\n{checked.stdout}"


def test_the_examples_are_there():
    assert {p.name for p in WORKFLOWS} >= {"performance.yml", "performance-compare.yml", "performance-report.yml",
                                           "performance-store.yml"}


def test_action_yml_has_what_github_requires():
    assert {"name", "description", "inputs", "outputs", "runs"} <= set(ACTION)
    assert ACTION["runs"]["using"] == "composite"
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
        assert "default" in spec or spec.get("required"), f"input {name}: neither default nor required"
    for step in ACTION["runs"]["steps"]:
        assert ("run" in step) != ("uses" in step), step.get("name")
        if "run" in step:
            assert step.get("shell") == "bash", f"{step.get('name')}: a composite run step needs shell"
    assert ACTION["inputs"]["install"]["default"] == "action"  # nothing unpublished is asked of PyPI


@pytest.mark.parametrize("name,document", all_documents(), ids=[n for n, _ in all_documents()])
def test_run_scripts_take_no_expressions_and_parse(name, document):
    for step in steps_of(document):
        if "run" not in step:
            continue
        where = f"{name}: {step.get('name', step['run'][:40])}"
        assert "${{" not in step["run"], f"{where}: ${{{{ }}}} inside run: (pass it through env)"
        shell_check(step["run"], where)
        for script in re.findall(r'\$GITHUB_ACTION_PATH/(scripts/[\w.]+)', step["run"]):
            assert (REPO / script).is_file(), f"{where}: {script} does not exist"


@pytest.mark.parametrize("name,document", all_documents(), ids=[n for n, _ in all_documents()])
def test_actions_are_pinned_to_a_major_version(name, document):
    for step in steps_of(document):
        uses = step.get("uses", "")
        if uses and not uses.startswith("./"):
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+(\.\d+)*", uses), f"{name}: {uses}"


def test_action_yml_names_only_its_inputs_and_modes():
    text = (REPO / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used <= set(ACTION["inputs"]), used - set(ACTION["inputs"])
    assert set(re.findall(r"inputs\.mode [!=]= '([\w-]+)'", text)) == MODES
    assert all(mode in ACTION["inputs"]["mode"]["description"] for mode in MODES)


def test_workflows_have_what_github_requires_and_use_declared_inputs():
    for path in WORKFLOWS:
        workflow = load(path)
        assert {"name", "on", "jobs", "permissions"} <= set(workflow), path.name
        for job_name, job in workflow["jobs"].items():
            assert "runs-on" in job and job["steps"], f"{path.name}: {job_name}"
            for step in job["steps"]:
                if step.get("uses", "").startswith("benchreport/benchreport@"):
                    assert set(step["with"]) <= set(ACTION["inputs"]), f"{path.name}: {set(step['with'])}"
                    assert step["with"].get("mode", "compare") in MODES


def action_step(workflow: dict, job: str) -> dict:
    (step,) = [s for s in workflow["jobs"][job]["steps"] if s.get("uses", "").startswith("benchreport/benchreport@")]
    return step["with"]


def test_the_trusted_reporting_pair():
    compare = load(REPO / "examples/ci/performance-compare.yml")
    report = load(REPO / "examples/ci/performance-report.yml")
    assert compare["on"] == "pull_request" and compare["permissions"] == {"contents": "read"}  # a fork's code runs here
    (compare_job,) = compare["jobs"]
    assert action_step(compare, compare_job)["mode"] == "compare-only"

    assert report["on"] == {"workflow_run": {"workflows": [compare["name"]], "types": ["completed"]}}
    assert report["permissions"] == {"actions": "read", "pull-requests": "write"}
    (report_job,) = report["jobs"]
    job = report["jobs"][report_job]
    assert "github.event.workflow_run.event == 'pull_request'" in job["if"]
    assert not any(s.get("uses", "").startswith("actions/checkout@") or "run" in s for s in job["steps"]), \
        "the workflow_run job must not check out or run anything of the PR"
    posting = action_step(report, report_job)
    assert posting["mode"] == "post-only"
    assert posting["artifact"] == action_step(compare, compare_job)["artifact"]

    # post-only in action.yml: no install and no compare; it downloads from the triggering run and posts.
    post_steps = [s for s in ACTION["runs"]["steps"] if "inputs.mode == 'post-only'" in str(s.get("if", ""))]
    assert [s.get("uses", "python3 pr_comment.py").split("@")[0] for s in post_steps] == [
        "actions/download-artifact", "python3 pr_comment.py"]
    download = next(s for s in post_steps if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    install = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "install")
    assert install["if"] == "inputs.mode != 'post-only'"


def test_the_store_workflow_records_main_and_compares_prs_with_it():
    workflow = load(REPO / "examples/ci/performance-store.yml")
    assert workflow["on"] == {"push": {"branches": ["main"]}, "pull_request": None}
    record, compare = workflow["jobs"]["record"], workflow["jobs"]["compare"]
    assert record["if"] == "github.event_name == 'push'" and compare["if"] == "github.event_name == 'pull_request'"
    recording = action_step(workflow, "record")
    assert recording["mode"] == "record" and recording["store"] in ("cache", "branch") and recording["head"]
    comparing = action_step(workflow, "compare")
    assert comparing.get("mode", "compare") == "compare" and comparing["store"] == recording["store"]
    assert comparing["store-main"] == recording["store-main"] == "main"
    # action.yml: a cache store is restored by branch prefix and saved under a new key per run (only by record).
    steps = ACTION["runs"]["steps"]
    restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache/restore@"))
    save = next(s for s in steps if s.get("uses", "").startswith("actions/cache/save@"))
    assert restore["with"]["restore-keys"] == "benchreport-store-${{ inputs.store-main }}-"
    assert restore["with"]["key"].startswith(restore["with"]["restore-keys"]) and "github.run_id" in save["with"]["key"]
    assert save["if"] == "inputs.mode == 'record' && inputs.store == 'cache'"
    assert restore["with"]["path"] == save["with"]["path"]
