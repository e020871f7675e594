"""The game: every example runs through every pass, the reference interpreter prints the same
output, and ends the same way, on every IL as on the source; and every node of every IL still
carries its source span.

An example the compiler refuses (the correlation programs are written to be refused) plays the
game up to the pass that refuses it, exactly as the driver stops there, and must be refused
with the codes listed below: so this file is also the table of what each example is for.
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
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
A100_40 = {"host": "default", "machine": str(ROOT / "machines" / "a100-40.vx")}
A100_80 = {"host": "default", "machine": str(ROOT / "machines" / "a100-80.vx")}

# (example, options of the compilation) -> the codes it is refused with; absent: admitted.
REFUSED = {
    ("correlation/01_residency_across_a_call.vx", "builtin"): ["E6003"],
    ("correlation/06_capacity_against_a_declared_machine.vx", "builtin"): ["E2001"],
    ("correlation/06_capacity_against_a_declared_machine.vx", "a100-40"): ["E6009"],
}
OPTIONS = {"builtin": {}, "a100-40": A100_40, "a100-80": A100_80}
RUNS = [(str(p.relative_to(EXAMPLES)), "builtin") for p in sorted(EXAMPLES.rglob("*.vx"))] + [
    ("correlation/06_capacity_against_a_declared_machine.vx", "a100-40"),
    ("correlation/06_capacity_against_a_declared_machine.vx", "a100-80"),
]


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


@pytest.mark.parametrize("example,machine", RUNS, ids=[f"{e}[{m}]" for e, m in RUNS])
def test_every_il_runs_and_prints_what_the_source_prints(example, machine):
    path = EXAMPLES / example
    ctx = Compilation(Source(str(path), path.read_text()), Diagnostics(), **OPTIONS[machine])
    tree = run_deep(parse, ctx.source, ctx.diagnostics)
    assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
    expected = None if example in NOT_RUN else _run(tree)
    for p in PIPELINE.passes[1:]:
        tree = run_deep(p, tree, ctx)
        assert not _without_span(tree), f"{p.name} left nodes without a source span"
        if ctx.diagnostics.has_errors:
            break
        if expected is not None:
            assert _run(tree) == expected, f"{p.name}'s output ({p.output.name}) runs differently"
    errors = [d.code for d in ctx.diagnostics.sorted() if d.severity == "error"]
    assert errors == REFUSED.get((example, machine), []), ctx.diagnostics.render()
