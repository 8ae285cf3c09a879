#!/usr/bin/env bash
# cibuildwheel before-all: the C++ dependencies of a release wheel.
#   simdjson  built from source as a static, position-independent library
#             (the wheel then carries no libsimdjson to graft or to miss);
#   fmt       header-only use (fmt::fmt-header-only);
#   Boost     headers only (Boost.Math distributions and special functions);
#   zlib      the system's (Linux: zlib-devel, allowed by manylinux; macOS: the SDK's).
#   SQLite    the system's, for the results store (Linux: sqlite-devel; macOS: the SDK's).
# Linux runs inside the manylinux_2_28 container (AlmaLinux 8, dnf); macOS
# uses Homebrew for Boost and fmt. No Windows wheels (docs/distribution.md).
# Only the Linux x86_64 path has been exercised by hand (docs/distribution.md).
set -euo pipefail
SIMDJSON_VERSION=3.0.1
FMT_VERSION=10.2.1
BOOST_VERSION=1.83.0
JOBS=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
work=$(mktemp -d)

fetch() {  # url dest
  curl -fsSL --retry 3 -o "$2" "$1"
}

build_simdjson() {  # prefix [extra cmake args...]
  local prefix=$1; shift
  fetch "https://github.com/simdjson/simdjson/archive/refs/tags/v${SIMDJSON_VERSION}.tar.gz" "$work/simdjson.tgz"
  tar -xzf "$work/simdjson.tgz" -C "$work"
  cmake -S "$work/simdjson-${SIMDJSON_VERSION}" -B "$work/simdjson-build" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DSIMDJSON_DEVELOPER_MODE=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" "$@"
  cmake --build "$work/simdjson-build" -j "$JOBS"
  cmake --install "$work/simdjson-build"
}

build_fmt() {  # prefix
  fetch "https://github.com/fmtlib/fmt/archive/refs/tags/${FMT_VERSION}.tar.gz" "$work/fmt.tgz"
  tar -xzf "$work/fmt.tgz" -C "$work"
  cmake -S "$work/fmt-${FMT_VERSION}" -B "$work/fmt-build" -DCMAKE_BUILD_TYPE=Release -DFMT_TEST=OFF \
    -DFMT_DOC=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$1"
  cmake --build "$work/fmt-build" -j "$JOBS"
  cmake --install "$work/fmt-build"
}

boost_headers() {  # prefix
  local v=${BOOST_VERSION//./_}
  fetch "https://archives.boost.io/release/${BOOST_VERSION}/source/boost_${v}.tar.gz" "$work/boost.tgz"
  tar -xzf "$work/boost.tgz" -C "$work" "boost_${v}/boost"
  mkdir -p "$1/include"
  cp -R "$work/boost_${v}/boost" "$1/include/"
}

case "$(uname -s)" in
  Linux)
    dnf install -y zlib-devel sqlite-devel
    boost_headers /usr/local
    build_fmt /usr/local
    build_simdjson /usr/local
    ;;
  Darwin)
    brew install boost fmt
    # Universal static library: cibuildwheel builds arm64 and x86_64 wheels on one runner.
    build_simdjson /tmp/benchreport-deps -DCMAKE_OSX_ARCHITECTURES="arm64;x86_64" -DCMAKE_OSX_DEPLOYMENT_TARGET=11.0
    ;;
  *)
    echo "cibw_before_all: unsupported system $(uname -s)" >&2
    exit 1
    ;;
esac
