"""The game: every example runs through every pass, to the bottom of the chain (Lmlir), the
reference interpreter prints the same output, and ends the same way, on every IL as on the
source; and every node of every IL still carries its source span.

An example plays the game once for each `// nano-vx today` line of its header (read by
tests/test_examples.py), with the machine that line's arguments name, down the chain that
line's action runs (the front end alone for `--action interpret` and `--action check`). One
the compiler refuses (several correlation programs are written to be refused) plays up to
the pass that refuses it, exactly as the driver stops there, and must be refused with the
codes its header lists.
"""

import io
from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.deep import run_deep
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import descendants
from nano_vx.oracle import run_program
from nano_vx.parser import parse
from nano_vx.pipeline import NATIVE, PIPELINE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop
from test_examples import PROMISES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _run(tree) -> tuple[str, object]:
    out = io.StringIO()
    try:
        ending = run_deep(run_program, tree, out=out)
    except RuntimeStop as stop:
        ending = ("stopped", stop.code)
    return out.getvalue(), ending


def _without_span(tree) -> set[str]:
    """Productions of the nodes that lost their source span (a diagnostic could not point)."""
    return {node._prod for node in descendants(tree) if node.span is None}


# Correlation program 6 places a 50 GiB tensor: running it would only say it ran. Its point is
# the compile-time verdict, which is checked; its IL chain is still verified and span-checked.
NOT_RUN = {"correlation/06_capacity_against_a_declared_machine.vx"}


@pytest.mark.parametrize("promise", PROMISES, ids=str)
def test_every_il_runs_and_prints_what_the_source_prints(promise):
    example = promise.example
    path = EXAMPLES / example
    ctx = Compilation(Source(str(path), path.read_text()), Diagnostics(), **promise.options)
    tree = run_deep(parse, ctx.source, ctx.diagnostics)
    assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
    expected = None if example in NOT_RUN else _run(tree)
    # The chain the command line runs: the front end alone for the interpreter and for a
    # check, the back end too for native code (what it does not lower, E5010, is a program
    # whose header promises `--action interpret`).
    front_only = {"interpret", "check"} & set(promise.args)
    assert not _without_span(tree), "parse left nodes without a source span"
    for p in (PIPELINE if front_only else NATIVE).passes[1:]:
        before, tree = tree, run_deep(p, tree, ctx)
        # Nodes are immutable: a tree a pass returned as it was (every analysis; four passes
        # in five) was checked and run as the tree before it.
        changed = tree is not before
        assert not changed or not _without_span(tree), f"{p.name} left nodes without a source span"
        if ctx.diagnostics.has_errors:
            break
        if changed and expected is not None:
            assert _run(tree) == expected, f"{p.name}'s output ({p.output.name}) runs differently"
    errors = [d.code for d in ctx.diagnostics.sorted() if d.severity == "error"]
    assert errors == [code for code, _, _ in promise.errors], ctx.diagnostics.render()
