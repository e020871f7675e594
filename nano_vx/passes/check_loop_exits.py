"""check-loop-exits: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lrouted import Lrouted
from ..nanopass import Analysis


@dataclass
class State:
    # The loops around the statement being walked, innermost last, in the function (closure,
    # spawn body) it belongs to; and what that body is, for the message.
    loops: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=lambda: ["function"])


check_loop_exits = Analysis("check-loop-exits", Lrouted, """
Refuse a `break` or a `continue` outside a loop (E3054).

As in Rust, `break` and `continue` leave or restart the innermost `for` or `while` (so
`loop`) around them in the same body. A closure's body is a function of its own (lift-closures
makes it one) and a `spawn`'s body a kernel (outline-kernels), so a loop around the closure or
the spawn is not theirs to leave: the parser takes `break;` anywhere a statement goes, and
without this check the back end met a jump to no loop.
""", state=State)


@check_loop_exits.on("For", "While")
def _loop(run, node):
    run.state.loops.append(node._prod)
    run.descend(node)
    run.state.loops.pop()


@check_loop_exits.on("Closure", "Spawn")
def _body(run, node):
    st = run.state
    outer = st.loops
    st.loops = []
    st.body.append("closure" if node._prod == "Closure" else "spawn")
    run.descend(node)
    st.body.pop()
    st.loops = outer


@check_loop_exits.on("Break", "Continue")
def _exit(run, node):
    st = run.state
    if st.loops:
        return
    word = node._prod.lower()
    notes = {
        "closure": ["a closure's body is a function of its own: a loop around the closure "
                    "is not one it can leave"],
        "spawn": ["a spawn's body runs as a kernel of its own: a loop around the spawn is "
                  "not one it can leave"],
    }.get(st.body[-1], [])
    run.ctx.diagnostics.error(
        "E3054", node.span, f"`{word}` outside a loop", notes=notes,
        help=[f"put the `{word}` inside a `for`, `while` or `loop` of the same body, or "
              f"leave with `return`"],
        statement=word)
