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


def visible_at_calls(fn, names) -> dict:
    """id() of each call whose callee is a local -> those of `names` in scope there: bound
    before it by a `let` of a block around it, a loop around it, or a parameter of the
    function or of a closure around it. One walk in order, counting the bindings of each
    name in scope, so that a long block costs its length, not its length squared."""
    names = frozenset(names)
    seen: dict = {}
    bound: dict = {}  # name -> how many bindings of it are in scope
    live: set = set()  # the names whose count is above zero

    def bind(ns, by):
        for n in ns:
            if n in names:
                bound[n] = bound.get(n, 0) + by
                (live.add if bound[n] else live.discard)(n)

    stack: list = [fn]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):  # (names, +1 or -1): a scope opens or closes here
            bind(*node)
            continue
        prod = node._prod
        if prod == "Call" and node.callee._prod == "Local":
            seen[id(node)] = frozenset(live)
        if prod in ("Fn", "Closure"):
            params = [p.name for p in node.params]
            stack += [(params, -1), node.body, (params, 1)]
        elif prod == "For":
            stack += [([node.var], -1), node.body, ([node.var], 1), node.end, node.start]
        elif prod == "Block":
            lets = [s.name for s in node.stmts if s._prod == "Let"]
            todo: list = [node.value] if node.value is not None else []
            for s in reversed(node.stmts):
                if s._prod == "Let":
                    todo.append(([s.name], 1))
                todo.append(s)
            stack += [(lets, -1), *todo]
        else:
            stack += reversed(child_nodes(node))
    return seen
