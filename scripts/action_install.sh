#!/usr/bin/env bash
# The install step of the benchreport GitHub Action (action.yml), kept in a
# script so that tests/python/test_action_install.py runs exactly what the
# action runs, from a clean clone.
#
#   action_install.sh key       print the wheel's cache key (and write key=... to $GITHUB_OUTPUT)
#   action_install.sh install   install benchreport into a fresh venv
#
# The default (BR_INSTALL=action) needs nothing published: the wheel is built
# from the action's own checkout, once per cache key. action.yml restores and
# saves $BR_WHEELHOUSE with actions/cache around this script, so a cached wheel
# skips the build (and the Ubuntu packages it needs). The key names the runner
# image, the CPU, the Python ABI, the action's ref and a hash of the sources,
# so a wheel is never reused where it was not built for.
#
# Env (set by action.yml from its inputs):
#   BR_INSTALL      action (default): build this checkout's wheel, or reuse the cached one;
#                   none: benchreport is already installed (BR_PYTHON says where);
#                   anything else is a pip requirement: a release wheel's URL (the fast path),
#                   benchreport==X from an index, a path
#   BR_ACTION_PATH  the action's checkout (default: this script's parent folder)
#   BR_ACTION_REF   the action's ref (github.action_ref), readable part of the key
#   BR_WHEELHOUSE   the folder the cache keeps (default $RUNNER_TEMP/benchreport-wheel)
#   BR_VENV         the venv benchreport goes into (default $RUNNER_TEMP/benchreport-venv)
#   BR_PYTHON       with BR_INSTALL=none: the interpreter that has benchreport (default python3)
#   PYTHON          the interpreter the venvs are made from (default python3)
# Outputs ($GITHUB_OUTPUT): key (for `key`), python (for `install`); the venv's bin/ goes to $GITHUB_PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
action="${BR_ACTION_PATH:-$(dirname "$here")}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
wheelhouse="${BR_WHEELHOUSE:-$temp/benchreport-wheel}"
venv="${BR_VENV:-$temp/benchreport-venv}"
python="${PYTHON:-python3}"
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi; }

# What the wheel is built from: a change to any of these is a new key.
source_hash() {
  (cd "$action" && find CMakeLists.txt pyproject.toml README.md LICENSE cmake include src python scripts \
     -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum) |
    sha256sum | cut -c1-16
}

cache_key() {
  local image abi ref
  # ImageOS is set on GitHub's runners (ubuntu24, ubuntu22); elsewhere the OS release stands in.
  # shellcheck source=/dev/null
  image="${ImageOS:-$(. /etc/os-release && echo "${ID}${VERSION_ID:-}")}"
  abi="$("$python" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')"
  ref="$(printf '%s' "${BR_ACTION_REF:-local}" | tr -c 'A-Za-z0-9._-' '_')"
  echo "benchreport-wheel-v1-$image-$(uname -m)-$abi-$ref-$(source_hash)"
}

# The Ubuntu/Debian packages and build tools (scripts/setup.sh), then the
# self-contained wheel (scripts/build_wheel.sh: libsimdjson grafted in by
# auditwheel, so a cached wheel runs without the -dev packages), both with a
# throw-away build venv first on PATH so that nothing lands in the runner's Python.
build_wheel() {
  local build_venv="$temp/benchreport-build-venv"
  rm -rf "$build_venv"
  "$python" -m venv "$build_venv"
  echo "benchreport: building the wheel of $action (no cached wheel for this key)"
  PATH="$build_venv/bin:$PATH" bash "$action/scripts/setup.sh"
  # build_wheel.sh's log goes to stderr; its last line names the repaired wheel.
  repaired="$(PATH="$build_venv/bin:$PATH" JOBS="$(nproc)" NO_BUILD_ISOLATION=1 \
    bash "$action/scripts/build_wheel.sh" | tee /dev/stderr | tail -1)"
  case "$repaired" in /*) ;; *) repaired="$action/$repaired" ;; esac  # build_wheel.sh names it from the checkout
  mkdir -p "$wheelhouse"
  cp "$repaired" "$wheelhouse/"
  rm -rf "$build_venv"
}

install() {
  local mode="${BR_INSTALL:-action}" requirement wheels
  if [ "$mode" = none ]; then
    py="${BR_PYTHON:-python3}"
  else
    if [ "$mode" = action ]; then
      wheels=("$wheelhouse"/benchreport-*.whl)
      if [ -f "${wheels[0]}" ]; then
        echo "benchreport: using the cached wheel $(basename "${wheels[0]}")"
      else
        build_wheel
        wheels=("$wheelhouse"/benchreport-*.whl)
      fi
      requirement="${wheels[0]}"  # one wheel per key: the folder is this key's cache
    else
      requirement="$mode"
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$requirement"
    py="$venv/bin/python"
    if [ -n "${GITHUB_PATH:-}" ]; then echo "$venv/bin" >> "$GITHUB_PATH"; fi
  fi
  "$py" -m benchreport --version
  output "python=$py"
}

case "${1:-}" in
  key) key="$(cache_key)"; echo "$key"; output "key=$key" ;;
  install) install ;;
  *) echo "usage: action_install.sh key|install" >&2; exit 2 ;;
esac
