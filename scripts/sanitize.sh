#!/usr/bin/env bash
# Builds the C++ core and tests with AddressSanitizer + UndefinedBehaviorSanitizer and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/asan}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBENCHREPORT_SANITIZE=ON \
  -DBENCHREPORT_WERROR=ON -DBENCHREPORT_PYTHON=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)")
