"""What inference reads off a program besides the body it types: every function's and
constant's written types, and two questions about a node asked of the tree alone."""

from __future__ import annotations

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


def written(let) -> bool:
    """Whether a `let`'s type is the programmer's: infer-placement gives an inferred type the
    `let`'s own span (a literal's i32 there is only a default, which may yet change)."""
    return let.type is not None and let.type.span != let.span
