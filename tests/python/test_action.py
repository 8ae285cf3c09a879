"""The GitHub Action's run step (scripts/action_compare.sh) and its PR-comment
script (scripts/pr_comment.py) end to end, against a stub of the GitHub REST
API on 127.0.0.1: the first run creates one comment, the second edits it in
place (PATCH); the step summary is written; the exit code is 1 only with
fail-on slower and a slower case. Issue 33: only the token's own comment
starting with the marker is edited (a foreign one quoting it is not), one
marker per matrix job, no token on a redirect to another host, a failed post
is a warning (never exit 1), every page of comments is searched."""
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional
from urllib.parse import urlparse

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "scripts" / "action_compare.sh"
PR_COMMENT = REPO / "scripts" / "pr_comment.py"
TOKEN = "test-token-123"
BOT = "github-actions[bot]"


class FakeGitHub:
    """Issue comments of one repository, as the REST API serves them."""

    def __init__(self, login=None):
        self.comments = {}  # id -> {"id", "body", "issue", "user": {"login"}}
        self.requests = []  # (method, path)
        self.headers = []  # the request headers, in order
        self.next_id = 1000
        self.login = login  # None: GET /user is 403, as for the workflow's GITHUB_TOKEN
        self.override = {}  # (method, "list"|"post"|"patch"|"user") -> (status, payload, headers)
        self.pulls = {}  # number -> head sha, for GET /repos/octo/bench/pulls/N
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status, payload, headers=None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self):
                return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

            def _handle(self, method):
                url = urlparse(self.path)
                fake.requests.append((method, url.path))
                fake.headers.append(dict(self.headers))
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self._reply(401, {"message": "Bad credentials"})
                parts = url.path.strip("/").split("/")  # repos/o/r/issues/N/comments | repos/o/r/issues/comments/ID
                kind = ("user" if parts == ["user"] else "patch" if method == "PATCH" else
                        "post" if method == "POST" else "list")
                if (method, kind) in fake.override:
                    return self._reply(*fake.override[(method, kind)])
                if parts == ["user"]:
                    if fake.login is None:
                        return self._reply(403, {"message": "Resource not accessible by integration"})
                    return self._reply(200, {"login": fake.login, "id": 1})
                if parts[:4] == ["repos", "octo", "bench", "pulls"] and method == "GET" and len(parts) == 5:
                    if not parts[4].isdigit() or int(parts[4]) not in fake.pulls:
                        return self._reply(404, {"message": "Not Found"})
                    return self._reply(200, {"number": int(parts[4]), "head": {"sha": fake.pulls[int(parts[4])]}})
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
                               "user": {"login": fake.login or BOT}, "html_url": f"https://github.test/octo/bench/pull/{number}#c{fake.next_id}"}
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


def run_action(tmp: Path, github: FakeGitHub, fail_on: str = "", event: Optional[dict] = None,
               comment: str = "true", marker: Optional[str] = None, base: Optional[str] = None, **extra: str):
    event_path = tmp / "event.json"
    event_path.write_text(json.dumps(event if event is not None else {"pull_request": {"number": 7}}))
    if marker is not None:
        extra["BR_MARKER"] = marker
    env = dict(os.environ, BR_BASE=base if base is not None else f"{tmp}/results/base-*.csv",
               BR_HEAD=f"{tmp}/results/head-*.csv", BR_FAIL_ON=fail_on, BR_COMMENT=comment, BR_OUT=str(tmp / "out"),
               BR_EXTRA="--resamples 300", BR_PYTHON=sys.executable, GITHUB_TOKEN=TOKEN,
               GITHUB_EVENT_PATH=str(event_path), GITHUB_REPOSITORY="octo/bench", GITHUB_API_URL=github.url,
               GITHUB_STEP_SUMMARY=str(tmp / "summary.md"), GITHUB_OUTPUT=str(tmp / "output.txt"))
    env.update(extra)
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
        assert [m for m, _ in github.requests] == ["GET", "GET", "PATCH"]  # /user, the comments, the edit
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
        env["GITHUB_TOKEN"] = "wrong"  # 401: a real failure, exit 3 (never 1, the gate's code)
        env["GITHUB_REPOSITORY"] = "octo/bench"
        bad = subprocess.run([sys.executable, str(PR_COMMENT), "--body-file", str(body)], env=env,
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 3 and "HTTP 401" in bad.stderr and "::warning::" in bad.stderr


def test_action_yml_runs_the_tested_script():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert {"base", "head", "format", "fail-on", "github-token", "comment", "html-artifact"} <= set(action["inputs"])
    assert action["runs"]["using"] == "composite"
    runs = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    assert "scripts/action_compare.sh" in runs
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert any(u.startswith("actions/upload-artifact@") for u in uses)


def pr_comment(tmp: Path, github_url: str, *args: str, body: str = "report\n", number: int = 7):
    (tmp / "body.md").write_text(body)
    (tmp / "event.json").write_text(json.dumps({"pull_request": {"number": number}}))
    env = dict(os.environ, GITHUB_EVENT_PATH=str(tmp / "event.json"), GITHUB_REPOSITORY="octo/bench",
               GITHUB_API_URL=github_url, GITHUB_TOKEN=TOKEN)
    return subprocess.run([sys.executable, str(PR_COMMENT), "--body-file", str(tmp / "body.md"), *args], env=env,
                          capture_output=True, text=True, timeout=60)


def add_comment(github: FakeGitHub, login: str, body: str, issue: int = 7) -> int:
    github.next_id += 1
    github.comments[github.next_id] = {"id": github.next_id, "issue": issue, "body": body, "user": {"login": login}}
    return github.next_id


def test_a_foreign_comment_holding_the_marker_is_never_edited(tmp_path):
    with FakeGitHub() as github:
        quoted = add_comment(github, "mallory", "> <!-- benchreport -->\n> nice report")
        foreign = add_comment(github, "mallory", "<!-- benchreport -->\nI can edit this later")
        late_marker = add_comment(github, BOT, "a bot comment that mentions <!-- benchreport --> later")
        first = pr_comment(tmp_path, github.url)
        assert first.returncode == 0, first.stderr
        assert github.comments[quoted]["body"].startswith("> ") and "I can edit" in github.comments[foreign]["body"]
        assert "mentions" in github.comments[late_marker]["body"]
        (ours,) = [c for c in github.comments.values() if c["id"] not in (quoted, foreign, late_marker)]
        assert ours["user"]["login"] == BOT and ours["body"] == "<!-- benchreport -->\nreport\n"
        second = pr_comment(tmp_path, github.url, body="report 2\n")
        assert second.returncode == 0 and "updated comment" in second.stdout
        assert github.comments[ours["id"]]["body"].endswith("report 2\n") and len(github.comments) == 4
        assert ("PATCH", f"/repos/octo/bench/issues/comments/{foreign}") not in github.requests


def test_the_identity_comes_from_get_user_when_the_token_may_read_it(tmp_path):
    with FakeGitHub(login="perf-bot") as github:
        bots = add_comment(github, BOT, "<!-- benchreport -->\nnot this token's")
        ran = pr_comment(tmp_path, github.url)
        assert ran.returncode == 0, ran.stderr
        assert "not this token's" in github.comments[bots]["body"]
        assert [c["user"]["login"] for c in github.comments.values()] == [BOT, "perf-bot"]


def test_two_matrix_jobs_keep_one_comment_each(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    with FakeGitHub() as github:
        for _ in range(2):
            for job in ("linux", "macos"):
                ran = run_action(tmp_path, github, marker=f"<!-- benchreport {job} -->")
                assert ran.returncode == 0, ran.stderr
        bodies = sorted(c["body"].split("\n", 1)[0] for c in github.comments.values())
        assert bodies == ["<!-- benchreport linux -->", "<!-- benchreport macos -->"]
        assert [m for m, _ in github.requests].count("PATCH") == 2
    assert pr_comment(tmp_path, "http://127.0.0.1:9", "--marker", "benchreport").returncode == 2  # not a comment


def test_every_page_of_comments_is_searched(tmp_path):
    with FakeGitHub() as github:
        for i in range(130):
            add_comment(github, "someone", "<!-- benchreport -->\nquoted" if i == 5 else f"comment {i}")
        ours = add_comment(github, BOT, "<!-- benchreport -->\nold")
        for i in range(80):
            add_comment(github, "someone", f"later {i}")
        ran = pr_comment(tmp_path, github.url, body="new\n")
        assert ran.returncode == 0, ran.stderr
        assert github.comments[ours]["body"] == "<!-- benchreport -->\nnew\n" and len(github.comments) == 211
        pages = [p for m, p in github.requests if m == "GET" and p.endswith("/comments")]
        assert len(pages) == 2  # page 2 holds it: not a third request


def test_a_redirect_to_another_host_does_not_carry_the_token(tmp_path):
    with FakeGitHub() as github, FakeGitHub() as other:
        github.override[("GET", "list")] = (302, {}, {"Location": f"{other.url}/repos/octo/bench/issues/7/comments"})
        ran = pr_comment(tmp_path, github.url)
        assert [m for m, _ in other.requests] == ["GET"]
        assert "Authorization" not in other.headers[0]
        assert other.headers[0].get("User-Agent") == "benchreport-pr-comment"
        assert ran.returncode == 3 and "HTTP 401" in ran.stderr and "Traceback" not in ran.stderr


def test_failed_posts_are_warnings_never_exit_1(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    with FakeGitHub() as github:
        github.override[("POST", "post")] = (500, {"message": "Server Error"}, {})
        alone = pr_comment(tmp_path, github.url)
        assert alone.returncode == 3 and "::warning::" in alone.stderr and "HTTP 500" in alone.stderr
        for fail_on in ("", "slower"):
            ran = run_action(tmp_path, github, fail_on=fail_on)
            assert ran.returncode == 0, ran.stderr
            assert "the PR comment was not posted (pr_comment.py exit 3)" in ran.stderr
        assert "exit-code=0" in (tmp_path / "output.txt").read_text()
        write_results(tmp_path / "results", head_factor=1.3)
        assert run_action(tmp_path, github, fail_on="slower").returncode == 1  # the gate, still
    # a network error: the server is gone
    gone = pr_comment(tmp_path, github.url)
    assert gone.returncode == 3 and "::warning::" in gone.stderr and "Traceback" not in gone.stderr


def test_an_object_where_a_list_belongs_and_a_rate_limit(tmp_path):
    with FakeGitHub() as github:
        github.override[("GET", "list")] = (200, {"message": "not a list"}, {})
        odd = pr_comment(tmp_path, github.url)
        assert odd.returncode == 3 and "expected a list of comments" in odd.stderr and "Traceback" not in odd.stderr
        github.override[("GET", "list")] = (403, {"message": "API rate limit exceeded for installation"},
                                            {"x-ratelimit-remaining": "0"})
        limited = pr_comment(tmp_path, github.url)
        assert limited.returncode == 3 and "rate limit" in limited.stderr and "fork" not in limited.stderr
        del github.override[("GET", "list")]
        github.override[("POST", "post")] = (201, ["a", "list"], {})
        listed = pr_comment(tmp_path, github.url)
        assert listed.returncode == 3 and "expected an object" in listed.stderr and "Traceback" not in listed.stderr


def test_base_and_head_as_yaml_blocks(tmp_path):
    write_results(tmp_path / "results", head_factor=1.0)
    block = f"{tmp_path}/results/base-1.csv\n{tmp_path}/results/base-2.csv\n"  # base: | with one path per line
    with FakeGitHub() as github:
        ran = run_action(tmp_path, github, base=block, comment="false")
        assert ran.returncode == 0, ran.stderr
        spaced = run_action(tmp_path, github, base=block.replace("\n", "  \t"), comment="false")
        assert spaced.returncode == 0, spaced.stderr
        # the second line is read too: a missing file there is an error, not silently dropped
        missing = run_action(tmp_path, github, base=f"{tmp_path}/results/base-1.csv\n{tmp_path}/nope.csv\n",
                             comment="false")
        assert missing.returncode == 2 and "nope.csv" in missing.stderr
