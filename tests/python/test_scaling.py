"""Scaling fits (src/stats/scaling.cpp) against numpy.linalg.lstsq and scipy.optimize.curve_fit,
the lack-of-fit F test against scipy.stats.f, seeded simulations with process-level noise
(scaling_sim.py), families from names, and the real Google Benchmark sort fixtures
(tests/data/google_benchmark/scaling, made by make_google_benchmark_scaling.sh)."""
import glob
import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, stats

import benchreport as br
from benchreport import _core
from benchreport.cli import load_sides, main
from scaling_sim import LAWS, simulate

DATA = Path(__file__).resolve().parents[1] / "data" / "google_benchmark" / "scaling"
TERMS = {"1": lambda n: np.ones_like(n), "log n": np.log, "n": lambda n: n, "n log n": lambda n: n * np.log(n),
         "n^2": lambda n: n ** 2, "n^3": lambda n: n ** 3}


def random_levels(rng, sizes, processes, law, noise):
    return [(float(n), list(law(n) * np.exp(rng.normal(0, noise, size=m)))) for n, m in zip(sizes, processes)]


def summaries(levels):
    n = np.array([s for s, _ in levels])
    y = np.array([math.exp(np.mean(np.log(v))) for _, v in levels])
    m = np.array([len(v) for _, v in levels], dtype=float)
    return n, y, m


@pytest.mark.parametrize("seed", range(6))
def test_fixed_models_match_weighted_lstsq(seed):
    rng = np.random.default_rng(seed)
    sizes = np.unique(rng.integers(2, 10 ** 5, size=8)).astype(float)
    levels = random_levels(rng, sizes, rng.integers(1, 6, size=len(sizes)), lambda n: 3e-9 * n ** 1.3, 0.05)
    fit = br.fit_scaling(levels)
    n, y, m = summaries(levels)
    np.testing.assert_allclose(fit.summaries, y, rtol=1e-12)
    w = m / y ** 2
    for model in fit.models:
        if model.parameters > 1:
            continue
        g = TERMS[model.model](n)
        (a,), *_ = np.linalg.lstsq((np.sqrt(w) * g)[:, None], np.sqrt(w) * y, rcond=None)
        assert model.coefficient == pytest.approx(a, rel=1e-10)
        popt, _ = optimize.curve_fit(lambda x, c: c * TERMS[model.model](x), n, y, p0=[a], sigma=1 / np.sqrt(w))
        assert model.coefficient == pytest.approx(popt[0], rel=1e-8)


@pytest.mark.parametrize("seed", range(6))
def test_power_law_matches_loglog_lstsq_and_t_interval(seed):
    rng = np.random.default_rng(100 + seed)
    sizes = np.geomspace(64, 65536, 7)
    levels = random_levels(rng, sizes, rng.integers(2, 5, size=7), lambda n: 2e-8 * n ** 1.5, 0.04)
    fit = br.fit_scaling(levels)
    n, y, m = summaries(levels)
    ref = math.exp(np.mean(np.log(n)))
    x = np.column_stack([np.ones_like(n), np.log(n) - math.log(ref)])
    sw = np.sqrt(m)
    beta, *_ = np.linalg.lstsq(x * sw[:, None], np.log(y) * sw, rcond=None)
    assert fit.power.level == pytest.approx(beta[0], rel=1e-10, abs=1e-12)
    assert fit.power.exponent == pytest.approx(beta[1], rel=1e-10)
    popt, _ = optimize.curve_fit(lambda t, c, b: c + b * t, np.log(n) - math.log(ref), np.log(y),
                                 sigma=1 / sw, p0=beta)
    assert fit.power.exponent == pytest.approx(popt[1], rel=1e-8)
    # Pure error: between-process variance of log values pooled over sizes.
    ss = sum(np.sum((np.log(v) - np.mean(np.log(v))) ** 2) for _, v in levels)
    df = sum(len(v) - 1 for _, v in levels)
    sigma = math.sqrt(ss / df)
    assert fit.sigma == pytest.approx(sigma, rel=1e-10)
    se = sigma * math.sqrt(np.linalg.inv((x * m[:, None]).T @ x)[1, 1])
    q = stats.t.ppf(0.975, df)
    assert fit.power.exponent_lower == pytest.approx(beta[1] - q * se, rel=1e-9)
    assert fit.power.exponent_upper == pytest.approx(beta[1] + q * se, rel=1e-9)
    a = next(m for m in fit.models if m.model == "n^b")
    assert a.coefficient == pytest.approx(math.exp(beta[0] - beta[1] * math.log(ref)), rel=1e-9)


def weighted_design(levels, columns):
    """The √w-scaled design and costs of a relative weighted fit, w = m / y²."""
    n, y, m = summaries(levels)
    root_w = np.sqrt(m) / y
    x = np.column_stack([c(n) for c in columns])
    return n, y, root_w, x


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("model, term", [("c + n", TERMS["n"]), ("c + n log n", TERMS["n log n"])])
def test_intercept_models_match_weighted_lstsq_and_curve_fit(seed, model, term):
    rng = np.random.default_rng(300 + seed)
    sizes = np.unique(rng.integers(2, 10 ** 5, size=7)).astype(float)
    levels = random_levels(rng, sizes, rng.integers(1, 5, size=len(sizes)), lambda n: 2e-3 + 4e-8 * n, 0.05)
    fit = br.fit_scaling(levels)
    got = next(f for f in fit.models if f.model == model)
    n, y, root_w, x = weighted_design(levels, [np.ones_like, term])
    beta, *_ = np.linalg.lstsq(x * root_w[:, None], y * root_w, rcond=None)
    assert (got.intercept, got.coefficient) == pytest.approx(tuple(beta), rel=1e-9)
    popt, pcov = optimize.curve_fit(lambda t, c, b: c + b * term(t), n, y, p0=beta, sigma=1 / root_w,
                                    absolute_sigma=True)
    assert (got.intercept, got.coefficient) == pytest.approx(tuple(popt), rel=1e-7)
    # t intervals: σ (the per-process noise) times √ of (XᵀWX)⁻¹'s diagonal, as curve_fit's absolute pcov.
    q = stats.t.ppf(0.975, fit.power.df)
    se = fit.sigma * np.sqrt(np.diag(pcov))
    assert got.intercept_lower == pytest.approx(popt[0] - q * se[0], rel=1e-6)
    assert got.coefficient_upper == pytest.approx(popt[1] + q * se[1], rel=1e-6)
    assert got.parameters == 2 and math.isnan(got.exponent)
    assert got.predict(1000.0) == pytest.approx(beta[0] + beta[1] * term(np.array(1000.0)), rel=1e-9)


def offset_power_wrss(n, y, root_w, k):
    x = np.column_stack([np.ones_like(n), n ** k]) * root_w[:, None]
    beta, *_ = np.linalg.lstsq(x, y * root_w, rcond=None)
    return float(np.sum((y * root_w - x @ beta) ** 2)), beta


@pytest.mark.parametrize("seed", range(6))
def test_offset_power_matches_curve_fit(seed):
    rng = np.random.default_rng(400 + seed)
    sizes = np.geomspace(16, 65536, 9)
    k_true = rng.uniform(0.6, 2.2)
    levels = random_levels(rng, sizes, [3] * 9, lambda n: 1e-3 + 1e-3 * (n / 65536) ** k_true * 20, 0.03)
    fit = br.fit_scaling(levels)
    got = next(f for f in fit.models if f.model == "c + n^k")
    n, y, root_w, _ = weighted_design(levels, [np.ones_like])
    # An independent search: scipy's bounded scalar minimiser over k of the profile WRSS, then
    # curve_fit in all three parameters from there.
    k0 = optimize.minimize_scalar(lambda k: offset_power_wrss(n, y, root_w, k)[0], bounds=(0.1, 4),
                                  method="bounded", options={"xatol": 1e-10}).x
    _, (c0, b0) = offset_power_wrss(n, y, root_w, k0)
    popt, pcov = optimize.curve_fit(lambda t, c, b, k: c + b * t ** k, n, y, p0=[c0, b0, k0], sigma=1 / root_w,
                                    absolute_sigma=True, xtol=1e-14, ftol=1e-14)
    assert got.exponent == pytest.approx(popt[2], rel=1e-5)
    assert (got.intercept, got.coefficient) == pytest.approx(tuple(popt[:2]), rel=1e-4)
    ours = offset_power_wrss(n, y, root_w, got.exponent)[0]
    assert ours <= offset_power_wrss(n, y, root_w, popt[2])[0] * (1 + 1e-9)
    q = stats.t.ppf(0.975, fit.power.df)
    se = fit.sigma * np.sqrt(np.diag(pcov))
    assert got.exponent_upper - got.exponent == pytest.approx(q * se[2], rel=1e-3)
    assert got.intercept - got.intercept_lower == pytest.approx(q * se[0], rel=1e-3)


def test_lack_of_fit_is_scipys_f_test():
    rng = np.random.default_rng(8)
    levels = simulate(rng, LAWS["cliff"][0], np.geomspace(256, 32768, 8))
    fit = br.fit_scaling(levels)
    n, y, m = summaries(levels)
    chosen = next(f for f in fit.models if f.model == fit.closest)
    e = np.log(y) - np.log([chosen.predict(float(v)) for v in n])
    df_model = len(n) - chosen.parameters
    pure = sum(np.sum((np.log(v) - np.mean(np.log(v))) ** 2) for _, v in levels)
    f = (np.sum(m * e ** 2) / df_model) / (pure / np.sum(m - 1))
    lof = fit.lack_of_fit
    assert lof.tested and lof.detected and fit.best is None
    assert (lof.df_model, lof.df_pure) == (df_model, np.sum(m - 1))
    assert lof.f == pytest.approx(f, rel=1e-9)
    assert lof.p == pytest.approx(stats.f.sf(f, df_model, np.sum(m - 1)), rel=1e-6)
    assert not br.fit_scaling(levels, lack_of_fit_alpha=lof.p / 2).lack_of_fit.detected


def test_edge_data_constant_exact_and_zero_intercept():
    constant = br.fit_scaling([(float(n), [2.5, 2.5]) for n in (10, 100, 1000, 10000)])
    assert constant.best == "1" and not constant.lack_of_fit.detected
    assert constant.best_fit.coefficient == pytest.approx(2.5, rel=1e-12)
    # An exact fixed cost plus linear growth (replicates equal): c + n, to rounding.
    exact = br.fit_scaling([(float(n), [0.5 + 1e-3 * n] * 2) for n in (10, 100, 1000, 5000, 10000)])
    assert exact.best == "c + n" and not exact.lack_of_fit.detected
    assert (exact.best_fit.intercept, exact.best_fit.coefficient) == pytest.approx((0.5, 1e-3), rel=1e-9)
    # No fixed cost in the truth: c + n's interval holds 0 and plain n is chosen.
    rng = np.random.default_rng(12)
    zero = br.fit_scaling(simulate(rng, LAWS["n"][0], np.geomspace(256, 32768, 8)))
    c_n = next(f for f in zero.models if f.model == "c + n")
    assert c_n.intercept_lower < 0 < c_n.intercept_upper and zero.best == "n"
    # One process per size: no replicates, so no lack-of-fit test.
    single = br.fit_scaling([(float(n), [1e-3 * n]) for n in (10, 100, 1000)])
    assert not single.lack_of_fit.tested and single.best == "n"
    with pytest.raises(ValueError, match="lack-of-fit alpha"):
        br.fit_scaling([(1.0, [1.0]), (2.0, [2.0]), (4.0, [4.0])], lack_of_fit_alpha=0)


def test_report_shows_the_fixed_cost_and_the_lack_of_fit():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(21)
    ds = br.Dataset.from_pandas(pd.DataFrame([
        {"benchmark": f"{fam}/{int(n)}", "process": str(p), "value": v}
        for fam, law in (("BM_start", LAWS["c + n"][0]), ("BM_cliff", LAWS["cliff"][0]))
        for n, medians in simulate(rng, law, np.geomspace(256, 32768, 8))
        for p, v in enumerate(medians)]), unit="s")
    result = br.scaling(ds)
    text = result.to_markdown()
    start = next(f for f in result.fits if f.name.startswith("BM_start"))
    assert start.fit.best == "c + n"
    row = next(line for line in text.splitlines() if line.startswith("| `BM_start"))
    assert "c + O(n)" in row and " µs (" in row  # the fixed cost 4.096 µs with its interval, in µs
    cliff_row = next(line for line in text.splitlines() if line.startswith("| `BM_cliff"))
    assert "none fits (closest" in cliff_row
    assert "No model fits BM\\_cliff" in text  # Markdown escapes the underscore
    data = {f["family"]: f for f in result.report.data["scaling"]["families"]}
    cliff = next(v for k, v in data.items() if k.startswith("BM_cliff"))
    assert "best" not in cliff and cliff["closest"] and cliff["lack_of_fit"]["detected"]
    assert next(v for k, v in data.items() if k.startswith("BM_start"))["best"] == "c + n"
    frame = result.to_pandas()
    assert set(frame["lack_of_fit_detected"]) == {True, False}
    assert sorted(frame["best"]) == ["", "c + n"]


def test_one_process_per_size_uses_residuals():
    rng = np.random.default_rng(7)
    levels = random_levels(rng, np.geomspace(10, 1e4, 6), [1] * 6, lambda n: n, 0.03)
    fit = br.fit_scaling(levels)
    n, y, _ = summaries(levels)
    coef = np.polyfit(np.log(n), np.log(y), 1)
    resid = np.log(y) - np.polyval(coef, np.log(n))
    assert not fit.sigma_between_processes
    assert fit.power.df == 4
    assert fit.sigma == pytest.approx(math.sqrt(np.sum(resid ** 2) / 4), rel=1e-9)


def test_bad_levels_are_named():
    with pytest.raises(ValueError, match="need at least 3"):
        br.fit_scaling([(1.0, [1.0]), (2.0, [2.0])])
    with pytest.raises(ValueError, match="size 4 has value 0"):
        br.fit_scaling([(1.0, [1.0]), (2.0, [2.0]), (4.0, [0.0])])
    with pytest.raises(ValueError, match="appears twice"):
        br.fit_scaling([(1.0, [1.0]), (2.0, [2.0]), (2.0, [2.0])])


@pytest.mark.parametrize("name", list(LAWS))
def test_simulation_picks_the_law_and_covers_the_exponent(name):
    """Each class with and without a fixed cost (and a cliff no model fits), 200 seeded families each;
    bench/RESULTS-scaling.md has the full table."""
    law, model, exponent = LAWS[name]
    rng = np.random.default_rng(2026)
    trials, right, covered = 200, 0, 0
    for _ in range(trials):
        fit = br.fit_scaling(simulate(rng, law))
        right += fit.lack_of_fit.detected if model == "none" else fit.best == model
        if exponent is not None:
            free = next(m for m in fit.models if m.model == ("c + n^k" if model == "c + n^k" else "n^b"))
            covered += free.exponent_lower <= exponent <= free.exponent_upper
    assert right / trials >= (0.99 if model == "none" else 0.9)
    if exponent is not None:
        assert 0.90 <= covered / trials <= 0.99


def test_growth_change_flags_a_steeper_law_and_not_a_constant_one():
    rng = np.random.default_rng(11)
    sizes = np.geomspace(256, 32768, 8)
    base = br.fit_scaling(simulate(rng, LAWS["n"][0], sizes))
    steeper = br.fit_scaling(simulate(rng, LAWS["n^2"][0], sizes))
    slower = br.fit_scaling(simulate(rng, lambda n: 1.3e-9 * n, sizes))
    assert br.compare_growth(base, steeper).verdict == "steeper"
    same = br.compare_growth(base, slower, at=1e6)
    assert same.verdict == "unchanged" and same.far
    assert same.level_ratio == pytest.approx(1.3, rel=0.1) and same.level_lower < same.level_ratio < same.level_upper


def test_growth_change_matches_its_formula():
    rng = np.random.default_rng(5)
    sizes = np.geomspace(100, 1e5, 6)
    b = br.fit_scaling(simulate(rng, LAWS["n"][0], sizes))
    h = br.fit_scaling(simulate(rng, LAWS["n^1.5"][0], sizes))
    c = br.compare_growth(b, h, at=1e4)
    vb, vh = b.power.exponent_se ** 2, h.power.exponent_se ** 2
    df = (vb + vh) ** 2 / (vb ** 2 / b.power.df + vh ** 2 / h.power.df)
    q = stats.t.ppf(0.975, df)
    d = h.power.exponent - b.power.exponent
    assert c.exponent_change == pytest.approx(d, rel=1e-12)
    assert c.exponent_lower == pytest.approx(d - q * math.sqrt(vb + vh), rel=1e-9)
    assert not c.far


@pytest.mark.parametrize("name, argument, expected", [
    ("BM_sort/1024", 0, ("BM_sort/*", 1024.0)),
    ("BM_x/8/4096", 1, ("BM_x/8/*", 4096.0)),
    ("BM_x/size:64/threads:4", 0, ("BM_x/size:*/threads:4", 64.0)),
    ("BM_x/64/real_time", 0, ("BM_x/*/real_time", 64.0)),
    ("test_sort[1024]", 0, ("test_sort[*]", 1024.0)),
    ("test_sort[quick-1e6]", 0, ("test_sort[quick-*]", 1e6)),
    ("BM_plain", 0, None),
    ("BM_x/threads:8", 0, None),
])
def test_split_size(name, argument, expected):
    assert br.split_size(name, argument) == expected


def sort_sides():
    return load_sides(sorted(glob.glob(str(DATA / "base-*.json"))), sorted(glob.glob(str(DATA / "head-*.json"))),
                      "revision", "base", "head")


def test_real_sort_head_is_a_growth_change_and_base_is_near_linear():
    result = br.scaling(sort_sides(), at=1e6)
    assert result.compared and len(result.comparisons) == 2  # real_time and cpu_time
    for c in result.comparisons:
        assert c.change.verdict == "steeper"
        assert c.change.far
        assert c.head.fit.power.exponent_lower > 1.7
        # std::sort is n log n: its local exponent over 256..32768 is 1 + 1/ln n, about 1.1-1.2.
        assert c.base.fit.power.exponent_lower < 1.25 and c.base.fit.power.exponent_upper > 1.0
        assert c.base.reported.big_o == "NlgN" and c.head.reported.big_o == "N^2"
        assert all(len(v) == 3 for v in c.base.process_values)
    cpu = next(c for c in result.comparisons if "cpu_time" in c.name)
    assert cpu.base.fit.best in ("n log n", "n", "n^b")
    frame = result.to_pandas()
    assert list(frame["verdict"]) == ["steeper", "steeper"]


def test_scaling_cli_every_format(tmp_path, capsys):
    base, head = sorted(glob.glob(str(DATA / "base-*.json"))), sorted(glob.glob(str(DATA / "head-*.json")))
    for fmt in _core.FORMATS:
        out = tmp_path / f"scaling.{fmt}"
        assert main(["scaling", "--base", *base, "--head", *head, "--at", "1e6", "--format", fmt, "-o", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        assert "BM_sort/*" in text
    html = (tmp_path / "scaling.html").read_text(encoding="utf-8")
    assert html.count("<svg") >= 2 and "<polyline" in html
    assert "grows faster" in (tmp_path / "scaling.markdown").read_text(encoding="utf-8")


def test_single_side_fit_and_comparison_section():
    one = br.load(sorted(glob.glob(str(DATA / "base-*.json"))))
    result = br.scaling(one)
    assert not result.compared and len(result.fits) == 2
    ds = sort_sides()
    report = br.compare(ds, baseline={"revision": "base"}).report
    assert "Growth change" in report.to_markdown()


def test_plot_draws(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = br.scaling(sort_sides()).plot()
    assert ax.get_xscale() == "log" and len(ax.lines) == 2


def test_plot_is_in_the_display_unit_with_human_ticks():
    """The hyperfine scan (seconds) is drawn in s as the report shows it; the sort fixture's costs (base
    seconds, about 1e-6…1e-3) in µs or ms, not base seconds; ticks read 200k or 50, never 1.0838e+06."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from benchreport import plot

    result = br.scaling(sort_sides())
    ax = result.plot()
    ax.figure.canvas.draw()
    unit = ax.get_ylabel()[len("cost ("):-1]
    assert ax.get_ylabel().startswith("cost (") and unit in ("µs", "ms")
    fit = result.comparisons[0].base
    factor = 1e6 if unit == "µs" else 1e3
    points = ax.collections[0].get_offsets()
    np.testing.assert_allclose(points[:, 1], factor * np.concatenate(fit.process_values), rtol=1e-12)
    labels = [t.get_text() for t in ax.xaxis.get_ticklabels() + ax.yaxis.get_ticklabels() if t.get_text()]
    assert labels and not [t for t in labels if re.search(r"e[+-]\d|\$|\d{4,}", t)], labels
    assert ax.get_xlabel() == "size n"
    scan = br.scaling(br.load(Path(__file__).resolve().parents[1] / "data" / "hyperfine" / "scan_startup.json"))
    ax = scan.plot()
    assert ax.get_xlabel() == "n" and ax.get_ylabel() == "cost (s)"
    assert [plot.human_number(v) for v in (184536, 1.0838e6, 50, 0.25, 2e9)] == ["185k", "1.08M", "50", "0.25", "2G"]


def test_a_hyperfine_parameter_scan_is_named_after_its_parameter():
    """A real `hyperfine --parameter-scan n 5 45 -D 10` of an interpreter start-up plus work linear in n
    (tests/data/make_fixtures/make_hyperfine.sh): the sizes are called `n`, as hyperfine named them, in the
    residual table and on the plot's x axis, whose ticks are 1-2-5 values, not raw sizes."""
    path = Path(__file__).resolve().parents[1] / "data" / "hyperfine" / "scan_startup.json"
    result = br.scaling(br.load(path))
    assert result.core.size_source == "n"
    assert [n for n in result.core.fits[0].sizes] == [5, 15, 25, 35, 45]
    text = result.to_markdown()
    assert "| n | processes |" in text
    html = result.to_html()
    assert ">n</text>" in html  # the x axis label
    ticks = re.findall(r'text-anchor="middle">([^<]*)</text>', html)
    assert ticks[:4] == ["5", "10", "20", "50"]  # 1-2-5 values over 5..45 (50: inside the axis' 5 % margin)
    assert not [t for t in ticks if re.fullmatch(r"\d{4,}|.*e[+-]\d+", t)]
    y_ticks = re.findall(r'text-anchor="end">([^<]*)</text>', html)
    assert y_ticks and all(t.endswith(" s") or t.endswith("ms") for t in y_ticks), y_ticks
