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
#   BR_MODE            compare (default): post the comment from this job; compare-only: write the
#                      comment to BR_ARTIFACT_DIR for a workflow_run job (trusted reporting, forks)
#   BR_ARTIFACT_DIR    compare-only: the folder to upload (default $BR_OUT/artifact): pr-number,
#                      comment.md, report.html
#   BR_STORE_PATH      a results store (scripts/action_store.sh restores it); when the file exists the
#                      compare learns launch noise from it: --store PATH --branch BR_STORE_MAIN (default main)
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
mode="${BR_MODE:-compare}"
marker="${BR_MARKER:-<!-- benchreport -->}"
case "$mode" in
  compare | compare-only) ;;
  *) echo "::error::benchreport: mode must be compare, compare-only, post-only or record (got '$mode')" >&2; exit 2 ;;
esac
mkdir -p "$out"
# Every word of every line (read -a alone would keep the first line of a YAML block).
# shellcheck disable=SC2034  # `into` is a nameref: it assigns the caller's array
words() { local -n into=$1; IFS=$' \t\n' read -r -d '' -a into <<< "$2" || true; }
words base "${BR_BASE:-}"
words head "${BR_HEAD:-}"
words extra "${BR_EXTRA:-}"
# shellcheck disable=SC2154  # base and head are assigned through words()'s nameref
if [ ${#base[@]} -eq 0 ] || [ ${#head[@]} -eq 0 ]; then
  echo "::error::benchreport: the base and head inputs are required" >&2
  exit 2
fi
args=(compare --base "${base[@]}" --head "${head[@]}" --input-format "${BR_FORMAT:-auto}"
      --format html --output "$out/report.html" --github --comment-file "$out/comment.md")
[ -n "${BR_FAIL_ON:-}" ] && args+=(--fail-on "$BR_FAIL_ON")
if [ -n "${BR_STORE_PATH:-}" ]; then
  if [ -f "$BR_STORE_PATH" ]; then
    args+=(--store "$BR_STORE_PATH" --branch "${BR_STORE_MAIN:-main}")
  else
    echo "::notice::benchreport: no results store yet ($BR_STORE_PATH): this compare uses its own processes only" >&2
  fi
fi
args+=("${extra[@]}")
"$py" -m benchreport "${args[@]}"
rc=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "report=$out/report.html"; echo "comment=$out/comment.md"; echo "exit-code=$rc"; } >> "$GITHUB_OUTPUT"
fi
if [ "$rc" -gt 1 ]; then
  exit "$rc"  # an error (bad input, refused comparison): nothing to post
fi
if [ "$mode" = compare-only ]; then
  artifact="${BR_ARTIFACT_DIR:-$out/artifact}"
  saved=0
  "$py" "$here/pr_comment.py" --body-file "$out/comment.md" --marker "$marker" --save "$artifact" || saved=$?
  if [ "$saved" -ne 0 ]; then
    exit 2
  fi
  if [ -d "$artifact" ]; then cp "$out/report.html" "$artifact/"; fi
elif [ "${BR_COMMENT:-true}" = true ]; then
  posted=0
  "$py" "$here/pr_comment.py" --body-file "$out/comment.md" --marker "$marker" || posted=$?
  if [ "$posted" -ne 0 ]; then
    echo "::warning::benchreport: the PR comment was not posted (pr_comment.py exit $posted); the report is in the step summary" >&2
  fi
fi
exit "$rc"
