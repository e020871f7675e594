"""check-visibility: Lrouted -> Lrouted (a check; the tree is unchanged)."""

from __future__ import annotations

from ..languages.l7_routed import Lrouted
from ..nanopass import Pass
from ..placement.visibility import Visibility


def _check(tree, ctx):
    Visibility(tree, ctx.model, ctx.diagnostics).run()
    return tree


check_visibility = Pass("check-visibility", Lrouted, Lrouted, """
Refuse a read of a value whose space the reading topology cannot see (E6003).

Indexing, printing, arithmetic and conditions read a value; the code runs on the host (CPU),
on the topology of `fn .. on`, or inside `spawn on(τ)` on τ, and may read only the spaces
its topology declares `visible:`. A value captured by a `spawn on` block from outside must
be visible there too (a transfer inside the block is not a read). The message names the
value, its space, what the reader sees, and the cost of the fixing transfer on the declared
path. Spaces declared `managed: cached` are hardware-coherent and exempt.
""", run=_check)
