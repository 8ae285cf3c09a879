#!/usr/bin/env bash
# Installs everything benchreport needs on a fresh Debian 12 machine:
# C++ dependencies from Debian, Python ones from PyPI. Idempotent.
# Extra Debian packages may be named as arguments (scripts/fuzz.sh adds clang).
set -euo pipefail
APT_PACKAGES=(g++ cmake ninja-build libboost-math-dev libboost-dev libfmt-dev
              catch2 libsimdjson-dev zlib1g-dev libeigen3-dev libsqlite3-dev "$@")
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -m pip install -q --disable-pip-version-check \
  "scikit-build-core>=0.10" "pybind11>=2.12" "cmake>=3.25" ninja numpy
