"""lower-pins: Lheld -> Ltaken."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lheld import Lheld
from ..languages.ltaken import Ltaken as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..scalars.hardware_states import (HeldState, check_static, chosen_params, is_state_type,
                                       is_try_pin, made_topo, mutable_locals,
                                       params_given_back, returned_topo, returned_tuples,
                                       state_params, take_pin, topo_key)


@dataclass
class State:
    sigs: dict = field(default_factory=dict)  # fn -> its state parameters' indices
    returns: dict = field(default_factory=dict)  # fn -> the topology of the state it returns
    tuples: dict = field(default_factory=dict)  # fn -> the tuple holding states it returns
    # fn -> {an element of the tuple it returns: the state parameter it gives back there at
    # some returns}
    given_back: dict = field(default_factory=dict)
    allowed: set = field(default_factory=set)  # the calls of those that bind or read them
    held_tuples: dict = field(default_factory=dict)  # a local bound one -> {index: HeldState}
    names: Names | None = None
    states: dict = field(default_factory=dict)  # local -> its HeldState
    ret: object = None  # the function's result type (None in a closure)
    fn: str = ""  # the function walked
    fn_params: list = field(default_factory=list)  # its parameters' names
    open: list = field(default_factory=list)  # the states whose `Available` arms are walked
    changing: frozenset = frozenset()  # the function's `let mut` locals
    reassigned: set = field(default_factory=set)  # its states bound with `let mut`
    shared: set = field(default_factory=set)  # its `let mut` states bound by `LetState`
    held_values: dict = field(default_factory=dict)  # a local bound or assigned a `held`
    # reference (a `let_state`'s) -> the values it is given
    # a state an `if` chose that a return gives back where the function flags the parameter
    # it may be -> that parameter
    beside: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)  # its `held` -> (the parameter, the bool that
    # says its `held` is that parameter's)


lower_pins = Pass("lower-pins", Lheld, L, """
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
a state returns the tuple `(value, took, held)`, which the `let` of its call takes apart; one
returning a tuple holding states returns each so, `(s, 1)` as `((s, s_took, s_held), 1)`, and
the `let pair` of its call is followed by `let`s of each state's `took` and `held`, read from
the tuple, which `let u = pair.0;` then names (`let u = pair.0.0;`). An element that is at
some returns the state parameter the function is given holds a fourth value, whether it is
(`(s.0, s.1, false, true)` there), and the caller's `held` of it is a `&mut` to its own or,
when it is, to the `held` of the variable it gave, so that either name gives the pin back
once; a function returning such a tuple through a call is given the flag by the callee,
where the call gives the same element the state parameter the function gives back there;
given there a state of its own, which dies with it, the element holds that state's `held`
where the flag says it is it (one an `if` chose among states of its own alike, its `held` a
reference to one of theirs), and an element the callee does not flag is never the
function's parameter there (its flag `false`). A state an `if` chose (or a `let mut` copy)
between the parameter and states of its own, which a return gives back where its function
flags that parameter, has a flag of its own, `u_given`, set beside each `held` it is given:
returned in the tuple it is `(u, u_took, *u_held, u_given)`, and given to such a call the
element is the parameter where the callee's flag and `u_given` both say so. A
`let_state` (hold-states-by-reference's `let mut` copy or state an `if` chooses) binds a state
whose `held` is the `&mut bool` its function computes, and a `state_part` of a state is one of
its three values (its `held` by reference); an assignment of such a `let mut` state's value
is left as it is. A `let mut s` state's three are `let mut`s, and `s = x.try_pin(T);` assigns
each (the state it replaced keeps its pin, as in the interpreter). A `let mut` state is
refused copied by another name, which would see the state assigned after it, or assigned in
the `Available` arm of a `match` on it (halt-state-prints has made a `print` of a state
the interpreter's stop). A hardware state used otherwise (in a tuple other than returned,
a parameter's or a chosen one returned, a tuple holding one used whole or its state read
other than by a `let`) is refused, and so is a topology whose index is computed in place or
is a `let mut`.
""", state=State, requires=("model",))


@lower_pins.on("Program")
def _program(run, program):
    fns = [item for item in program.items if item._prod == "Fn"]
    run.state.sigs = {fn.name: state_params(fn) for fn in fns}
    run.state.returns = {fn.name: fn.ret.topo if is_state_type(fn.ret) else None for fn in fns}
    run.state.tuples = {fn.name: fn.ret for fn in fns if _state_indices(fn.ret)}
    # At the other returns such an element is a state of the function's own, so the caller
    # learns with it which it is (a flag beside its parts).
    run.state.given_back = params_given_back(fns)
    return run.rebuild(program)


@lower_pins.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.states, st.open, st.ret = Names(fn), {}, [], fn.ret
    st.fn, st.fn_params = fn.name, [p.name for p in fn.params]
    st.reassigned, st.shared, st.held_tuples = set(), set(), {}
    st.changing = mutable_locals(fn)
    st.held_values, st.flags = {}, {}
    st.beside = _chosen_given_back(st, fn)
    for n in descendants(fn.body):
        if n._prod == "Let" or n._prod == "Assign" and n.target._prod == "Local":
            st.held_values.setdefault(n.name if n._prod == "Let" else n.target.name,
                                      []).append(n.value)
    try:
        for p in fn.params:
            if is_state_type(p.type):
                check_static(p.type.topo)
                st.states[p.name] = HeldState(None, None, p.name, p.type.topo, True)
        if not (is_state_type(fn.ret) or _state_indices(fn.ret)):
            return run.rebuild(fn)
        for ty in (fn.ret, *getattr(fn.ret, "elems", ())):
            if is_state_type(ty):
                check_static(ty.topo)
        body = fn.body
        walked = run.walk(body.replace(value=None))
        before, value = _returned(run, body.value) if body.value is not None else ((), None)
        return fn.replace(ret=_spread(fn.ret, st.given_back.get(fn.name, ())),
                          body=walked.replace(stmts=walked.stmts + before, value=value))
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _chosen_given_back(st: State, fn) -> dict:
    """The states an `if` chose beside one state parameter that a return gives back where the
    function flags that parameter (as a tuple's element, or to a call flagging it): each ->
    that parameter."""
    given_back, chosen = st.given_back.get(fn.name, {}), chosen_params(fn)
    found = {}
    for v in returned_tuples(fn) or ():
        if v is not None and v._prod == "Tuple":
            pairs = [(j, v.elems[j]) for j in given_back if j < len(v.elems)]
        elif v is not None and v._prod == "Call" and v.callee._prod == "Global":
            pairs = [(j, v.args[k]) for j, k in st.given_back.get(v.callee.name, {}).items()
                     if j in given_back and k < len(v.args)]
        else:
            continue
        for j, x in pairs:
            param = fn.params[given_back[j]].name
            if x._prod == "Local" and chosen.get(x.name) == {param}:
                found[x.name] = param
    return found


def _state_indices(ty) -> frozenset:
    """The elements of a tuple type that are hardware states."""
    if ty is None or ty._prod != "TupleType":
        return frozenset()
    return frozenset(i for i, t in enumerate(ty.elems) if is_state_type(t))


def _spread(ty, flagged=()):
    """The type of what native code holds for a value of type `ty`: a hardware state (or
    each a tuple holds) as its value, whether it took a pin and whether it holds it, and for
    the elements of `flagged`, whether it is the state parameter given back."""
    boolean = L["Scalar"]("bool", span=ty.span)
    if is_state_type(ty):
        return L["TupleType"]((ty.inner, boolean, boolean), span=ty.span)

    def element(j, t):
        if not is_state_type(t):
            return t
        parts = _spread(t)
        return parts.replace(elems=parts.elems + (boolean,)) if j in flagged else parts
    return ty.replace(elems=tuple(element(j, t) for j, t in enumerate(ty.elems)))


def _tuple_call(run, e) -> bool:
    """`e` calls a function returning a tuple that holds hardware states."""
    return e is not None and e._prod == "Call" and e.callee._prod == "Global" \
        and e.callee.name in run.state.tuples


def _returned(run, e) -> tuple:
    """What a function returning a state, or a tuple holding states, returns: the statements
    computing it and its value, each state as `(value, took, held)`."""
    ret = run.state.ret
    if is_state_type(ret):
        return (), _as_tuple(run, e)
    if not _state_indices(ret):
        return (), run.walk(e)
    given_back = run.state.given_back.get(run.state.fn, {})
    if _tuple_call(run, e):
        run.state.allowed.add(id(e))
        return _passed_on(run, e, given_back)
    if e._prod != "Tuple" or len(e.elems) != len(ret.elems):
        raise Refused(e, "a tuple holding a hardware state returned other than as a tuple "
                         "literal or a call")
    return (), e.replace(elems=tuple(
        _flagged(run, x, given_back[j]) if j in given_back else
        _as_tuple(run, x) if is_state_type(t) else run.walk(x)
        for j, (x, t) in enumerate(zip(e.elems, ret.elems))))


def _passed_on(run, e, given_back: dict) -> tuple:
    """A call's tuple returned on. An element the callee flags (it is at some returns the
    state the call gives it) keeps its flag where the function flags it with the parameter
    the call gives there; given a state of the function's own, which dies with it, the
    element holds that state's `held` when the flag says it is that state; and an element
    the function flags that the callee does not is never its parameter here."""
    st = run.state
    callee = st.given_back.get(e.callee.name, {})
    given = {j: st.states[e.args[k].name] for j, k in callee.items() if _is_state(run, e.args[k])}
    kept = {j for j, state in given.items()
            if j in given_back and state.param == st.fn_params[given_back[j]]}
    if kept == callee.keys() == given_back.keys():
        return (), run.walk(e)
    own = {j: state for j, state in given.items() if j not in kept and
           state.param is None and (not state.by_ref or _own_held(st, state))}
    beside = {j: state for j, state in given.items() if j in given_back and j not in kept
              and _beside(st, state, st.fn_params[given_back[j]])}
    if kept | own.keys() | beside.keys() != callee.keys():
        raise Refused(e, "a tuple returned through a call giving back in it a state held by "
                         "reference other than the parameter its function gives back there")
    span, boolean = e.span, L["Scalar"]("bool", span=e.span)
    made = st.names.fresh(f"{e.callee.name}_returned")
    before = [L["Let"](made, False, _spread(st.tuples[e.callee.name], callee), run.walk(e),
                       span=span)]
    elems = []
    for j, t in enumerate(st.ret.elems):
        element = L["TupleGet"](L["Local"](made, span=span), j, span=span)
        if j in kept or not is_state_type(t):
            elems.append(element)
            continue
        parts = [L["TupleGet"](element, i, span=span) for i in range(3)]
        flag = (L["Bool"](False, span=span),) if j in given_back else ()
        if j in own or j in beside:
            state = own.get(j) or beside[j]
            held = st.names.fresh(f"{e.callee.name}_returned_{j}_held")
            give = [L["Assign"](L["Local"](held, span=span), "=", state.held_place(span),
                                span=span)]
            before.append(L["Let"](held, True, boolean, parts[2], span=span))
            if j in beside:
                # The state given is the parameter where its own flag says so.
                gave = st.names.fresh(f"{e.callee.name}_returned_{j}_given")
                before.append(L["Let"](gave, True, boolean, flag[0], span=span))
                give.append(L["Assign"](L["Local"](gave, span=span), "=",
                                        L["Local"](st.flags[state.held][1], span=span),
                                        span=span))
                flag = (L["Local"](gave, span=span),)
            before.append(L["If"](L["TupleGet"](element, 3, span=span), False,
                                  L["Block"](tuple(give), None, span=span), None, span=span))
            parts[2] = L["Local"](held, span=span)
        elems.append(L["Tuple"]((*parts, *flag), span=span))
    return tuple(before), L["Tuple"](tuple(elems), span=span)


def _own_held(st: State, state, param=None) -> bool:
    """A state an `if` chose whose `held` refers only to bools of its function's own: one
    of its own, or a state's not given to it (which die with it, as a state of its own),
    or else the `held` of the state parameter `param`."""
    def own(v):
        if v._prod == "Borrow":
            return v.value._prod == "Local" and v.value.name not in st.states
        held = st.states.get(v.state.name) if v._prod == "StatePart" and v.part == 2 and \
            v.state._prod == "Local" else None
        return held is not None and (held.param is None and not held.by_ref
                                     or param is not None and held.param == param)
    values = st.held_values.get(state.held)
    return bool(values) and all(map(own, values))


def _beside(st: State, state, param: str) -> bool:
    """`state` is one an `if` chose beside the state parameter `param`, whose flag says
    which it is, and otherwise among states of its function's own."""
    return state.held in st.flags and st.flags[state.held][0] == param \
        and _own_held(st, state, param)


def _flagged(run, e, k: int):
    """An element of the tuple a function returns that is at some returns the state
    parameter k: `(value, took, held, true)` of that parameter, whose `held` its caller
    has, else the state's own and `false`."""
    span, st = e.span, run.state
    param = st.fn_params[k]
    if _is_state(run, e) and st.states[e.name].param == param:
        state = st.states[e.name]
        return L["Tuple"]((_value(run, e), state.part(1, span), L["Bool"](False, span=span),
                           L["Bool"](True, span=span)), span=span)
    if _is_state(run, e) and _beside(st, st.states[e.name], param):
        state = st.states[e.name]
        return L["Tuple"]((e, state.part(1, span), state.held_place(span),
                           L["Local"](st.flags[state.held][1], span=span)), span=span)
    own = _as_tuple(run, e)
    if own._prod != "Tuple":
        raise Refused(e, "a hardware state returned other than as a variable where its "
                         "function's parameter may be")
    return own.replace(elems=own.elems + (L["Bool"](False, span=span),))


def _bind_tuple(run, node) -> tuple:
    """`let pair = f(..);` of a tuple holding states: each state's `took` and `held` are
    `let`s of their own, read from the tuple, and a `let` of its element another name of it."""
    st, value, span = run.state, node.value, node.value.span
    st.allowed.add(id(value))
    ret = st.tuples[value.callee.name]
    given_back = st.given_back.get(value.callee.name, {})
    ty = _spread(node.type, given_back) if _state_indices(node.type) else node.type
    lets, elements = [L["Let"](node.name, node.mutable, ty, run.walk(value), span=node.span)], {}
    stem, boolean = node.name.split("#")[0], L["Scalar"]("bool", span=span)
    for i in sorted(_state_indices(ret)):
        took, held = (st.names.fresh(f"{stem}_{i}_{part}") for part in ("took", "held"))
        element = L["TupleGet"](L["Local"](node.name, span=span), i, span=span)
        lets += [L["Let"](took, False, boolean, L["TupleGet"](element, 1, span=span), span=span),
                 L["Let"](held, True, boolean, L["TupleGet"](element, 2, span=span), span=span)]
        elements[i] = HeldState(took, held, None, ret.elems[i].topo)
        if i in given_back:
            ref = st.names.fresh(f"{stem}_{i}_held_ref")
            lets += _shared(run, element, held, ref, value.args[given_back[i]])
            elements[i] = HeldState(took, ref, None, ret.elems[i].topo, True)
    st.held_tuples[node.name] = elements
    return tuple(lets)


def _shared(run, element, held: str, ref: str, given) -> list:
    """The `let`s that make the `held` of an element a function returns the reference to the
    caller's when it gave back the state parameter (`given`, the caller's variable), else to
    the element's own: `let mut held_ref = &mut held; if pair.0.3 { held_ref = &mut t_held; }`
    (a `let mut` variable, which the element would not see assigned, is refused)."""
    _not_reassigned(run, given)
    span = element.span
    boolean = L["Scalar"]("bool", span=span)
    gave = L["TupleGet"](element, 3, span=span)
    share = L["Assign"](L["Local"](ref, span=span), "=",
                        run.state.states[given.name].held_ref(span), span=span)
    return [L["Let"](ref, True, L["BorrowType"](boolean, True, span=span),
                     L["Borrow"](L["Local"](held, span=span), True, span=span), span=span),
            L["If"](gave, False, L["Block"]((share,), None, span=span), None, span=span)]


def _element_state(run, e):
    """The state `e` reads from a tuple `_bind_tuple` bound, or None."""
    if e is None or e._prod != "TupleGet" or e.base._prod != "Local":
        return None
    return run.state.held_tuples.get(e.base.name, {}).get(e.index)


@lower_pins.on("TupleGet")
def _tuple_get(run, e):
    """An element of a tuple holding states that is no state, read from it."""
    if e.base._prod != "Local" or e.base.name not in run.state.held_tuples:
        return run.rebuild(e)
    if _element_state(run, e) is not None:
        raise Refused(e, "a hardware state read from a tuple other than by a `let`")
    return e


def _makes_a_state(run, e) -> bool:
    return is_try_pin(e) or returned_topo(run.state.returns, e) is not None


@lower_pins.on("Let", "Return", splice=True)
def _statement(run, node):
    value = node.value
    if node._prod == "Return":
        before, value = ((), None) if value is None else _returned(run, value)
        return (*before, node.replace(value=value))
    if _tuple_call(run, value):
        return _bind_tuple(run, node)
    if node.name in run.state.flags:
        return (node.replace(value=run.walk(value)), _given(run, node, node.name))
    element = _element_state(run, value)
    if element is not None:
        # Another name of the state the tuple holds, as the interpreter's element is.
        run.state.states[node.name] = element
        value_type = node.type.inner if is_state_type(node.type) \
            else L["OpaqueType"](span=value.span)
        return (L["Let"](node.name, False, value_type,
                         L["TupleGet"](value, 0, span=value.span), span=value.span),)
    if not (_makes_a_state(run, value) or _is_state(run, value)):
        return (node.replace(value=run.walk(value)),)
    ty = node.type if is_state_type(node.type) else None
    return _bind(run, node.name, ty, value, node.mutable)


@lower_pins.on("LetState", splice=True)
def _let_state(run, node):
    """A state whose `held` is the `&mut bool` bound after it: its value is the local."""
    st = run.state
    st.states[node.name] = HeldState(node.took, node.held, None, node.topo, True)
    if node.name in st.beside:
        st.flags[node.held] = (st.beside[node.name],
                               st.names.fresh(f"{node.name.split('#')[0]}_given"))
    if node.mutable:
        st.reassigned.add(node.name)
        st.shared.add(node.name)
    return (L["Let"](node.name, node.mutable, node.type, run.walk(node.value), span=node.span),)


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
    if target._prod == "Local" and target.name in st.flags:
        return (run.rebuild(node), _given(run, node, target.name))
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


def _given(run, node, held: str):
    """Beside a `let` or an assignment of the `held` of a state an `if` chose, the same of
    the bool that says it is the parameter's."""
    param, flag = run.state.flags[held]
    value, span = node.value, node.span
    given = L["Bool"](value._prod == "StatePart" and value.state._prod == "Local"
                      and value.state.name == param, span=span)
    if node._prod == "Let":
        return L["Let"](flag, True, L["Scalar"]("bool", span=span), given, span=span)
    return L["Assign"](L["Local"](flag, span=span), "=", given, span=span)


def _not_reassigned(run, local):
    if local.name in run.state.reassigned:
        raise Refused(local, "a copy of a hardware state bound with `let mut`")


def _as_tuple(run, e):
    """A hardware state its function returns, as `(value, took, held)`."""
    if returned_topo(run.state.returns, e) is not None:
        return run.walk(e)
    if not _is_state(run, e):
        raise Refused(e, "a hardware state returned other than as a variable or a call")
    state, span = run.state.states[e.name], e.span
    if state.by_ref:
        raise Refused(e, "a hardware state given to its function returned" if state.param
                      else "a `let mut` copy of a hardware state returned"
                      if e.name in run.state.shared
                      else "a hardware state chosen by an `if` returned")
    return L["Tuple"]((e, state.part(1, span), state.held_place(span)), span=span)


@lower_pins.on("Call")
def _call(run, e):
    """A call given hardware states: each is the tuple of its value, whether it took a pin and
    a reference to its `held`, which the callee's `match` clears."""
    if _tuple_call(run, e) and id(e) not in run.state.allowed:
        raise Refused(e, "a tuple holding a hardware state a call returns used other than "
                         "bound by a `let` or read by its elements")
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


@lower_pins.on("ExprStmt")
def _expr_stmt(run, node):
    if _tuple_call(run, node.expr):
        run.state.allowed.add(id(node.expr))  # a tuple holding states dropped keeps its pins
    return run.rebuild(node)


@lower_pins.on("Local")
def _local(run, e):
    if e.name in run.state.states:
        raise Refused(e, "a hardware state used other than matched, bound, passed or returned")
    if e.name in run.state.held_tuples:
        raise Refused(e, "a tuple holding a hardware state used other than by its elements")
    return e


@lower_pins.on("MethodCall")
def _method(run, e):
    if e.method == "try_pin":
        raise Refused(e, "`try_pin` other than bound by a `let` or matched")
    return run.rebuild(e)
