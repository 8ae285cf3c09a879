"""Launch noise learned from main's stored runs (issue 34): the estimate against numpy, the intervals
against scipy, a small seeded simulation, and a PR compare with a store against one without."""
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

import benchreport as br
from benchreport import launch_noise as ln
from benchreport.store import Store

N = 20  # samples per process


def _runs(rng, count, sd, level=0.0, prefix="c"):
    return [(f"{prefix}{i:03d}", [float(np.exp(level + rng.normal(0, sd)))]) for i in range(count)]


def test_estimate_is_the_sample_variance_of_the_log_medians_on_runs_minus_one_df():
    rng = np.random.default_rng(1)
    runs = _runs(rng, 25, 0.05)
    noise = ln.estimate(runs, branch="main")
    logs = np.log([m[0] for _, m in runs])
    assert noise.usable and noise.runs == 25 and noise.launches == 25 and noise.df == 24
    assert noise.variance == pytest.approx(np.var(logs, ddof=1), rel=1e-12)
    assert noise.since_commit == "c000"
    assert noise.description.startswith("launch noise from 25 runs of main since c000")


def test_several_processes_per_run_count_launches_in_the_variance_and_runs_in_the_df():
    rng = np.random.default_rng(2)
    runs = [(f"c{i}", list(np.exp(rng.normal(0, 0.05, 3)))) for i in range(12)]
    noise = ln.estimate(runs)
    logs = np.log(np.concatenate([m for _, m in runs]))
    assert noise.launches == 36 and noise.df == 11
    assert noise.variance == pytest.approx(np.var(logs, ddof=1), rel=1e-12)


def test_a_change_point_is_never_mixed_into_the_noise():
    rng = np.random.default_rng(3)
    runs = _runs(rng, 30, 0.02) + _runs(rng, 15, 0.02, level=np.log(1.3), prefix="d")
    noise = ln.estimate(runs, branch="main")
    # The latest 30 runs: 15 before the step, 15 after, each segment around its own mean.
    assert noise.change_points == 1 and noise.segments == 2 and noise.runs == 30 and noise.since_commit == "c015"
    before, after = np.log([m[0] for _, m in runs[15:30]]), np.log([m[0] for _, m in runs[30:]])
    pooled = (np.sum((before - before.mean()) ** 2) + np.sum((after - after.mean()) ** 2)) / (30 - 2)
    assert noise.variance == pytest.approx(pooled, rel=1e-12) and noise.df == 28
    assert "around the means of 2 segments" in noise.description
    # Mixing the step in would have inflated the variance many times.
    assert np.var(np.log([m[0] for _, m in runs]), ddof=1) > 10 * noise.variance


def test_a_recent_step_keeps_the_runs_before_it():
    rng = np.random.default_rng(5)
    runs = _runs(rng, 12, 0.02) + _runs(rng, 4, 0.02, level=np.log(1.5), prefix="d")
    noise = ln.estimate(runs, branch="main")
    assert noise.segments == 2 and noise.runs == 16 and noise.df == 14 and noise.usable


def test_only_the_latest_max_runs_and_too_few_runs_fall_back():
    rng = np.random.default_rng(4)
    runs = _runs(rng, 50, 0.03)
    assert ln.estimate(runs, max_runs=30).since_commit == "c020"
    few = ln.estimate(runs[:6], branch="main")
    assert not few.usable and few.runs == 6
    assert "6 usable runs of main" in few.description and "fewer than 10" in few.description


def test_runs_at_one_value_give_no_launch_noise():
    # The same results recorded under many commits: no spread to learn, not a zero-width interval.
    noise = ln.estimate([(f"c{i}", [1.234e-6]) for i in range(12)], branch="main")
    assert not noise.usable and noise.variance == 0
    assert "12 runs of main for this case all at one value" in noise.description


def test_bad_stored_medians_are_refused_with_the_commit():
    with pytest.raises(br.InputError, match="commit c7"):
        ln.estimate([("c7", [0.0])])
    with pytest.raises(br.InputError, match="commit c8"):
        ln.estimate([("c8", [])])
    with pytest.raises(br.InputError, match="max_runs must be at least 1"):
        ln.estimate([("c9", [1.0])], max_runs=0)


def _dataset(base, head, pairs=False):
    """base, head: cases x k x n arrays; one case per first index."""
    values, labels = [], {"benchmark": [], "revision": [], "pair": []}
    for c in range(base.shape[0]):
        for side, data in (("base", base), ("head", head)):
            for p in range(data.shape[1]):
                values.append(data[c, p])
                labels["benchmark"].append(f"case{c:02d}")
                labels["revision"].append(side)
                labels["pair"].append(str(p + 1) if pairs else None)
    return br.Dataset.from_arrays(np.concatenate(values), np.arange(len(values) + 1) * base.shape[2], labels)


def _launches(rng, cases, k, sd, delta=0.0, within=0.01):
    factors = rng.normal(0, sd, (cases, k))
    return np.exp(delta + factors[..., None] + rng.normal(0, within, (cases, k, N)))


def test_one_process_per_side_interval_is_a_t_on_the_stores_variance():
    rng = np.random.default_rng(5)
    base, head = _launches(rng, 1, 1, 0.05), _launches(rng, 1, 1, 0.05, np.log(1.2))
    runs = _runs(rng, 20, 0.05)
    noise = ln.estimate(runs, branch="main")
    case = br.compare(_dataset(base, head), {"revision": "base"}, launch_noise={"case00": noise},
                      moderate=False).cases[0].comparison
    est = np.log(np.median(head[0, 0])) - np.log(np.median(base[0, 0]))
    se = np.sqrt(2 * noise.variance)
    q = stats.t.ppf(0.975, noise.df)
    assert case.change_ci_method == "store_launch_t" and case.interval_unit == "process"
    assert case.interval_df == noise.df and case.launch_noise_runs == 20
    assert np.log1p(case.change_estimate) == pytest.approx(est, abs=1e-12)
    assert np.log1p(case.change_ci[0]) == pytest.approx(est - q * se, abs=1e-10)
    assert np.log1p(case.change_ci[1]) == pytest.approx(est + q * se, abs=1e-10)
    assert case.p_value == pytest.approx(2 * stats.t.sf(abs(est) / se, noise.df), rel=1e-8)
    assert "launch noise from 20 runs of main" in case.verdict_reason


def test_several_processes_combine_their_variance_with_the_stores_as_a_prior():
    rng = np.random.default_rng(6)
    k = 3
    base, head = _launches(rng, 1, k, 0.05), _launches(rng, 1, k, 0.05, np.log(1.1))
    noise = ln.estimate(_runs(rng, 15, 0.05))
    case = br.compare(_dataset(base, head, pairs=True), {"revision": "base"}, launch_noise={"case00": noise},
                      moderate=False).cases[0].comparison
    d = np.log(np.median(head[0], axis=1)) - np.log(np.median(base[0], axis=1))
    d0, s0 = noise.df, 2 * noise.variance  # a paired difference of two independent launches
    post = (d0 * s0 + (k - 1) * np.var(d, ddof=1)) / (d0 + k - 1)
    se, df = np.sqrt(post / k), d0 + k - 1
    assert case.change_ci_method == "store_moderated_paired_t" and case.interval_df == df
    assert case.prior_df == d0
    assert np.log1p(case.change_ci[0]) == pytest.approx(d.mean() - stats.t.ppf(0.975, df) * se, abs=1e-10)
    assert case.p_value == pytest.approx(2 * stats.t.sf(abs(d.mean()) / se, df), rel=1e-8)


def test_store_variances_are_moderated_across_cases_with_the_moderated_t_prior():
    rng = np.random.default_rng(7)
    cases = 12
    noises = {f"case{c:02d}": ln.estimate(_runs(rng, 10, 0.05)) for c in range(cases)}
    res = br.compare(_dataset(_launches(rng, cases, 1, 0.05), _launches(rng, cases, 1, 0.05)), {"revision": "base"},
                     launch_noise=noises)
    prior = br._core.compare.estimate_variance_prior([n.variance for n in noises.values()],
                                                     [n.df for n in noises.values()], excess_z=1.645)
    for r in res.cases:
        n = noises[r.name]
        v, df = br._core.compare.moderate_variance(n.variance, n.df, prior)
        assert r.comparison.launch_noise_sd == pytest.approx(np.sqrt(v), rel=1e-12)
        assert r.comparison.interval_df == pytest.approx(df)


def _simulate(rng, cases, sd, delta, runs):
    sds = sd * np.exp(rng.normal(0, 0.2, cases))
    base = np.exp(rng.normal(0, 1, (cases, 1))[..., None] * sds[:, None, None] + rng.normal(0, 0.01, (cases, 1, N)))
    head = np.exp(delta + rng.normal(0, 1, (cases, 1))[..., None] * sds[:, None, None]
                  + rng.normal(0, 0.01, (cases, 1, N)))
    noise = {f"case{c:02d}": ln.estimate([(f"c{r}", [float(np.exp(rng.normal(0, sds[c])))]) for r in range(runs)],
                                         branch="main") for c in range(cases)} if runs else None
    return br.compare(_dataset(base, head), {"revision": "base"}, launch_noise=noise, resamples=200)


def test_small_simulation_false_positives_coverage_and_power_with_and_without_a_store():
    rng = np.random.default_rng(34)
    fp = cover = total = 0
    for _ in range(5):  # A/A, sigma_p 5 %, 20 stored runs: 200 cases
        res = _simulate(rng, 40, 0.05, 0.0, 20)
        for r in res.cases:
            c = r.comparison
            fp += c.verdict in ("slower", "faster")
            cover += c.change_ci[0] <= 0 <= c.change_ci[1]
            total += 1
    assert fp / total <= 0.05
    assert cover / total >= 0.90
    # +30 % (z about 4 at sigma_p 5 %): the store calls most; without it every case is inconclusive.
    with_store = _simulate(np.random.default_rng(35), 40, 0.05, np.log(1.3), 20)
    without = _simulate(np.random.default_rng(35), 40, 0.05, np.log(1.3), 0)
    assert sum(r.comparison.verdict == "slower" for r in with_store.cases) >= 30
    assert all(r.comparison.verdict == "inconclusive" for r in without.cases)
    assert all(r.comparison.verdict_code.startswith("one_launch_per_side") for r in without.cases)
    assert all(r.comparison.launch_noise == "" for r in without.cases)


def _record_main(store, rng, runs, cases=4, sd=0.04):
    for r in range(runs):
        data = _launches(rng, cases, 1, sd)
        values = np.concatenate([data[c, 0] for c in range(cases)])
        ds = br.Dataset.from_arrays(values, np.arange(cases + 1) * N,
                                    {"benchmark": [f"case{c:02d}" for c in range(cases)]})
        store.record(ds, commit=f"{r:07x}{'0' * 33}", branch="main", time=f"2026-01-01T00:{r:02d}:00Z")


def test_pr_compare_with_a_store_against_one_without_on_a_known_answer(tmp_path):
    rng = np.random.default_rng(40)
    path = tmp_path / "results.db"
    with Store.open(path) as store:
        _record_main(store, rng, 25)
    # case00 slowed by 40 %, the others unchanged; one process per side.
    base = _launches(rng, 4, 1, 0.04)
    head = _launches(rng, 4, 1, 0.04) * np.array([1.4, 1, 1, 1])[:, None, None]
    pr = _dataset(base, head)
    with_store = ln.compare_with_store(pr, str(path), "main", {"revision": "base"})
    plain = br.compare(pr, {"revision": "base"})
    verdicts = {r.name: r.comparison.verdict for r in with_store.cases}
    assert verdicts["case00"] == "slower"
    assert all(v != "slower" and v != "faster" for name, v in verdicts.items() if name != "case00")
    assert all(r.comparison.verdict == "inconclusive" for r in plain.cases)
    c = with_store.cases[0].comparison
    assert c.launch_noise_runs == 25 and c.launch_noise.startswith("launch noise from 25 runs of main since 0000000")
    text = with_store.to_markdown()
    assert "Launch noise:" in text and "4 of 4 cases use the variance between launches" in text
    assert "Launch noise:" not in plain.to_markdown()


def test_a_store_with_too_few_runs_falls_back_and_says_so(tmp_path):
    rng = np.random.default_rng(37)
    path = tmp_path / "results.db"
    with Store.open(path) as store:
        _record_main(store, rng, 5)
    res = ln.compare_with_store(_dataset(_launches(rng, 4, 1, 0.04), _launches(rng, 4, 1, 0.04)), str(path))
    for r in res.cases:
        assert r.comparison.verdict_code.startswith("one_launch_per_side")
        assert "5 usable runs of main for this case (fewer than 10)" in r.comparison.verdict_reason
    assert "no case's stored runs give a usable launch noise" in res.to_markdown()


def test_cli_compare_with_store(tmp_path):
    rng = np.random.default_rng(38)
    path = tmp_path / "results.db"
    with Store.open(path) as store:
        _record_main(store, rng, 12)
    base = _launches(rng, 4, 1, 0.04)
    head = _launches(rng, 4, 1, 0.04) * 1.5
    files = []
    for side, data in (("base", base), ("head", head)):
        values = np.concatenate([data[c, 0] for c in range(4)])
        ds = br.Dataset.from_arrays(values, np.arange(5) * N, {"benchmark": [f"case{c:02d}" for c in range(4)]})
        files.append(str(tmp_path / f"{side}.json"))
        ds.to_json(files[-1])
    out = subprocess.run([sys.executable, "-m", "benchreport", "compare", *files, "--store", str(path), "--branch",
                          "main", "--format", "json", "--fail-on", "slower"], capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    assert "launch noise from 12 runs of main" in out.stdout
    plain = subprocess.run([sys.executable, "-m", "benchreport", "compare", *files, "--fail-on", "slower"],
                           capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr


# Base and head on one host (issue 34, paired): the launch factor of a process is a host part shared by
# the processes of one run plus its own part; a paired difference sees only the latter.
SHARE = 0.75


def _host_launches(rng, cases, processes, sd, within=0.01):
    """cases x processes x N samples of processes on one host: log factor sqrt(SHARE) h + sqrt(1 - SHARE) u."""
    host, own = rng.normal(0, 1, (cases, 1)), rng.normal(0, 1, (cases, processes))
    factors = sd * (np.sqrt(SHARE) * host + np.sqrt(1 - SHARE) * own)
    return np.exp(factors[..., None] + rng.normal(0, within, (cases, processes, N)))


def _record_main_on_hosts(store, rng, runs, cases=8, sd=0.04, processes=2):
    for r in range(runs):
        data = _host_launches(rng, cases, processes, sd)
        ds = br.Dataset.from_arrays(np.concatenate([data[c, p] for c in range(cases) for p in range(processes)]),
                                    np.arange(cases * processes + 1) * N,
                                    {"benchmark": [f"case{c:02d}" for c in range(cases) for _ in range(processes)],
                                     "process": [str(p + 1) for _ in range(cases) for p in range(processes)]})
        store.record(ds, commit=f"{r:07x}{'0' * 33}", branch="main", time=f"2026-01-01T00:{r:02d}:00Z")


def _paired_pr(rng, cases, sd, change):
    """One process a side, base and head of case c on one host, with equal pair labels."""
    both = _host_launches(rng, cases, 2, sd)
    return _dataset(both[:, :1], both[:, 1:] * np.asarray(change)[:, None, None], pairs=True)


def test_unshared_launch_noise_from_a_store_matches_numpy_and_the_truth(tmp_path):
    rng = np.random.default_rng(41)
    path, sd = tmp_path / "results.db", 0.04
    with Store.open(path) as store:
        _record_main_on_hosts(store, rng, 30, sd=sd)
        history = store.dataset([r.run_id for r in store.runs("main")])
        noise = ln.from_store(store, "main", ["benchmark"])
    labels = history.labels
    truth = (1 - SHARE) * sd ** 2 + np.pi / 2 * 0.01 ** 2 / N  # unshared factor + the median's own noise
    for name, n in noise.items():
        logs = {}
        for i in range(len(history)):
            if labels["benchmark"][i] == name:
                logs.setdefault(labels["run"][i], []).append(np.log(np.median(history.samples(i))))
        within = [np.asarray(v) - np.mean(v) for v in logs.values()]
        assert n.unshared_usable and n.unshared_runs == 30 and n.unshared_df == 30
        assert n.unshared_variance == pytest.approx(sum(np.sum(w ** 2) for w in within) / 30, rel=1e-12)
    # 8 cases x 30 df: the mean has a relative sd of sqrt(2 / 240) = 9 %; 30 % is over 3 sd.
    assert np.mean([n.unshared_variance for n in noise.values()]) == pytest.approx(truth, rel=0.3)
    # The whole launch variance (host part too) is about four times larger.
    assert np.mean([n.variance for n in noise.values()]) > 2.5 * truth


def _paired_store_compare(path, seed, record, runs, change):
    """A store at `path` of `runs` runs of main made by `record`, and a paired PR (one process a side) compared
    with it."""
    rng = np.random.default_rng(seed)
    with Store.open(path) as store:
        record(store, rng, runs)
    return ln.compare_with_store(_paired_pr(rng, len(change), 0.04, change), str(path), "main", {"revision": "base"})


def _assert_no_claim_on_the_store(result, method, runs, noise_prefix):
    for r in result.cases:
        c = r.comparison
        assert c.change_ci_method == method and c.launch_noise_runs == runs
        assert c.launch_noise.startswith(noise_prefix)
        assert c.verdict not in ("slower", "faster")


def test_paired_compare_with_a_two_process_store_uses_the_unshared_noise(tmp_path):
    aa = _paired_store_compare(tmp_path / "aa.db", 42, _record_main_on_hosts, 25, [1.0] * 8)
    _assert_no_claim_on_the_store(aa, "store_paired_launch_t", 25,
                                  "unshared launch noise from 25 runs of main with ≥ 2 processes")
    # The report's note names the sd it used: the unshared part, not the whole launch's.
    assert "the unshared part for the 8 cases whose base and head share a host" in aa.to_markdown()
    # +20 % on case00 only, the others unchanged: the unshared sd is about 2 %, so 20 % is some 6 se.
    pr = _paired_store_compare(tmp_path / "pr.db", 42, _record_main_on_hosts, 25, [1.2] + [1.0] * 7)
    verdicts = {r.name: r.comparison.verdict for r in pr.cases}
    assert verdicts["case00"] == "slower"
    assert all(v not in ("slower", "faster") for name, v in verdicts.items() if name != "case00")


def test_paired_interval_is_a_t_on_twice_the_unshared_variance():
    rng = np.random.default_rng(43)
    runs = [(f"c{r:03d}", list(np.exp(rng.normal(0, 0.02, 2) + rng.normal(0, 0.04)))) for r in range(15)]
    noise = ln.estimate(runs, branch="main")
    pr = _paired_pr(rng, 1, 0.04, [1.1])
    case = br.compare(pr, {"revision": "base"}, launch_noise={"case00": noise}, moderate=False).cases[0].comparison
    med = [np.log(np.median(pr.samples(i))) for i in range(2)]
    est, se = med[1] - med[0], np.sqrt(2 * noise.unshared_variance)
    q = stats.t.ppf(0.975, noise.unshared_df)
    assert case.change_ci_method == "store_paired_launch_t" and case.interval_df == noise.unshared_df == 15
    assert np.log1p(case.change_ci[0]) == pytest.approx(est - q * se, abs=1e-10)
    assert np.log1p(case.change_ci[1]) == pytest.approx(est + q * se, abs=1e-10)
    assert case.p_value == pytest.approx(2 * stats.t.sf(abs(est) / se, noise.unshared_df), rel=1e-8)


def test_paired_compare_with_a_one_process_store_falls_back_and_says_so(tmp_path):
    res = _paired_store_compare(tmp_path / "results.db", 44, _record_main, 15, [1.0] * 4)
    _assert_no_claim_on_the_store(res, "store_launch_t", 15, "launch noise from 15 runs of main")
    for r in res.cases:
        assert ("base and head share a host, but 0 of these runs have ≥ 2 processes (fewer than 10)"
                in r.comparison.launch_noise)


def test_small_paired_simulation_false_positives_coverage_and_power():
    """Seeded miniature of bench/bench_launch_noise.py's shared-host cells: sigma_p 5 %, 20 stored runs of
    2 processes, 40 cases; the oracle knows each pair's difference variance."""
    rng = np.random.default_rng(34)
    sd, cases = 0.05, 40
    var_pair = 2 * ((1 - SHARE) * sd ** 2 + np.pi / 2 * 0.01 ** 2 / N)
    fp = cover = total = 0
    called = {0.1: 0, 0.2: 0}
    oracle = {0.1: 0, 0.2: 0}
    reps = {0.0: 10, 0.1: 2, 0.2: 2}  # A/A: 400 cases (a binomial sd of 1.1 points at 5 %)
    for effect in (0.0, 0.1, 0.2):
        for _ in range(reps[effect]):
            noise = {f"case{c:02d}": ln.estimate([(f"c{r}", list(np.median(_host_launches(rng, 1, 2, sd)[0], axis=1)))
                                                  for r in range(20)], branch="main") for c in range(cases)}
            pr = _paired_pr(rng, cases, sd, [1 + effect] * cases)
            res = br.compare(pr, {"revision": "base"}, launch_noise=noise, resamples=200)
            for r in res.cases:
                c = r.comparison
                lo, hi, est = np.log1p(c.change_ci[0]), np.log1p(c.change_ci[1]), np.log1p(c.change_estimate)
                hit = (lo > 0 and est >= np.log(1.05)) or (hi < 0 and est <= -np.log(1.05))
                if effect == 0:
                    fp += hit
                    total += 1
                else:
                    called[effect] += hit and est > 0
                    z = est / np.sqrt(var_pair)
                    oracle[effect] += z > stats.norm.ppf(0.975) and est >= np.log(1.05)
                cover += lo <= np.log1p(effect) <= hi
    assert fp / total <= 0.06
    assert cover / (total * 14 / 10) >= 0.93
    for effect in called:
        assert called[effect] >= 0.85 * oracle[effect] > 0
