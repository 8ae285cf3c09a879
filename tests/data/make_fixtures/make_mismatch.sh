#!/bin/sh
# Real hyperfine and `go test -bench` files whose cases do not line up between
# two sides (issue 35): a different command string per side, one shared
# command, and Go's -N GOMAXPROCS suffix on one side only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../mismatch"
mkdir -p "$out"
hyperfine --runs 5 -N --export-json "$out/hyperfine_base.json" 'sleep 0.001' 'true' > /dev/null
hyperfine --runs 5 -N --export-json "$out/hyperfine_head.json" 'sleep 0.002' 'true' > /dev/null
hyperfine --runs 5 -N --export-json "$out/hyperfine_one_base.json" 'sleep 0.001' > /dev/null
hyperfine --runs 5 -N --export-json "$out/hyperfine_one_head.json" 'sleep 0.002' > /dev/null
cd "$here/go_fixture"
GOFLAGS=-mod=mod GOCACHE="${TMPDIR:-/tmp}/br-gocache" go test -run '^$' -bench . -benchtime 2000x -count 3 -cpu 2 \
  > "$out/go_procs2.txt"
GOFLAGS=-mod=mod GOCACHE="${TMPDIR:-/tmp}/br-gocache" go test -run '^$' -bench . -benchtime 2000x -count 3 -cpu 1 \
  > "$out/go_procs1.txt"
