"""delay-assigning-closures: Lsplit -> Lsplit.

Same IL: a closure value is made when its `let` runs and reads the variables around it when
it is called, so making it later, before anything names it, in the frame that made it,
makes the same closure; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import names

delay_assigning_closures = Pass("delay-assigning-closures", L, L, """
Move the `let` of each closure that assigns a variable (or names a closure that does) copied
by a `let` after it in its block (`let d = c;`) down past those copies, to just before the
first statement that names the closure, so that each assignment sees every copy.

`let reset = |s: i32| { c = counter(s); }; let d = c; print(d(1)); reset(50);` is `let d =
c; print(d(1)); let reset = |s: i32| { c = counter(s); }; reset(50);`. A copy of a counter
keeps the value it was given once the variable it copies is assigned another, which
capture-environments makes its own where the assignment sees the copy: an assignment in a
closure bound before the copy does not, and check-native-subset refuses the counter
(E5010). A closure named before a copy (called, or read by another) stays where it is.
""")


@delay_assigning_closures.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts = list(block.stmts)
    # The last first: one moves down past those after it, settled already, but those
    # naming it (a closure names only what is bound before it).
    lets = [s for s in block.stmts if s._prod == "Let" and s.value._prod == "Closure"]
    assigned = _assigned(lets)
    for let in reversed(lets):
        at = stmts.index(let)
        later = next((j for j in range(at + 1, len(stmts)) if names(stmts[j], let.name)),
                     len(stmts))
        if any(s._prod == "Let" and s.value._prod == "Local"
               and s.value.name in assigned[let.name] for s in stmts[at + 1:later]):
            stmts.insert(later - 1, stmts.pop(at))
    return block if stmts == list(block.stmts) else block.replace(stmts=tuple(stmts))


def _assigned(lets: list) -> dict:
    """Each closure's local -> the locals it assigns, or a closure of `lets` it names does
    (which it may call)."""
    found = {let.name: {n.target.name for n in descendants(let.value.body)
                        if n._prod == "Assign" and n.target._prod == "Local"} for let in lets}
    while True:
        more = {let.name: set().union(found[let.name], *(
            found[other] for other in found if names(let.value.body, other))) for let in lets}
        if more == found:
            return found
        found = more
