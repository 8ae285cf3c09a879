"""The HTML reports in a real browser (headless Chromium from Debian): no table wider than a
1400 px window and no unit symbol wrapped onto a line of its own. scripts/test.sh installs
Chromium and sets BENCHREPORT_REQUIRE_BROWSER=1, so there this test never skips."""
import json
import os
import re
import shutil
import subprocess

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


def layout(html: str, tmp_path) -> dict:
    page = tmp_path / "page.html"
    page.write_text(html.replace("</body>", PROBE), encoding="utf-8")
    dom = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                          "--virtual-time-budget=3000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    found = re.search(r'<pre id="layout-check">([^<]*)</pre>', dom)
    assert found, "the layout probe did not run"
    return json.loads(found.group(1).replace("&quot;", '"'))


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
