#!/usr/bin/env python3
"""Create or update ONE pull-request comment holding a benchreport report.

The comment is found by a hidden marker (``<!-- benchreport -->`` by default)
at the top of its body: the first run creates it, later runs edit it in place
(PATCH), so a PR carries one report that follows its latest push.

Standard library only (urllib). Reads what GitHub Actions sets:
GITHUB_EVENT_PATH (the event payload: ``pull_request.number``, or
``issue.number`` with ``issue.pull_request`` for comment events),
GITHUB_REPOSITORY (owner/name), GITHUB_API_URL (default
https://api.github.com) and the token from --token-env (default GITHUB_TOKEN).

    python3 scripts/pr_comment.py --body-file benchreport-comment.md

Exit codes: 0 posted (or nothing to do: not a pull-request event, or the
token may not write to the PR, e.g. a fork's read-only token: a warning is
printed); 1 any other failure.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any, Optional

MARKER = "<!-- benchreport -->"
COMMENT_LIMIT = 65536  # GitHub's maximum comment body, in characters


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


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
            with urllib.request.urlopen(req, timeout=30) as resp:
                text = resp.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:500]
            raise ApiError(exc.code, f"{method} {path}: {detail}") from None
        return json.loads(text) if text else None

    def find_comment(self, number: int, marker: str) -> Optional[dict]:
        page = 1
        while True:
            comments = self.request("GET", f"/repos/{self.repo}/issues/{number}/comments?per_page=100&page={page}")
            for comment in comments or []:
                if marker in (comment.get("body") or ""):
                    return comment
            if not comments or len(comments) < 100:
                return None
            page += 1

    def upsert(self, number: int, body: str, marker: str) -> tuple[str, dict]:
        existing = self.find_comment(number, marker)
        if existing is not None:
            return "updated", self.request("PATCH", f"/repos/{self.repo}/issues/comments/{existing['id']}", {"body": body})
        return "created", self.request("POST", f"/repos/{self.repo}/issues/{number}/comments", {"body": body})


def pull_request_number(event: dict) -> Optional[int]:
    if isinstance(event.get("pull_request"), dict) and "number" in event["pull_request"]:
        return int(event["pull_request"]["number"])
    issue = event.get("issue")
    if isinstance(issue, dict) and issue.get("pull_request") and "number" in issue:
        return int(issue["number"])
    return None


def comment_body(text: str, marker: str) -> str:
    body = f"{marker}\n{text}"
    if len(body) > COMMENT_LIMIT:  # the CLI's --budget keeps reports under this; a last guard
        note = "\n\n… (truncated to GitHub's comment limit)\n"
        body = body[: COMMENT_LIMIT - len(note)] + note
    return body


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--body-file", required=True, help="Markdown body (benchreport compare --github --comment-file)")
    parser.add_argument("--marker", default=MARKER, help=f"hidden marker that identifies the comment (default {MARKER})")
    parser.add_argument("--token-env", default="GITHUB_TOKEN", help="environment variable holding the token")
    args = parser.parse_args(argv)

    event_path = os.environ.get("GITHUB_EVENT_PATH")
    repository = os.environ.get("GITHUB_REPOSITORY")
    if not event_path or not repository:
        print("pr_comment: GITHUB_EVENT_PATH and GITHUB_REPOSITORY must be set (run inside GitHub Actions)", file=sys.stderr)
        return 1
    with open(event_path, encoding="utf-8") as fh:
        event = json.load(fh)
    number = pull_request_number(event)
    if number is None:
        print("pr_comment: not a pull-request event: no comment posted")
        return 0
    with open(args.body_file, encoding="utf-8") as fh:
        body = comment_body(fh.read(), args.marker)
    github = GitHub(os.environ.get("GITHUB_API_URL", "https://api.github.com"), repository,
                    os.environ.get(args.token_env, ""))
    try:
        action, comment = github.upsert(number, body, args.marker)
    except ApiError as exc:
        if exc.status in (403, 404):
            print(f"::warning::benchreport: could not comment on #{number} ({exc}); "
                  "a fork's token is read-only: the report is in the step summary", file=sys.stderr)
            return 0
        print(f"pr_comment: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"pr_comment: {exc}", file=sys.stderr)
        return 1
    print(f"pr_comment: {action} comment {comment.get('html_url') or comment.get('id')} on #{number}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
