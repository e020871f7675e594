"""lower-pin-matches: Ltaken -> Lpinned."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.ltaken import Ltaken
from ..nanopass import Pass
from ..nanopass.nodes import Node, field_values
from ..scalars.aggregates import Names


@dataclass
class _Pin:
    """A pin its `Available` arm holds while it runs: given back as the arm ends."""

    held: object  # the place of the bool that says the state still holds it
    topo: object
    depth: int  # the loops around the arm: a `break` at this depth leaves the arm


@dataclass
class State:
    names: Names | None = None
    open: list = field(default_factory=list)  # the pins of the arms being walked, innermost last
    depth: int = 0  # the loops around the node being walked


lower_pin_matches = Pass("lower-pin-matches", Ltaken, L, """
Write the `match` on a hardware state as a branch on whether it took a pin, the `Available`
arm giving the pin back wherever it ends.

lower-pins has told each `match` on a state the values the state is made of; here `match s {
Available(p) => A, Saturated(v) => B }` is `if s_took { let p = pinned(s) on Topology::NPU; A }
else { let v = s; B }`, and A gives its pin back wherever it ends (its end, `return`, a `break`
or `continue` leaving it): `if s_held { s_held = false; release_pin NPU; }`, through the
reference a state given to a function or chosen by an `if` holds, so that a state matched
twice gives it back once.
""", state=State)


@lower_pin_matches.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.open, st.depth = Names(fn), [], 0
    return run.rebuild(fn)


@lower_pin_matches.on("ExprStmt", splice=True)
def _statement(run, node):
    if node.expr._prod == "PinMatch":
        return (_match(run, node.expr, statement=True),)
    return (run.rebuild(node),)


@lower_pin_matches.on("PinMatch")
def _match_value(run, e):
    return _match(run, e, statement=False)


def _match(run, e, statement: bool):
    st, span = run.state, e.span
    arms = {arm.variant: arm for arm in e.arms}
    st.open.append(_Pin(e.held, e.topo, st.depth))
    available = _arm(run, arms["Available"], L["PinnedTo"](e.value, e.topo, span=span),
                     statement)
    st.open.pop()
    end = _release(e.held, e.topo, span)
    if available.value is None:
        available = available.replace(stmts=(*available.stmts, end))
    else:
        kept = st.names.fresh("arm_value")
        available = available.replace(stmts=(
            *available.stmts,
            L["Let"](kept, False, L["OpaqueType"](span=span), available.value, span=span), end),
            value=L["Local"](kept, span=span))
    saturated = _arm(run, arms["Saturated"], e.value, statement)
    if statement:
        return L["If"](e.took, False, available, saturated, span=span)
    return L["IfExpr"](e.took, False, available, saturated, span=span)


def _arm(run, arm, value, statement: bool):
    """The arm's body, its binding first; in a statement, its value is one too."""
    body, b = arm.body, arm.binding
    if statement and body.value is not None:
        body = body.replace(stmts=(*body.stmts, L["ExprStmt"](body.value, span=body.value.span)),
                            value=None)
    body = run.walk(body)
    ty = b.type if b.type is not None else L["OpaqueType"](span=b.span)
    return body.replace(stmts=(L["Let"](b.name, False, ty, value, span=b.span), *body.stmts))


def _at(node, span):
    """A copy of the place `node` written at `span`: each release reads it anew."""
    return node.replace(span=span, **{f: _at(v, span) for f, v in
                                      zip(node._fields, field_values(node))
                                      if isinstance(v, Node)})


def _release(held, topo, span):
    """`if held { held = false; release_pin topo; }`."""
    give = L["Block"]((L["Assign"](_at(held, span), "=", L["Bool"](False, span=span), span=span),
                       L["ReleasePin"](topo.name, span=span)), None, span=span)
    return L["If"](_at(held, span), False, give, None, span=span)


def _leaving(run, node, pins) -> tuple:
    """`node` (a `return`, `break` or `continue`) after the pins it leaves are given back,
    innermost first; a `return`'s value is computed before."""
    if not pins:
        return (node,)
    span, before = node.span, ()
    if node._prod == "Return" and node.value is not None:
        kept = run.state.names.fresh("returned")
        before = (L["Let"](kept, False, L["OpaqueType"](span=span), node.value, span=span),)
        node = node.replace(value=L["Local"](kept, span=span))
    return (*before, *(_release(p.held, p.topo, span) for p in reversed(pins)), node)


@lower_pin_matches.on("Return", splice=True)
def _return(run, node):
    return _leaving(run, run.rebuild(node), run.state.open)


@lower_pin_matches.on("Break", "Continue", splice=True)
def _jump(run, node):
    st = run.state
    return _leaving(run, node, [p for p in st.open if p.depth == st.depth])


@lower_pin_matches.on("While", "For")
def _loop(run, node):
    run.state.depth += 1
    try:
        return run.rebuild(node)
    finally:
        run.state.depth -= 1


@lower_pin_matches.on("Closure")
def _closure(run, node):
    # A `return` in a closure leaves the closure, not the arm around it.
    st = run.state
    outer, st.open, st.depth = (st.open, st.depth), [], 0
    try:
        return run.rebuild(node)
    finally:
        st.open, st.depth = outer
