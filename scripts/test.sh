#!/usr/bin/env bash
# The one test command: sets up, builds, and runs every test (C++ via ctest,
# Python via pytest against the installed package).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh chromium  # chromium: tests/python/test_browser.py looks at the HTML reports
python3 -m pip install -q --disable-pip-version-check pytest hypothesis scipy pandas matplotlib nbclient nbformat ipykernel html5lib jsonschema pyyaml pyarrow "dask[dataframe]" distributed
# The history peers (tests/python/test_history.py and bench/bench_history.py skip without them);
# signal-processing-algorithms is pinned: older releases need gevent built from source.
python3 -m pip install -q --disable-pip-version-check "signal-processing-algorithms==2.1.6" apache-otava otava-test-data \
  || echo "warning: history peers not installed; their tests will skip" >&2
BUILD=${BUILD:-build/test}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBENCHREPORT_WERROR=ON -DBENCHREPORT_PYTHON=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)")
python3 -m pip install -q --disable-pip-version-check --no-build-isolation . \
  -Ccmake.define.BENCHREPORT_WERROR=ON
# The repository root holds no importable `benchreport` (the sources live in
# python/), so this imports the installed package.
BENCHREPORT_REQUIRE_BROWSER=1 python3 -m pytest -q -p no:cacheprovider tests/python
