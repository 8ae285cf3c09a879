"""The GitHub Action's run step (scripts/action_compare.sh) and its PR-comment
script (scripts/pr_comment.py) end to end, against a stub of the GitHub REST
API on 127.0.0.1: the first run creates one comment, the second edits it in
place (PATCH); the step summary is written; the exit code is 1 only with
fail-on slower and a slower case."""
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "scripts" / "action_compare.sh"
PR_COMMENT = REPO / "scripts" / "pr_comment.py"
TOKEN = "test-token-123"


class FakeGitHub:
    """Issue comments of one repository, as the REST API serves them."""

    def __init__(self):
        self.comments = {}  # id -> {"id", "body", "issue"}
        self.requests = []  # (method, path)
        self.next_id = 1000
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self):
                return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

            def _handle(self, method):
                url = urlparse(self.path)
                fake.requests.append((method, url.path))
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self._reply(401, {"message": "Bad credentials"})
                parts = url.path.strip("/").split("/")  # repos/o/r/issues/N/comments | repos/o/r/issues/comments/ID
                if parts[:3] != ["repos", "octo", "bench"] or parts[3] != "issues":
                    return self._reply(404, {"message": "Not Found"})
                if parts[4] == "comments" and method == "PATCH":
                    comment = fake.comments[int(parts[5])]
                    comment["body"] = self._body()["body"]
                    return self._reply(200, comment)
                number = int(parts[4])
                if method == "GET":
                    page = int(dict(q.split("=") for q in url.query.split("&")).get("page", 1))
                    listed = [c for c in fake.comments.values() if c["issue"] == number]
                    return self._reply(200, listed[(page - 1) * 100: page * 100])
                if method == "POST":
                    fake.next_id += 1
                    comment = {"id": fake.next_id, "issue": number, "body": self._body()["body"],
                               "html_url": f"https://github.test/octo/bench/pull/{number}#c{fake.next_id}"}
                    fake.comments[comment["id"]] = comment
                    return self._reply(201, comment)
                return self._reply(405, {"message": "no"})

            def do_GET(self):
                self._handle("GET")

            def do_POST(self):
                self._handle("POST")

            def do_PATCH(self):
                self._handle("PATCH")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def write_results(folder: Path, head_factor: float) -> None:
    """Two processes per side, two benchmarks; `parse` on head is head_factor times the base."""
    rng = np.random.default_rng(7)
    folder.mkdir(parents=True, exist_ok=True)
    for side in ("base", "head"):
        for i in (1, 2):
            lines = ["benchmark,unit,value"]
            for benchmark, center in (("parse", 100.0), ("render", 200.0)):
                scale = head_factor if (side == "head" and benchmark == "parse") else 1.0
                lines += [f"{benchmark},ns,{float(v)!r}" for v in rng.normal(center * scale, 0.5, 30)]
            (folder / f"{side}-{i}.csv").write_text("\n".join(lines) + "\n")


def run_action(tmp: Path, github: FakeGitHub, fail_on: str = "", event: dict = None, comment: str = "true"):
    event_path = tmp / "event.json"
    event_path.write_text(json.dumps(event if event is not None else {"pull_request": {"number": 7}}))
    env = dict(os.environ, BR_BASE=f"{tmp}/results/base-*.csv",
               BR_HEAD=f"{tmp}/results/head-*.csv", BR_FAIL_ON=fail_on, BR_COMMENT=comment, BR_OUT=str(tmp / "out"),
               BR_EXTRA="--resamples 300", BR_PYTHON=sys.executable, GITHUB_TOKEN=TOKEN,
               GITHUB_EVENT_PATH=str(event_path), GITHUB_REPOSITORY="octo/bench", GITHUB_API_URL=github.url,
               GITHUB_STEP_SUMMARY=str(tmp / "summary.md"), GITHUB_OUTPUT=str(tmp / "output.txt"))
    return subprocess.run(["bash", str(ACTION)], env=env, capture_output=True, text=True, timeout=300)


def test_first_run_creates_second_updates_one_comment(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    with FakeGitHub() as github:
        first = run_action(tmp_path, github)
        assert first.returncode == 0, first.stderr
        assert len(github.comments) == 1
        (comment,) = github.comments.values()
        first_body = comment["body"]
        assert comment["body"].startswith("<!-- benchreport -->\n")
        assert "Performance Report" in comment["body"]
        assert ("POST", "/repos/octo/bench/issues/7/comments") in github.requests
        assert "created comment" in first.stdout

        github.requests.clear()
        write_results(tmp_path / "results", head_factor=1.3)  # a new push: head got slower
        second = run_action(tmp_path, github)  # report only: no gate
        assert second.returncode == 0, second.stderr
        assert len(github.comments) == 1, "the second run must edit the comment, not add one"
        assert [m for m, _ in github.requests] == ["GET", "PATCH"]
        assert github.comments[comment["id"]]["body"] != first_body
        assert "slower" in github.comments[comment["id"]]["body"]
        assert "updated comment" in second.stdout

    summary = (tmp_path / "summary.md").read_text()
    assert summary.count("Performance Report") == 2  # appended by each run
    assert (tmp_path / "out" / "report.html").read_text().lstrip().lower().startswith("<!doctype html")
    outputs = (tmp_path / "output.txt").read_text()
    assert f"report={tmp_path}/out/report.html" in outputs and "exit-code=0" in outputs


def test_exit_code_is_1_only_with_fail_on_slower_and_a_slower_case(tmp_path):
    with FakeGitHub() as github:
        write_results(tmp_path / "results", head_factor=1.3)
        gated = run_action(tmp_path, github, fail_on="slower")
        assert gated.returncode == 1, gated.stderr
        assert "gate tripped" in gated.stderr
        assert len(github.comments) == 1  # the comment is posted even when the gate trips
        assert run_action(tmp_path, github).returncode == 0  # same data, report only
        write_results(tmp_path / "results", head_factor=1.0)
        assert run_action(tmp_path, github, fail_on="slower").returncode == 0  # gate, nothing slower
        assert len(github.comments) == 1


def test_no_pull_request_and_comment_false_post_nothing(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    with FakeGitHub() as github:
        push = run_action(tmp_path, github, event={"ref": "refs/heads/main"})
        assert push.returncode == 0, push.stderr
        assert "not a pull-request event" in push.stdout
        off = run_action(tmp_path, github, comment="false")
        assert off.returncode == 0, off.stderr
        assert github.requests == []
    assert (tmp_path / "summary.md").exists()


def test_issue_comment_event_and_read_only_token(tmp_path):
    body = tmp_path / "body.md"
    body.write_text("report\n")
    (tmp_path / "event.json").write_text(json.dumps({"issue": {"number": 9, "pull_request": {"url": "x"}}}))
    with FakeGitHub() as github:
        env = dict(os.environ, GITHUB_EVENT_PATH=str(tmp_path / "event.json"), GITHUB_REPOSITORY="octo/bench",
                   GITHUB_API_URL=github.url, GITHUB_TOKEN=TOKEN)
        ok = subprocess.run([sys.executable, str(PR_COMMENT), "--body-file", str(body)], env=env,
                            capture_output=True, text=True, timeout=60)
        assert ok.returncode == 0, ok.stderr
        assert [c["issue"] for c in github.comments.values()] == [9]
        env["GITHUB_REPOSITORY"] = "someone/else"  # 404, like a token that may not write there
        denied = subprocess.run([sys.executable, str(PR_COMMENT), "--body-file", str(body)], env=env,
                                capture_output=True, text=True, timeout=60)
        assert denied.returncode == 0 and "::warning::" in denied.stderr
        env["GITHUB_TOKEN"] = "wrong"  # 401: a real failure
        env["GITHUB_REPOSITORY"] = "octo/bench"
        bad = subprocess.run([sys.executable, str(PR_COMMENT), "--body-file", str(body)], env=env,
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 1 and "HTTP 401" in bad.stderr


def test_action_yml_runs_the_tested_script():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert {"base", "head", "format", "fail-on", "github-token", "comment", "html-artifact"} <= set(action["inputs"])
    assert action["runs"]["using"] == "composite"
    runs = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    assert "scripts/action_compare.sh" in runs
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
