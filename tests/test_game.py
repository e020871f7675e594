"""The game: every example runs through every pass, and the reference interpreter prints the
same output, and ends the same way, on every IL as on the source; and every node of every IL
still carries its source span."""

import io
from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.deep import run_deep
from nano_vx.oracle import RuntimeStop, run_program
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.parser import parse
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.vx"))


def _run(tree) -> tuple[str, object]:
    out = io.StringIO()
    try:
        ending = run_deep(run_program, tree, out=out)
    except RuntimeStop as stop:
        ending = ("stopped", stop.code)
    return out.getvalue(), ending


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_il_runs_and_prints_what_the_source_prints(path):
    ctx = Compilation(Source(str(path), path.read_text()), Diagnostics())
    tree = run_deep(parse, ctx.source, ctx.diagnostics)
    assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
    expected = _run(tree)
    for p in PIPELINE.passes[1:]:
        tree = run_deep(p, tree, ctx)
        assert not ctx.diagnostics.has_errors, f"{p.name}: {ctx.diagnostics.render()}"
        assert _run(tree) == expected, f"the output of {p.name} ({p.output.name}) runs differently"
        assert not _without_span(tree), f"{p.name} left nodes without a source span"


def _without_span(tree) -> set[str]:
    """Productions of the nodes that lost their source span (a diagnostic could not point)."""
    missing, stack = set(), [tree]
    while stack:
        node = stack.pop()
        if node.span is None:
            missing.add(node._prod)
        stack.extend(child for _, _, child in children(node))
    return missing
