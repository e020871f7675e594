"""The trees the examples go through: each example's tree after every pass, for the tests
that check a dump of each against the tree it was written from."""

from __future__ import annotations

from pathlib import Path

from nano_vx.context import Compilation
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.vx"))


def trees_after_each_pass(path: Path):
    """[(index, pass, tree)] as `nano-vx PATH` makes them, up to the first pass that
    reports an error."""
    text = path.read_text()
    tree, diagnostics = parse_text(text, str(path))
    ctx = Compilation(Source(str(path), text), diagnostics)
    out = [(1, NATIVE.passes[0], tree)]
    for index, p in enumerate(NATIVE.passes[1:], 2):
        if diagnostics.has_errors:
            break
        tree = p(tree, ctx)
        out.append((index, p, tree))
    return out
