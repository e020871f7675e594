"""The `parse` pass: source text to Lsrc."""

from __future__ import annotations

from ..languages.lsrc import Lsrc
from ..nanopass import Pass
from ..parser import parse


def _run(source, ctx):
    return parse(source, ctx.diagnostics)


parse_pass = Pass(
    "parse",
    None,
    Lsrc,
    """Parse the source text into Lsrc, with a span on every node, reporting each syntax error
    and going on after it (E1001-E1006).

    Every node carries its span. After a syntax error the parser resumes at the next
    statement or item, so one run reports several errors; the Program holds the items that
    parsed. Deep nesting is E1003, non-text input E1004, an empty file E1005.
    """,
    run=_run,
)
