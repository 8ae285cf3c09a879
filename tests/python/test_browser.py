"""The HTML reports in a real browser (headless Chromium from Debian): no table wider than a
1400 px window and no unit symbol wrapped onto a line of its own. scripts/test.sh installs
Chromium and sets BENCHREPORT_REQUIRE_BROWSER=1, so there this test never skips."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchreport import cli

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if BROWSER is None and os.environ.get("BENCHREPORT_REQUIRE_BROWSER") == "1":
    raise RuntimeError("BENCHREPORT_REQUIRE_BROWSER=1 but no chromium on PATH")
# asan_slow: under scripts/sanitize.sh the ASan runtime is preloaded into every child, Chromium included.
pytestmark = [pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on PATH"), pytest.mark.asan_slow]

# Runs after layout; its verdict is read back from the DOM that --dump-dom prints.
PROBE = r"""<script>
window.addEventListener('load', () => {
  const width = document.documentElement.clientWidth;
  const tables = [...document.querySelectorAll('table')];
  const cells = [...document.querySelectorAll('td, th')];
  const result = {
    viewport: width,
    page: document.documentElement.scrollWidth,
    tables: tables.length,
    wide_tables: tables.filter(t => t.getBoundingClientRect().right > width + 0.5).length,
    // A short number-with-unit cell whose text takes more than one line box is wrapped.
    wrapped_values: cells.filter(c => {
      const text = c.textContent.trim();
      if (text.length > 24 || !/^[-+~]?[0-9][0-9.,]* ?[A-Za-zµ%\/]+$/.test(text)) return false;
      const range = document.createRange();
      range.selectNodeContents(c);
      return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
    }).length,
  };
  const out = document.createElement('pre');
  out.id = 'layout-check';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});
</script></body>"""


def probed(page_html: str, probe_id: str, tmp_path, width: int) -> object:
    """Opens the page (its probe script included) in headless Chromium at `width` px and returns the
    JSON the probe wrote into <pre id=probe_id> after layout."""
    page = tmp_path / f"{probe_id}.html"
    page.write_text(page_html, encoding="utf-8")
    dom = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},1000",
                          "--virtual-time-budget=3000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    found = re.search(rf'<pre id="{probe_id}">([^<]*)</pre>', dom)
    assert found, f"the probe {probe_id} did not run"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def layout(html: str, tmp_path) -> dict:
    return probed(html.replace("</body>", PROBE), "layout-check", tmp_path, 1400)


@pytest.mark.parametrize("name", ["comparison", "runners", "matrix"])
def test_html_report_fits_a_1400px_window(tmp_path, name):
    report = dict(cli.demo_reports(resamples=200))[name]
    found = layout(report.to_html(), tmp_path)
    assert found["tables"] > 0
    assert found["page"] <= found["viewport"], found
    assert found["wide_tables"] == 0 and found["wrapped_values"] == 0, found


def test_probe_sees_a_table_that_is_too_wide_and_a_wrapped_unit(tmp_path):
    cells = "".join(f"<td>{'x' * 40}</td>" for _ in range(60))
    narrow = '<table style="width:10px"><tr><td style="width:10px; word-break: break-all">851.2 ns</td></tr></table>'
    found = layout(f"<html><body><table><tr>{cells}</tr></table>{narrow}</body></html>", tmp_path)
    assert found["wide_tables"] == 1 and found["wrapped_values"] == 1


def demo_history():
    """Three cases over 40 commits, three processes each: +25 % at the 16th commit, -20 % at the 29th, flat."""
    import numpy as np

    import benchreport as br

    rng = np.random.default_rng(35)
    values, offsets, labels = [], [0], {"benchmark": [], "commit": [], "process": []}
    for name, level, at, step in (("BM_parse", 19.7e-6, 15, 1.25), ("BM_render", 184.5e-6, 28, 0.8),
                                  ("BM_io", 1.08e-3, 40, 1.0)):
        for c in range(40):
            for p in range(3):
                values.extend(level * (step if c >= at else 1.0) * rng.lognormal(0, 0.02, 8))
                offsets.append(len(values))
                labels["benchmark"].append(name)
                labels["commit"].append(f"{0xa13f00 + 7919 * c:06x}")
                labels["process"].append(str(p))
    return br.history(br.Dataset.from_arrays(np.array(values), np.array(offsets), labels, unit="s"), order="commit")


# Reads the drawn plots back from the DOM: what each SVG shows after layout.
PLOT_PROBE = r"""<script>
window.addEventListener('load', () => {
  const plots = [...document.querySelectorAll('figure.plot svg')].map(svg => ({
    width: svg.getBoundingClientRect().width,
    points: svg.querySelectorAll('circle').length,
    markers: [...svg.querySelectorAll('line[stroke-dasharray]')].map(l => l.getAttribute('stroke')),
    red_levels: [...svg.querySelectorAll('polyline')].filter(p => p.getAttribute('stroke') === '#cf222e').length,
    labels: [...svg.querySelectorAll('text')].map(t => t.textContent),
    // tick labels whose boxes overlap a neighbour's (crowded commit names)
    overlaps: (() => {
      const ticks = [...svg.querySelectorAll('text[y="290.0"]')].map(t => t.getBBox()).sort((a, b) => a.x - b.x);
      return ticks.slice(1).filter((b, i) => b.x < ticks[i].x + ticks[i].width).length;
    })(),
  }));
  const out = document.createElement('pre');
  out.id = 'plot-check';
  out.textContent = JSON.stringify(plots);
  document.body.appendChild(out);
});
</script></body>"""


def test_history_plots_in_chromium(tmp_path):
    """The history report's time-series plot per case, drawn by Chromium: every commit a point, the change
    points as dashed markers (red up, green down), the regressed level red, ticks in µs/ms, commit names
    that do not overlap. A screenshot goes to docs/images/history-plot.png with BENCHREPORT_UPDATE_SCREENSHOTS=1."""
    html = demo_history().to_html()
    parse, render, io = probed(html.replace("</body>", PLOT_PROBE), "plot-check", tmp_path, 1000)
    for plot in (parse, render, io):
        assert plot["width"] > 500 and plot["overlaps"] == 0, plot
        assert plot["points"] >= 40  # 40 commits (+ legend dots)
    assert parse["markers"] == ["#cf222e"] and parse["red_levels"] == 1 and "+24.99%" in parse["labels"]
    assert render["markers"] == ["#1a7f37"] and render["red_levels"] == 0
    assert io["markers"] == []
    assert any(label.endswith("µs") for label in parse["labels"])
    assert any(label.endswith("ms") for label in io["labels"])
    numbers = [label for p in (parse, render, io) for label in p["labels"] if label[:1].isdigit()]
    assert len(numbers) >= 9 and not any(re.search(r"\d{5}|e[+-]\d", label) for label in numbers), numbers
    plain, shot = tmp_path / "plain.html", tmp_path / "history.png"
    plain.write_text(html, encoding="utf-8")
    subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=900,1100", f"--screenshot={shot}", plain.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("BENCHREPORT_UPDATE_SCREENSHOTS") == "1":
        shutil.copyfile(shot, Path(__file__).resolve().parents[2] / "docs" / "images" / "history-plot.png")


# What a reader sees first in the comparison's Markdown as a GitHub comment renders it
# (scripts/report_screenshots.py's page: markdown-it-py with GFM tables and raw HTML).
MARKDOWN_PROBE = r"""<script>
window.addEventListener('load', () => {
  const title = document.body.firstElementChild;
  const first = title.nextElementSibling;
  const details = [...document.querySelectorAll('details')];
  const verdicts = [...document.querySelectorAll('td')].map(c => c.textContent.trim())
    .filter(t => /^(\S+ )?(slower|faster|inconclusive|equivalent)$/u.test(t));
  const out = document.createElement('pre');
  out.id = 'markdown-check';
  out.textContent = JSON.stringify({
    title: title.tagName, first_tag: first.tagName, first_text: first.textContent.trim(),
    first_top: Math.round(first.getBoundingClientRect().top),
    after_first: [first.nextElementSibling.tagName,
                  (first.nextElementSibling.querySelector('summary') || first.nextElementSibling).textContent.trim()],
    details: details.map(d => [d.querySelector('summary').textContent.trim(), d.open,
                               d.getBoundingClientRect().height]),
    verdicts: verdicts,
    page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
  });
  document.body.appendChild(out);
});
</script></body>"""


def test_comparison_markdown_reads_headline_first_in_chromium(tmp_path):
    pytest.importorskip("markdown_it")
    import benchreport as br

    screenshots = screenshots_module()
    nitro = br.load([br.example_path("nitro") / "ios", br.example_path("nitro") / "android"])
    report = br.compare(nitro, baseline={"revision": "base"}, resamples=200).report
    seen = probed(screenshots.markdown_page(report.to_markdown()) + MARKDOWN_PROBE, "markdown-check", tmp_path, 1200)
    # Under the title, the first thing on the page is the headline sentence, counting verdicts.
    assert seen["title"] == "H1" and seen["first_tag"] == "P" and seen["first_top"] < 120, seen
    assert re.fullmatch(r"\d+ slower, \d+ faster, \d+ unchanged \(within ±5%\), \d+ inconclusive; .*\.",
                        seen["first_text"]), seen["first_text"]
    # The method is there but collapsed: a closed "How to read this" of one summary line.
    how = [d for d in seen["details"] if d[0] == "How to read this"]
    assert how and how[0][1] is False and how[0][2] < 40, seen["details"]
    # ... and it comes right under the headline.
    assert seen["after_first"] == ["DETAILS", "How to read this"], seen["after_first"]
    # Every verdict cell shows its coloured marker before the word (the word stays for screen readers).
    assert seen["verdicts"] and all(re.fullmatch(r"[\U0001F534\U0001F7E2\U0001F7E1\u26AA] \w+", v)
                                    for v in seen["verdicts"]), seen["verdicts"][:5]


# Every header and cell whose computed text-align differs from its column's alignment (its al-* class).
ALIGN_PROBE = r"""<script>
window.addEventListener('load', () => {
  const cells = [...document.querySelectorAll('td, th')];
  const wrong = cells.filter(c => {
    const wanted = [...c.classList].find(k => k.startsWith('al-'));
    return getComputedStyle(c).textAlign !== wanted.slice(3);
  }).map(c => [c.tagName, c.className, getComputedStyle(c).textAlign, c.textContent.trim().slice(0, 30)]);
  const left = cells.filter(c => getComputedStyle(c).textAlign === 'left').length;
  const out = document.createElement('pre');
  out.id = 'align-check';
  out.textContent = JSON.stringify({cells: cells.length, left: left, wrong: wrong.slice(0, 5), n_wrong: wrong.length});
  document.body.appendChild(out);
});
</script></body>"""


def screenshots_module():
    """scripts/report_screenshots.py: the pages the screenshots in docs/images show."""
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "report_screenshots.py"
    spec = importlib.util.spec_from_file_location("report_screenshots", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_notebook_tables_keep_their_alignment_under_jupyter_css(tmp_path):
    import benchreport as br

    screenshots = screenshots_module()

    def jupyter_alignment(fragment: str) -> dict:
        page = screenshots.notebook_page(fragment).replace("</body>", ALIGN_PROBE)
        return probed(page, "align-check", tmp_path, 1400)

    nitro = br.load([br.example_path("nitro") / "ios", br.example_path("nitro") / "android"])
    # The screenshot's comparison: a removed and an added case among the rows.
    fragment = br.compare(screenshots.one_sided_example(nitro), baseline={"revision": "base"},
                          resamples=200)._repr_html_()
    assert ">removed</td>" in fragment and ">added</td>" in fragment
    # With our stylesheet, and with it dropped as a sanitizer of an untrusted notebook drops <style>:
    # names and verdicts stay left, numbers right.
    for html in (fragment, re.sub(r"<style>.*?</style>", "", fragment, flags=re.S)):
        seen = jupyter_alignment(html)
        assert seen["cells"] > 100 and seen["left"] > 20, seen
        assert seen["n_wrong"] == 0, seen
    # The probe's control: without the inline alignment and without our stylesheet, Jupyter's rule wins.
    bare = re.sub(r' style="text-align:\w+"', "", re.sub(r"<style>.*?</style>", "", fragment, flags=re.S))
    seen = jupyter_alignment(bare)
    assert seen["left"] == 0 and seen["n_wrong"] > 20, seen
