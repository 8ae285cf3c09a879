#!/usr/bin/env bash
# The run step of the benchreport GitHub Action (action.yml), kept in a script
# so that tests/python/test_action.py runs exactly what the action runs.
#
# Env (set by action.yml from its inputs):
#   BR_BASE, BR_HEAD   files / folders / globs separated by spaces, tabs or newlines (a YAML block
#                      `base: |` with one per line works; benchreport expands the globs)
#   BR_FORMAT          reader name (default auto)
#   BR_FAIL_ON         "" (report only) or "slower"
#   BR_COMMENT         true: create or update the PR comment (scripts/pr_comment.py)
#   BR_MARKER          the comment's hidden marker (default <!-- benchreport -->; one per matrix job)
#   BR_OUT             folder for report.html, comment.md (default benchreport-out)
#   BR_EXTRA           extra arguments for `benchreport compare` (whitespace-separated)
#   BR_PYTHON          interpreter with benchreport installed (default python3)
#   GITHUB_TOKEN, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL: for the comment
#   GITHUB_STEP_SUMMARY: the Markdown report is appended there
#   GITHUB_OUTPUT: outputs report, comment, exit-code
# Exits with benchreport's code: 0, 1 (gate: a case is slower, with BR_FAIL_ON=slower), 2+ errors.
# 1 means the gate and nothing else: a comment that could not be posted is a ::warning:: line
# (pr_comment.py exit 3) and leaves the exit code as benchreport gave it.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${BR_PYTHON:-python3}"
out="${BR_OUT:-benchreport-out}"
mkdir -p "$out"
# Every word of every line (read -a alone would keep the first line of a YAML block).
words() { local -n into=$1; IFS=$' \t\n' read -r -d '' -a into <<< "$2" || true; }
words base "${BR_BASE:-}"
words head "${BR_HEAD:-}"
words extra "${BR_EXTRA:-}"
if [ ${#base[@]} -eq 0 ] || [ ${#head[@]} -eq 0 ]; then
  echo "::error::benchreport: the base and head inputs are required" >&2
  exit 2
fi
args=(compare --base "${base[@]}" --head "${head[@]}" --input-format "${BR_FORMAT:-auto}"
      --format html --output "$out/report.html" --github --comment-file "$out/comment.md")
[ -n "${BR_FAIL_ON:-}" ] && args+=(--fail-on "$BR_FAIL_ON")
args+=("${extra[@]}")
"$py" -m benchreport "${args[@]}"
rc=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "report=$out/report.html"; echo "comment=$out/comment.md"; echo "exit-code=$rc"; } >> "$GITHUB_OUTPUT"
fi
if [ "$rc" -gt 1 ]; then
  exit "$rc"  # an error (bad input, refused comparison): nothing to post
fi
if [ "${BR_COMMENT:-true}" = true ]; then
  posted=0
  "$py" "$here/pr_comment.py" --body-file "$out/comment.md" --marker "${BR_MARKER:-<!-- benchreport -->}" || posted=$?
  if [ "$posted" -ne 0 ]; then
    echo "::warning::benchreport: the PR comment was not posted (pr_comment.py exit $posted); the report is in the step summary" >&2
  fi
fi
exit "$rc"
