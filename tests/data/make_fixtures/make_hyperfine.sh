#!/bin/sh
# Runs the real hyperfine (Debian package) to write the fixtures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../hyperfine"
hyperfine --runs 5 --warmup 1 -N --export-json "$out/commands.json" 'sleep 0.001' 'true' > /dev/null
hyperfine --runs 3 -N --parameter-list delay 0.001,0.002 --export-json "$out/parameter_scan.json" 'sleep {delay}' > /dev/null
hyperfine --runs 3 -N --parameter-list n 1,2 --export-json "$out/parameter_named_n.json" 'sleep 0.00{n}' > /dev/null
