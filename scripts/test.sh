#!/usr/bin/env bash
# The one test command: sets up, builds, and runs every test (C++ via ctest,
# Python via pytest against the installed package).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh chromium  # chromium: tests/python/test_browser.py looks at the HTML reports
# signal-processing-algorithms, the E-divisive peer tests/python/test_history.py checks against,
# pins numpy 1.x (pandas 3 needs numpy 2), so it gets a venv of its own; the test skips without it.
export BENCHREPORT_PEER_VENVS=${BENCHREPORT_PEER_VENVS:-$PWD/build/history-peers}
sh bench/history_peer_venvs.sh "$BENCHREPORT_PEER_VENVS" signal-processing-algorithms >/dev/null \
  || echo "warning: signal-processing-algorithms not installed; its test will skip" >&2
BUILD=${BUILD:-build/test}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBENCHREPORT_WERROR=ON -DBENCHREPORT_PYTHON=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)")
# The package with its test extra: the one list of test dependencies (pyproject.toml).
python3 -m pip install -q --disable-pip-version-check --no-build-isolation ".[test]" \
  -Ccmake.define.BENCHREPORT_WERROR=ON
# The repository root holds no importable `benchreport` (the sources live in
# python/), so this imports the installed package.
BENCHREPORT_REQUIRE_BROWSER=1 python3 -m pytest -q -p no:cacheprovider tests/python
