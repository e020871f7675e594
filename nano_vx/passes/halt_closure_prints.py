"""halt-closure-prints: Lpinned -> Lpinned.

Same IL: a `print` of a closure, or of a comparison of two, is the stop the interpreter makes
there (E9006), so native code stops with its message at its span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    closures: set = field(default_factory=set)  # the locals of the function a closure is bound to


halt_closure_prints = Pass("halt-closure-prints", L, L, """
Make each `print` of a variable holding a closure, or of two compared, the stop the interpreter
makes there (E9006): it prints no closure and compares none.

The variable is one a `let` binds to a closure, or to another such variable; what the `print`
is given is only names, so nothing of its statement runs before the stop. Any other closure
printed or compared stays for type-scalars, which refuses it (E5010).
""", state=State)


@halt_closure_prints.on("Fn")
def _fn(run, fn):
    closures = run.state.closures = set()
    for n in descendants(fn):
        if n._prod == "Let" and (n.value._prod == "Closure" or
                                 n.value._prod == "Local" and n.value.name in closures):
            closures.add(n.name)
    return run.rebuild(fn) if closures else fn


def _closure(run, e) -> bool:
    return e._prod == "Local" and e.name in run.state.closures


@halt_closure_prints.on("ExprStmt")
def _expr_stmt(run, node):
    e = node.expr
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
            and len(e.args) == 1:
        arg = e.args[0]
        if _closure(run, arg):
            return L["Halt"]("E9006", "cannot print a value of type closure", span=e.span)
        if arg._prod == "Binary" and _closure(run, arg.left) and _closure(run, arg.right):
            return L["Halt"]("E9006", f"cannot apply '{arg.op}' to closure and closure",
                             span=arg.span)
    return run.rebuild(node)
