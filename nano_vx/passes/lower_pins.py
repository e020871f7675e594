"""lower-pins: Lassumed -> Lpinned."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lassumed import Lassumed
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused


@dataclass
class _Pin:
    """A pin its `Available` arm holds while it runs: given back as the arm ends."""

    held: str  # the bool local that says the state still holds its pin
    topo: str
    depth: int  # the loops around the arm: a `break` at this depth leaves the arm


@dataclass
class State:
    names: Names | None = None
    states: dict = field(default_factory=dict)  # local -> (its `took` local, held, topology)
    open: list = field(default_factory=list)  # the pins of the arms being walked, innermost last
    depth: int = 0  # the loops around the node being walked
    changing: frozenset = frozenset()  # the function's `let mut` locals


lower_pins = Pass("lower-pins", Lassumed, L, """
Write `try_pin` and the `match` on its result as a pin taken, a branch and a pin given back
(E5010 for a hardware state used otherwise).

`let s = x.try_pin(Topology::NPU);` is `let s = x; let s_took = take_pin NPU of R; let mut
s_held = s_took;`, R the topology's `replicas`: a pin is taken when fewer than R of that
topology kind are held, as the interpreter decides, so native code counts the same pins the
same way. `match s { Available(p) => A, Saturated(v) => B }` is `if s_took { let p =
pinned(s) on Topology::NPU; A } else { let v = s; B }`, and A gives its pin back wherever it
ends (its end, `return`, a `break` or `continue` leaving it): `if s_held { s_held = false;
release_pin NPU; }`, so a state matched twice gives it back once. A `match` on `try_pin` itself
binds the state first. A hardware state used other than by `match` (copied, passed, printed)
is refused, and so is a topology whose index is computed in place or is a `let mut`.
""", state=State, requires=("model",))


@lower_pins.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.states, st.open, st.depth = Names(fn), {}, [], 0
    st.changing = frozenset(n.name for n in descendants(fn) if n._prod == "Let" and n.mutable)
    try:
        if fn.ret is None:
            return run.rebuild(fn.replace(body=_discarded(fn.body)))
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _discarded(block):
    """A block whose value nothing reads, with a `match` on a hardware state that is its value
    made a statement: each arm is then a statement too, and need not give a value."""
    m = block.value
    if m is None or m._prod != "Match":
        return block
    return block.replace(stmts=(*block.stmts, L["ExprStmt"](m, span=m.span)), value=None)


@lower_pins.on("If")
def _if(run, node):
    orelse = _discarded(node.orelse) if node.orelse is not None else None
    return run.rebuild(node.replace(then=_discarded(node.then), orelse=orelse))


@lower_pins.on("BlockStmt")
def _block_stmt(run, node):
    return run.rebuild(node.replace(body=_discarded(node.body)))


def _is_try_pin(e) -> bool:
    return e is not None and e._prod == "MethodCall" and e.method == "try_pin"


def _pins_a_state(e) -> bool:
    return e is not None and e._prod == "Match" and _is_try_pin(e.scrutinee)


@lower_pins.on("Let", "Return", "ExprStmt", splice=True)
def _statement(run, node):
    value = node.expr if node._prod == "ExprStmt" else node.value
    if node._prod == "Let" and _is_try_pin(value):
        ty = node.type if node.type is not None and node.type._prod == "HardwareStateType" \
            else None
        return _take(run, node.name, ty, value)
    before = ()
    if _pins_a_state(value):
        name = run.state.names.fresh("state")
        before = _take(run, name, None, value.scrutinee)
        value = value.replace(scrutinee=L["Local"](name, span=value.scrutinee.span))
    if node._prod == "ExprStmt":
        if value._prod == "Match":
            return (*before, _match(run, value, statement=True))
        return (*before, node.replace(expr=run.walk(value)))
    value = run.walk(value) if value is not None else None
    if node._prod == "Let":
        return (*before, node.replace(value=value))
    return (*before, *_leaving(run, node.replace(value=value), run.state.open))


@lower_pins.on("Block")
def _block(run, block):
    """A block whose value is a `match` on `try_pin`: the state is bound after its
    statements."""
    m = block.value
    if not _pins_a_state(m):
        return run.rebuild(block)
    stmts = run.rebuild(block.replace(value=None)).stmts
    name = run.state.names.fresh("state")
    before = _take(run, name, None, m.scrutinee)
    m = m.replace(scrutinee=L["Local"](name, span=m.scrutinee.span))
    return block.replace(stmts=(*stmts, *before), value=_match(run, m, statement=False))


def _take(run, name, ty, call) -> tuple:
    """The `let`s of a state: its value, whether a pin was taken, whether it is still held."""
    if len(call.args) != 1 or call.args[0]._prod != "TopoRef":
        raise Refused(call, "`try_pin` of anything but a topology written out")
    topo = call.args[0]
    # The arm pins the value on the topology again: its index must read the same there.
    if any(b is not None and not (b._prod == "Int" or b._prod == "Local"
                                  and b.name not in run.state.changing)
           for b in (topo.index, topo.end)):
        raise Refused(topo, "a topology whose index is computed in place or may change")
    declared = run.ctx.model.topology_of(topo.name)
    replicas = declared.replicas if declared is not None else 1
    span, names = call.span, run.state.names
    stem = name.split("#")[0]
    took, held = names.fresh(f"{stem}_took"), names.fresh(f"{stem}_held")
    run.state.states[name] = (took, held, topo)
    boolean = L["Scalar"]("bool", span=span)
    value_type = ty.inner if ty is not None else L["OpaqueType"](span=span)
    return (L["Let"](name, False, value_type, run.walk(call.receiver), span=span),
            L["Let"](took, False, boolean, L["TakePin"](topo.name, replicas, span=span),
                     span=span),
            L["Let"](held, True, boolean, L["Local"](took, span=span), span=span))


@lower_pins.on("Match")
def _match_value(run, e):
    return _match(run, e, statement=False)


def _match(run, e, statement: bool):
    st, place = run.state, e.scrutinee
    if place._prod != "Local" or place.name not in st.states:
        raise Refused(e, "a `match` on a hardware state not made by `try_pin` in its function")
    took, held, topo = st.states[place.name]
    arms = {arm.variant: arm for arm in e.arms}
    if set(arms) != {"Available", "Saturated"}:
        raise Refused(e, "a `match` on a hardware state without both arms")
    span = e.span
    pinned = L["PinnedTo"](place, topo, span=span)
    st.open.append(_Pin(held, topo.name, st.depth))
    available = _arm(run, arms["Available"], pinned, statement)
    st.open.pop()
    end = _release(held, topo.name, span)
    if available.value is None:
        available = available.replace(stmts=(*available.stmts, end))
    else:
        kept = st.names.fresh("arm_value")
        available = available.replace(stmts=(
            *available.stmts,
            L["Let"](kept, False, L["OpaqueType"](span=span), available.value, span=span), end),
            value=L["Local"](kept, span=span))
    saturated = _arm(run, arms["Saturated"], place, statement)
    cond = L["Local"](took, span=span)
    if statement:
        return L["If"](cond, False, available, saturated, span=span)
    return L["IfExpr"](cond, False, available, saturated, span=span)


def _arm(run, arm, value, statement: bool):
    """The arm's body, its binding first; in a statement, its value is one too."""
    body, b = arm.body, arm.binding
    if statement and body.value is not None:
        body = body.replace(stmts=(*body.stmts, L["ExprStmt"](body.value, span=body.value.span)),
                            value=None)
    body = run.walk(body)
    ty = b.type if b.type is not None else L["OpaqueType"](span=b.span)
    return body.replace(stmts=(L["Let"](b.name, False, ty, value, span=b.span), *body.stmts))


def _release(held_name: str, topo: str, span):
    """`if held { held = false; release_pin topo; }`"""
    held = L["Local"](held_name, span=span)
    give = L["Block"]((L["Assign"](held, "=", L["Bool"](False, span=span), span=span),
                       L["ReleasePin"](topo, span=span)), None, span=span)
    return L["If"](held, False, give, None, span=span)


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


@lower_pins.on("Break", "Continue", splice=True)
def _jump(run, node):
    st = run.state
    return _leaving(run, node, [p for p in st.open if p.depth == st.depth])


@lower_pins.on("While", "For")
def _loop(run, node):
    run.state.depth += 1
    try:
        return run.rebuild(node.replace(body=_discarded(node.body)))
    finally:
        run.state.depth -= 1


@lower_pins.on("Closure")
def _closure(run, node):
    # A `return` in a closure leaves the closure, not the arm around it.
    st = run.state
    outer, st.open, st.depth = (st.open, st.depth), [], 0
    try:
        return run.rebuild(node)
    finally:
        st.open, st.depth = outer


@lower_pins.on("Local")
def _local(run, e):
    if e.name in run.state.states:
        raise Refused(e, "a hardware state used other than by `match`")
    return e


@lower_pins.on("MethodCall")
def _method(run, e):
    if e.method == "try_pin":
        raise Refused(e, "`try_pin` other than bound by a `let` or matched")
    return run.rebuild(e)
