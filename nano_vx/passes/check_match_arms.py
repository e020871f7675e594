"""check-match-arms: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l0_source import DESCRIPTIONS, VARIANTS
from ..languages.l2_unrolled import OncePerPlace
from ..languages.l6_typed import Ltyped
from ..nanopass import Analysis
from ..source import Span


@dataclass
class State:
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)


check_match_arms = Analysis("check-match-arms", Ltyped, """
Refuse a `match` on the result of `try_pin` that has no arm for one of its variants (E3020).

`x.try_pin(Topology::X)` comes back `Available(p)` when a unit of X was free to pin and
`Saturated(v)` when every unit was taken, which depends on what else holds X while the
program runs: no compile-time check can rule either out, so a `match` on it says what
happens in both cases. The message names each arm that is missing. A `match` in the body of
an `unroll across` is in every copy of it, and refused once.
""", state=State, skip=DESCRIPTIONS)

# What each arm is for, as the help of a refusal says it.
_WHEN = {
    "Available": "`Available(p) => { .. }` runs when a unit was free: `p` is the value pinned "
                 "on it",
    "Saturated": "`Saturated(v) => { .. }` runs when every unit was taken: `v` is the value, "
                 "not pinned",
}


@check_match_arms.on("Program")
def _program(run, node):
    run.descend(node)
    run.state.said.note_copies()


@check_match_arms.on("Match")
def _match(run, node):
    present = {arm.variant for arm in node.arms}
    missing = [v for v in VARIANTS if v not in present]
    if missing:
        arms = " and no ".join(f"`{v}(..)`" for v in missing)
        message = f"this `match` on the result of `try_pin` has no {arms} arm"
        head = node.span
        if head is not None and node.scrutinee.span is not None:  # `match <scrutinee>`
            head = Span(head.source, head.start, node.scrutinee.span.end)
        # The copies `unroll across` makes share their body's nodes, spans included.
        if not run.state.said.again((head, message)):
            diag = run.ctx.diagnostics.error(
                "E3020", head, message, help=[f"add an arm: {_WHEN[v]}" for v in missing],
                missing=missing)
            run.state.said.said((head, message), diag)
    run.descend(node)
