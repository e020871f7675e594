"""What a function returns, read off the tree alone: the values it returns, and the locals
a reference it returns may name."""

from __future__ import annotations

from ..nanopass import child_nodes, descendants
from .closures import bound_in


def returned_values(fn) -> list:
    """The values a function returns: its body's, each `return`'s (not its closures'), and
    for an `if` among them the value of each arm instead."""
    returned = [fn.body.value] if fn.body.value is not None else []
    stack = list(fn.body.stmts)
    while stack:
        node = stack.pop()
        if node._prod == "Return" and node.value is not None:
            returned.append(node.value)
        if node._prod != "Closure":
            stack.extend(child_nodes(node))
    values = []
    while returned:
        e = returned.pop()
        if e._prod == "IfExpr":  # each arm's value is returned (its returns are found)
            returned.extend(arm.value for arm in (e.then, e.orelse) if arm.value is not None)
        else:
            values.append(e)
    return values


def returned_locals(fn) -> set:
    """The locals a returned value borrows (`&m`) that a `let` of the function (not of a
    closure) binds: box-returned-locals makes each a tensor of one element, whose buffer
    outlives the call as the interpreter keeps the variable's cell alive."""
    closures = [n for n in descendants(fn) if n._prod == "Closure"]
    lets = {n.name for n in descendants(fn) if n._prod == "Let"} - \
        set().union(*(bound_in(c) for c in closures))
    return {e.value.name for e in returned_values(fn)
            if e._prod == "Borrow" and e.value._prod == "Local" and e.value.name in lets}
