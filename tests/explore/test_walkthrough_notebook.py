"""docs/walkthrough.ipynb runs: nbclient executes every cell in a real Jupyter kernel (the
test fails on the first cell that raises), and the IL nodes it shows render as HTML with
their highlighted text and their picture."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest


NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "walkthrough.ipynb"


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError naming the cell that failed
    return nb


def outputs(nb, kind: str) -> list[str]:
    return [out["data"][kind] for cell in nb.cells if cell.cell_type == "code"
            for out in cell.outputs if kind in out.get("data", {})]


def printed(nb) -> str:
    return "".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                   for out in cell.outputs if out["output_type"] == "stream")


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not cell.get("outputs") for cell in nb.cells if cell.cell_type == "code")


@pytest.mark.slow
def test_every_cell_runs_and_the_walk_is_what_the_text_says(executed):
    text = printed(executed)
    assert "the last was check-visibility" in text
    assert "error[E6003]: 'kv' lives in GPU_HBM" in text
    assert "\n-    let kv = stage_to_device();\n" in text
    assert "\n+    let kv = @stage_to_device();\n" in text
    assert "the program printed '0\\n' and returned 0" in text


@pytest.mark.slow
def test_the_nodes_show_their_highlighted_text_and_their_picture(executed):
    shown = outputs(executed, "text/html")
    assert len(shown) == 4
    for fragment in shown:
        assert fragment.startswith('<div class="nano-vx-node">')
        assert '<pre class="hl"><span class="kd">' in fragment or '<span class="' in fragment
        assert "<svg" in fragment and "</svg>" in fragment
    assert "Program (Program) of Lsrc" in shown[0]
    assert "Block (Block) of" in shown[1]
    assert "GPU_HBM" in shown[2] and "Let (Stmt) of" in shown[2]
