"""Screenshots of the example comparison report for docs/images/: the HTML as benchreport writes it, the
Markdown as a GitHub comment shows it (markdown-it-py, GFM tables, raw HTML for <details>/<sub>), and the
notebook view of a comparison with a removed and an added case under JupyterLab's cell alignment, each
opened in headless Chromium.

    PYTHONPATH=build/dev/python python3 scripts/report_screenshots.py [--out docs/images]
"""
import argparse
import html
import shutil
import subprocess
import tempfile
from pathlib import Path

import benchreport as br

# Close to GitHub's comment styling, enough to judge what a reader sees first.
GITHUB_CSS = """
body{font-family:-apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif,"Noto Color Emoji";
font-size:14px;line-height:1.5;color:#1f2328;max-width:1100px;margin:16px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 10px}
th{background:#f6f8fa}blockquote{margin:0;padding:0 1em;color:#59636e;border-left:.25em solid #d0d7de}
details summary{cursor:pointer}sub{font-size:11px}
"""


def markdown_page(markdown: str) -> str:
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough").render(markdown)
    return f"<!doctype html><meta charset=utf-8><style>{GITHUB_CSS}</style><body>{body}</body>"


# JupyterLab's rendered-HTML stylesheet right-aligns every td and th of an output (a rule of the form
# `.jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th {text-align: right}`); this stands in for it.
JUPYTER_CSS = ".jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th, .jp-RenderedHTMLCommon tr {text-align: right}"


def notebook_page(fragment: str) -> str:
    """An HTML fragment as a JupyterLab output cell holds it."""
    return (f"<!doctype html><html><head><meta charset=utf-8><style>{JUPYTER_CSS}</style></head>"
            f"<body><div class=\"jp-RenderedHTMLCommon\">{fragment}</div></body></html>")


def one_sided_example(nitro: br.Dataset) -> br.Dataset:
    """The iOS runs with one benchmark gone from head (removed) and one missing from base (added)."""
    ios = nitro.take(nitro.indices(platform="ios"))
    names = sorted(set(ios.labels["benchmark"]))
    dropped = {*ios.indices(benchmark=names[0], revision="head"), *ios.indices(benchmark=names[-1], revision="base")}
    return ios.take([i for i in range(len(ios)) if i not in dropped])


def screenshot(browser: str, page: str, out: Path, height: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.html"
        path.write_text(page, encoding="utf-8")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size=1200,{height}", f"--screenshot={out}", path.as_uri()],
                       check=True, capture_output=True, timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("no headless Chromium on PATH")
    nitro = br.load([br.example_path("nitro") / "ios", br.example_path("nitro") / "android"])
    report = br.compare(nitro, baseline={"revision": "base"}).report
    args.out.mkdir(parents=True, exist_ok=True)
    screenshot(browser, report.to_html(), args.out / "comparison-html.png", 1100)
    screenshot(browser, markdown_page(report.to_markdown()), args.out / "comparison-markdown.png", 1100)
    notebook = br.compare(one_sided_example(nitro), baseline={"revision": "base"})._repr_html_()
    screenshot(browser, notebook_page(notebook), args.out / "comparison-notebook.png", 1150)
    print(html.escape(f"wrote {args.out}/comparison-html.png, comparison-markdown.png and comparison-notebook.png"))


if __name__ == "__main__":
    main()
