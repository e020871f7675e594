"""The parse pass's snapshots: what Lsrc looks like for small programs, in text and Graphviz.

The construct-by-construct and error tests are the other modules of this folder; these cases
pin the whole tree a reviewer sees in `nano-vx prog.vx --dump-after=parse`.
"""

from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.parse import parse_pass
from nano_vx.source import Source

CASES = sorted((Path(__file__).parent / "cases" / "parse").glob("*.vx")) + [
    Path(__file__).parent / "cases" / name for name in ("declarations.vx", "playground.vx")]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_output(path, snapshot_txt, snapshot_dot):
    ctx = Compilation(Source(path.name, path.read_text()), Diagnostics())
    tree = parse_pass(ctx.source, ctx)
    assert not ctx.diagnostics.items, ctx.diagnostics.render()
    assert to_text(tree) == snapshot_txt
    assert to_dot(tree, title=f"parse: {path.stem}") == snapshot_dot


def test_handwritten_generic_form_is_no_program_text():
    # The generic form `Prod(field: value)` is the IL reader's: a dump may write any node so,
    # but it is no Vx; parse refuses it as syntax, where it stops fitting a call's arguments.
    source = Source("case.vx", "fn main() {\n    print(Suffixed(value: 1, suffix: i32));\n}\n")
    ctx = Compilation(source, Diagnostics())
    tree = parse_pass(ctx.source, ctx)
    assert [(d.code, d.message, str(d.span)) for d in ctx.diagnostics.items] == [
        ("E1001", "expected ',' or ')', found ':'", "case.vx:2:25")]
    assert to_text(tree) == "fn main() {}\n"
