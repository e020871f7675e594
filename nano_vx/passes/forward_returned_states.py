"""forward-returned-states: Lconstparts -> Lconstparts.

Same IL: a call of a function that gives back the hardware state it is given runs as it ran,
and its result is the state given, still in the caller's variable, so the interpreter runs
the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.hardware_states import is_state_type, params_in_returned_tuples


@dataclass
class State:
    given: dict = field(default_factory=dict)  # fn -> the index of the state it gives back
    # fn -> {an element of the tuple it returns: the index of the state it gives back there}
    in_tuples: dict = field(default_factory=dict)
    results: dict = field(default_factory=dict)  # fn -> the tuple type it returns
    fn: str | None = None  # the function walked
    names: Names | None = None


forward_returned_states = Pass("forward-returned-states", L, L, """
Make a function that returns, at every return, the hardware state parameter it is given
return nothing, and each call of it the call and then the state it was given, so that
lower-pins finds that state in the caller's variable.

`fn again(s: HardwareState<T, Topology::N>) -> HardwareState<T, Topology::N> { s }` is `fn
again(s: HardwareState<T, Topology::N>) { }`, and `let u = again(t);` is `again(t); let u =
t;`: the interpreter's call returns the very state t holds, so u is another name of it, which
shares its pin. A call bound by a `let`, assigned, returned, a block's value or a statement is
written so (name-hardware-states has put every other in a `let`), its state given by a
variable; a function with a call otherwise, or with a closure, is left as it was (lower-pins
refuses the state it returns).

A function returning a tuple literal at every return, whose element j is at each the same
state parameter, returns the tuple without those elements (the one left, or nothing, when
one or none is), and `let pair = paired(t, y);` is `let pair_rest = paired(t, y); let pair =
(t, pair_rest);`, t the variable the call gave, each call bound by a `let` or a statement
(split-state-tuples then splits `pair`).
""", state=State)


def _gives_back(fn) -> int | None:
    """The index of the state parameter `fn` returns at every return, or None."""
    if not is_state_type(fn.ret) or any(n._prod == "Closure" for n in descendants(fn.body)):
        return None
    values = [n.value for n in descendants(fn.body) if n._prod == "Return"]
    values += [fn.body.value] if fn.body.value is not None else []  # else it ends returning
    params = {p.name: i for i, p in enumerate(fn.params) if is_state_type(p.type)}
    found = {params.get(v.name) if v is not None and v._prod == "Local" else None
             for v in values}
    return found.pop() if len(found) == 1 and None not in found else None


def _gives_back_in_tuple(fn) -> dict:
    """The elements of the tuple `fn` returns that are, at every return, one state parameter:
    each element's index -> that parameter's."""
    return {j: at[0] for j, at in params_in_returned_tuples(fn).items()
            if len(set(at)) == 1 and at[0] is not None}


def _bound(node, in_tuples) -> bool:
    """`node` binds, or drops, a call of a function giving back states in its tuple, each
    given by a variable."""
    e = node.value if node._prod == "Let" else node.expr if node._prod == "ExprStmt" else None
    if e is None or e._prod != "Call" or e.callee._prod != "Global" \
            or e.callee.name not in in_tuples:
        return False
    return node._prod == "ExprStmt" or all(
        e.args[k]._prod == "Local" for k in in_tuples[e.callee.name].values())


def _placed(node):
    """The call a statement or a block gives its value, binds, assigns or returns, or None."""
    field_name = {"Let": "value", "Assign": "value", "Return": "value", "ExprStmt": "expr",
                  "Block": "value"}.get(node._prod)
    e = getattr(node, field_name) if field_name is not None else None
    return e if e is not None and e._prod == "Call" and e.callee._prod == "Global" else None


@forward_returned_states.on("Program")
def _program(run, program):
    fns = [i for i in program.items if i._prod == "Fn"]
    given = {fn.name: k for fn in fns if (k := _gives_back(fn)) is not None}
    placed = {id(c) for c in map(_placed, descendants(program)) if c is not None
              and c.callee.name in given and c.args[given[c.callee.name]]._prod == "Local"}
    calls = {id(n.callee): n for n in descendants(program) if n._prod == "Call"}
    for n in descendants(program):
        if n._prod == "Global" and id(calls.get(id(n))) not in placed:
            given.pop(n.name, None)
    run.state.given = given
    in_tuples = {fn.name: f for fn in fns if (f := _gives_back_in_tuple(fn))}
    bound = {id(n.value if n._prod == "Let" else n.expr) for n in descendants(program)
             if _bound(n, in_tuples)}
    for n in descendants(program):
        if n._prod == "Global" and id(calls.get(id(n))) not in bound:
            in_tuples.pop(n.name, None)
    run.state.in_tuples = in_tuples
    run.state.results = {fn.name: fn.ret for fn in fns if fn.name in in_tuples}
    return run.rebuild(program) if given or in_tuples else program


def _rest(ret, forwarded: dict):
    """What a function returns in place of a tuple of `ret`'s elements, those of `forwarded`
    left out: the elements left, the one left alone, or nothing."""
    left = [ty for j, ty in enumerate(ret.elems) if j not in forwarded]
    if len(left) > 1:
        return ret.replace(elems=tuple(left))
    return left[0] if left else None


def _rest_value(run, value):
    """The tuple literal a function returns, its forwarded elements left out."""
    forwarded = run.state.in_tuples[run.state.fn]
    left = [run.walk(v) for j, v in enumerate(value.elems) if j not in forwarded]
    if len(left) > 1:
        return value.replace(elems=tuple(left))
    return left[0] if left else None


def _given(run, e):
    """The state variable the call `e` gives a function that gives it back, or None."""
    if e is None or e._prod != "Call" or e.callee._prod != "Global":
        return None
    k = run.state.given.get(e.callee.name)
    return e.args[k] if k is not None else None


@forward_returned_states.on("Fn")
def _fn(run, fn):
    st = run.state
    st.fn, st.names = fn.name, Names(fn)
    if fn.name in st.in_tuples:
        body = run.walk(fn.body.replace(value=None))
        value = fn.body.value
        return fn.replace(ret=_rest(fn.ret, st.in_tuples[fn.name]), body=body.replace(
            value=_rest_value(run, value) if value is not None else None))
    if fn.name not in st.given:
        return run.rebuild(fn)
    body = run.walk(fn.body.replace(value=None))
    return fn.replace(ret=None, body=body)


@forward_returned_states.on("Let", "Assign", "Return", splice=True)
def _statement(run, node):
    st, given = run.state, _given(run, node.value)
    if node._prod == "Return" and st.fn in st.given:
        return (node.replace(value=None),)
    if node._prod == "Return" and st.fn in st.in_tuples:
        return (node.replace(value=_rest_value(run, node.value)),)
    if node._prod == "Let" and _bound(node, st.in_tuples):
        return _bind_tuple(run, node)
    if given is None:
        return (run.rebuild(node),)
    call = L["ExprStmt"](run.walk(node.value), span=node.value.span)
    return (call, node.replace(value=given))


@forward_returned_states.on("Block")
def _block(run, block):
    given = _given(run, block.value)
    walked = run.rebuild(block.replace(value=None))
    if given is None:
        return walked.replace(value=run.walk(block.value) if block.value is not None else None)
    call = L["ExprStmt"](run.walk(block.value), span=block.value.span)
    return walked.replace(stmts=(*walked.stmts, call), value=given)


def _bind_tuple(run, node) -> tuple:
    """`let pair = paired(t, y);`: the call, what it returns bound apart, then the tuple of
    the states it gave back and that."""
    st, call, span = run.state, node.value, node.value.span
    forwarded = st.in_tuples[call.callee.name]
    ret = st.results[call.callee.name]
    rest = _rest(ret, forwarded)
    walked = run.walk(call)
    if rest is None:
        before, left = (L["ExprStmt"](walked, span=span),), []
    else:
        name = st.names.fresh(f"{node.name.split('#')[0]}_rest")
        before = (L["Let"](name, False, rest, walked, span=span),)
        read = L["Local"](name, span=span)
        count = len(ret.elems) - len(forwarded)
        left = [read] if count == 1 else [L["TupleGet"](read, i, span=span)
                                           for i in range(count)]
    elems, left = [], iter(left)
    for j in range(len(ret.elems)):
        elems.append(call.args[forwarded[j]] if j in forwarded else next(left))
    return (*before, node.replace(value=L["Tuple"](tuple(elems), span=span)))
