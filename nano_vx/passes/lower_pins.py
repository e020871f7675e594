"""lower-pins: Lassumed -> Ltaken."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed
from ..languages.ltaken import Ltaken as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..scalars.hardware_states import HeldState, is_state_type, state_params, topo_key


@dataclass
class State:
    sigs: dict = field(default_factory=dict)  # fn -> (its state parameters' indices, ret topo)
    names: Names | None = None
    states: dict = field(default_factory=dict)  # local -> its HeldState
    ret: object = None  # the function's result type (None in a closure)
    open: list = field(default_factory=list)  # the states whose `Available` arms are walked
    changing: frozenset = frozenset()  # the function's `let mut` locals
    reassigned: set = field(default_factory=set)  # its states bound with `let mut`
    own: dict = field(default_factory=dict)  # a `let mut` state bound a copy -> its own `held`


lower_pins = Pass("lower-pins", Lassumed, L, """
Write `try_pin` as a pin taken, and a hardware state copied, given to a function or returned
as the values it is made of, which the `match` on it is told (E5010 for a hardware state used
otherwise); lower-pin-matches then writes the `match` out, and spread-hardware-states gives a
function those values as parameters of their own.

`let s = x.try_pin(Topology::NPU);` is `let s = x; let s_took = take_pin NPU of R; let mut
s_held = s_took;`, R the topology's `replicas`: a pin is taken when fewer than R of that
topology kind are held, as the interpreter decides, so native code counts the same pins the
same way. `match s { .. }` is `pin_match s on Topology::NPU, took s_took, held s_held { .. }`
(name-hardware-states has put every state a `match` is on in a variable). `let u = s;` makes
`u` another name of the same state (its copies share the pin, as the interpreter's do); a
state given to a function is the tuple `(t, t_took, &mut t_held)`, the caller's `held` by
reference, and the parameter `s` it is read as `s.0`, `s.1` and `*s.2`; a function returning
a state returns the tuple `(value, took, held)`, which the `let` of its call takes apart. `let
u = if c { t } else { x.try_pin(T) };` computes which branch ran, then u's value and whether
it took a pin chosen by it, and makes `u_held` a `&mut bool` to `t_held` or to a cell of u's
own, so that u and t share t's pin. A `let mut s` state's three are `let mut`s, and `s =
x.try_pin(T);` assigns each (the state it replaced keeps its pin, as in the interpreter). `let
mut u = t;` makes `u_held` a `&mut bool` to `t_held`, and `u = v;` points it to `v_held`, so
that u shares the pin of the state it was last given; a state u is assigned that it makes
holds its pin in a cell of u's own. A `let mut` state is refused copied by another name,
which would see the state assigned after it, or assigned in the `Available` arm of a `match`
on it. `print(s)` (or of `x.try_pin(T)`) is the stop the
interpreter makes there (E9006: it prints no state). A hardware state used otherwise (in a
tuple, a parameter's or a chosen one returned) is refused, and so is a topology whose index
is computed in place or is a `let mut`.
""", state=State, requires=("model",))


@lower_pins.on("Program")
def _program(run, program):
    run.state.sigs = {
        item.name: (state_params(item), item.ret.topo if is_state_type(item.ret) else None)
        for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


def _static(topo, changing=None) -> None:
    """The arm pins the value on the topology again: its index must read the same there (a
    number, or with the `changing` locals known, a local not among them)."""
    if any(b is not None and not (b._prod == "Int" or changing is not None
                                  and b._prod == "Local" and b.name not in changing)
           for b in (topo.index, topo.end)):
        raise Refused(topo, "a topology whose index is computed in place or may change")


@lower_pins.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.states, st.open, st.ret = Names(fn), {}, [], fn.ret
    st.reassigned, st.own = set(), {}
    st.changing = frozenset(n.name for n in descendants(fn) if n._prod == "Let" and n.mutable)
    try:
        for p in fn.params:
            if is_state_type(p.type):
                _static(p.type.topo)
                st.states[p.name] = HeldState(None, None, p.name, p.type.topo, True)
        if not is_state_type(fn.ret):
            return run.rebuild(fn)
        _static(fn.ret.topo)
        span, body = fn.ret.span, fn.body
        boolean = L["Scalar"]("bool", span=span)
        ret = L["TupleType"]((fn.ret.inner, boolean, boolean), span=span)
        walked = run.walk(body.replace(value=None))
        value = _as_tuple(run, body.value) if body.value is not None else None
        return fn.replace(ret=ret, body=walked.replace(value=value))
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _is_try_pin(e) -> bool:
    return e is not None and e._prod == "MethodCall" and e.method == "try_pin"


def _returned_topo(run, e):
    """The topology of the hardware state the call `e` returns, or None when it is not one."""
    if e is None or e._prod != "Call" or e.callee._prod != "Global":
        return None
    sig = run.state.sigs.get(e.callee.name)
    return sig[1] if sig is not None else None


def _makes_a_state(run, e) -> bool:
    return _is_try_pin(e) or _returned_topo(run, e) is not None


@lower_pins.on("Let", "Return", splice=True)
def _statement(run, node):
    value = node.value
    if node._prod == "Return":
        if value is not None:
            value = _as_tuple(run, value) if is_state_type(run.state.ret) else run.walk(value)
        return (node.replace(value=value),)
    if not (_makes_a_state(run, value) or _is_state(run, value)
            or _chooses_a_state(run, value)):
        return (node.replace(value=run.walk(value)),)
    if node.mutable and value._prod == "IfExpr":
        raise Refused(node, "a hardware state chosen into a `let mut`")
    ty = node.type if is_state_type(node.type) else None
    if node.mutable and value._prod == "Local":
        return _copy_into_mutable(run, node.name, ty, value)
    if value._prod == "IfExpr":
        return _choose(run, node.name, ty, value)
    return _bind(run, node.name, ty, value, node.mutable)


def _is_state(run, e) -> bool:
    return e is not None and e._prod == "Local" and e.name in run.state.states


def _bind(run, name, ty, value, mutable=False) -> tuple:
    """The `let`s of the state `name`: its value, whether a pin was taken, whether it is still
    held; a copy of another state is another name of it."""
    span, st = value.span, run.state
    value_type = ty.inner if ty is not None else L["OpaqueType"](span=span)
    if value._prod == "Local":
        _not_reassigned(run, value)
        st.states[name] = st.states[value.name]
        return (L["Let"](name, False, value_type, _value(run, value), span=span),)
    topo = _made_topo(run, value)
    stem = name.split("#")[0]
    took, held = st.names.fresh(f"{stem}_took"), st.names.fresh(f"{stem}_held")
    st.states[name] = HeldState(took, held, None, topo)
    if mutable:
        st.reassigned.add(name)
    before, parts = _parts(run, stem, value, topo, took)
    types = (value_type, L["Scalar"]("bool", span=span), L["Scalar"]("bool", span=span))
    return (*before, *(L["Let"](n, mutable or n == held, t, part, span=span)
                       for n, t, part in zip((name, took, held), types, parts)))


def _copy_into_mutable(run, name, ty, value) -> tuple:
    """`let mut u = t;`: u's value and whether it took a pin are t's, its `held` a `&mut` to
    t's, so that u and t share t's pin until u is assigned; a cell of u's own holds the pin
    of a state u is assigned that it makes."""
    _not_reassigned(run, value)
    st, span = run.state, value.span
    state = st.states[value.name]
    stem = name.split("#")[0]
    took, own, held = (st.names.fresh(f"{stem}_{part}") for part in ("took", "own", "held"))
    st.states[name] = HeldState(took, held, None, state.topo, True)
    st.reassigned.add(name)
    st.own[name] = own
    boolean = L["Scalar"]("bool", span=span)
    value_type = ty.inner if ty is not None else L["OpaqueType"](span=span)
    return (L["Let"](name, True, value_type, _value(run, value), span=span),
            L["Let"](took, True, boolean, state.part(1, span), span=span),
            L["Let"](own, True, boolean, L["Bool"](False, span=span), span=span),
            L["Let"](held, True, L["BorrowType"](boolean, True, span=span),
                     state.held_ref(span), span=span))


def _made_topo(run, value):
    """The topology of the state `try_pin` or a call makes, written out and reading the same
    when its arm pins the value on it."""
    topo = value.args[0] if _is_try_pin(value) and len(value.args) == 1 \
        else _returned_topo(run, value)
    if topo is None or topo._prod != "TopoRef":
        raise Refused(value, "`try_pin` of anything but a topology written out")
    _static(topo, run.state.changing)
    return topo


def _parts(run, stem, value, topo, took: str) -> tuple:
    """What the state `try_pin` or a call makes is: the statements computing it, and its value,
    whether it took a pin and whether it holds it (what it took, at first)."""
    span = value.span
    if _is_try_pin(value):
        return (), (run.walk(value.receiver), _take(run, topo, span), L["Local"](took, span=span))
    made = run.state.names.fresh(f"{stem}_made")
    part = [L["TupleGet"](L["Local"](made, span=span), i, span=span) for i in range(3)]
    return (L["Let"](made, False, L["OpaqueType"](span=span), run.walk(value), span=span),), \
        tuple(part)


@lower_pins.on("Assign", splice=True)
def _assign(run, node):
    """`s = x.try_pin(T);` of a state bound with `let mut`: its three values assigned, the
    pin the state it held took left held, as the interpreter leaves it."""
    st, target, span = run.state, node.target, node.span
    if not _is_state(run, target):
        return (run.rebuild(node),)
    state, value = st.states[target.name], node.value
    own = st.own.get(target.name)
    shares = own is not None and _is_state(run, value)
    if target.name not in st.reassigned or not (_makes_a_state(run, value) or shares):
        raise Refused(node, "a hardware state assigned other than a new one to a `let mut`")
    if any(s is state for s in st.open):
        raise Refused(node, "a hardware state assigned in an arm of a `match` on it")
    names = (target.name, state.took, state.held)
    if shares:
        _not_reassigned(run, value)
        other = st.states[value.name]
        topo, before = other.topo, ()
        parts = (_value(run, value), other.part(1, span), other.held_ref(span))
    else:
        topo = _made_topo(run, value)
        before, parts = _parts(run, target.name.split("#")[0], value, topo, state.took)
        if own is not None:
            # The state made holds its pin in u's own cell, which u's `held` then points to.
            names = (target.name, state.took, own, state.held)
            parts = (*parts, L["Borrow"](L["Local"](own, span=span), True, span=span))
    if topo_key(topo) != topo_key(state.topo):
        raise Refused(node, "a hardware state assigned one of another topology")
    return (*before, *(L["Assign"](L["Local"](n, span=span), "=", part, span=span)
                       for n, part in zip(names, parts)))


def _not_reassigned(run, local):
    if local.name in run.state.reassigned:
        raise Refused(local, "a copy of a hardware state bound with `let mut`")


def _take(run, topo, span):
    """`take_pin`, as many of the topology's kind held at once as it declares."""
    declared = run.ctx.model.topology_of(topo.name)
    replicas = declared.replicas if declared is not None else 1
    return L["TakePin"](topo.name, replicas, span=span)


def _branch(block):
    """The state an `if`'s branch gives: its value, or the `try_pin` name-hardware-states
    bound to a local of its own (`{ let state = x.try_pin(T); state }`)."""
    if block is None or block.value is None or not block.stmts:
        return None if block is None else block.value
    [let], value = block.stmts if len(block.stmts) == 1 else (None,), block.value
    if let is None or let._prod != "Let" or value._prod != "Local" or value.name != let.name:
        return None
    return let.value


def _chooses_a_state(run, e) -> bool:
    """`e` is an `if` choosing between states: each branch a state's variable or a `try_pin`
    of a topology written out."""
    return e is not None and e._prod == "IfExpr" and all(
        _is_state(run, b) or _is_try_pin(b) and len(b.args) == 1
        and b.args[0]._prod == "TopoRef" for b in (_branch(e.then), _branch(e.orelse)))


def _choose(run, name, ty, e) -> tuple:
    """`let u = if c { A } else { B };`: which branch ran, and u's value and whether it took
    a pin chosen by it; its `held` a reference to the chosen state's, or to a cell of u's own
    when the branch made the state."""
    st, span = run.state, e.span
    branches = (_branch(e.then), _branch(e.orelse))
    for b in branches:
        if b._prod == "Local":
            _not_reassigned(run, b)
    topos = [st.states[b.name].topo if b._prod == "Local" else b.args[0] for b in branches]
    for topo in topos:
        _static(topo, st.changing)
    if len({topo_key(t) for t in topos}) != 1:
        raise Refused(e, "a hardware state chosen by an `if` between two topologies")
    stem = name.split("#")[0]
    which, took, own, held = (st.names.fresh(f"{stem}_{part}")
                              for part in ("which", "took", "own", "held"))
    st.states[name] = HeldState(took, held, None, topos[0], True)
    boolean = L["Scalar"]("bool", span=span)

    def chosen(pair):
        return L["IfExpr"](L["Local"](which, span=span), False,
                           *(L["Block"]((), v, span=span) for v in pair), span=span)

    values = [_value(run, b) if b._prod == "Local" else run.walk(b.receiver) for b in branches]
    took_pins = [st.states[b.name].part(1, span) if b._prod == "Local" else _take(run, t, span)
                 for b, t in zip(branches, topos)]
    given = [L["Block"]((L["Assign"](L["Local"](held, span=span), "=",
                                     st.states[b.name].held_ref(span), span=span),), None,
                        span=span) if b._prod == "Local" else None for b in branches]
    value_type = ty.inner if ty is not None else L["OpaqueType"](span=span)
    lets = (L["Let"](which, False, boolean, run.walk(e.cond), span=span),
            L["Let"](name, False, value_type, chosen(values), span=span),
            L["Let"](took, False, boolean, chosen(took_pins), span=span),
            L["Let"](own, True, boolean, L["Local"](took, span=span), span=span),
            L["Let"](held, True, L["BorrowType"](boolean, True, span=span),
                     L["Borrow"](L["Local"](own, span=span), True, span=span), span=span))
    if given == [None, None]:
        return lets
    then = given[0] or L["Block"]((), None, span=span)
    return (*lets, L["If"](L["Local"](which, span=span), False, then, given[1], span=span))


def _as_tuple(run, e):
    """A hardware state its function returns, as `(value, took, held)`."""
    if _returned_topo(run, e) is not None:
        return run.walk(e)
    if not _is_state(run, e):
        raise Refused(e, "a hardware state returned other than as a variable or a call")
    state, span = run.state.states[e.name], e.span
    if state.by_ref:
        raise Refused(e, "a hardware state given to its function returned" if state.param
                      else "a `let mut` copy of a hardware state returned"
                      if e.name in run.state.own
                      else "a hardware state chosen by an `if` returned")
    return L["Tuple"]((e, state.part(1, span), state.held_place(span)), span=span)


@lower_pins.on("Call")
def _call(run, e):
    """A call given hardware states: each is the tuple of its value, whether it took a pin and
    a reference to its `held`, which the callee's `match` clears."""
    if e.callee._prod != "Global" or e.callee.name not in run.state.sigs:
        return run.rebuild(e)
    states, args = run.state.sigs[e.callee.name][0], []
    for i, a in enumerate(e.args):
        if i not in states:
            args.append(run.walk(a))
            continue
        if not _is_state(run, a):
            raise Refused(a, "a hardware state given to a function other than as a variable")
        state, span = run.state.states[a.name], a.span
        args.append(L["Tuple"]((_value(run, a), state.part(1, span), state.held_ref(span)),
                               span=span))
    return e.replace(args=tuple(args))


def _value(run, local):
    """The value of the state `local`: a parameter's is the first of its parts."""
    if run.state.states[local.name].param != local.name:
        return local
    return L["TupleGet"](local, 0, span=local.span)


@lower_pins.on("Match")
def _match(run, e):
    """A `match` on a state, told the values it is made of; lower-pin-matches writes it out."""
    st, place = run.state, e.scrutinee
    if not _is_state(run, place):
        raise Refused(e, "a `match` on a hardware state not made by `try_pin` in its function")
    state = st.states[place.name]
    arms = {arm.variant: arm for arm in e.arms}
    if set(arms) != {"Available", "Saturated"}:
        raise Refused(e, "a `match` on a hardware state without both arms")
    st.open.append(state)
    available = run.walk(arms["Available"])
    st.open.pop()
    span = e.span
    return L["PinMatch"](_value(run, place), state.part(1, span), state.held_place(span),
                         state.topo, (available, run.walk(arms["Saturated"])), span=span)


@lower_pins.on("Closure")
def _closure(run, node):
    # A `return` in a closure returns the closure's value, not a state of the function, and
    # the closure runs when it is called, not in the arm around it.
    st = run.state
    outer, st.open, st.ret = (st.open, st.ret), [], None
    try:
        return run.rebuild(node)
    finally:
        st.open, st.ret = outer


@lower_pins.on("ExprStmt")
def _expr_stmt(run, node):
    """`print(s)` of a state: the stop the interpreter makes there, which prints no state."""
    e = node.expr
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
            and len(e.args) == 1 and _state_computing_nothing(run, e.args[0]):
        return L["Halt"]("E9006", "cannot print a value of type HardwareState", span=e.span)
    return run.rebuild(node)


def _state_computing_nothing(run, e) -> bool:
    """Whether `e` is a state whose making computes nothing that could stop the program
    first: a state variable, or `try_pin` of a variable on a topology written out."""
    if e._prod == "Local":
        return e.name in run.state.states
    return _is_try_pin(e) and e.receiver._prod == "Local" and len(e.args) == 1 \
        and e.args[0]._prod == "TopoRef" \
        and all(b is None or b._prod == "Int" for b in (e.args[0].index, e.args[0].end))


@lower_pins.on("Local")
def _local(run, e):
    if e.name in run.state.states:
        raise Refused(e, "a hardware state used other than matched, bound, passed or returned")
    return e


@lower_pins.on("MethodCall")
def _method(run, e):
    if e.method == "try_pin":
        raise Refused(e, "`try_pin` other than bound by a `let` or matched")
    return run.rebuild(e)
