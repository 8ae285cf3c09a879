#!/usr/bin/env bash
# Cross-compiles the C++ core (the static library: no Python extension, no
# tests) for 64-bit Windows with Debian's mingw-w64 GCC, warnings as errors,
# and checks that the archive holds PE/COFF x86-64 objects. This is what
# backs "the C++ core builds on Windows (MinGW-w64 GCC)" in
# docs/distribution.md; MSVC is not supported (stats/q_columns.cpp uses GCC
# vector extensions) and nothing is linked here: Debian has no Windows build
# of simdjson, so its header stands in for the compile.
#
# The header-only dependencies (Boost.Math, fmt, Eigen, the simdjson header)
# are Debian's own headers, staged in $BUILD/deps with minimal CMake package
# files so that the host's /usr/include never reaches the cross compiler;
# zlib is the mingw-w64 one (libz-mingw-w64-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/mingw}
start=$(date +%s)
bash scripts/setup.sh g++-mingw-w64-x86-64 libz-mingw-w64-dev

deps="$PWD/$BUILD/deps"
rm -rf "$deps" && mkdir -p "$deps/include"
ln -s /usr/include/boost "$deps/include/boost"
ln -s /usr/include/fmt "$deps/include/fmt"
ln -s /usr/include/eigen3/Eigen "$deps/include/Eigen"
ln -s /usr/include/simdjson.h "$deps/include/simdjson.h"

header_only_package() {  # package target version [compile definition]
  local dir="$deps/lib/cmake/$1"
  mkdir -p "$dir"
  {
    echo "if(NOT TARGET $2)"
    echo "  add_library($2 INTERFACE IMPORTED)"
    echo "  set_target_properties($2 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"$deps/include\""
    [ -n "${4:-}" ] && echo "    INTERFACE_COMPILE_DEFINITIONS \"$4\""
    echo "  )"
    echo "endif()"
  } > "$dir/$1Config.cmake"
  printf 'set(PACKAGE_VERSION %s)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n' "$3" > "$dir/$1ConfigVersion.cmake"
}
header_only_package fmt fmt::fmt-header-only 9.1.0 FMT_HEADER_ONLY=1
header_only_package simdjson simdjson::simdjson 3.0.1
header_only_package Eigen3 Eigen3::Eigen 3.4.0

# -O1: the compile is what is checked, and it takes a third of -O3's time.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/mingw-w64-x86_64.cmake" -DCMAKE_FIND_ROOT_PATH="$deps" \
  -DBoost_NO_BOOST_CMAKE=ON -DBoost_INCLUDE_DIR="$deps/include" \
  -DBENCHREPORT_PYTHON=OFF -DBENCHREPORT_TESTS=OFF -DBENCHREPORT_STORE=OFF -DBENCHREPORT_WERROR=ON ${CMAKE_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_LAUNCHER} >/dev/null
cmake --build "$BUILD" -j "${BUILD_JOBS:-$(nproc)}" --target benchreport
archive="$BUILD/libbenchreport.a"
formats=$(x86_64-w64-mingw32-objdump -a "$archive" | sed -n 's/.*file format //p' | sort -u)
if [ "$formats" != "pe-x86-64" ]; then
  echo "check_mingw: expected only pe-x86-64 objects in $archive, got: $formats" >&2
  exit 1
fi
echo "check_mingw: $(x86_64-w64-mingw32-ar t "$archive" | wc -l) objects, all pe-x86-64, in $(( $(date +%s) - start )) s"
