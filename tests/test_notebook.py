"""examples/quickstart.ipynb runs headless, top to bottom, and shows rich views.

The notebook is kept in git without outputs; this runs it in a fresh kernel with
nbclient, in a temporary folder holding the sample PDF (its store goes to a
temporary folder of its own).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def test_notebook_is_stored_without_outputs() -> None:
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)


def test_notebook_runs_headless(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat", reason="the dev extra brings nbformat")
    nbclient = pytest.importorskip("nbclient", reason="the dev extra brings nbclient")
    pytest.importorskip("ipykernel", reason="the dev extra brings ipykernel")
    shutil.copy(ROOT / "examples" / "sample.pdf", tmp_path / "sample.pdf")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on failure

    html = [
        out["data"]["text/html"]
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if "text/html" in out.get("data", {})
    ]
    # outline, extracted page, processed document, stored texts, translation, citations
    assert len(html) >= 6
    joined = "\n".join(html)
    assert 'dir="rtl"' in joined and "https://www.sefaria.org/Genesis.1.1" in joined
    assert "1 text" in joined  # the store listed the one text just processed
    assert not list(tmp_path.glob("*.db"))  # the store went to a temporary folder
