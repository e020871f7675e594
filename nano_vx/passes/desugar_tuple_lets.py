"""desugar-tuple-lets: Lwhile -> Lunpacked."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lunpacked, Lwhile
from ..nanopass import Pass, descendants

L = Lunpacked


@dataclass
class State:
    taken: set = field(default_factory=set)  # every name the current function uses


desugar_tuple_lets = Pass("desugar-tuple-lets", Lwhile, Lunpacked, """
Write `let (a, b) = e;` as `let tuple = e; let a = tuple.0; let b = tuple.1;`.

e is evaluated once, into a variable of its own (`tuple`, or `tuple_1`, ... when the function
already uses the name), and each name binds one element, in order. Every later pass knows one
kind of `let`: a tuple is a value like another, and `.0` reads one of its elements.
""", state=State)


@desugar_tuple_lets.on("Fn")
def _fn(run, fn):
    run.state.taken = {getattr(n, "name", None) for n in descendants(fn)}
    run.state.taken |= {name for n in descendants(fn) if n._prod == "LetTuple"
                        for name in n.names}
    return run.rebuild(fn)


@desugar_tuple_lets.on("LetTuple", splice=True)
def _let_tuple(run, node):
    name, k = "tuple", 0
    while name in run.state.taken:
        k += 1
        name = f"tuple_{k}"
    run.state.taken.add(name)
    span = node.span
    whole = L["Let"](name, False, None, run.walk(node.value), span=span)
    parts = tuple(L["Let"](n, False, None, L["TupleGet"](L["Var"](name, span=span), i, span=span),
                           span=span)
                  for i, n in enumerate(node.names))
    return (whole, *parts)
