"""desugar-loops: Lplain -> Lwhile."""

from __future__ import annotations

from ..languages import Lplain, Lwhile
from ..nanopass import Pass

L = Lwhile

desugar_loops = Pass("desugar-loops", Lplain, Lwhile, """
Write `loop { B }` as `while true { B }`.

The two mean the same: B runs again and again, until a `break` leaves the loop or a `return`
the function; `continue` starts the next turn. Every later pass knows one kind of loop fewer.
""")


@desugar_loops.on("Loop")
def _loop(run, node):
    forever = L["Bool"](True, span=node.span)
    return L["While"](forever, run.walk(node.body), span=node.span)
