"""Running a case up to one of the placement passes, whether or not the pipeline table
holds it yet (then they run after the last pass whose output is Lresolved)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.oracle import RuntimeStop, run_program
from nano_vx.parser import parse_text
from nano_vx.passes.check_linearity import check_linearity
from nano_vx.passes.check_visibility import check_visibility
from nano_vx.passes.infer_placement import infer_placement
from nano_vx.languages import Lresolved
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source


PLACEMENT = [infer_placement, check_linearity, check_visibility]


@dataclass
class Placed:
    before: object  # the tree the pass under test read
    after: object  # the tree it produced
    diagnostics: Diagnostics
    ctx: Compilation

    def nodes(self, prod: str):
        """Every node of one production in the output, in source order."""
        stack = [self.after]
        while stack:
            node = stack.pop()
            if node._prod == prod:
                yield node
            stack.extend(reversed([c for _, _, c in children(node)]))

    def prints(self) -> tuple[str, str]:
        """What the input and the output print under the reference interpreter."""
        return _printed(self.before), _printed(self.after)


def _printed(tree) -> str:
    out = io.StringIO()
    try:
        run_program(tree, out=out)
    except RuntimeStop as stop:
        out.write(f"stopped: {stop}\n")
    return out.getvalue()


def run_placed(text: str | Path, upto, name: str = "case.vx") -> Placed:
    """Parse, run every pass before `upto` (which must report no error), then `upto`."""
    if isinstance(text, Path):
        text, name = text.read_text(), text.name
    tree, diagnostics = parse_text(text, name)
    assert not diagnostics.has_errors, diagnostics.render()
    ctx = Compilation(Source(name, text), diagnostics)
    for p in _passes():
        before, tree = tree, p(tree, ctx)
        if p is upto:
            return Placed(before, tree, diagnostics, ctx)
        assert not diagnostics.has_errors, diagnostics.render()
    raise ValueError(f"{upto!r} is not a pass of the pipeline")


def _passes():
    passes = PIPELINE.passes[1:]
    if infer_placement in passes:
        return passes
    last = max(i for i, p in enumerate(passes) if p.output is Lresolved)
    return passes[:last + 1] + PLACEMENT
