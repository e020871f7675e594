"""Run a small .vx case through the pipeline up to one pass: what every pass test starts from."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.oracle.errors import RuntimeStop
from nano_vx.oracle.interpreter import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source

# The tree passes after parse, in pipeline order: a case reaches a pass the way a program does.
FRONT = PIPELINE.passes[1:]


@dataclass
class Ran:
    before: object  # the tree the pass under test read
    after: object  # the tree it produced
    diagnostics: Diagnostics
    ctx: Compilation

    def nodes(self, prod: str | None = None):
        """Every node of the output (of one production, if given), in source order."""
        stack = [self.after]
        while stack:
            node = stack.pop()
            if prod is None or node._prod == prod:
                yield node
            stack.extend(reversed([child for _, _, child in children(node)]))

    def prints(self) -> tuple[str, str]:
        """What the input and the output print under the reference interpreter."""
        return _printed(self.before), _printed(self.after)


def _printed(tree) -> str:
    out = io.StringIO()
    try:
        run_program(tree, out=out)
    except RuntimeStop as stop:  # a stop is part of what a program does
        out.write(f"stopped: {stop}\n")
    return out.getvalue()


def run_front(text: str | Path, upto, name: str = "case.vx", **options) -> Ran:
    """Parse `text` (or a case file), run the passes before `upto`, which must report
    nothing, then `upto`; `options` are the command line's (`machine=`, `host=`)."""
    if isinstance(text, Path):
        text, name = text.read_text(), text.name
    tree, diagnostics = parse_text(text, name)
    assert not diagnostics.has_errors, diagnostics.render()
    ctx = Compilation(Source(name, text), diagnostics, options=options)
    for p in FRONT:
        before, tree = tree, p(tree, ctx)
        if p is upto:
            return Ran(before, tree, diagnostics, ctx)
        assert not diagnostics.has_errors, diagnostics.render()
    raise ValueError(f"{upto!r} is not a pass of the pipeline")
