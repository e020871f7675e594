"""bind-called-closure-values: Lsplit -> Lsplit.

Same IL: the `let` computes the closure value where the statement computed it first, so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.function_locals import lent_locals

# What a statement may read before the call, reading nothing a call may change.
LITERALS = ("Int", "Float", "Bool", "Str", "Global")


@dataclass
class State:
    names: Names | None = None
    lent: set = field(default_factory=set)  # the locals of the function a call may change


bind_called_closure_values = Pass("bind-called-closure-values", L, L, """
Bind by a `let` of its own, before its statement, each closure value a call of a local
gives that the statement calls at once, where the statement computes nothing before it.

`print(mk(3)());` is `let made = mk(3); print(made());`: capture-environments lowers a
closure given back by the closure around it where each call of that closure is the value of
a `let` (the variable it binds then called), and type-scalars refuses it called otherwise.
The statement (a `let`, an expression statement, a `return`, an assignment to a local, a
block's value) computes before that call only literals, functions and variables no call
may change (none lent `&mut`, none a closure assigns), each an argument before it of calls
of functions around it, so that the `let` runs it where it ran. Elsewhere it stays.
""", state=State)


@bind_called_closure_values.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.lent = Names(fn), lent_locals(fn)
    return run.rebuild(fn)


@bind_called_closure_values.on("Let", "Return", "ExprStmt", "Assign", splice=True)
def _statement(run, node):
    node = run.rebuild(node)
    slot = "expr" if node._prod == "ExprStmt" else "value"
    value = getattr(node, slot)
    if value is None or node._prod == "Assign" and (
            node.target._prod != "Local" or node.op != "="):
        return (node,)
    lets, value = _bound(run, value)
    return (*lets, node.replace(**{slot: value})) if lets else (node,)


@bind_called_closure_values.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    if block.value is None:
        return block
    lets, value = _bound(run, block.value)
    return block.replace(stmts=(*block.stmts, *lets), value=value) if lets else block


def _bound(run, e) -> tuple:
    """The `let` of the closure value e calls first of all it computes, and e calling its
    local; ((), e) where there is none."""
    if e._prod != "Call":
        return (), e
    if e.callee._prod == "Call" and e.callee.callee._prod == "Local":
        made = e.callee
        name = run.state.names.fresh("made")
        let = L["Let"](name, False, L["OpaqueType"](span=made.span), made, span=made.span)
        return (let,), e.replace(callee=L["Local"](name, span=made.span))
    if e.callee._prod != "Global":
        return (), e
    for k, arg in enumerate(e.args):
        if arg._prod == "Call":
            lets, inner = _bound(run, arg)
            if not lets:
                return (), e
            return lets, e.replace(args=(*e.args[:k], inner, *e.args[k + 1:]))
        if not (arg._prod in LITERALS or arg._prod == "Local" and
                arg.name not in run.state.lent):
            return (), e
    return (), e
