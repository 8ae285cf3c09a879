#!/usr/bin/env bash
# Tests a repaired wheel the way a user gets it: a fresh venv, the wheel
# installed from its file, nothing from this checkout importable.
#
#   bash scripts/test_wheel.sh [dist/benchreport-...-manylinux_*.whl]
#
# 1. auditwheel show: the wheel's tag, and no external library outside the policy;
# 2. the installed extension: its DT_NEEDED names no system libsimdjson, ldd
#    resolves simdjson inside the wheel (benchreport.libs/) or not at all
#    (static), and LD_DEBUG shows no /usr/lib libsimdjson loaded;
# 3. when the kernel allows a private mount namespace (unshare), the Debian
#    libsimdjson is hidden (an empty file bind-mounted over it) for 4:
# 4. `benchreport demo` and the Python suite, from a temporary directory.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
wheel="${1:-$(ls -t "$repo"/dist/benchreport-*manylinux*.whl | head -1)}"
wheel="$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")"
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== wheel: $(basename "$wheel")"

echo "== auditwheel show"
auditwheel show "$wheel" | tee "$tmp/show.txt"
# (auditwheel wraps its lines: compare with white space folded)
tr -s ' \n' '  ' < "$tmp/show.txt" | grep -q 'consistent with the following platform tag: "manylinux_' || {
  echo "FAIL: auditwheel does not give the wheel a manylinux tag" >&2; exit 1; }
if tr -s ' \n' '  ' < "$tmp/show.txt" | grep -q "external shared libraries"; then
  echo "FAIL: the wheel needs shared libraries outside the policy" >&2; exit 1
fi

echo "== fresh venv"
python3 -m venv "$tmp/venv"
py="$tmp/venv/bin/python"
"$py" -m pip install -q "${wheel}[test]"
cd "$tmp"  # the checkout's python/ is not on sys.path from here
where=$("$py" -c "import benchreport, sys; print(benchreport.__file__)")
case "$where" in "$tmp/venv/"*) echo "imports $where" ;; *) echo "FAIL: benchreport imported from $where" >&2; exit 1 ;; esac
ext=$("$py" -c "import benchreport._core as c; print(c.__file__)")

echo "== the installed extension: $ext"
needed=$(readelf -d "$ext" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
if echo "$needed" | grep -qx 'libsimdjson\.so\.[0-9]*'; then
  echo "FAIL: the extension still asks for the system's libsimdjson by name" >&2; exit 1
fi
ldd "$ext" | tee "$tmp/ldd.txt"
if grep -q "not found" "$tmp/ldd.txt"; then echo "FAIL: unresolved libraries" >&2; exit 1; fi
if grep -i simdjson "$tmp/ldd.txt" | grep -qv "benchreport.libs/"; then
  echo "FAIL: simdjson resolves outside the wheel" >&2; exit 1
fi
LD_DEBUG=files "$py" -c "import benchreport._core" 2> "$tmp/ld_debug.txt"
if grep -E "file=/(usr/)?lib[^ ]*libsimdjson" "$tmp/ld_debug.txt"; then
  echo "FAIL: the system libsimdjson was loaded" >&2; exit 1
fi
echo "simdjson: $(grep -o 'file=[^ ]*simdjson[^ ]*' "$tmp/ld_debug.txt" | sort -u | tr '\n' ' ')"

system_lib=$(ls /usr/lib/*/libsimdjson.so.* /usr/lib/libsimdjson.so.* 2>/dev/null | head -1 || true)
# Runs a command with the Debian libsimdjson hidden (an empty file bind-mounted
# over it in a private mount namespace) when the kernel allows one.
hidden=0
if [ -n "$system_lib" ] && unshare -m true 2>/dev/null; then hidden=1; : > "$tmp/empty"; fi
without_system_simdjson() {
  if [ "$hidden" = 1 ]; then
    unshare -m sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' "$tmp/empty" "$system_lib" "$@"
  else
    "$@"
  fi
}
if [ "$hidden" = 1 ]; then
  echo "== $system_lib is hidden for the demo and the tests (private mount namespace)"
else
  echo "== (no private mount namespace here: the system libsimdjson is not hidden; the checks above stand in)"
fi

echo "== benchreport demo"
"$tmp/venv/bin/benchreport" --version
without_system_simdjson "$tmp/venv/bin/benchreport" demo > "$tmp/demo.txt"
echo "demo: $(wc -l < "$tmp/demo.txt") lines"

echo "== Python tests against the installed wheel"
without_system_simdjson "$py" -m pytest -q -p no:cacheprovider "$repo/tests/python" \
  --deselect "$repo/tests/python/test_notebook_example.py::test_example_notebook_runs_without_errors"
echo "== test_wheel.sh: ok in $(( $(date +%s) - start )) s"
