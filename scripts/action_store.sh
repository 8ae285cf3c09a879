#!/usr/bin/env bash
# The results store of the benchreport GitHub Action (action.yml, issue 34):
# where the store file lives between runs, and recording main's runs into it.
# The store itself (an SQLite file) is benchreport's: this script only moves
# the file and runs `benchreport record`.
#
#   action_store.sh restore   bring the store to BR_STORE_PATH (store: branch; store: cache is
#                             restored by actions/cache/restore in action.yml before this)
#   action_store.sh record    benchreport record BR_HEAD --commit BR_COMMIT --branch BR_STORE_MAIN
#                             --store BR_STORE_PATH; with store: branch, then commit and push it
#
# store: branch keeps ONE commit on BR_STORE_BRANCH whose tree is the store file (the store holds
# its own history). It is replaced with `git push --force-with-lease` naming the tip that was read,
# so two jobs recording at once cannot lose a run: the later push is refused, and that job fetches
# the new tip and records again (a run already stored is recognised by its content hash).
# Nothing is checked out: the file is read with `git show` and written with hash-object/mktree/commit-tree.
#
# Env (set by action.yml from its inputs):
#   BR_STORE         cache or branch
#   BR_STORE_PATH    the store file (default $RUNNER_TEMP/benchreport-store/benchreport.sqlite)
#   BR_STORE_BRANCH  store: branch: the data branch (default benchreport-data)
#   BR_STORE_MAIN    the branch whose runs are recorded and learnt from (default main)
#   BR_HEAD          files / folders / globs to record (as action_compare.sh's BR_HEAD)
#   BR_COMMIT        the commit they measured (default $GITHUB_SHA)
#   BR_PYTHON        interpreter with benchreport installed (default python3)
#   BR_REPO          git repository whose `origin` holds the data branch (default $GITHUB_WORKSPACE or .)
#   BR_ATTEMPTS      store: branch: pushes tried before giving up (default 5)
set -euo pipefail
py="${BR_PYTHON:-python3}"
store="${BR_STORE:-}"
path="${BR_STORE_PATH:-${RUNNER_TEMP:-/tmp}/benchreport-store/benchreport.sqlite}"
data_branch="${BR_STORE_BRANCH:-benchreport-data}"
main="${BR_STORE_MAIN:-main}"
repo="${BR_REPO:-${GITHUB_WORKSPACE:-.}}"
file="$(basename "$path")"
tip_ref="refs/benchreport/$data_branch"  # a private ref: the user's branches are not touched

case "$store" in
  cache | branch) ;;
  *) echo "::error::benchreport: store must be cache or branch (got '$store')" >&2; exit 2 ;;
esac
if ! git check-ref-format "refs/heads/$data_branch"; then
  echo "::error::benchreport: store-branch '$data_branch' is not a valid branch name" >&2
  exit 2
fi
mkdir -p "$(dirname "$path")"

# The data branch's tip into $tip_ref and its store file to $path; no branch yet: no store yet.
restore_branch() {
  rm -f "$path"
  git -C "$repo" update-ref -d "$tip_ref" 2>/dev/null || true
  if ! git -C "$repo" fetch -q --no-tags --depth=1 origin "+refs/heads/$data_branch:$tip_ref" 2>/dev/null; then
    echo "benchreport: no branch $data_branch yet: starting a new store"
    return 0
  fi
  git -C "$repo" show "$tip_ref:$file" > "$path"
  echo "benchreport: store restored from $data_branch ($(git -C "$repo" rev-parse --short "$tip_ref"))"
}

# One commit holding the store file, pushed only if the branch is still at the tip that was read.
push_branch() {
  local blob tree commit lease
  blob="$(git -C "$repo" hash-object -w "$path")"
  tree="$(printf '100644 blob %s\t%s\n' "$blob" "$file" | git -C "$repo" mktree)"
  commit="$(GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-github-actions[bot]}" \
    GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
    GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-github-actions[bot]}" \
    GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
    git -C "$repo" commit-tree "$tree" -m "benchreport store: $main at $commit_sha")"
  lease="$(git -C "$repo" rev-parse -q --verify "$tip_ref" || true)"  # empty: the branch must not exist yet
  git -C "$repo" push -q --force-with-lease="refs/heads/$data_branch:$lease" origin "$commit:refs/heads/$data_branch"
}

record() {
  local attempt
  commit_sha="${BR_COMMIT:-${GITHUB_SHA:-}}"
  if [ -z "$commit_sha" ]; then
    echo "::error::benchreport: record needs the commit (BR_COMMIT or GITHUB_SHA)" >&2
    exit 2
  fi
  IFS=$' \t\n' read -r -d '' -a files <<< "${BR_HEAD:-}" || true
  if [ ${#files[@]} -eq 0 ]; then
    echo "::error::benchreport: record needs the files to record (the head input)" >&2
    exit 2
  fi
  for ((attempt = 1; attempt <= ${BR_ATTEMPTS:-5}; attempt++)); do
    if [ "$store" = branch ] && [ "$attempt" -gt 1 ]; then restore_branch; fi
    "$py" -m benchreport record "${files[@]}" --commit "$commit_sha" --branch "$main" --store "$path"
    if [ "$store" = cache ]; then return 0; fi  # actions/cache/save in action.yml keeps it
    if push_branch; then
      echo "benchreport: store pushed to $data_branch"
      return 0
    fi
    echo "benchreport: $data_branch moved (another job recorded): fetching it and recording again" >&2
  done
  echo "::error::benchreport: could not push the store to $data_branch after ${BR_ATTEMPTS:-5} attempts" >&2
  exit 2
}

case "${1:-}" in
  restore) if [ "$store" = branch ]; then restore_branch; fi ;;
  record)
    if [ "$store" = branch ] && ! git -C "$repo" rev-parse -q --verify "$tip_ref" > /dev/null; then restore_branch; fi
    record ;;
  *) echo "usage: action_store.sh restore|record" >&2; exit 2 ;;
esac
