#!/bin/sh
# Runs the real hyperfine (Debian package) to write the fixtures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../hyperfine"
hyperfine --runs 5 --warmup 1 -N --export-json "$out/commands.json" 'sleep 0.001' 'true' > /dev/null
hyperfine --runs 3 -N --parameter-list delay 0.001,0.002 --export-json "$out/parameter_scan.json" 'sleep {delay}' > /dev/null
hyperfine --runs 3 -N --parameter-list n 1,2 --export-json "$out/parameter_named_n.json" 'sleep 0.00{n}' > /dev/null
# A process with a start-up cost (the interpreter) plus work linear in n: the scaling preset's input.
hyperfine --runs 5 --warmup 1 -N --parameter-scan n 5 45 -D 10 --export-json "$out/scan_startup.json" \
  "python3 -c 'sum(range({n} * 200000))'" > /dev/null
