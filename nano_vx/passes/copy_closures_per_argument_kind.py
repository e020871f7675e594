"""copy-closures-per-argument-kind: Lpinned -> Lpinned.

Same IL: a copy of a closure, bound beside it, reads what it reads where it is called, so
each call computes what it computed, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, direct_closures, with_copies

_FUNCTION, _CLOSURE = "function", "closure"


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions: a `Global` naming one is a value
    callee: dict = field(default_factory=dict)  # id() of a call -> the copy it calls
    told: dict = field(default_factory=dict)  # a parameter every call gives one kind -> it
    copies: dict = field(default_factory=dict)  # a closure's local -> its copies' names
    taken: set = field(default_factory=set)  # the names of the function's locals


copy_closures_per_argument_kind = Pass("copy-closures-per-argument-kind", L, L, """
Give a closure a `let` binds and that is only called, one of whose parameters named other
than as a callee its calls give a function at one and a closure at another, a copy of its own
per kind, bound after it, each call calling the copy of its arguments' kinds, so that
halt-closure-prints knows which kind each parameter holds where it prints or compares it.

`let show = |h, y: i32| { print(h); }; show(|a: i32| a, 2); show(add, 1);` binds `let
show_function = |h#1, y#1: i32| { print(h#1); };` after `show`, and the second call is
`show_function(add, 1)`: the interpreter names each `function` or `closure`. An argument's
kind is known when it is a closure written there, a function named, a local a `let` (not
`mut`) binds to either, or a parameter of such a closure every call of which gives it one
kind (`let pass = |g, y: i32| show(g, y); pass(add, 1);`: g is a function); a closure one of
whose calls gives another is left as it is. A copy's calls give the kinds its own calls give
its parameters, so the copies are made again on the output until none is needed: `pass`
given both kinds is copied, then `show`, which the two copies give one kind each.
""", state=State)


@copy_closures_per_argument_kind.on("Program")
def _program(run, program):
    run.state.fns = frozenset(item.name for item in program.items if item._prod == "Fn")
    while (copied := run.rebuild(program)) is not program:
        program = copied
    return program


@copy_closures_per_argument_kind.on("Fn")
def _fn(run, fn):
    st = run.state
    st.callee, st.copies = {}, {}
    bound = {n.name: n.value for n in descendants(fn) if n._prod == "Let" and not n.mutable}
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    closures = direct_closures(fn)
    st.told = _told(st, bound, calls, closures)
    for name, closure in closures.items():
        named = _named(closure)
        given = {id(call): [_kind(st, bound, a) if p.name in named else None
                            for p, a in zip(closure.params, call.args)]
                 for call in calls if call.callee.name == name}
        # The parameters some call gives a closure or a function: every call must tell which.
        held = {k for each in given.values() for k, kind in enumerate(each) if kind}
        kinds = {i: tuple(each[k] for k in sorted(held)) for i, each in given.items()}
        if any(None in k for k in kinds.values()) or len(set(kinds.values())) < 2:
            continue
        first, *others = dict.fromkeys(kinds.values())
        copies = {k: unused_name("_".join([display_name(name), *k]), st.taken) for k in others}
        st.copies[name] = list(copies.values())
        st.callee.update((i, copies[k]) for i, k in kinds.items() if k != first)
    return run.rebuild(fn) if st.callee else fn


def _told(st, bound: dict, calls, closures: dict) -> dict:
    """Each parameter of the closures every call of which gives it an argument of one known
    kind -> that kind, found until none is added: an argument may be such a parameter."""
    st.told = {}
    while True:
        told = {}
        for name, closure in closures.items():
            given = [call.args for call in calls if call.callee.name == name]
            for k, param in enumerate(closure.params):
                kinds = {_kind(st, bound, args[k]) for args in given}
                if len(kinds) == 1 and None not in kinds:
                    told[param.name] = kinds.pop()
        if told == st.told:
            return told
        st.told = told


def _named(closure) -> set:
    """The parameters of closure its body names other than as the callee of a call."""
    callees = {id(n.callee) for n in descendants(closure.body) if n._prod == "Call"}
    params = {p.name for p in closure.params}
    return {n.name for n in descendants(closure.body)
            if n._prod == "Local" and n.name in params and id(n) not in callees}


def _kind(st, bound: dict, e):
    """Which kind e is, if it is told where it is written, else None."""
    if e._prod == "Local" and e.name in st.told:
        return st.told[e.name]
    if e._prod == "Local" and e.name in bound:
        e = bound[e.name]
    if e._prod == "Closure":
        return _CLOSURE
    return _FUNCTION if e._prod == "Global" and e.name in st.fns else None


@copy_closures_per_argument_kind.on("Let", splice=True)
def _let(run, let):
    return with_copies(run.rebuild(let), run.state.copies.get(let.name, ()), run.state.taken)


@copy_closures_per_argument_kind.on("Call")
def _call(run, call):
    call = run.rebuild(call) if id(call) not in run.state.callee else call.replace(
        callee=L["Local"](run.state.callee[id(call)], span=call.callee.span),
        args=run.walk_seq(call.args))
    return call
