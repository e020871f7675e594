"""What inference reads off a program besides the body it types: every function's and
constant's written types, and three questions about a node asked of the tree alone."""

from __future__ import annotations

from ..nanopass import child_nodes
from .terms import Var, scalar_of


class Signatures:
    """The types of every function and constant, as written (a kernel's result as its body's,
    inferred on first need)."""

    def __init__(self, program):
        self.fns = {i.name: i for i in program.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        self.rets: dict = {}
        self.param_types: dict = {}

    def params(self, name: str) -> list:
        """One list per function, shared by every call: an untyped parameter (a kernel's
        capture whose `let` said nothing) is what its calls pass."""
        if name not in self.param_types:
            self.param_types[name] = [scalar_of(p.type, p) if p.type is not None
                                      else Var("any") for p in self.fns[name].params]
        return self.param_types[name]

    def ret(self, name: str):
        if name not in self.rets:
            fn = self.fns[name]
            if fn.ret is not None:
                self.rets[name] = scalar_of(fn.ret, fn)
            elif fn.on is not None and fn.body.value is not None:
                self.rets[name] = Var("any")  # a kernel: its body's value decides
            else:
                self.rets[name] = "void"
        return self.rets[name]


def is_literal(e) -> bool:
    return e._prod == "Int" or e._prod == "Unary" and e.op == "-" and is_literal(e.operand)


def assigned_captures(closure, borrowed: bool = False) -> list:
    """The variables of the enclosing function a closure assigns to (or, `borrowed`, takes a
    reference to): lifted, it receives their values, so it could not change them (nor lend
    them)."""
    bound = {p.name for p in closure.params}
    assigned = []
    stack = [closure.body]
    while stack:
        node = stack.pop()
        if node._prod in ("Let", "For"):
            bound.add(node.name if node._prod == "Let" else node.var)
        elif node._prod == ("Borrow" if borrowed else "Assign"):
            place = node.value if borrowed else node.target
            if place._prod == "Local":
                assigned.append(place.name)
        stack.extend(child_nodes(node))
    return [name for name in assigned if name not in bound]


def written(let) -> bool:
    """Whether a `let`'s type is the programmer's: infer-placement gives an inferred type the
    `let`'s own span (a literal's i32 there is only a default, which may yet change)."""
    return let.type is not None and let.type.span != let.span
