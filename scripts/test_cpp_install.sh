#!/usr/bin/env bash
# The C++ library as a user gets it: `cmake --install` into a temporary
# prefix, then examples/cpp configured with find_package(benchreport) against
# that prefix only, built with warnings as errors, and run.
#
#   bash scripts/test_cpp_install.sh
#
# Env: BUILD (default build/test, the tree scripts/test.sh builds; configured
# here if it is missing). Only the library targets are built, so after
# scripts/test.sh nothing is compiled again but the example.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/test}
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBENCHREPORT_WERROR=ON -DBENCHREPORT_PYTHON=OFF >/dev/null
fi
cmake --build "$BUILD" -j "$(nproc)" --target benchreport benchreport_store
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
for f in lib/libbenchreport.a lib/libbenchreport_store.a include/benchreport/report/report.hpp \
         lib/cmake/benchreport/benchreportConfig.cmake lib/cmake/benchreport/benchreportConfigVersion.cmake; do
  [ -f "$tmp/prefix/$f" ] || { echo "test_cpp_install: $f is not installed" >&2; exit 1; }
done
# The example must not find this checkout: the source is copied out of it.
cp -R examples/cpp "$tmp/example"
cmake -S "$tmp/example" -B "$tmp/example-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBENCHREPORT_USE_INSTALLED=ON -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >/dev/null
grep -q "^benchreport_DIR:PATH=$tmp/prefix/" "$tmp/example-build/CMakeCache.txt" || {
  echo "test_cpp_install: find_package(benchreport) did not use the installed copy" >&2; exit 1; }
cmake --build "$tmp/example-build"
"$tmp/example-build/compare_example" > "$tmp/report.md"
for line in "# Benchmark report" '| `parse()` |' "**Paired process changes**"; do
  grep -qF -- "$line" "$tmp/report.md" || { echo "test_cpp_install: the report lacks: $line" >&2; cat "$tmp/report.md" >&2; exit 1; }
done
echo "test_cpp_install: installed, found, built and ran examples/cpp ($(wc -l < "$tmp/report.md") lines of Markdown) in $(( $(date +%s) - start )) s"
