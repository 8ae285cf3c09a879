#!/usr/bin/env bash
# Linters: ruff (lint rules in pyproject.toml) and mypy (pyproject.toml) on
# python/benchreport, clang-format (.clang-format) on every C++ file git
# tracks, and the one-way include rule (scripts/check_layers.py). Installs what
# it needs at pinned versions, so that a clean clone and CI get the same
# findings: ruff, mypy and numpy (whose annotations mypy reads) from PyPI into
# their own virtual environment (build/lint-venv, made once per pin set), and
# clang-format 14 from Debian 12. Runs every check and exits 1 if any of them
# failed (2 if a tool cannot be installed).
#
#   bash scripts/lint.sh            # everything
#   bash scripts/lint.sh ruff mypy  # some: ruff, mypy, clang-format, layers
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(ruff mypy clang-format layers)
wants() { [[ " ${checks[*]} " == *" $1 "* ]]; }

PY_TOOLS=(ruff==0.17.6 mypy==2.4.1 numpy==2.4.6)  # scripts/gen_stubs.py sorts imports with this ruff
CLANG_FORMAT=clang-format-14
VENV=build/lint-venv
if wants clang-format; then bash scripts/setup.sh "$CLANG_FORMAT" || exit 2; fi
if wants ruff || wants mypy; then
  if [ "$(cat "$VENV/pins" 2>/dev/null)" != "${PY_TOOLS[*]}" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV" || { echo "lint: python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 2; }
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PY_TOOLS[@]}" \
      && echo "${PY_TOOLS[*]}" > "$VENV/pins" || exit 2
  fi
fi

failed=()
run() {  # name command...
  local name=$1; shift
  echo "== $name"
  if "$@"; then echo "$name: clean"; else failed+=("$name"); fi
}
wants ruff && run ruff "$VENV/bin/python" -m ruff check python/benchreport
wants mypy && run mypy "$VENV/bin/python" -m mypy
# Tracked files only (not build trees or generated sources); -z keeps odd names whole, -r runs nothing on none.
wants clang-format && run clang-format sh -c "git ls-files -z -- '*.cpp' '*.hpp' '*.h' | xargs -0 -r $CLANG_FORMAT --dry-run --Werror"
wants layers && run layers python3 scripts/check_layers.py

echo "lint: ${#failed[@]} failed${failed:+: ${failed[*]}} ($(( $(date +%s) - start )) s)"
[ ${#failed[@]} -eq 0 ]
