"""What native code asks of a function's closures, read off the tree alone: which are only
called where their `let` names them, what each reads of the variables around it."""

from __future__ import annotations

from ..nanopass import child_nodes, descendants


def direct_closures(fn) -> dict:
    """The locals bound by `let` to a closure and used only as the callee of a call, never
    assigned: local -> its closure. Every other closure is a value."""
    lets = {n.name: n.value for n in descendants(fn)
            if n._prod == "Let" and n.value._prod == "Closure"}
    called = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    for n in descendants(fn):
        if n._prod == "Local" and id(n) not in called:
            lets.pop(n.name, None)
    return lets


def bound_in(node) -> set:
    """The locals bound inside a node: parameters of its closures, lets, loop variables."""
    bound = set()
    for n in descendants(node):
        if n._prod in ("Param", "Let"):
            bound.add(n.name)
        elif n._prod == "For":
            bound.add(n.var)
    return bound


def captures(closure) -> list[str]:
    """The locals a closure reads (or assigns, or lends) but does not bind, in order of first
    use."""
    bound = bound_in(closure)
    return list(dict.fromkeys(n.name for n in descendants(closure.body)
                              if n._prod == "Local" and n.name not in bound))


def by_reference(closure, lent: bool = True) -> list[str]:
    """The locals around a closure it assigns to or (`lent`) lends: lifted, it receives a
    reference to each (the others it receives by value, read when it is called)."""
    bound = bound_in(closure)
    places = [n.target for n in descendants(closure.body) if n._prod == "Assign"] + \
        [n.value for n in descendants(closure.body) if lent and n._prod == "Borrow"]
    return list(dict.fromkeys(p.name for p in places
                              if p._prod == "Local" and p.name not in bound))


def visible_at_calls(fn) -> dict:
    """id() of each call whose callee is a local -> the locals in scope there: bound before
    it by a `let` of a block around it, a loop around it, or a parameter of the function or
    of a closure around it."""
    seen: dict = {}
    stack = [(fn, frozenset())]
    while stack:
        node, scope = stack.pop()
        prod = node._prod
        if prod == "Call" and node.callee._prod == "Local":
            seen[id(node)] = scope
        if prod in ("Fn", "Closure"):
            stack.append((node.body, scope | {p.name for p in node.params}))
        elif prod == "For":
            stack += [(node.start, scope), (node.end, scope), (node.body, scope | {node.var})]
        elif prod == "Block":
            for s in node.stmts:
                stack.append((s, scope))
                if s._prod == "Let":
                    scope = scope | {s.name}
            if node.value is not None:
                stack.append((node.value, scope))
        else:
            stack += [(child, scope) for child in child_nodes(node)]
    return seen
