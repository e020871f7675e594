"""check-aggregate-function-values: Lmatched, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lmatched import Lmatched
from ..nanopass import Analysis, descendants
from ..scalars import refuse
from ..scalars.aggregate_types import program_types

check_aggregate_function_values = Analysis("check-aggregate-function-values", Lmatched, """
Refuse a function taking or returning a struct, tuple or enum named other than as a callee
(E5010): its value would call it as it was, not as its parts.

scalarize-aggregates takes such a function's parameters and result apart, and each call by
name with them; a value of it that wrap-aggregate-function-values and
number-aggregate-function-values left (returned by a closure: `let keep = |h| h;
keep(g)(c)`), which wrap-function-values would wrap in a closure later, would still call the
function whole.
""")


@check_aggregate_function_values.on("Program")
def _program(run, program):
    _, sigs = program_types(program)
    for fn in program.items:
        if fn._prod != "Fn":
            continue
        callees = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
        for n in descendants(fn):
            sig = sigs.get(n.name) if n._prod == "Global" and id(n) not in callees else None
            if sig is not None and sig.aggregate:
                refuse(run.ctx.diagnostics, fn.name, n, "a function taking or returning an "
                                                        "aggregate used as a value")
                return
