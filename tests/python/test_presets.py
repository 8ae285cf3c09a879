"""Report presets on the packaged example inputs (real Nitro v2 / canonical JSON / ZFH files).

Golden files live in tests/golden/presets/; regenerate them after an intended
change with ``BENCHREPORT_UPDATE_GOLDEN=1 pytest tests/python/test_presets.py``
and review the diff.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import benchreport as br
from benchreport import cli

sys.path.insert(0, str(Path(__file__).parent))
from markdown_check import assert_tables_well_formed  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "presets"
UPDATE = os.environ.get("BENCHREPORT_UPDATE_GOLDEN") == "1"
RESAMPLES = 2000  # keeps the suite fast; the bootstrap is seeded, so outputs are stable

FORMATS = {
    "md": lambda r: r.to_markdown(),
    "html": lambda r: r.to_html(),
    "txt": lambda r: r.to_text(),
    "csv": lambda r: r.to_csv(),
    "json": lambda r: r.to_json(),
}


def nitro_folders(root: Path | None = None) -> list[Path]:
    base = root if root is not None else br.example_path("nitro")
    return [base / "ios", base / "android"]


def load_or_skip(paths):
    """Loads example inputs; skips (naming the reader) only while a reader is still a stub."""
    try:
        return br.load(paths)
    except br.InputError as error:
        if "not implemented yet" in str(error):
            pytest.skip(f"reader pending: {error}")
        raise


@pytest.fixture(scope="module")
def nitro():
    return load_or_skip(nitro_folders())


@pytest.fixture(scope="module")
def runners():
    return load_or_skip(br.example_path("runners/runners.json"))


@pytest.fixture(scope="module")
def zfh():
    return load_or_skip([br.example_path("zfh/android.log"), br.example_path("zfh/ios.log")])


@pytest.fixture(scope="module")
def comparison(nitro):
    return br.compare(nitro, baseline={"revision": "base"}, resamples=RESAMPLES)


@pytest.fixture(scope="module")
def reports(comparison, runners, zfh, nitro):
    return {"comparison": comparison.report, "runners": br.runners_report(runners), "matrix": br.matrix_report(zfh),
            "summary": br.summary_report(nitro)}


# --- golden files and well-formed output -------------------------------------------------

PRESETS = ["comparison", "runners", "matrix", "summary"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("suffix", sorted(FORMATS))
def test_golden(reports, preset, suffix):
    output = FORMATS[suffix](reports[preset])
    path = GOLDEN / f"{preset}.{suffix}"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(output.encode("utf-8"))
    assert path.exists(), f"missing golden {path}; run with BENCHREPORT_UPDATE_GOLDEN=1"
    assert output.encode("utf-8") == path.read_bytes()


@pytest.mark.parametrize("preset", PRESETS)
def test_markdown_tables_are_well_formed(reports, preset):
    tables = assert_tables_well_formed(reports[preset].to_markdown())
    assert tables, "every preset has tables"


def test_hostile_seed_name_stays_in_one_cell(reports):
    md = reports["comparison"].to_markdown()
    rows = [line for line in md.splitlines() if "number \\| string variant" in line]
    assert len(rows) == 8  # 2 platforms × 2 implementations × (all-cases table + per-process table)
    assert_tables_well_formed(md)


@pytest.mark.parametrize("preset", PRESETS)
def test_html_parses_without_live_markup(reports, preset):
    html5lib = pytest.importorskip("html5lib")
    document = html5lib.parse(reports[preset].to_html(), namespaceHTMLElements=False)
    tags = {e.tag for e in document.iter() if isinstance(e.tag, str)}
    assert "script" not in tags and "table" in tags
    if preset == "comparison":
        assert "details" in tags


def hostile_dataset():
    names = ["a | b", "<script>alert(1)</script>", "line\nbreak", "@octocat `tick`", "**bold** [x](javascript:x)"]
    values, offsets, labels = [], [0], {"revision": [], "benchmark": []}
    rng = np.random.default_rng(3)
    for name in names:
        for side, scale in (("base", 1.0), ("head", 1.2)):
            values.extend(scale * (100 + rng.random(12)))
            offsets.append(len(values))
            labels["revision"].append(side)
            labels["benchmark"].append(name)
    return br.Dataset.from_arrays(values, offsets, labels=labels, unit="ns")


def test_hostile_names_are_escaped_in_every_format():
    report = br.comparison_report(hostile_dataset(), resamples=200)
    md = report.to_markdown()
    assert_tables_well_formed(md)
    assert "<script>" not in md and "<script>" not in report.to_html()
    html5lib = pytest.importorskip("html5lib")
    document = html5lib.parse(report.to_html(), namespaceHTMLElements=False)
    assert all(e.tag != "script" for e in document.iter() if isinstance(e.tag, str))
    assert all(not any(k.startswith("on") for k in e.attrib) for e in document.iter() if isinstance(e.tag, str))


# --- the seed's figures come out of the raw samples ---------------------------------------

def case(result, section, name):
    matches = [c for c in result.cases if c.section == section and c.name == name]
    assert len(matches) == 1, (section, name)
    return matches[0]


@pytest.mark.parametrize("section,name,base_ns,head_ns,change", [
    ("ios", "C++ small array (16)", 851.2, 808.5, -0.0501),
    ("ios", "Swift synchronousCallback()", 239.1, 204.8, -0.1433),
    ("ios", "Swift number property get/set", 130.5, 142.4, 0.0918),
    ("ios", "JavaScript addNumbers()", 22.9, 22.7, -0.0056),
    ("ios", "C++ number | string variant", 113.0, 112.3, -0.0058),
    ("android", "C++ simpleFunc()", 82.9, 132.7, 0.6003),
    ("android", "C++ short ASCII string", 194.2, 151.3, -0.2208),
    ("android", "Kotlin copy(1 MiB)", 299840, 294650, -0.0173),
    ("android", "TurboModule addNumbers()", 256.1, 244.6, -0.0446),
])
def test_seed_medians_and_changes_are_reproduced(comparison, section, name, base_ns, head_ns, change):
    c = case(comparison, section, name)
    precision = 0.05 if base_ns < 1000 else 5.0  # the seed shows 1 decimal in ns, 2 in µs
    assert abs(c.stats.base_median * 1e9 - base_ns) <= precision + 1e-9
    assert abs(c.stats.head_median * 1e9 - head_ns) <= precision + 1e-9
    assert round(c.change, 4) == pytest.approx(change, abs=1e-12)


def test_seed_run_level_figures(comparison):
    for section, n_large, median_abs in (("ios", 7, 0.0109), ("android", 6, 0.0118)):
        changes = np.array([abs(c.change) for c in comparison.cases if c.section == section])
        assert len(changes) == 46
        assert int((changes >= 0.05).sum()) == n_large
        assert np.median(changes) == pytest.approx(median_abs, abs=0.0005)
    md = comparison.to_markdown()
    assert "7/46" in md and "6/46" in md
    assert "60.03% (C++ simpleFunc())" in md and "14.33% (Swift synchronousCallback())" in md


def test_drift_of_the_android_simple_func_head_is_reported(nitro, comparison):
    md = comparison.to_markdown()
    match = re.search(r"C\+\+ simpleFunc\(\) head samples slowing \\?~(\d+)% between the first and last five", md)
    assert match and 85 <= int(match.group(1)) <= 95
    # Independent check: per head process, median(last 5) / median(first 5) - 1.
    sub = nitro.select(platform="android", revision="head", benchmark="nitro-cpp/function/simple-func")
    samples = [sub.samples(i) for i in range(len(sub))]
    assert len(samples) == 4
    drifts = [np.median(v[-5:]) / np.median(v[:5]) - 1 for v in samples]
    assert np.median(drifts) == pytest.approx(int(match.group(1)) / 100, abs=0.006)


def test_process_pairs_and_interleaving(comparison):
    c = case(comparison, "ios", "C++ addNumbers()")
    assert c.pairs == ["1", "2", "3", "4"]
    assert len(c.stats.base_process_medians) == 4
    assert "4 base/head process pairs (interleaved AB, BA, BA, AB)" in comparison.to_markdown()
    assert comparison.base_commit.startswith("3303893f") and comparison.head_commit.startswith("16367b7b")
    assert not comparison.same_revision


def test_cases_are_made_on_first_access(nitro):
    result = br.compare(nitro, resamples=200)
    assert repr(result).startswith("<ComparisonResult head vs base: 92 cases")  # counted without making them
    cases = result.cases
    assert result.cases is cases  # made once, then kept
    assert [c.name for c in cases] == [c.name for c in br.compare(nitro, resamples=200).cases]


def test_to_pandas(comparison):
    df = comparison.to_pandas()
    assert len(df) == 92
    assert {"benchmark", "platform", "name", "change", "change_lower", "change_upper", "verdict"} <= set(df.columns)
    assert (df["change_lower"] <= df["change_upper"]).all()
    for name in ("shift", "ratio", "disparity"):
        assert (df[f"{name}_lower"] <= df[name]).all() and (df[name] <= df[f"{name}_upper"]).all()
    first = comparison.cases[0].stats
    assert df.loc[0, "disparity_upper"] == first.disparity_bounds.upper
    assert df.loc[0, "ratio"] == first.ratio and 0 <= df.loc[0, "prob_head_better"] <= 1


# --- refusals, new/removed cases, A/A -----------------------------------------------------

def edited_copy(tmp_path, edit):
    root = tmp_path / "nitro"
    shutil.copytree(br.example_path("nitro"), root)
    path = root / "ios" / "head-2.json"
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    return nitro_folders(root)


@pytest.mark.parametrize("edit,message", [
    (lambda d: d["configuration"].update(device="iPhone 15 (physical)"), r"device differs.*iPhone 15 \(physical\)"),
    (lambda d: d["configuration"].update(suiteHash="0" * 64), r"suiteHash differs"),
    (lambda d: d["configuration"].update(osVersion="18.0"), r"osVersion differs"),
    (lambda d: d["metrics"][3].update(iterations=d["metrics"][3]["iterations"] * 2), r"iterations differs"),
])
def test_refuses_incomparable_runs_with_a_clear_message(tmp_path, edit, message):
    ds = load_or_skip(edited_copy(tmp_path, edit))
    with pytest.raises(br.InputError, match=message) as info:
        br.compare(ds, resamples=100)
    assert "refusing to compare" in str(info.value)


def test_adaptive_iteration_counts_are_not_unequal_work(tmp_path):
    # Google Benchmark picks iterations per run and reports per-iteration times, so
    # base and head counts differ without the work per sample differing (Nitro's
    # fixed scalar iterations above still refuse).
    fixture = Path(__file__).parent.parent / "data" / "google_benchmark" / "repetitions.json"
    doc = json.loads(fixture.read_text())
    for row in doc["benchmarks"]:
        row["iterations"] = int(row["iterations"] * 1.3) + 1
        for key in ("real_time", "cpu_time"):
            row[key] *= 1.2
    head = tmp_path / "head.json"
    head.write_text(json.dumps(doc))
    code = cli.main(["compare", "--base", str(fixture), "--head", str(head), "--format", "json",
                     "--output", str(tmp_path / "r.json"), "--resamples", "200"])
    assert code == 0
    cases = [c for s in json.loads((tmp_path / "r.json").read_text())["data"]["sections"] for c in s["cases"]]
    cpu = [c for c in cases if c["key"].get("metric") == "cpu_time"]
    assert cpu and all(c["change"] == pytest.approx(0.2, rel=1e-9) for c in cpu)


def test_sparklines_follow_the_process_order_of_the_p50s():
    # Sets added as pair 2 (slow) before pair 1 (fast): the p50 list and the sparkline
    # beside it must both put pair 1 first.
    import pandas as pd
    rows = []
    for revision in ("base", "head"):
        for pair, level in (("2", 200.0), ("1", 100.0)):
            rows += [{"benchmark": "b", "revision": revision, "pair": pair, "value": level + 0.01 * k}
                     for k in range(16)]
    ds = br.Dataset.from_pandas(pd.DataFrame(rows), labels=["benchmark", "revision", "pair"], unit="ns")
    text = br.compare(ds, resamples=200).to_markdown()
    row = next(line for line in text.splitlines() if "100.1 ns, 200.1 ns" in line)
    spark = row.split("100.1 ns, 200.1 ns ")[1].split(" |")[0]
    assert spark == "\u2581" * 8 + "\u2588" * 8


def _bucket_means(x, width):
    """Means of `width` consecutive buckets [i*n//width, (i+1)*n//width), as the sparkline draws them."""
    bounds = (np.arange(width + 1) * len(x)) // width
    return np.add.reduceat(x, bounds[:-1]) / np.diff(bounds)


def test_large_cases_keep_bounded_sparkline_points():
    # 10^5 samples per side: cells keep 4 000 bucket means, not every sample, and the
    # Markdown (16) and HTML (40) sparklines drawn from them bucket the same samples.
    rng = np.random.default_rng(7)
    n = 100_003
    base = 100 * (1 + 0.01 * rng.random(n)) + np.linspace(0, 3, n)
    head = 101 * (1 + 0.01 * rng.random(n))
    ds = br.Dataset.from_arrays(np.concatenate([base, head]), [0, n, 2 * n],
                                labels={"benchmark": ["big", "big"], "revision": ["base", "head"]}, unit="ns")
    report = br.compare(ds).report
    cells = [cell for block in report.to_dict()["blocks"] for cell in _cells_with_samples(block)]
    assert len(cells) == 2
    for cell, samples in zip(cells, (base * 1e-9, head * 1e-9)):  # cells hold base units (s)
        assert len(cell["samples"]) == 4000
        np.testing.assert_allclose(cell["samples"], _bucket_means(samples, 4000), rtol=1e-13)
        for width in (16, 40):
            # Same samples per drawn bucket; its kept means weigh sub-buckets of 25 and 26
            # samples alike, so the drawn mean is off by at most a bucket's range / 25.
            drawn = _bucket_means(np.asarray(cell["samples"]), width)
            exact = _bucket_means(samples, width)
            assert np.max(np.abs(drawn - exact)) <= np.ptp(samples) / 25
    assert br.format_sparkline(cells[0]["samples"]) == br.format_sparkline(base)
    summary = br.summary_report(ds).to_dict()
    kept = [cell["samples"] for block in summary["blocks"] for cell in _cells_with_samples(block)]
    assert [len(k) for k in kept] == [4000, 4000]
    small = br.Dataset.from_arrays(np.concatenate([base[:4000], head[:4000]]), [0, 4000, 8000],
                                   labels={"benchmark": ["s", "s"], "revision": ["base", "head"]}, unit="ns")
    cells = [c for b in br.compare(small).report.to_dict()["blocks"] for c in _cells_with_samples(b)]
    np.testing.assert_array_equal(cells[0]["samples"], base[:4000] * 1e-9)  # up to 4 000: every sample


def _cells_with_samples(block):
    for row in block.get("rows", []):
        yield from (cell for cell in row if "samples" in cell)
    for inner in block.get("blocks", []):
        yield from _cells_with_samples(inner)


def test_new_and_removed_cases(tmp_path):
    def drop_and_add(doc):
        removed = doc["metrics"].pop(0)
        added = dict(doc["metrics"][0], id="nitro-cpp/function/brand-new")
        added.pop("displayName", None)
        doc["metrics"].append(added)
        doc["benchmarkCount"] = len(doc["metrics"])
        return removed

    root = tmp_path / "nitro"
    shutil.copytree(br.example_path("nitro"), root)
    for n in range(1, 5):
        path = root / "ios" / f"head-{n}.json"
        doc = json.loads(path.read_text())
        drop_and_add(doc)
        path.write_text(json.dumps(doc))
    result = br.compare(load_or_skip(nitro_folders(root)), resamples=100)
    removed = [c["benchmark"] for c in result.removed_cases]
    added = [c["benchmark"] for c in result.new_cases]
    assert removed == ["javascript/function/add-numbers"]
    assert added == ["nitro-cpp/function/brand-new"]
    md = result.to_markdown()
    assert "New cases" not in md and "Removed cases" not in md
    assert_tables_well_formed(md)
    # Rows of the iOS tables: the removed case keeps its base p50, the new one its head p50.
    rows = [line for line in md.splitlines() if "removed |" in line or "added |" in line]
    assert any("\u2796 removed | base only |" in line for line in rows), rows
    assert any("\u2795 added | head only |" in line for line in rows), rows
    frame = result.to_pandas()
    one_sided = frame[frame["verdict"].isin(["added", "removed"])]
    assert sorted(one_sided["benchmark"]) == ["javascript/function/add-numbers", "nitro-cpp/function/brand-new"]
    added = one_sided[one_sided["verdict"] == "added"].iloc[0]
    assert np.isnan(added["base_median"]) and np.isnan(added["change"]) and added["head_median"] > 0
    # The head p50 is the median of the new case's pooled head samples.
    ds = load_or_skip(nitro_folders(root))
    head = ds.indices(benchmark="nitro-cpp/function/brand-new", revision="head")
    assert added["head_median"] == pytest.approx(np.median(np.concatenate([ds.samples(i) for i in head])), rel=1e-12)
    table = list(csv.DictReader(io.StringIO(result.report.to_csv(table="all-ios"))))
    csv_added = [r for r in table if r["Verdict"] == "added"]
    assert len(csv_added) == 1 and csv_added[0]["Base p50"] == "" and csv_added[0]["Change (95% CI)"] == ""
    assert float(csv_added[0]["Head p50 (number)"]) == pytest.approx(added["head_median"], rel=1e-12)
    assert result.to_text().count("head only") >= 1


def test_same_revision_is_labelled_a_over_a(tmp_path):
    root = tmp_path / "nitro"
    shutil.copytree(br.example_path("nitro"), root)
    for platform in ("ios", "android"):
        base_sha = json.loads((root / platform / "base-1.json").read_text())["configuration"]["commitSha"]
        for n in range(1, 5):
            path = root / platform / f"head-{n}.json"
            doc = json.loads(path.read_text())
            doc["configuration"]["commitSha"] = base_sha
            path.write_text(json.dumps(doc))
    result = br.compare(load_or_skip(nitro_folders(root)), resamples=100)
    assert result.same_revision
    md = result.to_markdown()
    assert "Same-code (A/A) run" in md and "Same-code base/head differences" in md


def test_baseline_errors(nitro):
    with pytest.raises(br.InputError, match="no set has revision=main"):
        br.compare(nitro, baseline={"revision": "main"}, resamples=100)
    with pytest.raises(ValueError, match="exactly one label"):
        br.compare(nitro, baseline={"revision": "base", "platform": "ios"})


# --- runners -------------------------------------------------------------------------------

def test_runners_reproduce_the_seed_figures(reports):
    md = reports["runners"].to_markdown()
    for text in ["45851.10", "42062.37–51322.25", "7.64%", "40527.14", "0.09%", "41000.91", "2.18%",
                 "13757.86", "85084.85", "5.41; 5.28–5.62", "94.70", "2.64%", "89.45; 87.85–90.38", "5.72",
                 "66.28%", "115.28", "AppleClang 21.0.0.21000101"]:
        assert text in md, text


def test_runner_fingerprint_is_sha256_of_canonical_json(reports):
    doc = json.loads(br.example_path("runners/runners.json").read_text())
    protocol = doc["runs"][0]["metadata"]["protocol"]
    canonical = json.dumps(protocol, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(canonical.encode()).hexdigest()[:12]
    assert br.fingerprint(protocol) == expected
    assert f"`{expected}`" in reports["runners"].to_markdown()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_sha256_matches_hashlib(data):
    assert br.sha256_hex(data) == hashlib.sha256(data).hexdigest()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


@settings(max_examples=80, deadline=None)
@given(json_values)
def test_canonical_json_matches_python(value):
    text = json.dumps(value)  # a str argument is JSON text; objects go through json.dumps
    assert br.canonical_json(text) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert br.canonical_json(value if not isinstance(value, str) else text) == br.canonical_json(text)


# --- matrix --------------------------------------------------------------------------------

def zfh_records(platform):
    lines = br.example_path(f"zfh/{platform}.log").read_text().splitlines()
    return [json.loads(l.split("ZFH_BENCHMARK_RESULT ", 1)[1]) for l in lines if "ZFH_BENCHMARK_RESULT " in l]


def test_matrix_is_the_median_of_run_medians(zfh):
    android = zfh.select(platform="android", size=next(s for s in set(zfh.labels["size"]) if "200" in s))
    m = br.matrix(android, rows=["algorithm"], cols=["engine"])
    runs = {}
    for record in zfh_records("android"):
        if record["sizeMiB"] != 200:
            continue
        for result in record["results"]:
            runs.setdefault((result["algorithm"], record["engine"]), []).append(np.median(result["samplesMs"]))
    for (algorithm, engine), medians in runs.items():
        value = m.values[m.rows.index(algorithm), m.cols.index(engine)]
        assert value * 1e3 == pytest.approx(np.median(medians), rel=1e-12)
    assert np.isnan(m.values[m.rows.index("XXH3-128"), m.cols.index("zig-raw")])
    assert m.best()[m.rows.index("SHA-512/224")] == "zig-sha2"
    assert m.pivot().loc["SHA-256", "native"] * 1e3 == pytest.approx(220)


def test_matrix_report_reproduces_the_seed(reports):
    md = reports["matrix"].to_markdown()
    for text in ["| SHA-256 | 220 | 12818 | **219** |", "| SHA-512/224 | 3490 | 725 | **723** |",
                 "| BLAKE3 | **339** | 728 |", "| XXH3-64 | 120 | **81** |", "58.26×", "Key take-aways"]:
        assert text in md, text


def test_example_path():
    assert (br.example_path("nitro/ios") / "base-1.json").exists()
    with pytest.raises(FileNotFoundError, match="no packaged example"):
        br.example_path("nope")


def _flagged_drifts(nitro, limit=0.10, k=5, alpha=0.05):
    """Independent drift rule (docs/presets.md): per (platform, benchmark, revision) side, with numpy/scipy."""
    from scipy.stats import kendalltau

    flagged = []
    for platform in sorted(set(nitro.labels["platform"])):
        for benchmark in sorted(set(nitro.labels["benchmark"])):
            for revision in ("base", "head"):
                sub = nitro.select(platform=platform, revision=revision, benchmark=benchmark)
                procs = [np.asarray(sub.samples(i), dtype=float) for i in range(len(sub))]
                procs = [v for v in procs if len(v) >= 2 * k]
                if not procs:
                    continue
                drift = np.median([np.median(v[-k:]) / np.median(v[:k]) - 1 for v in procs])
                pooled = np.concatenate(procs)
                noise = np.median(np.abs(pooled - np.median(pooled))) / np.median(pooled)
                agreeing = 0
                for v in procs:
                    tau = kendalltau(np.arange(len(v)), v, method="asymptotic")
                    agreeing += tau.pvalue < alpha and (tau.statistic > 0) == (drift > 0)
                if abs(drift) >= limit and (2 * agreeing > len(procs) or abs(drift) - limit > noise):
                    flagged.append((platform, benchmark, revision, drift))
    return flagged


def test_drift_warnings_follow_the_trend_or_beyond_noise_rule(nitro, comparison):
    md = comparison.to_markdown()
    notes = re.findall(r"Within-process drift: ([^\n]*)\.", md)
    expected = _flagged_drifts(nitro)
    assert [(p, b, r) for p, b, r, _ in expected] == [("android", "nitro-cpp/function/simple-func", "head")]
    assert len(notes) == len(expected)
    # The noise-only case: window change above the limit, no trend, and within its own noise.
    sub = nitro.select(platform="android", revision="base", benchmark="nitro-platform/arraybuffer/bounce-native-owned-4kib")
    procs = [np.asarray(sub.samples(i), dtype=float) for i in range(len(sub))]
    assert np.median([np.median(v[-5:]) / np.median(v[:5]) - 1 for v in procs]) > 0.10
    assert "bounce native-owned buffer (4 KiB) base samples" not in md
