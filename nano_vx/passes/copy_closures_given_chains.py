"""copy-closures-given-chains: Lassumed -> Lassumed.

Same IL: a copy of a closure, bound beside it, reads what it reads where it is called, so
each call computes what it computed, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, copies_per_kind, with_copies
from ..scalars.said_types import chain, given_types, known, said_type


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # each function's name -> its result type
    structs: dict = field(default_factory=dict)  # each struct's name -> its fields' types
    types: dict = field(default_factory=dict)  # each local of the function -> its type
    values: dict = field(default_factory=dict)  # each local a `let` of it binds -> its value
    callee: dict = field(default_factory=dict)  # id() of a call -> the copy it calls
    copies: dict = field(default_factory=dict)  # a closure's local -> its copies' names
    taken: set = field(default_factory=set)  # the names of the function's locals
    chained: bool = False  # whether a type of the program is a chain


copy_closures_given_chains = Pass("copy-closures-given-chains", L, L, """
Give a closure a `let` binds and that is only called, whose calls give a parameter of no
written type a shared reference to a shared reference (`&&i32`) at one and a value of
another type at another, or, in a program holding such a chain, shared references of two
types, a copy of its own per set of types, bound after it, each call calling the copy of
its arguments' types.

collapse-reference-chains makes each chain the inner reference, so a parameter of no
written type must be a chain at every call or at none: `let deref = |p| *p; deref(r);
*deref(rr);` of `r: &i32` and `rr: &&i32` is left whole, where `deref#1`, bound after
deref and called by the second call, is given only the chain. The type of each argument
must be said where it is written (a `let`, a parameter, a function's result, a field or an
element), or be a parameter of no written type of a closure a `let` binds and that is only
called, every call of which gives it one such type (`let twice = |q| deref(q) * 2;` only
given `r`). Such a closure given an `&i32` r and an `&i64` s (`twice(r); twice(s);`) has a
copy per type first, in a program holding a chain, each copy's q then of one type, so that
deref has a copy per type in turn: the copying goes on until no closure is copied. A
closure one of whose calls gives a type unsaid is left as it is.
""", state=State)


@copy_closures_given_chains.on("Program")
def _program(run, program):
    st = run.state
    st.returns = {i.name: i.ret for i in program.items if i._prod == "Fn"}
    st.structs = {i.name: {f.name: f.type for f in i.fields}
                  for i in program.items if i._prod == "StructDecl"}
    st.chained = any(chain(n) for n in descendants(program))
    return run.rebuild(program)


def _wanted(st, kinds) -> bool:
    """Copy per set of types where every type is said and one is a chain, or, in a program
    holding a chain, one is a shared reference: a parameter handed on given `&i32` and
    `&i64` has one type in each copy, which collapse-reference-chains needs to know."""
    types = sum(kinds, ())
    return all(map(known, types)) and any(
        chain(t) or st.chained and t._prod == "BorrowType" and not t.mutable for t in types)


@copy_closures_given_chains.on("Fn")
def _fn(run, fn):
    st = run.state
    # Until no closure is copied: a copy's calls give the closures it calls one type each,
    # which may differ from another copy's.
    while True:
        st.types = {n.name: n.type for n in descendants(fn) if n._prod in ("Let", "Param")}
        st.values = {n.name: n.value for n in descendants(fn) if n._prod == "Let"}
        st.types.update(given_types(st, fn))  # a parameter handed on is of what calls give
        st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
        st.copies, st.callee = copies_per_kind(
            fn, lambda arg: said_type(st, arg), lambda kinds: _wanted(st, kinds),
            lambda name, kind: unused_name(display_name(name), st.taken))
        if not st.callee:
            return fn
        fn = run.rebuild(fn)


@copy_closures_given_chains.on("Let", splice=True)
def _let(run, let):
    return with_copies(run.rebuild(let), run.state.copies.get(let.name, ()), run.state.taken)


@copy_closures_given_chains.on("Call")
def _call(run, call):
    copy = run.state.callee.get(id(call))
    rebuilt = run.rebuild(call)
    return rebuilt if copy is None else rebuilt.replace(callee=rebuilt.callee.replace(name=copy))
