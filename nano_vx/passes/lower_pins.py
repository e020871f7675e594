"""lower-pins: Lread -> Ltaken."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lread import Lread
from ..languages.ltaken import Ltaken as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..scalars.hardware_states import (HeldState, check_returned, check_static, is_state_type,
                                       is_try_pin, made_topo, mutable_locals, returned_topo,
                                       spread, state_params, take_pin, topo_key)


@dataclass
class State:
    sigs: dict = field(default_factory=dict)  # fn -> its state parameters' indices
    returns: dict = field(default_factory=dict)  # fn -> the topology of the state it returns
    names: Names | None = None
    states: dict = field(default_factory=dict)  # local -> its HeldState
    ret: object = None  # the function's result type (None in a closure)
    open: list = field(default_factory=list)  # the states whose `Available` arms are walked
    changing: frozenset = frozenset()  # the function's `let mut` locals
    reassigned: set = field(default_factory=set)  # its states bound with `let mut`
    shared: set = field(default_factory=set)  # its `let mut` states bound by `LetState`


lower_pins = Pass("lower-pins", Lread, L, """
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
a state returns the tuple `(value, took, held)`, which the `let` of its call takes apart.
lower-state-tuples has written a tuple holding states that a function returns with each
state's parts read where it stands: `state_read 0 of s`, `state_read 1 of s` and
`state_read 2 of s` are `s`, `s_took` and `s_held` (`s.0`, `s.1` and `*s.2` of a parameter),
and a `let_element` a state bound from the locals it names, `let_element u: i32 on T, took
pair_0_took, held pair_0_held = pair.0.0;` being `let u: i32 = pair.0.0;`. A `let_state`
(hold-states-by-reference's `let mut` copy or state an `if` chooses) binds a state whose
`held` is the `&mut bool` its function computes, and a `state_part` of a state is one of its
three values (its `held` by reference); an assignment of such a `let mut` state's value
is left as it is. A `let mut s` state's three are `let mut`s, and `s = x.try_pin(T);` assigns
each (the state it replaced keeps its pin, as in the interpreter). A `let mut` state is
refused copied by another name, which would see the state assigned after it, or assigned in
the `Available` arm of a `match` on it (halt-state-prints has made a `print` of a state
the interpreter's stop). A hardware state used otherwise (in a tuple other than as
lower-state-tuples writes it, a parameter's or a chosen one returned) is refused, and so is
a topology whose index is computed in place or is a `let mut`.
""", state=State, requires=("model",))


@lower_pins.on("Program")
def _program(run, program):
    fns = [item for item in program.items if item._prod == "Fn"]
    run.state.sigs = {fn.name: state_params(fn) for fn in fns}
    run.state.returns = {fn.name: fn.ret.topo if is_state_type(fn.ret) else None for fn in fns}
    return run.rebuild(program)


@lower_pins.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.states, st.open, st.ret = Names(fn), {}, [], fn.ret
    st.reassigned, st.shared = set(), set()
    st.changing = mutable_locals(fn)
    try:
        for p in fn.params:
            if is_state_type(p.type):
                check_static(p.type.topo)
                st.states[p.name] = HeldState(None, None, p.name, p.type.topo, True)
        if not is_state_type(fn.ret):
            return run.rebuild(fn)
        check_static(fn.ret.topo)
        body = fn.body
        walked = run.walk(body.replace(value=None))
        value = _returned(run, body.value) if body.value is not None else None
        return fn.replace(ret=spread(fn.ret), body=walked.replace(value=value))
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _returned(run, e):
    """What a function returning a state returns: `(value, took, held)`."""
    return _as_tuple(run, e) if is_state_type(run.state.ret) else run.walk(e)


def _makes_a_state(run, e) -> bool:
    return is_try_pin(e) or returned_topo(run.state.returns, e) is not None


@lower_pins.on("Let", "Return", splice=True)
def _statement(run, node):
    value = node.value
    if node._prod == "Return":
        return (node.replace(value=None if value is None else _returned(run, value)),)
    if not (_makes_a_state(run, value) or _is_state(run, value)):
        return (node.replace(value=run.walk(value)),)
    ty = node.type if is_state_type(node.type) else None
    return _bind(run, node.name, ty, value, node.mutable)


@lower_pins.on("LetState", splice=True)
def _let_state(run, node):
    """A state whose `held` is the `&mut bool` bound after it: its value is the local."""
    st = run.state
    st.states[node.name] = HeldState(node.took, node.held, None, node.topo, True)
    if node.mutable:
        st.reassigned.add(node.name)
        st.shared.add(node.name)
    return (L["Let"](node.name, node.mutable, node.type, run.walk(node.value), span=node.span),)


@lower_pins.on("LetElement", splice=True)
def _let_element(run, node):
    """A state lower-state-tuples bound from an element of a tuple: the locals it names."""
    run.state.states[node.name] = HeldState(node.took, node.held, None, node.topo, node.by_ref)
    return (L["Let"](node.name, False, node.type, run.walk(node.value), span=node.span),)


@lower_pins.on("StateRead")
def _state_read(run, e):
    """A part of a state read where it stands: its value, whether it took a pin, or the bool
    that says it still holds it."""
    if not _is_state(run, e.state):
        raise Refused(e, "a part of a hardware state not made in its function")
    state = run.state.states[e.state.name]
    return _value(run, e.state) if e.part == 0 else state.part(1, e.span) if e.part == 1 \
        else state.held_place(e.span)


@lower_pins.on("StatePart")
def _state_part(run, e):
    """The state's value, whether it took a pin, or the reference to the bool that says it
    still holds it."""
    place = e.state
    if not _is_state(run, place):
        raise Refused(e, "a part of a hardware state not made in its function")
    _not_reassigned(run, place)
    if e.part == 0:
        return _value(run, place)
    state = run.state.states[place.name]
    return state.part(1, e.span) if e.part == 1 else state.held_ref(e.span)


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


def _made_topo(run, value):
    return made_topo(run.state.returns, value, run.state.changing)


def _parts(run, stem, value, topo, took: str) -> tuple:
    """What the state `try_pin` or a call makes is: the statements computing it, and its value,
    whether it took a pin and whether it holds it (what it took, at first)."""
    span = value.span
    if is_try_pin(value):
        return (), (run.walk(value.receiver), take_pin(run.ctx.model, topo, span),
                    L["Local"](took, span=span))
    made = run.state.names.fresh(f"{stem}_made")
    part = [L["TupleGet"](L["Local"](made, span=span), i, span=span) for i in range(3)]
    return (L["Let"](made, False, L["OpaqueType"](span=span), run.walk(value), span=span),), \
        tuple(part)


@lower_pins.on("Assign", splice=True)
def _assign(run, node):
    """`s = x.try_pin(T);` of a state bound with `let mut`: its three values assigned, the
    pin the state it held took left held, as the interpreter leaves it; of a `let_state`'s,
    its value, whose parts hold-states-by-reference assigns beside it."""
    st, target, span = run.state, node.target, node.span
    if not _is_state(run, target):
        return (run.rebuild(node),)
    state, value = st.states[target.name], node.value
    shared = target.name in st.shared
    if target.name not in st.reassigned or not (shared or _makes_a_state(run, value)):
        raise Refused(node, "a hardware state assigned other than a new one to a `let mut`")
    if any(s is state for s in st.open):
        raise Refused(node, "a hardware state assigned in an arm of a `match` on it")
    if shared:
        return (node.replace(value=run.walk(value)),)
    topo = _made_topo(run, value)
    before, parts = _parts(run, target.name.split("#")[0], value, topo, state.took)
    if topo_key(topo) != topo_key(state.topo):
        raise Refused(node, "a hardware state assigned one of another topology")
    return (*before, *(L["Assign"](L["Local"](n, span=span), "=", part, span=span)
                       for n, part in zip((target.name, state.took, state.held), parts)))


def _not_reassigned(run, local):
    if local.name in run.state.reassigned:
        raise Refused(local, "a copy of a hardware state bound with `let mut`")


def _as_tuple(run, e):
    """A hardware state its function returns, as `(value, took, held)`."""
    if returned_topo(run.state.returns, e) is not None:
        return run.walk(e)
    state, span = run.state.states.get(e.name) if _is_state(run, e) else None, e.span
    check_returned(state, e.name in run.state.shared if state else False, e)
    return L["Tuple"]((e, state.part(1, span), state.held_place(span)), span=span)


@lower_pins.on("Call")
def _call(run, e):
    """A call given hardware states: each is the tuple of its value, whether it took a pin and
    a reference to its `held`, which the callee's `match` clears."""
    if e.callee._prod != "Global" or e.callee.name not in run.state.sigs:
        return run.rebuild(e)
    states, args = run.state.sigs[e.callee.name], []
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
