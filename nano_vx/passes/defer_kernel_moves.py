"""defer-kernel-moves: Lparted -> Lparted.

Same IL: the launcher's variable is moved by a `transfer` of the same destination and span
as the kernel's, so a read of it after the launch stops as it stopped, with the same
message, and the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import is_tensor, strip
from ..scalars.closures import bound_in
from ..scalars.kernel_moves import (at_tensor, checked_reads, lent_tensor, moving,
                                   moving_sites, unread_after_moves)


@dataclass
class State:
    flagged: dict = field(default_factory=dict)  # kernel -> its flagged parameters' indices
    sites: dict = field(default_factory=dict)  # id() of each site's transfer -> its number
    closed: set = field(default_factory=set)  # id() of each such transfer in a closure
    reached: dict = field(default_factory=dict)  # (kernel, index) -> the sites (`let`s and
    # closures) its flag numbers: its own, then those of the kernels it gives its parameter
    mine: dict = field(default_factory=dict)  # the walked function's flagged parameters ->
    # their flags
    types: dict = field(default_factory=dict)  # those parameters -> the tensor types
    stops: dict = field(default_factory=dict)  # those parameters -> (number, message) of the
    # stop of a read after each move their flag numbers
    taken: set = field(default_factory=set)  # the walked function's names
    checks: dict = field(default_factory=dict)  # id() of each statement of the walked
    # function reading a flagged parameter's tensor first after a move -> the checks before it


defer_kernel_moves = Pass("defer-kernel-moves", L, L, """
Make a kernel's move of a tensor its launch lends it `&mut` of a move of a copy, numbered in
a flag the launch lends it too, and the launcher move its variable after the launch when
the flag says the kernel's move is the last thing that happened to it.

A `spawn` body that assigns a tensor of its launcher whole and moves it is such a kernel
(outline-kernels gives it `&mut t`, its move `transfer(*t, ..)`), which
return-kernel-tensors cannot make return its tensor: the tensor is moved. Each
`let a = transfer(*t, M);` is `*t_moved = n; let t_sent = *t; let a = transfer(t_sent, M);`
(n numbering the moves of the program), each `*t = v;` is followed by `*t_moved = 0;`, a
kernel it launches that it lends `t` is lent `t_moved` too, and `launch k(&mut t)` is
`let mut t_moved: i32 = 0; launch k(&mut t, &mut t_moved);` followed by
`if t_moved == n { let _ = transfer(t, M); }` for each move n the flag numbers: the
interpreter's launch moved the launcher's `t` where the kernel moved `*t`, and after it
nothing but a closure of the launcher reads it, whose read stops with the message that
names the kernel's `transfer`. A closure of the kernel whose block's value moves `*t`
numbers its move the same way, in its block, after `if *t_moved == m { halt E9004 }` for
each move m the flag numbers: called again, its read of `*t` stops where the interpreter's
does, naming where `t` moved. It is done for a kernel launched once by a
statement (a `let`'s value or its own), lent a variable or a reference, that moves `*t`
only as a `let`'s value or a closure's, where nothing can read `*t` after a move (the copy
leaves it readable, where the interpreter stops: `scalars/kernel_moves.py`; a loop around
a call of the moving closure is read only where the call's block assigns `*t` after it
before anything leaves the block, so a later turn reads what it was given) but a
statement reading `*t` first, names and literals before it (`s = s + (*t)[0];`, as
hold-operands-before-kernel-moved-reads makes one computing something else first), which
`if *t_moved == n { halt E9004 }` for each move n precedes, the halt at that read, and
whose launches lending `t` are of such kernels; others stay as they are.
""", state=State)


@defer_kernel_moves.on("Program")
def _program(run, program):
    st = run.state
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    launches = [n for n in descendants(program) if n._prod == "Launch"]
    named = {n.name for n in descendants(program) if n._prod == "Global"}
    stated = {id(s.expr if s._prod == "ExprStmt" else s.value) for s in descendants(program)
              if s._prod in ("ExprStmt", "Let", "Assign")}
    once = {name for name in fns if sum(n.kernel == name for n in launches) == 1} - named
    given = {n.kernel: n for n in launches if n.kernel in once and id(n) in stated}
    cands = {(name, i) for name in given for i, p in enumerate(fns[name].params)
             if _movable(fns[name], p, given[name].args[i])}
    lends = {key: _lends(fns[key[0]], fns[key[0]].params[key[1]]) for key in cands}
    own = {key: moving_sites(fns[key[0]], fns[key[0]].params[key[1]]) for key in cands}
    while True:  # a kernel giving its tensor to one that may not number its moves
        out = {key for key in cands if not lends[key] <= cands}
        if not out:
            break
        cands -= out
    moved = _closure({key for key in cands if own[key]}, cands,
                      lambda key: {k for k in cands if key in lends[k]})
    # A kernel given a tensor by value numbers its moves only where its launcher does.
    flagged = _closure({key for key in moved if lent_tensor(fns[key[0]].params[key[1]])},
                       cands, lambda key: lends[key])
    for name, i in sorted(flagged):
        st.flagged.setdefault(name, []).append(i)
    number = 0
    for key in sorted(flagged):
        for s in own[key]:
            number += 1
            st.sites[id(moving(s))] = number
    st.closed = {id(n) for c in descendants(program) if c._prod == "Closure"
                 for n in descendants(c.body) if id(n) in st.sites}

    def reached(key):
        return own[key] + [s for k in sorted(lends[key]) for s in reached(k)]

    st.reached = {key: reached(key) for key in flagged}
    return run.rebuild(program)


def _closure(start: set, within: set, step) -> set:
    """start, with what `step` reaches from it within `within`, again until nothing is new."""
    found, todo = set(start), list(start)
    while todo:
        for key in step(todo.pop()) & within - found:
            found.add(key)
            todo.append(key)
    return found


def _movable(fn, param, arg) -> bool:
    """Whether fn's moves of the tensor `param` may be numbered in a flag: one lent it (the
    variable or the reference given on) or given by value the place a reference names."""
    if fn.on is None or not (
            lent_tensor(param) and (arg._prod == "Borrow" and arg.value._prod == "Local"
                              or arg._prod == "Local")
            or is_tensor(param.type) and arg._prod == "Deref" and arg.value._prod == "Local"):
        return False
    sites = {id(moving(s)) for s in moving_sites(fn, param)}
    return unread_after_moves(fn, param) and not any(
        n._prod == "Transfer" and at_tensor(n.value, param.name, lent_tensor(param))
        and id(n) not in sites
        for n in descendants(fn.body))


def _lends(fn, param) -> set:
    """The (kernel, index) of each launch of fn's body given the tensor of `param`, or the
    reference itself."""
    return {(n.kernel, j) for n in descendants(fn.body) if n._prod == "Launch"
            for j, a in enumerate(n.args) if getattr(_base(a), "name", None) == param.name}


@defer_kernel_moves.on("Fn")
def _fn(run, fn):
    st = run.state
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    indices = st.flagged.get(fn.name, [])
    st.mine = {fn.params[i].name: unused_name(f"{display_name(fn.params[i].name)}_moved",
                                              st.taken) for i in indices}
    st.types = {fn.params[i].name: strip(fn.params[i].type).inner if lent_tensor(fn.params[i])
                else fn.params[i].type for i in indices}
    st.stops = {}
    for i in indices:
        name = fn.params[i].name
        st.stops[name] = [(st.sites[id(m)], f"use of '{display_name(name)}' after it moved "
                           f"to Memory::{m.dest.name} at {m.span}")
                          for m in map(moving, st.reached[(fn.name, i)])]
    st.checks = {}
    for i in indices:
        for at, reads in checked_reads(fn, fn.params[i]).items():
            st.checks[at] = st.checks.get(at, ()) + _stops(st, fn.params[i].name, reads[0].span)
    span = fn.span
    flags = tuple(L["Param"](st.mine[fn.params[i].name],
                             L["BorrowType"](L["Scalar"]("i32", span=span), True, span=span),
                             span=span) for i in indices)
    fn = run.rebuild(fn)
    return fn.replace(params=fn.params + flags) if flags else fn


def _set(flag: str, number: int, span):
    return L["Assign"](L["Deref"](L["Local"](flag, span=span), span=span), "=",
                       L["Int"](number, span=span), span=span)


@defer_kernel_moves.on("Let", splice=True)
def _let(run, s):
    if id(s.value) in run.state.sites:
        *before, value = _sent(run.state, s.value, s.span)
        return (*before, s.replace(value=value))
    return _checked(run, s, _launched(run, s, s.value))


@defer_kernel_moves.on("Closure")
def _moving_closure(run, e):
    """A closure whose value moves the tensor: its block's statements number the move."""
    body = e.body
    if body.value is None or id(body.value) not in run.state.sites:
        return run.rebuild(e)
    *before, value = _sent(run.state, body.value, body.value.span)
    body = run.walk(body.replace(value=None))
    return e.replace(body=body.replace(stmts=body.stmts + tuple(before), value=value))


def _sent(st, move, span) -> tuple:
    """The statements stopping, in a closure, where t's flag says it moved (the closure
    called again reads it: E9004), numbering the move `transfer(*t, M)` in t's flag and
    copying `*t`, then the move of the copy."""
    p = _base(move.value).name
    sent = unused_name(f"{display_name(p)}_sent", st.taken)
    return (*(_stops(st, p, move.value.span) if id(move) in st.closed else ()),
            _set(st.mine[p], st.sites[id(move)], span),
            L["Let"](sent, False, st.types[p], move.value, span=span),
            move.replace(value=L["Local"](sent, span=span)))


def _stops(st, p: str, at) -> tuple:
    """`if *p_moved == n { halt E9004 }` for each move n p's flag numbers: a read of `*p` at
    `at` after that move stops, naming where it was."""
    flag = L["Deref"](L["Local"](st.mine[p], span=at), span=at)
    return tuple(L["If"](L["Binary"]("==", flag, L["Int"](n, span=at), span=at), False, L["Block"](
        (L["Halt"]("E9004", message, span=at),), None, span=at), None, span=at)
        for n, message in st.stops[p])


def _checked(run, s, done) -> tuple:
    """done, what the statement s becomes, after the checks of the flag of the tensor s reads
    first where a move may have come before (`checked_reads`)."""
    return (*run.state.checks.get(id(s), ()), *(done if isinstance(done, tuple) else (done,)))


@defer_kernel_moves.on("ExprStmt", splice=True)
def _stmt(run, s):
    return _checked(run, s, _launched(run, s, s.expr))


@defer_kernel_moves.on("If", "Return", splice=True)
def _checked_stmt(run, s):
    return _checked(run, s, run.rebuild(s))


@defer_kernel_moves.on("Assign", splice=True)
def _assign(run, s):
    """An assignment of the tensor clears its flag, after what the launch it may be the
    value of moves."""
    base = _base(s.target) if s.op == "=" else None
    done = _checked(run, s, _launched(run, s, s.value))
    if base is not None and base.name in run.state.mine:
        return (*done, _set(run.state.mine[base.name], 0, s.span))
    return done


def _base(e):
    """The local e names, lends or reads through; None for another place."""
    e = e.value if e._prod == "Borrow" else e
    e = e.value if e._prod == "Deref" else e
    return e if e._prod == "Local" else None


def _launched(run, s, e):
    """A launch lending flags: a root's declared before it and read after it, where the
    launcher moves its variable as the kernel's move did."""
    st = run.state
    if e._prod != "Launch" or e.kernel not in st.flagged:
        return run.rebuild(s)
    span, before, after, flags = s.span, [], [], []
    for j in st.flagged[e.kernel]:
        arg = e.args[j]
        base = _base(arg)
        if base is not None and base.name in st.mine:
            flags.append(L["Local"](st.mine[base.name], span=span))
            continue
        place = arg.value if arg._prod == "Borrow" else L["Deref"](arg, span=span)
        flag = unused_name(f"{display_name(_base(arg).name)}_moved", st.taken)
        before.append(L["Let"](flag, True, L["Scalar"]("i32", span=span), L["Int"](0, span=span),
                               span=span))
        flags.append(L["Borrow"](L["Local"](flag, span=span), True, span=span))
        for site in st.reached[(e.kernel, j)]:
            move = moving(site)
            cond = L["Binary"]("==", L["Local"](flag, span=span),
                               L["Int"](st.sites[id(move)], span=span), span=span)
            moved = site.replace(name=unused_name("_", st.taken), value=move.replace(
                value=place)) if site._prod == "Let" else L["ExprStmt"](
                    move.replace(value=place), span=move.span)
            after.append(L["If"](cond, False, L["Block"]((moved,), None, span=span), None,
                                 span=span))
    s = run.rebuild(s)
    e = s.expr if s._prod == "ExprStmt" else s.value
    e = e.replace(args=e.args + tuple(flags))
    s = s.replace(expr=e) if s._prod == "ExprStmt" else s.replace(value=e)
    return (*before, s, *after)
