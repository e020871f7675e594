"""Move tracking for check-linearity: which locals a `transfer` consumed, flow-sensitively.

The state at a program point is a map from a moved local's unique name to the transfer that
moved it, or None where control cannot reach (after `return`, `break`, `continue`). Only a
`let` or an assignment `x = ..` takes a name out of the state (x has a fresh value), so the
join of two branches is their union: a value moved on either branch counts as moved after
the `if`, as in Rust. A loop body is walked twice, the second time from the state its first
pass left, so a move of an outer variable is a use-after-move on the next iteration.
"""

from __future__ import annotations

from ..nanopass import child_nodes

# Subtrees that hold no value reads: types, dimensions, memory names, generic arguments.
_NOT_VALUES = frozenset({"Type", "Dim", "Mem", "GArg"})


def join(a: dict | None, b: dict | None) -> dict | None:
    if a is None:
        return b
    if b is None:
        return a
    return {**b, **a}


def _fresh(st: dict | None, name: str) -> dict | None:
    """The state after `name` gets a new value."""
    if st is None or name not in st:
        return st
    return {k: v for k, v in st.items() if k != name}


class Moves:
    """Walks one function body; calls `report(use, name, transfer)` at each use of a moved
    local (once per use)."""

    def __init__(self, report):
        self.report = report
        self.loops: list[list] = []  # per enclosing loop, the states that leave it early
        self.seen: set = set()

    # -- statements ------------------------------------------------------------------------

    def block(self, block, st):
        for s in block.stmts:
            if st is None:
                return None  # unreachable code moves nothing that matters
            st = self.stmt(s, st)
        if st is not None and block.value is not None:
            st = self.expr(block.value, st)
        return st

    def stmt(self, s, st):
        kind = s._prod
        if kind == "Let":  # a binding is a fresh value, each time round a loop too
            return _fresh(self.expr(s.value, st), s.name)
        if kind == "Assign":
            target = s.target
            if target._prod == "Local" and s.op == "=":
                return _fresh(self.expr(s.value, st), target.name)
            return self.expr(s.value, self.expr(target, st))
        if kind == "If":
            st = self.expr(s.cond, st)
            then = self.block(s.then, dict(st))
            orelse = self.block(s.orelse, dict(st)) if s.orelse is not None else st
            return join(then, orelse)
        if kind == "For":
            return self.loop(s.body, None, self.expr(s.end, self.expr(s.start, st)))
        if kind == "While":
            return self.loop(s.body, s.cond, st)
        if kind == "Return":
            if s.value is not None:
                self.expr(s.value, st)
            return None
        if kind in ("Break", "Continue"):
            if self.loops:
                self.loops[-1].append(st)
            return None
        return self.generic(s, st)

    def loop(self, body, cond, st):
        """Two passes over the body: the second starts from what the first moved."""
        exits = []
        for _ in range(2):
            if cond is not None:
                st = self.expr(cond, st)
            exits.append(st)  # the loop may stop here (a false condition, an empty range)
            self.loops.append([])
            end = self.block(body, dict(st))
            early = self.loops.pop()  # the states at each `break` and `continue`
            exits.extend(early)
            for e in (end, *early):
                st = join(st, e)
        out = st
        for e in exits:
            out = join(out, e)
        return out

    # -- expressions -----------------------------------------------------------------------

    def expr(self, e, st):
        kind = e._prod
        if kind == "Local":
            if e.name in st:
                key = (e.span.start if e.span is not None else id(e), e.name)
                if key not in self.seen:
                    self.seen.add(key)
                    self.report(e, e.name, st[e.name])
            return st
        if kind == "Transfer":
            st = self.expr(e.value, st)
            if e.value._prod == "Local":
                st = {**st, e.value.name: e}
            return st
        if kind in ("Spawn", "Comptime", "Closure"):
            return self.block(e.body, st) or st
        return self.generic(e, st)

    def generic(self, node, st):
        for child in child_nodes(node):
            if st is None:
                return None
            if child._nt in _NOT_VALUES:
                continue
            if child._nt == "Block":
                st = self.block(child, st)
            elif child._nt == "Stmt":
                st = self.stmt(child, st)
            else:
                st = self.expr(child, st)
        return st
