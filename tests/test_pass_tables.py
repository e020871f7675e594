"""The pass order is written once, in the pipeline tables (`nano_vx/pipeline.py`,
`nano_vx/spatial_pipeline.py`), which `nano-vx --list-passes` prints. The tables of passes in
the README, ARCHITECTURE.md and docs/spatial.md describe each pass in words of their own;
this test holds their rows to the pipelines: every pass once, in order, with its ILs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nano_vx.pipeline import NATIVE
from nano_vx.spatial_pipeline import VX_PIPELINE

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md", "ARCHITECTURE.md", "docs/spatial.md"]
SPATIAL = {p.name for p in VX_PIPELINE}


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables(text: str):
    """Each markdown table whose header starts with `pass` and names its ILs: its rows as
    (pass, input, output), the ILs without their backticks."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        head = _cells(line) if line.startswith("|") else []
        if not head or head[0] != "pass" or i + 1 >= len(lines) or "---" not in lines[i + 1]:
            continue
        if "input" in head and "output" in head:
            def ils(cells, a=head.index("input"), b=head.index("output")):
                return cells[a].strip("`"), cells[b].strip("`")
        elif "IL in -> out" in head:
            def ils(cells, a=head.index("IL in -> out")):
                return tuple(cells[a].split(" -> "))
        else:
            continue
        rows = []
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            cells = _cells(row)
            name = re.fullmatch(r"`([a-z-]+)`", cells[0])
            if name:  # `(the text form)` and the like describe no pass
                rows.append((name.group(1), *ils(cells)))
        yield rows


def _expected(passes) -> list[tuple[str, str, str]]:
    return [(p.name, p.input.name if p.input is not None else "text", p.output.name)
            for p in passes]


@pytest.mark.parametrize("page", PAGES)
def test_the_tables_of_passes_follow_the_pipelines(page):
    vx, spatial = [], []
    for rows in _tables((ROOT / page).read_text()):
        (spatial if rows and rows[0][0] in SPATIAL else vx).extend(rows)
    if vx:
        assert vx == _expected(NATIVE), f"{page}: the Vx lane's passes as --list-passes has them"
    lane = _expected(VX_PIPELINE)
    assert spatial in (lane, lane[1:]), f"{page}: the spatial lane's passes, in order"
