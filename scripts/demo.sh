#!/usr/bin/env bash
# The main job on bundled example data: set up, install, render the reports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 -m pip install -q --disable-pip-version-check --no-build-isolation .
benchreport demo
