"""lower-state-tuples: Lheld -> Lread."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lheld import Lheld
from ..languages.lread import Lread as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..scalars.hardware_states import (HeldState, check_returned, check_static, chosen_params,
                                       chosen_sources, is_state_type, is_try_pin, params_given_back,
                                       returned_topo, returned_tuples, spread, state_indices)


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # fn -> the topology of the state it returns
    tuples: dict = field(default_factory=dict)  # fn -> the tuple holding states it returns
    # fn -> {an element of the tuple it returns: the state parameters it gives back there at
    # some returns}
    given_back: dict = field(default_factory=dict)
    allowed: set = field(default_factory=set)  # the calls of those that bind or read them
    held_tuples: dict = field(default_factory=dict)  # a local bound one -> {index: HeldState}
    names: Names | None = None
    # local -> what kind of state it is (its `took` and `held` named only where this pass or
    # hold-states-by-reference binds them: lower-pins names the others)
    states: dict = field(default_factory=dict)
    ret: object = None  # the function's result type (None in a closure)
    fn: str = ""  # the function walked
    fn_params: list = field(default_factory=list)  # its parameters' names
    shared: set = field(default_factory=set)  # its `let mut` states bound by `LetState`
    held_values: dict = field(default_factory=dict)  # a local bound or assigned a `held`
    # reference (a `let_state`'s) -> the values it is given
    # a state an `if` chose that a return gives back where the function flags the parameters
    # it may be -> those parameters
    beside: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)  # its `held` -> {each parameter: the bool that
    # says its `held` is that parameter's}


lower_state_tuples = Pass("lower-state-tuples", Lheld, L, """
Write a tuple holding hardware states that a function returns as one holding each state's
values, and the `let` of its call as `let`s of each state's parts, so that lower-pins finds
every state such a tuple holds in a variable (E5010 for such a tuple used otherwise).

A function returning a tuple holding states returns each as its value, whether it took a
pin and whether it still holds it, read where it stands: `(s, 1)` is `((state_read 0 of s,
state_read 1 of s, state_read 2 of s), 1)`, which lower-pins writes `((s, s_took, s_held),
1)`; the tuple a call returns is returned on as it is. The `let pair` of its call is
followed by `let`s of each state's `took` and `held`, read from the tuple, and `let u =
pair.0;` binds the state `u` of those parts: `let_element u: i32 on Topology::NPU, took
pair_0_took, held pair_0_held = pair.0.0;`. An element that is at some returns a state
parameter the function is given holds a fourth value per such parameter, whether it is that
one (`(state_read 0 of s, state_read 1 of s, false, true)` there), and the caller's `held`
of it is a `&mut` to its own or, when it is one, to the `held` of the variable it gave for
it (`state_part 2 of t`), so that either name gives the pin back once (`let_element` binds
it `held &mut`); a function
returning such a tuple through a call is given the flag by the callee, where the call gives
the same element the state parameter the function gives back there; given there a state of
its own, which dies with it, the element holds that state's `held` where the flag says it is
it (one an `if` chose among states of its own alike, its `held` a reference to one of
theirs), and an element the callee does not flag is never the function's parameter there
(its flag `false`). A state an `if` chose (or a `let mut` copy) between parameters and
states of its own, which a return gives back where its function flags those parameters,
has a flag of its own per parameter, `u_given`, set beside each `held` it is given:
returned in the tuple it is its three values and those flags, and given to such a call the
element is a parameter where the callee's flag and the state's for it both say so. A tuple holding states returned other than as a
tuple literal or a call, one such a call returns used other than bound by a `let`, returned
or dropped, a state read from it other than by a `let`, or the tuple used whole, is
refused, and so is a state returned in it that the function was given, an `if` chose or a
`let mut` copies (but as above, and one an `if` chose beside another chosen state that the
parameters are flagged for, whose flags its own copy where it is given that one's `held`).
""", state=State)


@lower_state_tuples.on("Program")
def _program(run, program):
    fns = [item for item in program.items if item._prod == "Fn"]
    run.state.returns = {fn.name: fn.ret.topo if is_state_type(fn.ret) else None for fn in fns}
    run.state.tuples = {fn.name: fn.ret for fn in fns if state_indices(fn.ret)}
    # At the other returns such an element is a state of the function's own, so the caller
    # learns with it which it is (a flag beside its parts).
    run.state.given_back = params_given_back(fns)
    return run.rebuild(program)


@lower_state_tuples.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.states, st.ret = Names(fn), {}, fn.ret
    st.fn, st.fn_params = fn.name, [p.name for p in fn.params]
    st.shared, st.held_tuples, st.held_values, st.flags = set(), {}, {}, {}
    st.beside = _chosen_given_back(st, fn)
    for n in descendants(fn.body):
        if n._prod == "Let" or n._prod == "Assign" and n.target._prod == "Local":
            st.held_values.setdefault(n.name if n._prod == "Let" else n.target.name,
                                      []).append(n.value)
    try:
        for p in fn.params:
            if is_state_type(p.type):
                st.states[p.name] = HeldState(None, None, p.name, p.type.topo, True)
        if not state_indices(fn.ret):
            return run.rebuild(fn)
        for ty in fn.ret.elems:
            if is_state_type(ty):
                check_static(ty.topo)
        body = fn.body
        walked = run.walk(body.replace(value=None))
        before, value = _returned(run, body.value) if body.value is not None else ((), None)
        return fn.replace(ret=spread(fn.ret, st.given_back.get(fn.name, ())),
                          body=walked.replace(stmts=walked.stmts + before, value=value))
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _chosen_given_back(st: State, fn) -> dict:
    """The states an `if` chose beside state parameters that a return gives back where the
    function flags those parameters (as a tuple's element, or to a call flagging it): each
    -> those parameters."""
    given_back, chosen = st.given_back.get(fn.name, {}), chosen_params(fn)
    found = {}
    for v in returned_tuples(fn) or ():
        if v is not None and v._prod == "Tuple":
            pairs = [(j, v.elems[j]) for j in given_back if j < len(v.elems)]
        elif v is not None and v._prod == "Call" and v.callee._prod == "Global":
            pairs = [(j, v.args[k]) for j, ks in st.given_back.get(v.callee.name, {}).items()
                     if j in given_back for k in ks if k < len(v.args)]
        else:
            continue
        for j, x in pairs:
            params = [fn.params[k].name for k in given_back[j]]
            _add_chosen(found, x.name if x._prod == "Local" else None, params, chosen,
                        chosen_sources(fn))
    return found


def _add_chosen(found: dict, name, params: list, chosen: dict, sources: dict) -> None:
    """The state `name` -> those of `params` it may be, where it may be only those, and so
    each state an `if` chose whose `held` its own is given (`let w = if c { u } else { .. }`
    of a u chosen between parameters): their flags make its own."""
    if name is None or name in found or not chosen.get(name) or \
            not chosen[name] <= set(params):
        return
    found[name] = tuple(p for p in params if p in chosen[name])
    for source in sorted(sources.get(name, ())):
        _add_chosen(found, source, params, chosen, sources)


def _tuple_call(run, e) -> bool:
    """`e` calls a function returning a tuple that holds hardware states."""
    return e is not None and e._prod == "Call" and e.callee._prod == "Global" \
        and e.callee.name in run.state.tuples


def _returned(run, e) -> tuple:
    """What a function returning a tuple holding states returns: the statements computing
    it and its value, each state as its three values."""
    ret = run.state.ret
    if not state_indices(ret):
        return (), run.walk(e)
    given_back = run.state.given_back.get(run.state.fn, {})
    if _tuple_call(run, e):
        run.state.allowed.add(id(e))
        return _passed_on(run, e, given_back)
    if e._prod != "Tuple" or len(e.elems) != len(ret.elems):
        raise Refused(e, "a tuple holding a hardware state returned other than as a tuple "
                         "literal or a call")
    return (), e.replace(elems=tuple(
        _flagged(run, x, [run.state.fn_params[k] for k in given_back[j]]) if j in given_back
        else
        _as_tuple(run, x) if is_state_type(t) else run.walk(x)
        for j, (x, t) in enumerate(zip(e.elems, ret.elems))))


def _passed_on(run, e, given_back: dict) -> tuple:
    """A call's tuple returned on. An element the callee flags (it is at some returns one of
    the states the call gives it) keeps its flags where the function flags it with the
    parameters the call gives there; given a state of the function's own, which dies with
    it, the element holds that state's `held` when the flag says it is that state; and an
    element the function flags that the callee does not is never its parameter here."""
    st = run.state
    callee = st.given_back.get(e.callee.name, {})
    mine = {j: [st.fn_params[k] for k in ks] for j, ks in given_back.items()}
    args = {j: [e.args[k] for k in ks] for j, ks in callee.items()}
    states = {j: [st.states[a.name] if _is_state(run, a) else None for a in xs]
              for j, xs in args.items()}
    kept = {j for j, xs in states.items() if None not in xs and
            [x.param for x in xs] == mine.get(j)}
    if kept == callee.keys() == given_back.keys():
        return (), run.walk(e)
    kinds = {j: [_kind(st, x, mine.get(j, [])) for x in xs] for j, xs in states.items()}
    if any(None in ks for j, ks in kinds.items() if j not in kept):
        raise Refused(e, "a tuple returned through a call giving back in it a state held by "
                         "reference other than the parameter its function gives back there")
    span, boolean = e.span, L["Scalar"]("bool", span=e.span)
    made = st.names.fresh(f"{e.callee.name}_returned")
    before = [L["Let"](made, False, spread(st.tuples[e.callee.name], callee), run.walk(e),
                       span=span)]
    elems = []
    for j, t in enumerate(st.ret.elems):
        element = L["TupleGet"](L["Local"](made, span=span), j, span=span)
        if j in kept or not is_state_type(t):
            elems.append(element)
            continue
        parts = [L["TupleGet"](element, i, span=span) for i in range(3)]
        flags = [L["Bool"](False, span=span) for _ in mine.get(j, ())]
        if j in callee:
            held = st.names.fresh(f"{e.callee.name}_returned_{j}_held")
            before.append(L["Let"](held, True, boolean, parts[2], span=span))
            gave = [] if set(kinds[j]) == {"own"} else \
                [st.names.fresh(f"{e.callee.name}_returned_{j}_given") for _ in mine[j]]
            before += [L["Let"](g, True, boolean, f, span=span) for g, f in zip(gave, flags)]
            for m, (local, state, kind) in enumerate(zip(args[j], states[j], kinds[j])):
                give = [] if kind == "param" else [L["Assign"](
                    L["Local"](held, span=span), "=", L["StateRead"](local, 2, span=span),
                    span=span)]
                # The state given is each parameter where it is, or its own flag says so.
                for p, g in zip(mine.get(j, ()), gave):
                    given = L["Bool"](state.param == p, span=span) if kind == "param" else \
                        L["Local"](st.flags[state.held][p], span=span) \
                        if kind == "beside" and p in st.flags[state.held] else \
                        L["Bool"](False, span=span)
                    give.append(L["Assign"](L["Local"](g, span=span), "=", given, span=span))
                before.append(L["If"](L["TupleGet"](element, 3 + m, span=span), False,
                                      L["Block"](tuple(give), None, span=span), None,
                                      span=span))
            parts[2] = L["Local"](held, span=span)
            flags = [L["Local"](g, span=span) for g in gave] or flags
        elems.append(L["Tuple"]((*parts, *flags), span=span))
    return tuple(before), L["Tuple"](tuple(elems), span=span)


def _kind(st: State, state, params: list):
    """What a state a call is given is, where the callee may give it back in its tuple and
    the function flags `params` there: one of those parameters, a state of its own (or one
    an `if` chose among such), one an `if` chose beside them (`beside`), else None."""
    if state is None:
        return None
    if state.param is not None:
        return "param" if state.param in params else None
    if not state.by_ref or _own_held(st, state):
        return "own"
    return "beside" if params and _beside(st, state, params) else None


def _own_held(st: State, state, params=(), seen=frozenset()) -> bool:
    """A state an `if` chose whose `held` refers only to bools of its function's own: one
    of its own, or a state's not given to it (which die with it, as a state of its own),
    or else the `held` of one of the state parameters `params`, or of another state an `if`
    chose that refers only to those (flagged among `params` where it may be one)."""
    def own(v):
        if v._prod == "Borrow":
            return v.value._prod == "Local" and v.value.name not in st.states
        held = st.states.get(v.state.name) if v._prod == "StatePart" and v.part == 2 and \
            v.state._prod == "Local" else None
        if held is not None and held.param is None and held.by_ref and \
                held.held in st.held_values and held.held not in seen:
            # one that may be a parameter only where its flags say so (_given reads them)
            inner = seen | {state.held}
            return _own_held(st, held, (), inner) or held.held in st.flags and \
                set(st.flags[held.held]) <= set(params) and _own_held(st, held, params, inner)
        return held is not None and (held.param is None and not held.by_ref
                                     or held.param is not None and held.param in params)
    values = st.held_values.get(state.held)
    return bool(values) and all(map(own, values))


def _beside(st: State, state, params) -> bool:
    """`state` is one an `if` chose beside state parameters among `params`, whose flags say
    which it is, and otherwise among states of its function's own."""
    return state.held in st.flags and set(st.flags[state.held]) <= set(params) \
        and _own_held(st, state, params)


def _flagged(run, e, params: list):
    """An element of the tuple a function returns that is at some returns one of the state
    parameters `params`: its value, whether it took a pin, `false` and, for each of those,
    whether it is that parameter, whose `held` its caller has, else the state's own and
    `false` for each."""
    span, st = e.span, run.state
    if _is_state(run, e) and st.states[e.name].param in params:
        return L["Tuple"]((*_parts(e, 2), L["Bool"](False, span=span),
                           *(L["Bool"](p == st.states[e.name].param, span=span)
                             for p in params)), span=span)
    if _is_state(run, e) and _beside(st, st.states[e.name], params):
        flags = st.flags[st.states[e.name].held]
        return L["Tuple"]((*_parts(e, 3), *(
            L["Local"](flags[p], span=span) if p in flags else L["Bool"](False, span=span)
            for p in params)), span=span)
    own = _as_tuple(run, e)
    if own._prod != "Tuple":
        raise Refused(e, "a hardware state returned other than as a variable where its "
                         "function's parameter may be")
    return own.replace(elems=own.elems + tuple(L["Bool"](False, span=span) for _ in params))


def _parts(local, count: int) -> tuple:
    """The first `count` of the state's value, whether it took a pin and whether it still
    holds it, read where it stands."""
    return tuple(L["StateRead"](local, i, span=local.span) for i in range(count))


def _as_tuple(run, e):
    """A hardware state its function returns in a tuple, as its three values."""
    if returned_topo(run.state.returns, e) is not None:
        return run.walk(e)
    state = run.state.states.get(e.name) if e._prod == "Local" else None
    check_returned(state, e.name in run.state.shared if state else False, e)
    return L["Tuple"](_parts(e, 3), span=e.span)


def _is_state(run, e) -> bool:
    return e is not None and e._prod == "Local" and e.name in run.state.states


def _bind_tuple(run, node) -> tuple:
    """`let pair = f(..);` of a tuple holding states: each state's `took` and `held` are
    `let`s of their own, read from the tuple, and a `let` of its element another name of it."""
    st, value, span = run.state, node.value, node.value.span
    st.allowed.add(id(value))
    ret = st.tuples[value.callee.name]
    given_back = st.given_back.get(value.callee.name, {})
    ty = spread(node.type, given_back) if state_indices(node.type) else node.type
    lets, elements = [L["Let"](node.name, node.mutable, ty, run.walk(value), span=node.span)], {}
    stem, boolean = node.name.split("#")[0], L["Scalar"]("bool", span=span)
    for i in sorted(state_indices(ret)):
        took, held = (st.names.fresh(f"{stem}_{i}_{part}") for part in ("took", "held"))
        element = L["TupleGet"](L["Local"](node.name, span=span), i, span=span)
        lets += [L["Let"](took, False, boolean, L["TupleGet"](element, 1, span=span), span=span),
                 L["Let"](held, True, boolean, L["TupleGet"](element, 2, span=span), span=span)]
        elements[i] = HeldState(took, held, None, ret.elems[i].topo)
        if i in given_back:
            ref = st.names.fresh(f"{stem}_{i}_held_ref")
            lets += _shared(element, held, ref, [value.args[k] for k in given_back[i]])
            elements[i] = HeldState(took, ref, None, ret.elems[i].topo, True)
    st.held_tuples[node.name] = elements
    return tuple(lets)


def _shared(element, held: str, ref: str, givens: list) -> list:
    """The `let`s that make the `held` of an element a function returns the reference to the
    caller's when it gave back a state parameter (`givens`, the caller's variables), else
    to the element's own: `let mut held_ref = &mut held; if pair.0.3 { held_ref = state_part
    2 of t; }` (lower-pins refuses a `let mut` variable, which the element would not see
    assigned)."""
    span = element.span
    boolean = L["Scalar"]("bool", span=span)
    return [L["Let"](ref, True, L["BorrowType"](boolean, True, span=span),
                     L["Borrow"](L["Local"](held, span=span), True, span=span), span=span),
            *(L["If"](L["TupleGet"](element, 3 + m, span=span), False, L["Block"](
                (L["Assign"](L["Local"](ref, span=span), "=",
                             L["StatePart"](given, 2, span=span), span=span),), None,
                span=span), None, span=span) for m, given in enumerate(givens))]


def _element_state(run, e):
    """The state `e` reads from a tuple `_bind_tuple` bound, or None."""
    if e is None or e._prod != "TupleGet" or e.base._prod != "Local":
        return None
    return run.state.held_tuples.get(e.base.name, {}).get(e.index)


@lower_state_tuples.on("TupleGet")
def _tuple_get(run, e):
    """An element of a tuple holding states that is no state, read from it."""
    if e.base._prod != "Local" or e.base.name not in run.state.held_tuples:
        return run.rebuild(e)
    if _element_state(run, e) is not None:
        raise Refused(e, "a hardware state read from a tuple other than by a `let`")
    return e


@lower_state_tuples.on("Let", "Return", splice=True)
def _statement(run, node):
    st, value = run.state, node.value
    if node._prod == "Return":
        before, value = ((), None) if value is None else _returned(run, value)
        return (*before, node.replace(value=value))
    if _tuple_call(run, value):
        return _bind_tuple(run, node)
    element = _element_state(run, value)
    if element is not None:
        # Another name of the state the tuple holds, as the interpreter's element is.
        st.states[node.name] = element
        value_type = node.type.inner if is_state_type(node.type) \
            else L["OpaqueType"](span=value.span)
        return (L["LetElement"](node.name, value_type,
                                L["TupleGet"](value, 0, span=value.span), element.took,
                                element.held, element.by_ref, element.topo, span=value.span),)
    if is_try_pin(value) or returned_topo(st.returns, value) is not None:
        st.states[node.name] = HeldState(None, None, None, None)
    elif _is_state(run, value):
        st.states[node.name] = st.states[value.name]
    walked = node.replace(value=run.walk(value))
    return (walked, *_given(run, node, node.name)) if node.name in st.flags else (walked,)


@lower_state_tuples.on("LetState")
def _let_state(run, node):
    st = run.state
    st.states[node.name] = HeldState(node.took, node.held, None, node.topo, True)
    if node.mutable:
        st.shared.add(node.name)
    if node.name in st.beside:
        st.flags[node.held] = {param: st.names.fresh(f"{node.name.split('#')[0]}_given")
                               for param in st.beside[node.name]}
    return run.rebuild(node)


@lower_state_tuples.on("Assign", splice=True)
def _assign(run, node):
    target = node.target
    if target._prod == "Local" and target.name in run.state.flags:
        return (run.rebuild(node), *_given(run, node, target.name))
    return (run.rebuild(node),)


def _given(run, node, held: str) -> tuple:
    """Beside a `let` or an assignment of the `held` of a state an `if` chose, the same of
    each bool that says it is a parameter's."""
    st, value, span = run.state, node.value, node.span
    source = st.states.get(value.state.name) if value._prod == "StatePart" and \
        value.state._prod == "Local" else None
    # the `held` of another state an `if` chose: whether it is the parameter is its flag's
    flags = st.flags.get(source.held, {}) if source is not None and source.held else {}
    out = []
    for param, flag in st.flags[held].items():
        given = L["Local"](flags[param], span=span) if param in flags else \
            L["Bool"](value._prod == "StatePart" and value.state._prod == "Local"
                      and value.state.name == param, span=span)
        out.append(L["Let"](flag, True, L["Scalar"]("bool", span=span), given, span=span)
                   if node._prod == "Let" else
                   L["Assign"](L["Local"](flag, span=span), "=", given, span=span))
    return tuple(out)


@lower_state_tuples.on("Call")
def _call(run, e):
    if _tuple_call(run, e) and id(e) not in run.state.allowed:
        raise Refused(e, "a tuple holding a hardware state a call returns used other than "
                         "bound by a `let` or read by its elements")
    return run.rebuild(e)


@lower_state_tuples.on("Closure")
def _closure(run, node):
    # A `return` in a closure returns the closure's value, not the function's tuple.
    st = run.state
    outer, st.ret = st.ret, None
    try:
        return run.rebuild(node)
    finally:
        st.ret = outer


@lower_state_tuples.on("ExprStmt")
def _expr_stmt(run, node):
    if _tuple_call(run, node.expr):
        run.state.allowed.add(id(node.expr))  # a tuple holding states dropped keeps its pins
    return run.rebuild(node)


@lower_state_tuples.on("Local")
def _local(run, e):
    if e.name in run.state.held_tuples:
        raise Refused(e, "a tuple holding a hardware state used other than by its elements")
    return e
