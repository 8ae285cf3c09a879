"""History: the q-statistic against numpy, E-divisive against signal-processing-algorithms,
per-commit summaries and intervals against numpy/scipy, a seeded planted-shift simulation
(precision and recall within ±1 commit), Parquet input, the CLI and the report."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import benchreport as br
from benchreport import _core, cli

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from history_sim import PlantedSeries, measure, planted_series, precision_recall  # noqa: E402


def direct_q(x: np.ndarray, tau: int, within: str = "pairs") -> float:
    """q of x[:tau] against x[tau:] from the distance matrix, as Matteson & James (2014) write it (alpha = 1)."""
    d = np.abs(x[:, None] - x[None, :])
    m, n = tau, len(x) - tau
    cross = d[:tau, tau:].mean()
    left, right = d[:tau, :tau].sum(), d[tau:, tau:].sum()
    lw, rw = (m * (m - 1), n * (n - 1)) if within == "pairs" else (m * m, n * n)
    return m * n / (m + n) * (2 * cross - left / lw - right / rw)


@pytest.mark.parametrize("search_end", [False, True])
@pytest.mark.parametrize("within", ["pairs", "squares"])
@pytest.mark.parametrize("seed", range(8))
def test_best_q_split_matches_numpy(within, search_end, seed):
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.lognormal(0, 0.2, 7 + seed), rng.lognormal(0.1, 0.2, 11 + 2 * seed),
                        rng.lognormal(0, 0.2, 5)])
    if seed % 3 == 0:
        x = np.round(x, 1)  # ties
    n = len(x)
    # min_segment 1 (one point on a side) only where a lone point has a within mean: squares.
    for min_segment in (2, 1) if within == "squares" else (2,):
        # (q, tau) over every allowed split, kappa outer as the scan visits them (first maximum wins).
        candidates = [(direct_q(x[:kappa], tau, within), tau)
                      for kappa in (range(2 * min_segment, n + 1) if search_end else [n])
                      for tau in range(min_segment, kappa - min_segment + 1)]
        q = np.array([c[0] for c in candidates])
        best = _core.best_q_split(x, min_segment, within, search_end)
        assert best.index == candidates[int(np.argmax(q))][1]
        assert best.q == pytest.approx(q.max(), rel=1e-12)


def test_best_q_split_edge_cases():
    assert _core.best_q_split(np.array([1.0, 2.0, 3.0])).index == 0  # too short for two pairs
    flat = _core.best_q_split(np.full(10, 3.5))
    assert (flat.index, flat.q) == (2, 0.0)
    huge = np.array([1e300, 1e300, 1e300, 2e300, 2e300, 2e300])
    assert _core.best_q_split(huge).index == 3
    with pytest.raises(br.InputError, match="min_segment"):
        _core.best_q_split(np.arange(5.0), 1)
    with pytest.raises(br.InputError, match="position 2"):
        br.e_divisive([1.0, 2.0, np.inf, 4.0])


def test_e_divisive_matches_signal_processing_algorithms():
    es = pytest.importorskip("signal_processing_algorithms.energy_statistics.energy_statistics")
    rng = np.random.default_rng(5)
    for i in range(6):
        x = np.concatenate([rng.normal(100, 1, 30 + i), rng.normal(106, 1, 25), rng.normal(97, 1.5, 40)])
        np.random.seed(i)
        theirs = sorted(es.e_divisive(x, pvalue=0.01, permutations=100))
        ours = [s.index for s in br.e_divisive(x, max_p_value=0.01, permutations=100, min_segment=1, within="squares",
                                               search_end=False)]
        assert ours == theirs
        # Their q of the first split, from their own code.
        t = es._calculate_t_stats(np.abs(x[:, None] - x[None, :]))
        assert _core.best_q_split(x, 1, "squares", False).q == pytest.approx(t.max(), rel=1e-12)


def test_e_divisive_locates_each_split_between_its_neighbours():
    """With a searched end, found splits are located again, Y to the end, between their neighbours:
    the last one is then the numpy argmax of q over the points from the one before it to the end.
    On a planted series whose searched-end split drifts into a run of intermediate commits it
    lands on the planted shift."""
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(12):
        x = planted_series(rng, commits=50).summaries()
        splits = br.e_divisive(x, seed=1, max_p_value=0.02)
        bounds = [0, *(s.index for s in splits), len(x)]
        assert all(b - a >= 2 for a, b in zip(bounds, bounds[1:]))  # increasing, min_segment on each side
        if not splits:
            continue
        begin = splits[-2].index if len(splits) > 1 else 0
        segment = x[begin:]
        q = [direct_q(segment, tau) for tau in range(2, len(segment) - 1)]
        assert splits[-1].index == begin + 2 + int(np.argmax(q))
        checked += 1
    assert checked >= 8
    rng = np.random.default_rng(1)
    for _ in range(68):  # bench/bench_history.py's series 67 at 60 commits: planted at 18, searched end gave 24
        drifting = planted_series(rng, commits=60)
    assert drifting.truth[0] == 18
    found = [c.index for c in _core.series_changes(drifting.summaries(), method="e_divisive").change_points]
    assert min(abs(i - 18) for i in found) <= 1


def test_e_divisive_is_deterministic_per_seed_and_stream():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(10, 1, 20), rng.normal(11, 1, 20)])
    a = br.e_divisive(x, seed=7)
    b = br.e_divisive(x, seed=7)
    assert [(s.index, s.p_value, s.q) for s in a] == [(s.index, s.p_value, s.q) for s in b]
    assert all(s.p_value >= 1 / 200 for s in a)



_SAME_BITS_SCRIPT = """
import json, random, sys
import numpy as np
import benchreport as br
out = []
rng = random.Random(5)  # Python's generator: the same stream on every numpy
for n in (9, 16, 31, 64, 130, 203):
    steps = [0.0, 0.3, 0.1][: 2 + n // 130]
    x = np.array([100 * (1 + steps[i * len(steps) // n]) * rng.lognormvariate(0, 0.05) for i in range(n)])
    x[n // 3] *= 1 + 100 * (n % 2)  # odd lengths: one far outlier, which widens the float bounds
    for options in ({}, {"within": "squares", "min_segment": 1}, {"min_segment": 5, "permutations": 99},
                    {"max_p_value": 0.3}, {"search_end": False}):
        for screen in (0.0, 5e-4):
            for s in br.e_divisive(x, seed=3, screen_p_value=screen, **options):
                out.append([n, sorted(options.items()), screen, s.index, s.p_value.hex(), s.q.hex(), s.end])
print(json.dumps(out))
"""


@pytest.mark.parametrize("setting", [("BENCHREPORT_SIMD", "baseline"), ("BENCHREPORT_FLOAT_BOUNDS", "off")])
def test_e_divisive_same_bits_without_avx2_and_without_float_bounds(setting):
    """The searched-end scan's AVX2 and baseline builds (BENCHREPORT_SIMD=baseline) give the same
    change points, p-values, q and ends to the bit, on lengths that are and are not multiples of
    four and eight; so do permutation tests with and without the float scan's bounds
    (BENCHREPORT_FLOAT_BOUNDS=off: every permutation scanned in doubles), which only decide
    what the double scan would."""
    def run(env_setting):
        env = dict(os.environ)
        env.pop("BENCHREPORT_SIMD", None)
        env.pop("BENCHREPORT_FLOAT_BOUNDS", None)
        env.update(env_setting)
        done = subprocess.run([sys.executable, "-c", _SAME_BITS_SCRIPT], env=env, capture_output=True, text=True,
                              check=True)
        return json.loads(done.stdout)

    default, changed = run({}), run(dict([setting]))
    found = {n for n, *_ in default}
    assert found >= {16, 31, 64, 130, 203}  # a planted change in each
    assert len(default) > 50
    assert default == changed


def _dataset(series_by_case, commit_names=None):
    """CSR Dataset from {case: PlantedSeries}: one set per (commit, process)."""
    values, offsets, labels = [], [0], {"benchmark": [], "commit": [], "process": []}
    for case, series in series_by_case.items():
        for c, commit in enumerate(series.samples):
            for p, x in enumerate(commit):
                values.extend(x)
                offsets.append(len(values))
                labels["benchmark"].append(case)
                labels["commit"].append(commit_names[c] if commit_names else f"{c:04d}")
                labels["process"].append(str(p))
    return br.Dataset.from_arrays(np.array(values), np.array(offsets), labels, unit="s")


def test_commit_summary_is_median_of_process_medians_and_interval_matches_scipy():
    rng = np.random.default_rng(11)
    series = planted_series(rng, commits=40, max_shifts=1)
    result = br.history(_dataset({"a": series}), order="commit")
    frame = result.series_frame()
    np.testing.assert_allclose(frame["value"].to_numpy(), series.summaries(), rtol=1e-15)
    assert (frame["processes"] == 3).all()
    cps = result.to_pandas()
    assert len(cps) >= 1
    bounds = [0, *cps["index"].tolist(), 40]
    s = series.summaries()
    for k, row in enumerate(cps.itertuples()):
        before, after = s[bounds[k]:bounds[k + 1]], s[bounds[k + 1]:bounds[k + 2]]
        assert row.before == pytest.approx(np.median(before), rel=1e-15)
        assert row.after == pytest.approx(np.median(after), rel=1e-15)
        ci = stats.ttest_ind(np.log(after), np.log(before), equal_var=False).confidence_interval(0.95)
        assert row.lower == pytest.approx(np.expm1(ci.low), rel=1e-9)
        assert row.upper == pytest.approx(np.expm1(ci.high), rel=1e-9)


def test_planted_shifts_precision_and_recall_within_one_commit():
    """Small seeded simulation (bench/bench_history.py runs the large one and the peers)."""
    rng = np.random.default_rng(2024)
    cases = {f"case{i:02d}": planted_series(rng, commits=60) for i in range(20)}
    result = br.history(_dataset(cases), order="commit")
    found = {s.key[0]: [cp.index for cp in c.change_points]
             for s, c in zip(result.core.history.series, result.core.changes)}
    precision, recall = precision_recall((found[k], v.truth) for k, v in cases.items())
    assert recall >= 0.85
    assert precision >= 0.85


def test_still_regressed_and_rollup():
    rng = np.random.default_rng(3)
    level = np.full(30, 1e-3)
    level[12:] *= 1.15  # both cases slow down at commit 12; one is fixed at 20
    slow = PlantedSeries(measure(rng, level), [12], [1.15])
    level[20:] /= 1.15
    fixed = PlantedSeries(measure(rng, level), [12, 20], [1.15, 1 / 1.15])
    names = [f"sha{c:02d}" for c in range(30)]
    result = br.history(_dataset({"slow": slow, "fixed": fixed}, names), order="commit")
    changes = dict(zip([s.key[0] for s in result.core.history.series], result.core.changes))
    assert result.commits[changes["slow"].regressed_since] == "sha12"
    assert changes["fixed"].regressed_since is None
    moved = result.core.commits_moving_cases()
    assert moved[0][:2] == (12, 2)  # commit sha12: two regressions
    md = result.to_markdown()
    assert "still regressed since sha12" in md
    assert json.loads(result.to_json())["data"]["schema"] == br.HISTORY_SCHEMA


def test_same_seed_same_bytes_and_thread_count_independent():
    rng = np.random.default_rng(8)
    ds = _dataset({f"c{i}": planted_series(rng, commits=40) for i in range(5)})
    one = br.history(ds, order="commit", threads=1, seed=3).to_json()
    many = br.history(ds, order="commit", threads=4, seed=3).to_json()
    assert one == many


def test_inputs_in_order_are_commits_named_by_file(tmp_path):
    rng = np.random.default_rng(4)
    series = planted_series(rng, commits=12, max_shifts=1, min_gap=4)
    paths = []
    for c, commit in enumerate(series.samples):
        part = br.Dataset.from_arrays(np.concatenate(commit), np.cumsum([0] + [len(p) for p in commit]),
                                      {"benchmark": ["a"] * len(commit), "process": [str(p) for p in range(len(commit))]},
                                      unit="s")
        path = tmp_path / f"run-{c:02d}.json"
        br.save(part, path)
        paths.append(path)
    result = br.history(paths)
    assert result.commits == [p.name for p in paths]
    np.testing.assert_allclose(result.core.history.series[0].values, series.summaries(), rtol=1e-12)
    out = tmp_path / "h.md"
    assert cli.main(["history", *map(str, paths), "-o", str(out)]) == 0
    assert "# History" in out.read_text()
    for fmt in ("html", "text", "csv", "json"):
        assert cli.main(["history", *map(str, paths), "-f", fmt, "-o", str(tmp_path / f"h.{fmt}")]) == 0
    assert "<svg" in (tmp_path / "h.html").read_text()  # the trend


def test_cli_errors_name_the_problem(tmp_path, capsys):
    ds = br.Dataset.from_arrays(np.array([1.0, 2.0]), np.array([0, 1, 2]), {"benchmark": ["a", "b"]}, unit="s")
    path = tmp_path / "x.json"
    br.save(ds, path)
    assert cli.main(["history", str(path), "--order", "commit_time"]) == 2
    assert "--by/--order commit_time: no such label" in capsys.readouterr().err


def test_read_arrow_parquet_round_trip(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(6)
    ds = _dataset({"a": planted_series(rng, commits=20), "b": planted_series(rng, commits=20)})
    labels = ds.labels
    lengths = np.diff(ds.offsets)
    table = pa.table({k: np.repeat(np.array(v, dtype=object), lengths) for k, v in labels.items()} |
                     {"value": np.asarray(ds.values), "unit": ["s"] * len(ds.values)})
    path = tmp_path / "h.parquet"
    pq.write_table(table, path)
    back = br.read_arrow(path)
    assert len(back) == len(ds)
    np.testing.assert_allclose(back.values, ds.values, rtol=1e-15)
    assert back.labels == labels
    assert br.history(path, order="commit").to_json() == br.history(ds, order="commit").to_json()


def test_read_arrow_cuts_sets_where_a_label_or_the_unit_changes():
    """Consecutive rows with equal labels (an absent label equal to an absent one) and one unit are one
    set; numbers are labels as their text; a unit column of several symbols gives each set its own."""
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"benchmark": ["a", "a", "a", "b", "b", "a"], "os": ["linux", "linux", None, None, None, None],
                      "size": [1, 1, 1, 1, 1, 2], "value": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                      "unit": ["ms", "ms", "ms", "ms", "s", "s"]})
    ds = br.read_arrow(table)
    assert list(np.diff(ds.offsets)) == [2, 1, 1, 1, 1]
    assert ds.labels == {"benchmark": ["a", "a", "b", "b", "a"], "os": ["linux", None, None, None, None],
                         "size": ["1", "1", "1", "1", "2"]}
    assert [ds.unit(i)["symbol"] for i in range(len(ds))] == ["ms", "ms", "ms", "s", "s"]
    one_unit = br.read_arrow(table.drop(["unit"]), labels=["benchmark"], default_unit="ns")
    assert list(np.diff(one_unit.offsets)) == [3, 2, 1] and one_unit.labels == {"benchmark": ["a", "b", "a"]}
    with pytest.raises(br.InputError, match="<table>: no column 'time'"):
        br.read_arrow(table, value="time")


def test_plot_draws_each_case():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    rng = np.random.default_rng(9)
    result = br.history(_dataset({"a": planted_series(rng, commits=30), "b": planted_series(rng, commits=30)}),
                        order="commit")
    ax = result.plot()
    assert len(ax.get_lines()) >= 2
    assert ax.get_xlabel() == "commit"


def test_a_case_does_not_depend_on_the_other_cases():
    """Permutation streams come from the case key, so splitting cases across workers changes nothing."""
    rng = np.random.default_rng(12)
    cases = {f"c{i}": planted_series(rng, commits=40) for i in range(4)}
    together = br.history(_dataset(cases), order="commit").to_pandas()
    alone = br.history(_dataset({"c2": cases["c2"]}), order="commit").to_pandas()
    mine = together[together["benchmark"] == "c2"].reset_index(drop=True)
    assert len(mine) >= 1
    assert mine.equals(alone)


REAL_HISTORY = Path(__file__).resolve().parents[1] / "data" / "google_benchmark" / "history"


@pytest.mark.parametrize("method", ["steps", "e-divisive"])
def test_real_google_benchmark_commit_series_in_every_format(tmp_path, method):
    # 20 commits of a real program (tests/data/make_fixtures/make_google_benchmark_history.sh):
    # commit 08 makes BM_Hash about 4x slower, commit 15 reverts it; BM_Copy is never touched.
    paths = sorted(REAL_HISTORY.glob("*.json"))
    assert len(paths) == 20
    regression, fix = paths[7].name, paths[14].name
    assert regression.startswith("08-") and fix.startswith("15-")
    out = tmp_path / "h.json"
    assert cli.main(["history", *map(str, paths), "-f", "json", "-o", str(out), "--method", method]) == 0
    series = json.loads(out.read_text())["data"]["series"]
    for s in series:
        found = [(cp["commit"], cp["regression"]) for cp in s["change_points"]]
        if s["labels"]["benchmark"] == "BM_Hash":
            assert found == [(regression, True), (fix, False)], s["labels"]
            assert s.get("regressed_since") is None  # fixed: not still regressed
        elif method == "steps" and s["labels"].get("metric", "").startswith("real"):
            # The host's speed dipped to 0.68x at commit 13 and stayed ~5 % lower for a few commits
            # (docs/statistics-history.md, "Validation"): steps marks that one, an improvement.
            assert [c for c, _ in found] in ([], [paths[12].name]), s["labels"]
        else:
            assert found == [], s["labels"]
    texts = {}
    for fmt in ("markdown", "html", "text", "csv"):
        path = tmp_path / f"h.{fmt}"
        assert cli.main(["history", *map(str, paths), "-f", fmt, "-o", str(path)]) == 0
        texts[fmt] = path.read_text()
    for fmt, text in texts.items():
        assert regression in text and fix in text, fmt  # the change points' commits, in every format
    assert "<svg" in texts["html"]
    assert any(ch in texts["text"] for ch in "▁▂▃▄▅▆▇█")  # the text sparkline


def test_welch_screen_keeps_clear_splits_without_permutations_and_changes_no_result():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.normal(100, 1, 40), rng.normal(110, 1, 40)])
    first = _core.best_q_split(x)
    (split,) = br.e_divisive(x)
    assert split.index == first.index == 40 and not split.permuted
    # The bound: Welch t between X = x[0, index) and Y = x[index, end), times the (index, end) pairs compared.
    s = len(x) - 2 * 2 + 1
    p = stats.ttest_ind(x[first.index:first.end], x[:first.index], equal_var=False).pvalue
    assert split.p_value == pytest.approx(min(1.0, p * s * (s + 1) / 2), rel=1e-9)
    (permuted,) = br.e_divisive(x, screen_p_value=0)
    assert permuted.permuted and permuted.index == 40 and permuted.p_value == pytest.approx(1 / 200)
    with pytest.raises(br.InputError, match="screen_p_value"):
        br.e_divisive(x, screen_p_value=2)
    # On seeded planted-shift series the screen changes no change point, only the work.
    for seed in range(30):
        s_ = planted_series(np.random.default_rng(seed), commits=80).summaries()
        screened = _core.series_changes(s_, method="e_divisive")
        always = _core.series_changes(s_, method="e_divisive", screen_p_value=0)
        assert [c.index for c in screened.change_points] == [c.index for c in always.change_points], seed
        assert all(c.p_value <= 5e-4 for c in screened.change_points if not c.permuted)


def test_e_divisive_matches_signal_processing_algorithms_in_its_own_venv():
    # The peer pins numpy 1.x, so it runs in a venv of its own (bench/history_peer_venvs.sh,
    # made by scripts/test.sh) through bench/history_peer.py: np.random.seed(0), then
    # e_divisive(x, pvalue=0.05, permutations=100).
    import os
    import subprocess

    python = Path(os.environ.get("BENCHREPORT_PEER_VENVS", "/opt/history-peers")) / "signal-processing-algorithms" / "bin" / "python"
    if not python.exists():
        pytest.skip("no venv with signal-processing-algorithms (bench/history_peer_venvs.sh)")
    rng = np.random.default_rng(8)
    series = [np.concatenate([rng.normal(100, 1, 30 + i), rng.normal(108, 1, 25), rng.normal(96, 1.5, 40)]) for i in range(6)]
    script = Path(__file__).resolve().parents[2] / "bench" / "history_peer.py"
    done = subprocess.run([str(python), str(script), "signal-processing-algorithms"], check=True, capture_output=True,
                          text=True, input=json.dumps({"series": [list(map(float, x)) for x in series]}))
    theirs = json.loads(done.stdout)["change_points"]
    assert all(len(t) >= 2 for t in theirs)  # both planted shifts, so the comparison has content
    for x, their in zip(series, theirs):
        ours = [s.index for s in br.e_divisive(x, max_p_value=0.05, permutations=100, min_segment=1, within="squares",
                                               search_end=False)]
        assert ours == their


def test_every_process_label_is_a_process_not_a_case():
    """history and the Dask helpers share the comparison's per-process labels (data/label_roles.hpp):
    an interleaving ``order`` label splits no series."""
    from benchreport import _core

    assert _core.PROCESS_LABELS == ("process", "pair", "order", "run", "repetition")
    labels = {"benchmark": ["a"] * 4, "commit": ["c1", "c1", "c2", "c2"], "process": ["1", "2", "1", "2"],
              "order": ["AB", "BA", "BA", "AB"]}
    ds = br.Dataset.from_arrays(np.arange(1.0, 9.0), np.arange(0, 9, 2), labels, unit="s")
    series = br.history(ds, order="commit").core.history.series
    assert [s.key for s in series] == [["a"]]
    assert list(series[0].processes) == [2, 2]
