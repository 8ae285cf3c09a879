#!/usr/bin/env bash
# Builds the C++ core, its tests and the Python extension with AddressSanitizer
# + UndefinedBehaviorSanitizer, then runs the C++ suite and the Python suite
# against that build. Any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/asan}
# -O1 keeps the instrumented suites quick; Debug keeps assertions on.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DBENCHREPORT_SANITIZE=ON -DBENCHREPORT_WERROR=ON -DBENCHREPORT_PYTHON=ON >/dev/null
cmake --build "$BUILD" -j "${BUILD_JOBS:-$(nproc)}"
BUILD_ABS=$(cd "$BUILD" && pwd)
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

echo "== C++ tests under ASan + UBSan"
(export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 && cd "$BUILD" && ctest --output-on-failure -j "$(nproc)")

echo "== Python tests under ASan + UBSan"
# The interpreter is not instrumented, so the sanitizer runtimes are preloaded
# (they must come first); CPython's own allocations at exit are not leaks we
# own, hence detect_leaks=0. PYTHONMALLOC=malloc lets ASan see every object.
LIBASAN=$(g++ -print-file-name=libasan.so)
LIBUBSAN=$(g++ -print-file-name=libubsan.so)
for lib in "$LIBASAN" "$LIBUBSAN"; do
  [ -f "$lib" ] || { echo "sanitize.sh: $lib not found (g++ -print-file-name)"; exit 1; }
done
# Tests marked asan_slow (seconds normally, minutes instrumented) are skipped here only.
# Run from the repository root (there is no benchreport/ there, so the
# instrumented build on PYTHONPATH is what gets imported).
LD_PRELOAD="$LIBASAN $LIBUBSAN" PYTHONMALLOC=malloc \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_odr_violation=0 \
  PYTHONPATH="$BUILD_ABS/python" \
  python3 -m pytest -q -p no:cacheprovider -m "not asan_slow" tests/python
