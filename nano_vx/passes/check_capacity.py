"""check-capacity: Lrouted -> Lrouted (a check; the tree is unchanged)."""

from __future__ import annotations

from ..languages.l7_routed import Lrouted
from ..nanopass import Pass
from ..placement.capacity import judge
from ..placement.facts import record
from ..placement.residency import Residency


def _check(tree, ctx):
    residency = Residency(tree, ctx.model).run()
    for ws in residency.sets:
        judge(ws, ctx.model, ctx.diagnostics)
    record(ctx, residency)
    return tree


check_capacity = Pass("check-capacity", Lrouted, Lrouted, """
Refuse tiles and working sets that do not fit their memory space (E6009, E6010, W1028).

A statically shaped tensor placed in a bounded space by `transfer` must fit it alone (E6009),
and the tiles one function holds there at once must fit together (E6010): a tile is resident
from its transfer to the last use of its value, rounded up to the space's granule when it
has one. An `overcommit` space turns E6010 into the warning W1028; a space with `replicas`
is judged against one replica. Tensors with symbolic dims have no static size yet and are
never refused. The working sets and routes are kept on `ctx.facts` for --error-format=json.
""", run=_check)
