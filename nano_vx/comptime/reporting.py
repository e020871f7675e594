"""What the two comptime passes report in common: an evaluation that stopped, and blocks
nested in a block (semantics §4)."""

from __future__ import annotations

from ..nanopass import child_nodes
from .errors import ComptimeError


def report(run, e: ComptimeError):
    run.ctx.diagnostics.error(e.code, e.span, e.message, **e.data)


def nested(run, body) -> bool:
    """E3034 for every comptime block inside `body`; a closure in it starts afresh (a
    comptime lambda written in a block is a function of its own)."""
    found = False
    stack = child_nodes(body)
    while stack:
        node = stack.pop()
        if node._prod in ("Comptime", "ComptimeStmt"):
            run.ctx.diagnostics.error(
                "E3034", node.span, "a comptime block inside another comptime block: the "
                "outer one already runs while compiling, so remove this `comptime`")
            found = True
        elif node._prod != "Closure":
            stack.extend(child_nodes(node))
    return found
