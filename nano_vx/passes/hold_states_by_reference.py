"""hold-states-by-reference: Lconstparts -> Lheld."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts
from ..languages.lheld import Lheld as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..scalars.hardware_states import (check_static, is_state_type, is_try_pin, made_topo,
                                       mutable_locals, returned_topo, take_pin, topo_key)


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # fn -> the topology of the state it returns
    results: dict = field(default_factory=dict)  # fn -> its result type
    names: Names | None = None
    topos: dict = field(default_factory=dict)  # each state's local or parameter -> its topology
    own: dict = field(default_factory=dict)  # a `let mut` shared state -> its took, own, held
    changing: frozenset = frozenset()  # the function's `let mut` locals


hold_states_by_reference = Pass("hold-states-by-reference", Lconstparts, L, """
Bind each `let mut` copy of a hardware state, and each state an `if` chooses, with a `&mut` to
the bool that says the state it shares still holds its pin, so that matching either name gives
the pin back once (E5010 for a state chosen between two topologies).

`let u = if c { t } else { x.try_pin(T) };` is `let u_which = c;`, then `let_state u: V on T,
took u_took, held u_held = if u_which { state_part 0 of t } else { x };`, whose parts follow:
`let u_took = if u_which { state_part 1 of t } else { take_pin T of R };`, `let mut u_own =
u_took;` and `let mut u_held: &mut bool = &mut u_own;`, and `if u_which { u_held = state_part
2 of t; }`: u's pin is t's when the `if` chose t, and one of u's own cell when it made one.
`let mut u = t;` binds u to t's three parts, its `held` t's by reference, and a cell `u_own`;
`u = v;` gives it v's three parts, and `u = x.try_pin(T);` (or a call making a state) its
value and whether it took a pin, and its `held` a reference to `u_own`, which holds the new
state's. `let mut u = if ..` is chosen so too, its `took` a `let mut`, and then assigned as a
`let mut` copy is. An `else if` chain (`if a { t } else if b { s } else { x.try_pin(T) }`)
has a `which` per condition, `let u_which#1 = if u_which { false } else { b };`, each part
chosen by them in turn. lower-pins then makes every other state the values it is made of,
and reads the parts a `state_part` names.
""", state=State, requires=("model",))


@hold_states_by_reference.on("Program")
def _program(run, program):
    fns = [item for item in program.items if item._prod == "Fn"]
    run.state.returns = {fn.name: fn.ret.topo if is_state_type(fn.ret) else None for fn in fns}
    run.state.results = {fn.name: fn.ret for fn in fns}
    return run.rebuild(program)


@hold_states_by_reference.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.own, st.changing = Names(fn), {}, mutable_locals(fn)
    st.topos = {p.name: p.type.topo for p in fn.params if is_state_type(p.type)}
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _is_state(run, e) -> bool:
    return e is not None and e._prod == "Local" and e.name in run.state.topos


@hold_states_by_reference.on("Let", splice=True)
def _let(run, node):
    st, value = run.state, node.value
    if _chooses_a_state(run, value):
        return _choose(run, node, value)
    topo = _topo(run, node)
    if topo is not None:
        st.topos[node.name] = topo
        if node.mutable and _is_state(run, value):
            return _copy_into_mutable(run, node, value)
    return (node.replace(value=run.walk(value)),)


def _topo(run, node):
    """The topology of the state the `let` binds, as it makes it, or None when it binds none."""
    value, st = node.value, run.state
    if is_try_pin(value) and len(value.args) == 1 and value.args[0]._prod == "TopoRef":
        return value.args[0]
    if _is_state(run, value):
        return st.topos[value.name]
    made = returned_topo(st.returns, value)
    if made is None and is_state_type(node.type):
        return node.type.topo
    return made


def _value_type(node, span):
    return node.type.inner if is_state_type(node.type) else L["OpaqueType"](span=span)


def _parts_of(run, name: str) -> tuple:
    stem = name.split("#")[0]
    return tuple(run.state.names.fresh(f"{stem}_{part}") for part in ("took", "own", "held"))


def _part(state, i: int, span):
    return L["StatePart"](L["Local"](state.name, span=span), i, span=span)


def _local(name: str, span):
    return L["Local"](name, span=span)


def _copy_into_mutable(run, node, value) -> tuple:
    """`let mut u = t;`: u's value and whether it took a pin are t's, its `held` a `&mut` to
    t's, so that u and t share t's pin until u is assigned; a cell of u's own holds the pin
    of a state u is assigned that it makes."""
    st, span = run.state, value.span
    took, own, held = st.own[node.name] = _parts_of(run, node.name)
    boolean = L["Scalar"]("bool", span=span)
    return (L["LetState"](node.name, True, _value_type(node, span), _part(value, 0, span),
                          took, held, st.topos[value.name], span=span),
            L["Let"](took, True, boolean, _part(value, 1, span), span=span),
            L["Let"](own, True, boolean, L["Bool"](False, span=span), span=span),
            L["Let"](held, True, L["BorrowType"](boolean, True, span=span),
                     _part(value, 2, span), span=span))


@hold_states_by_reference.on("Assign", splice=True)
def _assign(run, node):
    """`u = v;` of a `let mut` copy: v's three parts; `u = x.try_pin(T);` or a call making a
    state: its value and whether it took a pin, the pin it holds in u's own cell."""
    st, target, value, span = run.state, node.target, node.value, node.span
    if target._prod != "Local" or target.name not in st.own:
        return (run.rebuild(node),)
    took, own, held = st.own[target.name]

    def assign(name, part):
        return L["Assign"](_local(name, span), "=", part, span=span)

    if _is_state(run, value):
        _same_topology(run, node, st.topos[value.name], target)
        return tuple(assign(n, _part(value, i, span))
                     for i, n in enumerate((target.name, took, held)))
    if not (is_try_pin(value) or returned_topo(st.returns, value) is not None):
        raise Refused(node, "a hardware state assigned other than a new one to a `let mut`")
    topo = made_topo(st.returns, value, st.changing)
    _same_topology(run, node, topo, target)
    cell = L["Borrow"](_local(own, span), True, span=span)
    if is_try_pin(value):
        return (assign(target.name, value.receiver),
                assign(took, take_pin(run.ctx.model, topo, span)),
                assign(own, _local(took, span)), assign(held, cell))
    # The state a call makes is a `let` of its own, whose `held` u's own cell then copies.
    made = st.names.fresh(f"{target.name.split('#')[0]}_new")
    st.topos[made] = topo
    made_local = _local(made, span)
    return (L["Let"](made, False, st.results[value.callee.name], value, span=span),
            assign(target.name, _part(made_local, 0, span)),
            assign(took, _part(made_local, 1, span)),
            assign(own, L["Deref"](_part(made_local, 2, span), span=span)),
            assign(held, cell))


def _same_topology(run, node, topo, target) -> None:
    if topo_key(topo) != topo_key(run.state.topos[target.name]):
        raise Refused(node, "a hardware state assigned one of another topology")


def _branch(block):
    """The state an `if`'s branch gives: its value, or the `try_pin` name-hardware-states
    bound to a local of its own (`{ let state = x.try_pin(T); state }`)."""
    if block is None or block.value is None or not block.stmts:
        return None if block is None else block.value
    [let], value = block.stmts if len(block.stmts) == 1 else (None,), block.value
    if let is None or let._prod != "Let" or value._prod != "Local" or value.name != let.name:
        return None
    return let.value


def _chain(e) -> tuple[list, list]:
    """The conditions of the `if` e and of its `else if`s, in order, and the state each
    branch gives (_branch), the last the final `else`'s."""
    conds, branches = [], []
    while True:
        conds.append(e.cond)
        branches.append(_branch(e.then))
        rest = e.orelse
        if rest is None or rest.stmts or rest.value is None or \
                rest.value._prod != "IfExpr" or rest.value.comptime:
            return conds, branches + [_branch(rest)]
        e = rest.value


def _chooses_a_state(run, e) -> bool:
    """`e` is an `if` choosing between states, through `else if`s too: each branch a state's
    variable or a `try_pin` of a topology written out."""
    return e is not None and e._prod == "IfExpr" and all(
        _is_state(run, b) or is_try_pin(b) and len(b.args) == 1
        and b.args[0]._prod == "TopoRef" for b in _chain(e)[1])


def _choose(run, node, e) -> tuple:
    """`let u = if c { A } else { B };`: which branch ran, and u's value and whether it took
    a pin chosen by it; its `held` a reference to the chosen state's, or to a cell of u's own
    when the branch made the state. An `else if` chain has a `which` per condition, each
    computed only where none before it held, as the `if` computes it."""
    st, span = run.state, e.span
    conds, branches = _chain(e)
    topos = [st.topos[b.name] if b._prod == "Local" else b.args[0] for b in branches]
    for topo in topos:
        check_static(topo, st.changing)
    if len({topo_key(t) for t in topos}) != 1:
        raise Refused(e, "a hardware state chosen by an `if` between two topologies")
    st.topos[node.name] = topos[0]
    stem = node.name.split("#")[0]
    whiches = [st.names.fresh(f"{stem}_which") for _ in conds]
    took, own, held = _parts_of(run, node.name)
    if node.mutable:
        # Assigned later as a `let mut` copy is: the state it is given shares its `held`.
        st.own[node.name] = took, own, held
    boolean = L["Scalar"]("bool", span=span)

    def chosen(values, upto=len(whiches)):
        """The value of `values` the first `which` of the first `upto` that holds picks, the
        last where none does."""
        picked = values[upto]
        for k in reversed(range(upto)):
            picked = L["IfExpr"](_local(whiches[k], span), False, L["Block"]((), values[k],
                                 span=span), L["Block"]((), picked, span=span), span=span)
        return picked

    values = [_part(b, 0, span) if b._prod == "Local" else run.walk(b.receiver)
              for b in branches]
    took_pins = [_part(b, 1, span) if b._prod == "Local" else take_pin(run.ctx.model, t, span)
                 for b, t in zip(branches, topos)]
    given = [L["Block"]((L["Assign"](_local(held, span), "=", _part(b, 2, span), span=span),),
                        None, span=span) if b._prod == "Local" else None for b in branches]
    no = [L["Bool"](False, span=span)] * len(conds)
    lets = (*(L["Let"](which, False, boolean, chosen(no[:k] + [run.walk(cond)], k), span=span)
              for k, (which, cond) in enumerate(zip(whiches, conds))),
            L["LetState"](node.name, node.mutable, _value_type(node, span), chosen(values),
                          took, held, topos[0], span=span),
            L["Let"](took, node.mutable, boolean, chosen(took_pins), span=span),
            L["Let"](own, True, boolean, _local(took, span), span=span),
            L["Let"](held, True, L["BorrowType"](boolean, True, span=span),
                     L["Borrow"](_local(own, span), True, span=span), span=span))
    if given == [None] * len(given):
        return lets
    held_given = given[-1]
    for k in reversed(range(len(whiches))):
        statement = L["If"](_local(whiches[k], span), False,
                            given[k] or L["Block"]((), None, span=span), held_given, span=span)
        held_given = L["Block"]((statement,), None, span=span)
    return (*lets, statement)

