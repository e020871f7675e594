"""Running a case up to one of the placement passes, whether or not the pipeline table
holds it yet: then they run after check-memory-declarations, in the planned order."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.oracle import RuntimeStop, run_program
from nano_vx.parser import parse_text
from nano_vx.passes.check_capacity import check_capacity
from nano_vx.passes.check_linearity import check_linearity
from nano_vx.passes.check_memory_declarations import check_memory_declarations
from nano_vx.passes.check_visibility import check_visibility
from nano_vx.passes.desugar_comptime import desugar_comptime
from nano_vx.passes.infer_placement import infer_placement
from nano_vx.passes.resolve_sub_space_ancestors import resolve_sub_space_ancestors
from nano_vx.passes.schedule_sub_spaces import schedule_sub_spaces
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source


PLACEMENT = [infer_placement, check_linearity, check_visibility, check_capacity,
             schedule_sub_spaces]


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


def run_placed(text: str | Path, upto, name: str = "case.vx", **options) -> Placed:
    """Parse, run every pass before `upto` (which must report no error), then `upto`;
    `options` are the command line's (`machine=`, `host=`)."""
    if isinstance(text, Path):
        text, name = text.read_text(), text.name
    tree, diagnostics = parse_text(text, name)
    assert not diagnostics.has_errors, diagnostics.render()
    ctx = Compilation(Source(name, text), diagnostics, options=options)
    for p in _passes():
        before, tree = tree, p(tree, ctx)
        if p is upto:
            return Placed(before, tree, diagnostics, ctx)
        assert not diagnostics.has_errors, diagnostics.render()
    raise ValueError(f"{upto!r} is not a pass of the pipeline")


def _passes():
    passes = PIPELINE.passes[1:]
    if all(p in passes for p in PLACEMENT):
        return passes
    # The chain is still being joined: the front end, then the planned order.
    front = passes[:passes.index(check_memory_declarations) + 1]
    joined = (desugar_comptime.input is infer_placement.output
              and desugar_comptime.output is resolve_sub_space_ancestors.input)
    middle = [desugar_comptime] if joined else []
    return front + [infer_placement, *middle, resolve_sub_space_ancestors, *PLACEMENT[1:]]
