"""Execute examples/notebook.ipynb top to bottom; any cell error fails the test."""
from pathlib import Path

import pytest

import benchreport as br

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebook.ipynb"

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (test extra)")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (test extra)")
pytest.importorskip("ipykernel", reason="ipykernel is not importable: no python3 kernel to run the notebook")
pytest.importorskip("matplotlib", reason="the notebook plots with matplotlib (the plot extra)")
pytest.importorskip("pandas", reason="the notebook uses to_pandas")


def _readers_ready():
    for example in ("nitro/ios", "runners/runners.json", "zfh/android.log"):
        try:
            br.load(br.example_path(example))
        except br.InputError as exc:
            if "not implemented" in str(exc):
                pytest.skip(f"reader for {example} not implemented in this build: {exc}")
            raise


def test_example_notebook_runs_without_errors(tmp_path):
    _readers_ready()
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout=None, allow_errors=False,
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any('class="benchreport"' in h and "role-" in h for h in html), "no report rendered as HTML"
    assert any("<svg" in h for h in html), "no inline SVG sparkline"
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 3, "plots missing"


def test_example_notebook_is_committed_without_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    assert notebook.metadata["kernelspec"]["name"] == "python3"
