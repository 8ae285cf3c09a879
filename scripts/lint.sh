#!/usr/bin/env bash
# Linters: ruff (lint rules in pyproject.toml) and mypy (pyproject.toml) on
# python/benchreport, clang-format (.clang-format) on the C++ sources, and the
# one-way include rule (scripts/check_layers.py). Installs what it needs
# (ruff and mypy from PyPI, clang-format from Debian). Runs every check and
# exits 1 if any of them failed.
#
#   bash scripts/lint.sh            # everything
#   bash scripts/lint.sh ruff mypy  # some: ruff, mypy, clang-format, layers
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(ruff mypy clang-format layers)
wants() { [[ " ${checks[*]} " == *" $1 "* ]]; }

if wants clang-format; then bash scripts/setup.sh clang-format || exit 2; fi
if wants ruff || wants mypy; then
  python3 -m pip install -q --disable-pip-version-check ruff mypy numpy || exit 2
fi

failed=()
run() {  # name command...
  local name=$1; shift
  echo "== $name"
  if "$@"; then echo "$name: clean"; else failed+=("$name"); fi
}
wants ruff && run ruff python3 -m ruff check python/benchreport
wants mypy && run mypy python3 -m mypy
wants clang-format && run clang-format sh -c 'git ls-files -- include src python/bindings tests/cpp | grep -E "\.(cpp|hpp|h)$" | xargs clang-format --dry-run --Werror'
wants layers && run layers python3 scripts/check_layers.py

echo "lint: ${#failed[@]} failed${failed:+: ${failed[*]}} ($(( $(date +%s) - start )) s)"
[ ${#failed[@]} -eq 0 ]
