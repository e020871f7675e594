"""Run a small .vx case through the pipeline up to one pass: what every pass test starts from."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from nano_vx.cli import main as cli_main
from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.values.stops import RuntimeStop
from nano_vx.oracle.interpreter import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source

# The tree passes after parse, in pipeline order: a case reaches a pass the way a program does.
FRONT = NATIVE.passes[1:]


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
    ctx = Compilation(Source(name, text), diagnostics, **options)
    for p in FRONT:
        before, tree = tree, p(tree, ctx)
        if p is upto:
            return Ran(before, tree, diagnostics, ctx)
        assert not diagnostics.has_errors, diagnostics.render()
    raise ValueError(f"{upto!r} is not a pass of the pipeline")


# The checks every pass test with refused cases makes; each case file `<case>.vx` has a
# repair beside it, `<case>_repaired.vx`.


def _repaired(case: Path) -> Path:
    return case.with_name(f"{case.stem}_repaired.vx")


def assert_prints_the_same(case: Path, upto):
    """The case is admitted and prints under the interpreter what it printed before `upto`."""
    ran = run_front(case, upto)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    before, after = ran.prints()
    assert after == before


def assert_judged(case: Path, upto, refused: dict, snapshot_txt):
    """`upto`, an analysis, leaves the tree as it was and reports the code `refused` gives
    the case (nothing for a case it does not name), rendered as the snapshot shows."""
    ran = run_front(case, upto)
    assert ran.after is ran.before
    code = refused.get(case.stem, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert ran.diagnostics.render() == snapshot_txt


def assert_refused_then_repaired(case: Path, upto, code: str, says: str):
    """`upto` reports one diagnostic, `code`, whose message says `says`; the repair passes."""
    ran = run_front(case, upto)
    [diag] = ran.diagnostics.items
    assert diag.code == code
    assert says in diag.message
    repaired = run_front(_repaired(case), upto)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()


def assert_refused_from_the_command_line(case: Path, code: str, capsys):
    assert cli_main([str(case), "--action", "check"]) == 1
    assert f"error[{code}]" in capsys.readouterr().err
    assert cli_main([str(_repaired(case)), "--action", "check"]) == 0
