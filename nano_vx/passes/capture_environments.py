"""capture-environments: Lscalars -> Lscalars."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lscalars import Lscalars as L
from ..nanopass import Pass, descendants
from ..scalars.closures import binder_types, bound_in, direct_closures, returned_closures, \
    visible_at_assignments, visible_at_lets, zero


@dataclass
class State:
    makers: dict = field(default_factory=dict)  # a maker -> (closure, copied, outs, cells)
    given: dict = field(default_factory=dict)  # a maker -> {parameter's position: copied}
    params: dict = field(default_factory=dict)  # a maker -> its parameters' names
    kept: dict = field(default_factory=dict)  # a local bound to a maker's call -> its copies
    typed: dict = field(default_factory=dict)  # such a local -> its type, environment passed
    cells: set = field(default_factory=set)  # the copies the values change, lent to each call
    renamed: dict = field(default_factory=dict)  # in a returned closure: variable -> its copy
    types: dict = field(default_factory=dict)  # the function's locals -> their types
    taken: set = field(default_factory=set)  # the names of its locals
    held: dict = field(default_factory=dict)  # a copy -> the type of the variable it copies
    assigned: set = field(default_factory=set)  # the locals the function assigns
    visible: dict = field(default_factory=dict)  # id(assignment or let) -> locals in scope
    apart: dict = field(default_factory=dict)  # an assigned f -> [(its copy, `at`, cells)]


capture_environments = Pass("capture-environments", L, L, """
Give a closure returned from the closure around it, whose variables it reads, a copy of them
made with it: its environment, passed at each call of it.

lift-closures reads a closure's variables where it is called, but those of the closure that
made it are over once that call returns (the interpreter keeps its frame). type-scalars
admitted such a closure only where the copy reads what the frame would hold: it is the value
of a closure `m` bound by a `let` and only called, it reads scalar parameters and `let`s of
m's body, and each call of m is the value of a `let f` (or of an assignment to such an f) of
an f otherwise only called. What m's body does to them is over once it returns the closure,
and nothing else reaches its frame after that.
m then takes a `&mut` for each variable after its parameters and stores the variable there
as it returns; the closure takes the copy after its parameters and reads it instead;
`let f = m(a);` becomes `let mut c = 0; let f = m(a, &mut c);`, an assignment `f = m(b);`
`f = m(b, &mut c);`, and each `f(x)` `f(x, c)`. A variable the closure assigns or lends
`&mut` (a counter's) is one cell every call of the value reads as the last call left it, as
the interpreter's frame is: f is only called where c is in scope, so c is that cell, and the
closure takes `&mut c`, each `f(x)` becoming `f(x, &mut c)`, and its uses of the variable
`*c` (a `&mut` of it c itself). Another call of m, or an assignment to f, makes another
value with another cell (or the same c refilled, the value it held gone with f's old value).
`let g = f;` (neither assigned) names the same value: each `g(x)` passes f's copies, so both
names count in one cell, as in the interpreter they share one frame. When f is assigned (each
assignment in the function's own body or in the closure binding each copy, or in closures a
`let` binds and only calls inside those, seeing every copy, or in one called only before the
copies are bound, which fills c anew alone), a copy g keeps the value f
held: it copies what the value only reads, and numbers the cell it calls with, 0 for f's c
until the first assignment to f in g's scope moves what c holds into a cell of g's own
before it fills c anew (`if at == 0 { c1 = c; at = 1; }`), each `g(x)` becoming `g(x, if at
== 0 { &mut c } else { &mut c1 })`. The copies in scope there still sharing c hold one
value: the first of them takes the cell, the others its number (`if at2 == 0 { if at == 0
{ at2 = 1; } else { .. } }`); a copy of a copy passes the cells the copy passes. A number
rather than a reference held in a variable: a closure assigning f would assign that
variable, which lift-closures would pass as a reference to a reference.
""", state=State)


@capture_environments.on("Fn")
def _fn(run, fn):
    st = run.state
    returned = returned_closures(fn)
    if not returned:
        return fn
    st.types, st.kept, st.typed = binder_types(fn), {}, {}
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.cells, st.held, st.apart = set(), {}, {}
    st.assigned = {n.target.name for n in descendants(fn)
                   if n._prod == "Assign" and n.target._prod == "Local"}
    st.visible = {**visible_at_assignments(fn), **visible_at_lets(fn)}
    closures = {id(n): n for n in descendants(fn) if n._prod == "Closure"}
    direct = direct_closures(fn)
    st.makers, st.given, st.params = {}, {}, {}
    for key, (maker, env, cells, given) in returned.items():
        tensors = [v for v in given if st.types[v]._prod == "TensorType"]
        copied = [v for v in env if v not in tensors]
        st.makers[maker] = (closures[key], env, copied, [_fresh(st, v) for v in copied], cells)
        st.params[maker] = [p.name for p in direct[maker].params]
        st.given[maker] = {st.params[maker].index(v): v for v in tensors}
    return run.rebuild(fn)


def _fresh(st: State, name: str) -> str:
    return unused_name(display_name(name), st.taken)


def _signature(ty, env_types):
    """A closure value's type with its environment's types after its parameters."""
    return ty.replace(params=ty.params + tuple(env_types))


def _env_types(st: State, env, cells, span) -> list:
    """The types a value's environment is passed as: a cell's a `&mut` of it."""
    return [L["BorrowType"](st.types[v], True, span=span) if v in cells else st.types[v]
            for v in env]


def _passed(st: State, copies, span) -> tuple:
    """A value's environment at a call of it: each copy, a cell lent, a cell a copy of an
    assigned variable holds the one its number says (`_apart`)."""
    return tuple(_chosen_cell(*c, span) if isinstance(c, tuple) else
                 L["Borrow"](L["Local"](c, span=span), True, span=span) if c in st.cells
                 else L["Local"](c, span=span) for c in copies)


def _chosen_cell(at: str, cells: list, span):
    """`&mut` of the cell numbered by `at` of cells (number, cell): `if at == 0 { &mut n }
    else { &mut n1 }`."""
    *tested, (_, last) = cells
    chosen = L["Borrow"](L["Local"](last, span=span), True, span=span)
    for k, cell in reversed(tested):
        chosen = L["IfExpr"](_is(at, k, span), False, L["Block"]((), L["Borrow"](
            L["Local"](cell, span=span), True, span=span), span=span),
            L["Block"]((), chosen, span=span), span=span)
    return chosen


def _is(at: str, k: int, span):
    return L["Binary"]("==", "i32", L["Local"](at, span=span), L["Int"](k, "i32", span=span),
                       span=span)


@capture_environments.on("Let", splice=True)
def _let(run, let):
    st, value = run.state, let.value
    if let.name in st.makers:
        return (_maker(run, let),)
    if value._prod == "Local" and value.name in st.kept and value.name in st.assigned:
        return _apart(st, let)
    if value._prod == "Local" and value.name in st.kept:
        # `let g = f;`: the same value, called with f's copies (its cells shared).
        st.kept[let.name] = st.kept[value.name]
        st.typed[let.name] = st.typed[value.name]
        return (let.replace(type=st.typed[value.name]),)
    if value._prod == "Call" and value.callee._prod == "Local" and value.callee.name in st.makers:
        _, env, copied, _, cells = st.makers[value.callee.name]
        copies = [_fresh(st, v) for v in env]
        st.kept[let.name] = copies
        st.held.update({c: st.types[v] for c, v in zip(copies, env)})
        st.cells |= {c for c, v in zip(copies, env) if v in cells}
        span = let.span
        made = [L["Let"](c, True, st.types[v], zero(st.types[v], span), span=span)
                for c, v in zip(copies, env) if v in copied]
        binds, call = _given(run, value, dict(zip(env, copies)), let.name in st.assigned)
        ty = st.typed[let.name] = _signature(let.type, _env_types(st, env, cells, span))
        return (*made, *binds, let.replace(type=ty, value=call))
    return (run.rebuild(let),)


def _given(run, call, copies: dict, again: bool | None) -> tuple:
    """A call of a maker: each tensor parameter the value reads and neither closure changes
    holds what the call gives it, so its argument is bound to its copy (a `let`, mutable
    where the value's variable is assigned `again`; None: that assignment, which assigns
    the copy), and the call lends each other copy to be stored through. The arguments
    before it are bound first where they may do something, so that they run in order."""
    st, span = run.state, call.span
    maker, args = call.callee.name, list(run.walk_seq(call.args))
    params, given = st.params[maker], st.given[maker]
    binds = []
    for k, arg in enumerate(args[:max(given, default=-1) + 1]):
        v = given.get(k)
        if v is None and arg._prod in ("Local", "Int", "Float", "Bool"):
            continue
        name = copies[v] if v is not None else _fresh(st, params[k])
        if v is not None and again is None:
            binds.append(L["Assign"](L["Local"](name, span=span), "=", arg, span=span))
        else:
            binds.append(L["Let"](name, bool(again) and v is not None, st.types[params[k]],
                                  arg, span=span))
        args[k] = L["Local"](name, span=span)
    lent = tuple(L["Borrow"](L["Local"](copies[v], span=span), True, span=span)
                 for v in st.makers[maker][2])
    return binds, call.replace(args=tuple(args) + lent)


def _apart(st: State, let) -> tuple:
    """`let g = f;` of an f assigned another value later: g calls the same value, sharing its
    cells until f is assigned, then keeps them. So g holds a copy of each value f's copies
    hold (the value changes none) and, for each cell, a number `at`: 0 while it shares f's,
    then k, the k-th copy of f's cell of its own, which an assignment to f in g's scope first
    moves what the cell holds into (`_moves`). Each call of g lends the cell `at` numbers,
    of f's and of the copies of f in scope at g's `let` (a copy's number is never one out
    of scope there, whose `let` no assignment sees beside g's)."""
    g, f, span = let.name, let.value.name, let.span
    parts = st.apart.setdefault(f, [])
    seen = [(k, theirs) for k, (other, _, theirs) in enumerate(parts, 1)
            if other in st.visible[id(let)]]
    at = unused_name("at", st.taken) if any(c in st.cells for c in st.kept[f]) else None
    made, passed, cells = [], [], []
    for copy in st.kept[f]:
        ty, mine = st.held[copy], _fresh(st, copy)
        if copy not in st.cells:
            made.append(L["Let"](mine, False, ty, L["Local"](copy, span=span), span=span))
            passed.append(mine)
            continue
        made.append(L["Let"](mine, True, ty, zero(ty, span), span=span))
        passed.append((at, [(0, copy)] + [(k, theirs[len(cells)][1]) for k, theirs in seen]
                       + [(len(parts) + 1, mine)]))
        cells.append((copy, mine))
    st.kept[g], st.typed[g] = passed, st.typed[f]
    if at is None:  # the value changes nothing: g's copies are all it needs
        return (*made, let.replace(type=st.typed[f]))
    parts.append((g, at, cells))
    number = L["Let"](at, True, L["Scalar"]("i32", span=span), L["Int"](0, "i32", span=span),
                      span=span)
    return (number, *made, let.replace(type=st.typed[f]))


def _moves(parts, span) -> tuple:
    """What an assignment to f does first for the copies of f in scope there (`_apart`'s, in
    the order bound, each with its number k): each still sharing f's cells (its `at` 0) holds
    the value f holds, so the first of them moves each cell into its own and the others
    number that one, as the interpreter's copies of one value share its frame; none shares
    f's cells after. The last is seen to first, so that each sees the `at`s of those before
    it as they were."""
    def local(name):
        return L["Local"](name, span=span)

    def assign(name, value):
        return L["Assign"](local(name), "=", value, span=span)

    def block(stmts):
        return L["Block"](tuple(stmts), None, span=span)

    def number(k):
        return L["Int"](k, "i32", span=span)

    stmts = []
    for i, (k, at, cells) in reversed(list(enumerate(parts))):
        taken = block([*(assign(mine, local(copy)) for copy, mine in cells),
                       assign(at, number(k))])
        for first, their_at, _ in reversed(parts[:i]):
            taken = block([L["If"](_is(their_at, 0, span), False,
                                   block([assign(at, number(first))]), taken, span=span)])
        stmts.append(L["If"](_is(at, 0, span), False, taken, None, span=span))
    return tuple(stmts)


def _maker(run, let):
    """The closure that makes the returned one: it stores each variable the returned closure
    reads through the `&mut` it is given, and returns the closure taking them."""
    st, maker = run.state, let.value
    closure, env, copied, outs, cells = st.makers[let.name]
    span = closure.span
    types = [st.types[v] for v in copied]
    passed = _env_types(st, env, cells, span)
    copies = [_fresh(st, v) for v in env]
    around = st.renamed  # a maker inside a returned closure reads that closure's copies too
    st.renamed = {**around, **dict(zip(env, copies))}
    st.cells |= {c for c, v in zip(copies, env) if v in cells}
    inner = closure.replace(
        params=run.walk_seq(closure.params) + tuple(
            L["Param"](c, t, span=span) for c, t in zip(copies, passed)),
        body=run.walk(closure.body))
    st.renamed = around
    stores = tuple(L["Assign"](L["Deref"](L["Local"](o, span=span), span=span), "=",
                               L["Local"](v, span=span), span=span) for o, v in zip(outs, copied))
    walked = run.walk(maker.body.replace(value=None))  # its `let`s spliced
    body = walked.replace(stmts=walked.stmts + stores, value=inner)
    out_types = [L["BorrowType"](t, True, span=span) for t in types]
    outer = maker.replace(
        params=run.walk_seq(maker.params) + tuple(
            L["Param"](o, t, span=span) for o, t in zip(outs, out_types)),
        ret=_signature(maker.ret, passed), body=body)
    ty = let.type.replace(params=let.type.params + tuple(out_types),
                          ret=_signature(let.type.ret, passed))
    return let.replace(type=ty, value=outer)


@capture_environments.on("Assign", splice=True)
def _assign(run, node):
    """`f = m(a);`, f bound by a `let` to a call of m: the call fills f's copies anew, once a
    copy of f in scope has taken the cells it shared with f."""
    st, value, target = run.state, node.value, node.target
    copies = st.kept.get(target.name) if target._prod == "Local" else None
    if copies is None or value._prod != "Call":
        return (run.rebuild(node),)
    span = node.span
    parts = [(k, at, cells) for k, (g, at, cells) in enumerate(st.apart.get(target.name, ()), 1)
             if g in st.visible[id(node)]]
    kept = _moves(parts, span) if parts else ()
    env = st.makers[value.callee.name][1]
    binds, call = _given(run, value, dict(zip(env, copies)), None)
    return (*kept, *binds, node.replace(value=call))


@capture_environments.on("Call")
def _call(run, call):
    callee = call.callee
    copies = run.state.kept.get(callee.name) if callee._prod == "Local" else None
    if copies is None:
        return run.rebuild(call)
    span = call.span
    return call.replace(args=run.walk_seq(call.args) + _passed(run.state, copies, span))


@capture_environments.on("Borrow")
def _borrow(run, node):
    """`&mut n` of a cell in the value: the reference the value is given."""
    st, value = run.state, node.value
    copy = st.renamed.get(value.name) if value._prod == "Local" else None
    if copy in st.cells and node.mutable:
        return value.replace(name=copy)
    return run.rebuild(node)


@capture_environments.on("Local")
def _local(run, local):
    st = run.state
    copy = st.renamed.get(local.name)
    if copy is None:
        return local
    if copy in st.cells:
        return L["Deref"](local.replace(name=copy), span=local.span)
    return local.replace(name=copy)
