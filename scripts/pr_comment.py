#!/usr/bin/env python3
"""Create or update ONE pull-request comment holding a benchreport report.

The comment is found by a hidden marker (``<!-- benchreport -->`` by default)
that STARTS its body and by its author: only a comment written by the token's
own identity is edited (PATCH). The identity is ``GET /user``'s login; a token
that may not read it (the workflow's GITHUB_TOKEN, an app's installation token)
is taken to be ``github-actions[bot]`` unless ``--author`` names it. A comment
by anyone else that holds or quotes the marker is never touched. Give each
matrix job its own marker (``--marker '<!-- benchreport linux -->'``) and
each keeps its own comment.

Standard library only (urllib). Reads what GitHub Actions sets:
GITHUB_EVENT_PATH (the event payload: ``pull_request.number``, or
``issue.number`` with ``issue.pull_request`` for comment events),
GITHUB_REPOSITORY (owner/name), GITHUB_API_URL (default
https://api.github.com) and the token from --token-env (default GITHUB_TOKEN).
The token is sent to the API host only: a redirect to another host is followed
without the Authorization header.

    python3 scripts/pr_comment.py --body-file benchreport-comment.md

Trusted reporting (a fork's pull request gets a read-only token): the compare
job runs ``--body-file comment.md --save DIR`` (DIR/pr-number and
DIR/comment.md, uploaded as an artifact) and a ``workflow_run`` job, which
checks out and runs none of the PR's code, runs ``--from-artifact DIR``. That
artifact is untrusted: the PR number must be a positive integer, the body at
most GitHub's comment limit with the marker (it is refused, not truncated),
and the PR must be the one the run built (listed in the event's
``workflow_run.pull_requests``, and its head commit, ``GET /pulls/N``, the
run's ``head_sha``); otherwise nothing is posted.

Exit codes (never 1, which means a tripped gate in benchreport and the Action):
0 posted, or nothing to do (not a pull-request event; a token that may not
write to the PR, e.g. a fork's read-only token: a warning is printed);
2 usage or environment error (not inside GitHub Actions, a bad marker, an
unreadable body file, a refused artifact); 3 the comment could not be posted (an HTTP error, a
rate limit, a network error, an unexpected reply): a ``::warning::`` line says why.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional

MARKER = "<!-- benchreport -->"
COMMENT_LIMIT = 65536  # GitHub's maximum comment body, in characters
PER_PAGE = 100  # GitHub's largest page of issue comments
MAX_PAGES = 1000  # 100 000 comments: a guard against a server that never ends its pages
DEFAULT_BOT = "github-actions[bot]"  # the author of comments posted with the workflow's GITHUB_TOKEN
EXIT_OK, EXIT_USAGE, EXIT_NOT_POSTED = 0, 2, 3
_MARKER_RE = re.compile(r"<!--[^\n\r]*?-->")
# The hand-over between the compare job and the workflow_run job (trusted reporting, forks).
ARTIFACT_PR, ARTIFACT_BODY = "pr-number", "comment.md"
ARTIFACT_BYTES = 4 * COMMENT_LIMIT  # UTF-8 of the longest comment; more is refused unread
_PR_NUMBER_RE = re.compile(r"[1-9][0-9]{0,9}")


class ApiError(Exception):
    def __init__(self, status: int, message: str, rate_limited: bool = False) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.rate_limited = rate_limited


class ArtifactError(Exception):
    """A comment artifact that is refused: its content may come from a fork's code."""


class _SameHostAuthRedirect(urllib.request.HTTPRedirectHandler):
    """Follows redirects as urllib does, but drops Authorization when the host (or scheme) changes."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            old_url, new_url = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(new.full_url)
            if (old_url.scheme, old_url.netloc) != (new_url.scheme, new_url.netloc):
                for name in list(new.headers):
                    if name.lower() == "authorization":
                        del new.headers[name]
        return new


_OPENER = urllib.request.build_opener(_SameHostAuthRedirect())


def _rate_limited(status: int, headers: Any, detail: str) -> bool:
    return status in (403, 429) and (
        (headers is not None and headers.get("x-ratelimit-remaining") == "0")
        or (headers is not None and headers.get("retry-after") is not None)
        or "rate limit" in detail.lower())


class GitHub:
    def __init__(self, api_url: str, repository: str, token: str) -> None:
        self.api = api_url.rstrip("/")
        self.repo = repository
        self.token = token

    def request(self, method: str, path: str, body: Optional[dict] = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(f"{self.api}{path}", data=data, method=method)
        req.add_header("Accept", "application/vnd.github+json")
        req.add_header("X-GitHub-Api-Version", "2022-11-28")
        req.add_header("User-Agent", "benchreport-pr-comment")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with _OPENER.open(req, timeout=30) as resp:
                text = resp.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:500]
            limited = _rate_limited(exc.code, exc.headers, detail)
            raise ApiError(exc.code, f"{method} {path}: {detail}", limited) from None
        try:
            return json.loads(text) if text else None
        except ValueError:
            raise ApiError(200, f"{method} {path}: the reply is not JSON") from None

    def identity(self, author: Optional[str]) -> str:
        """The login whose comments may be edited: --author, else GET /user, else github-actions[bot]."""
        if author:
            return author
        try:
            user = self.request("GET", "/user")
        except ApiError as exc:
            if exc.rate_limited or exc.status not in (401, 403, 404):
                raise
            return DEFAULT_BOT  # GITHUB_TOKEN and installation tokens may not read /user
        if not isinstance(user, dict) or not isinstance(user.get("login"), str):
            raise ApiError(200, "GET /user: the reply holds no login")
        return user["login"]

    def find_comment(self, number: int, marker: str, author: str) -> Optional[dict]:
        """The first comment on the PR by ``author`` whose body starts with ``marker``, over every page."""
        for page in range(1, MAX_PAGES + 1):
            path = f"/repos/{self.repo}/issues/{number}/comments?per_page={PER_PAGE}&page={page}"
            comments = self.request("GET", path)
            if comments is None:
                return None
            if not isinstance(comments, list):
                raise ApiError(200, f"GET {path}: expected a list of comments, got {type(comments).__name__}")
            for comment in comments:
                if is_ours(comment, marker, author):
                    return comment
            if len(comments) < PER_PAGE:
                return None
        return None

    def upsert(self, number: int, body: str, marker: str, author: str) -> tuple[str, dict]:
        existing = self.find_comment(number, marker, author)
        if existing is not None:
            result = ("updated", self.request("PATCH", f"/repos/{self.repo}/issues/comments/{existing['id']}",
                                              {"body": body}))
        else:
            result = ("created", self.request("POST", f"/repos/{self.repo}/issues/{number}/comments", {"body": body}))
        if not isinstance(result[1], dict):
            raise ApiError(200, f"{result[0]} comment: expected an object in the reply")
        return result


def is_ours(comment: Any, marker: str, author: str) -> bool:
    """A comment written by ``author`` whose body starts with the marker line."""
    if not isinstance(comment, dict) or not isinstance(comment.get("id"), int):
        return False
    user = comment.get("user")
    body = comment.get("body")
    if not isinstance(user, dict) or user.get("login") != author or not isinstance(body, str):
        return False
    return body.startswith(marker) and body[len(marker):len(marker) + 1] in ("", "\n", "\r")


def pull_request_number(event: Any) -> Optional[int]:
    if not isinstance(event, dict):
        return None
    pr = event.get("pull_request")
    if isinstance(pr, dict) and isinstance(pr.get("number"), int):
        return pr["number"]
    issue = event.get("issue")
    if isinstance(issue, dict) and issue.get("pull_request") and isinstance(issue.get("number"), int):
        return issue["number"]
    return None


def comment_body(text: str, marker: str) -> str:
    body = f"{marker}\n{text}"
    if len(body) > COMMENT_LIMIT:  # the CLI's --budget keeps reports under this; a last guard
        note = "\n\n… (truncated to GitHub's comment limit)\n"
        body = body[: COMMENT_LIMIT - len(note)] + note
    return body


def warn(message: str) -> None:
    print(f"::warning::benchreport: {message}", file=sys.stderr)


def save_artifact(folder: str, number: int, text: str) -> None:
    """The compare half of trusted reporting: the PR number and the comment's text, for a workflow_run job."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, ARTIFACT_PR), "w", encoding="utf-8") as fh:
        fh.write(f"{number}\n")
    with open(os.path.join(folder, ARTIFACT_BODY), "w", encoding="utf-8") as fh:
        fh.write(text)


def read_artifact_file(folder: str, name: str, limit: int) -> str:
    """A regular file of at most ``limit`` bytes of UTF-8; the artifact may come from a fork's code."""
    path = os.path.join(folder, name)
    if os.path.islink(path) or not os.path.isfile(path):
        raise ArtifactError(f"{path}: missing or not a regular file")
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ArtifactError(f"{path}: larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArtifactError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None


def artifact_pr_number(folder: str) -> int:
    text = read_artifact_file(folder, ARTIFACT_PR, 64).strip()
    if not _PR_NUMBER_RE.fullmatch(text):
        path = os.path.join(folder, ARTIFACT_PR)
        raise ArtifactError(f"{path}: a PR number is a positive integer, got {text[:40]!r}")
    return int(text)


def artifact_body(folder: str, marker: str) -> str:
    text = read_artifact_file(folder, ARTIFACT_BODY, ARTIFACT_BYTES)
    body = f"{marker}\n{text}"
    if len(body) > COMMENT_LIMIT:
        raise ArtifactError(f"{os.path.join(folder, ARTIFACT_BODY)}: {len(body)} characters with the marker, "
                            f"over GitHub's limit of {COMMENT_LIMIT}")
    return body


def check_run_pr(github: GitHub, run: dict, number: int) -> Optional[str]:
    """Why the PR named by the artifact is not the one the workflow run built, or None when it is.

    A fork's run lists no pull requests, so the PR's head commit (GET /pulls/N) must be the run's head_sha:
    an artifact cannot send its comment to another PR."""
    listed = [pr.get("number") for pr in run.get("pull_requests") or [] if isinstance(pr, dict)]
    if listed and number not in listed:
        return f"the artifact names #{number}, the workflow run belongs to {', '.join(f'#{n}' for n in listed)}"
    pull = github.request("GET", f"/repos/{github.repo}/pulls/{number}")
    head = pull.get("head") if isinstance(pull, dict) else None
    sha = head.get("sha") if isinstance(head, dict) else None
    if sha != run.get("head_sha"):
        return (f"the head of #{number} is {sha}, the workflow run built {run.get('head_sha')} "
                "(a newer push, or an artifact naming another PR)")
    return None


def post(github: GitHub, number: int, body: str, marker: str, author_flag: Optional[str],
         run: Optional[dict] = None) -> int:
    try:
        if run is not None:
            mismatch = check_run_pr(github, run, number)
            if mismatch is not None:
                warn(f"no comment posted: {mismatch}")
                return EXIT_OK
        author = github.identity(author_flag)
        action, comment = github.upsert(number, body, marker, author)
    except ApiError as exc:
        if exc.rate_limited:
            warn(f"could not comment on #{number}: the API rate limit is exhausted ({exc}); "
                 "the report is in the step summary")
            return EXIT_NOT_POSTED
        if exc.status in (403, 404):
            warn(f"could not comment on #{number} ({exc}); a fork's token is read-only: "
                 "the report is in the step summary")
            return EXIT_OK
        warn(f"could not comment on #{number} ({exc}); the report is in the step summary")
        return EXIT_NOT_POSTED
    except (OSError, ValueError) as exc:
        warn(f"could not comment on #{number} ({exc}); the report is in the step summary")
        return EXIT_NOT_POSTED
    print(f"pr_comment: {action} comment {comment.get('html_url') or comment.get('id')} on #{number}")
    return EXIT_OK


def post_from_artifact(folder: str, event: Any, github: GitHub, marker: str, author: Optional[str]) -> int:
    """The workflow_run half: post what the compare job left, running none of the PR's code."""
    run = event.get("workflow_run") if isinstance(event, dict) else None
    if not isinstance(run, dict):
        print("pr_comment: --from-artifact needs a workflow_run event", file=sys.stderr)
        return EXIT_USAGE
    if run.get("event") not in ("pull_request", "pull_request_target"):
        print(f"pr_comment: the workflow run was for a {run.get('event')!r} event, not a pull request: "
              "no comment posted")
        return EXIT_OK
    try:
        number = artifact_pr_number(folder)
        body = artifact_body(folder, marker)
    except (ArtifactError, OSError) as exc:
        print(f"::error::benchreport: refused the comment artifact: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return post(github, number, body, marker, author, run)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--body-file", help="Markdown body (benchreport compare --github --comment-file)")
    parser.add_argument("--marker", default=MARKER,
                        help=f"hidden HTML comment that starts the comment's body (default {MARKER}); "
                             "one per matrix job")
    parser.add_argument("--author", default=os.environ.get("BR_COMMENT_AUTHOR") or None,
                        help="login of the token's identity (default: GET /user, else github-actions[bot])")
    parser.add_argument("--token-env", default="GITHUB_TOKEN", help="environment variable holding the token")
    half = parser.add_mutually_exclusive_group()
    half.add_argument("--save", metavar="DIR",
                      help=f"do not post: write {ARTIFACT_PR} and {ARTIFACT_BODY} to DIR for a workflow_run job")
    half.add_argument("--from-artifact", metavar="DIR",
                      help="post what --save wrote (in a workflow_run job; the PR is checked against the run)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    if not _MARKER_RE.fullmatch(args.marker):
        print(f"pr_comment: --marker must be one HTML comment on one line, such as {MARKER} (got {args.marker!r})",
              file=sys.stderr)
        return EXIT_USAGE
    if (args.body_file is None) == (args.from_artifact is None):
        print("pr_comment: give --body-file, or --from-artifact", file=sys.stderr)
        return EXIT_USAGE

    event_path = os.environ.get("GITHUB_EVENT_PATH")
    repository = os.environ.get("GITHUB_REPOSITORY")
    if not event_path or not repository:
        print("pr_comment: GITHUB_EVENT_PATH and GITHUB_REPOSITORY must be set (run inside GitHub Actions)",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        with open(event_path, encoding="utf-8") as fh:
            event = json.load(fh)
        text = ""
        if args.body_file is not None:
            with open(args.body_file, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, ValueError) as exc:
        print(f"pr_comment: {exc}", file=sys.stderr)
        return EXIT_USAGE
    github = GitHub(os.environ.get("GITHUB_API_URL", "https://api.github.com"), repository,
                    os.environ.get(args.token_env, ""))
    if args.from_artifact is not None:
        return post_from_artifact(args.from_artifact, event, github, args.marker, args.author)
    number = pull_request_number(event)
    if number is None:
        print("pr_comment: not a pull-request event: no comment posted")
        return EXIT_OK
    body = comment_body(text, args.marker)
    if args.save is not None:
        try:
            save_artifact(args.save, number, body[len(args.marker) + 1:])
        except OSError as exc:
            print(f"pr_comment: {exc}", file=sys.stderr)
            return EXIT_USAGE
        print(f"pr_comment: the comment for #{number} is in {args.save} (posted by the workflow_run job)")
        return EXIT_OK
    return post(github, number, body, args.marker, args.author)


if __name__ == "__main__":
    sys.exit(main())
