#!/bin/sh
# The history peers, each in a venv of its own (their numpy/scipy pins conflict
# with each other and with pandas 3): bench/bench_history.py --peer-venvs DIR.
set -eu
root=${1:-/opt/history-peers}
mkdir -p "$root"
python3 -m venv "$root/otava"
"$root/otava/bin/pip" install -q --disable-pip-version-check apache-otava
python3 -m venv "$root/signal-processing-algorithms"
"$root/signal-processing-algorithms/bin/pip" install -q --disable-pip-version-check "signal-processing-algorithms==2.1.6"
echo "$root"
