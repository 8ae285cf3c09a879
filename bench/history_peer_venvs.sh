#!/bin/sh
# The history peers, each in a venv of its own (their numpy/scipy pins conflict
# with each other and with pandas 3): bench/bench_history.py --peer-venvs DIR,
# and tests/python/test_history.py (BENCHREPORT_PEER_VENVS=DIR).
#   sh bench/history_peer_venvs.sh [DIR [otava] [signal-processing-algorithms]]
set -eu
root=${1:-/opt/history-peers}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- otava signal-processing-algorithms
mkdir -p "$root"
for tool in "$@"; do
  case $tool in
    otava) spec=apache-otava ;;
    signal-processing-algorithms) spec="signal-processing-algorithms==2.1.6" ;;
    *) echo "unknown peer: $tool" >&2; exit 2 ;;
  esac
  [ -x "$root/$tool/bin/python" ] || python3 -m venv "$root/$tool"
  "$root/$tool/bin/pip" install -q --disable-pip-version-check "$spec"
done
echo "$root"
