"""Low memory (issue 17, F6): under an address-space limit (``ulimit -v``, here
``resource.setrlimit(RLIMIT_AS)`` in the child) the CLI and the Python API end
with a clean error, never an abort (exit 134, SIGABRT) or a crash (139, SIGSEGV).
The limits are offsets above the child's own footprint after import, so the
test does not depend on the machine. bench/bench_low_memory.py sweeps larger
inputs and limits."""
from __future__ import annotations

import os
import resource
import subprocess
import sys

import numpy as np
import pytest

OUT_OF_MEMORY = "out of memory"


def seeded_csv(path, cases=4000, samples=10, seed=17):
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("benchmark,revision,unit,value\n")
        for i in range(cases):
            for rev, f in (("base", 1.0), ("head", 1.03)):
                for v in 100.0 * f * rng.lognormal(0.0, 0.02, samples):
                    fh.write(f"case{i:05d},{rev},ns,{v:.6f}\n")
    return path


def footprint_kib() -> int:
    """VmPeak of a child that has imported benchreport (and numpy)."""
    probe = ("import benchreport\n"
             "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmPeak')))")
    return int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout)


def run_limited(args, limit_kib, env=None):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_kib * 1024, limit_kib * 1024))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, preexec_fn=limit,
                          env={**os.environ, **(env or {})})


pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux"),
    # scripts/sanitize.sh preloads ASan, which reserves terabytes of address
    # space for its shadow memory: no address-space limit can hold under it.
    pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                       reason="AddressSanitizer cannot run under an address-space limit"),
]

# Offsets above the import footprint: from too little to read the file to enough for all of it.
OFFSETS_MIB = (8, 24, 48, 96, 400)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return seeded_csv(tmp_path_factory.mktemp("lowmem") / "cases.csv")


@pytest.fixture(scope="module")
def base_kib():
    return footprint_kib()


@pytest.mark.parametrize("offset", OFFSETS_MIB)
@pytest.mark.parametrize("fmt", ["json", "markdown"])
def test_cli_compare_under_memory_limit_fails_cleanly(data, base_kib, tmp_path, offset, fmt):
    out = tmp_path / f"report.{fmt}"
    proc = run_limited(["-m", "benchreport", "compare", str(data), "--format", fmt, "-o", str(out),
                        "--resamples", "200"], base_kib + offset * 1024)
    assert proc.returncode in (0, 2), (proc.returncode, proc.stderr[-2000:])
    if proc.returncode == 2:
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("benchreport: error: "), proc.stderr[-2000:]
        assert not out.exists()  # nothing half-written
    else:
        assert out.stat().st_size > 0


@pytest.mark.parametrize("offset", OFFSETS_MIB)
@pytest.mark.parametrize("threads", [1, 2])
def test_python_api_under_memory_limit_raises_memory_error(data, base_kib, offset, threads):
    script = (
        "import sys, benchreport as br\n"
        "try:\n"
        f"    ds = br.load({str(data)!r})\n"
        f"    r = br.compare(ds, baseline={{'revision': 'base'}}, resamples=200, threads={threads})\n"
        "    r.report.render('json')\n"
        "except MemoryError:\n"
        "    print('MemoryError'); sys.exit(3)\n"
        "print('ok')\n")
    proc = run_limited(["-c", script], base_kib + offset * 1024)
    assert proc.returncode in (0, 3), (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == ("ok" if proc.returncode == 0 else "MemoryError")


def test_the_sweep_reaches_both_outcomes(data, base_kib):
    """Not vacuous: the smallest limit fails with the message, the largest succeeds."""
    low = run_limited(["-m", "benchreport", "compare", str(data), "--format", "json", "--resamples", "200"],
                      base_kib + OFFSETS_MIB[0] * 1024)
    assert low.returncode == 2 and OUT_OF_MEMORY in low.stderr, low.stderr[-2000:]
    high = run_limited(["-m", "benchreport", "compare", str(data), "--format", "json", "--resamples", "200"],
                       base_kib + OFFSETS_MIB[-1] * 1024)
    assert high.returncode == 0, high.stderr[-2000:]
