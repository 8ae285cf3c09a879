#!/bin/sh
# Runs the real `go test -bench` (Debian golang-go; standard library only, no network).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/go_fixture"
GOFLAGS=-mod=mod GOCACHE="${TMPDIR:-/tmp}/br-gocache" go test -run '^$' -bench . -benchtime 2000x -count 3 -cpu 1,2 \
  > "$here/../go/bench.txt"
