"""collapse-reference-chains: Lassumed -> Lassumed.

Same IL: a shared reference to a shared reference reads, through its two dereferences, what
the inner one reads through one, and the loan of the inner reference's variable keeps that
variable unassigned while the outer one lives (check-loans), so the copy of the inner
reference the output holds instead is the reference the outer one would find."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.said_types import chain, given_types, known, said_type


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # each function's name -> its result type
    structs: dict = field(default_factory=dict)  # each struct's name -> its fields' types
    locals: dict = field(default_factory=dict)  # each function's name -> its locals' types
    types: dict = field(default_factory=dict)  # each local of the function -> its type
    lets: dict = field(default_factory=dict)  # each function's name -> its lets' values
    values: dict = field(default_factory=dict)  # each local a `let` of it binds -> its value


collapse_reference_chains = Pass("collapse-reference-chains", L, L, """
Make each shared reference to a shared reference (`&&i32`) the inner reference itself: its
type the inner one's, `&r` of a shared reference `r` the copy `r`, and a dereference of such
a reference the reference (`**rr` is `*rr`, `fn f(p: &&i32) -> i32 { **p }` is `fn f(p:
&i32) -> i32 { *p }`).

Native code makes a reference the address of a scalar's cell, and a reference has no cell:
type-scalars refuses a reference to one. A chain whose outer or inner reference is `&mut`
stays, for type-scalars to refuse (a write through `&mut &i32` makes the inner reference
refer elsewhere). Every type is collapsed, so every dereference and shared borrow must be
too where it meets a chain: a program with a chain and a dereference or a shared borrow of
what no `let`, parameter, function result, field or element type, nor the value a closure
a `let` binds ends its body with, says here (a call of a closure a parameter holds, a
closure's parameter of no written type whose calls give it values of different types or
of a type unsaid) is left whole, for type-scalars to refuse; a call of a closure whose body
ends with such a parameter (`let id = |p| p; *id(r)`) reads the type of what the call gives
it, and such a parameter of a closure a `let` binds and that is only called, every call of
which gives it one type (`let deref = |p| *p; deref(r)`), is of that type in its body.
""", state=State)


def _shared(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable


@collapse_reference_chains.on("Program")
def _program(run, program):
    st = run.state
    fns = [item for item in program.items if item._prod == "Fn"]
    st.returns = {fn.name: fn.ret for fn in fns}
    st.structs = {item.name: {f.name: f.type for f in item.fields}
                  for item in program.items if item._prod == "StructDecl"}
    st.locals = {fn.name: {n.name: n.type for n in descendants(fn)
                           if n._prod in ("Let", "Param")} for fn in fns}
    st.lets = {fn.name: {n.name: n.value for n in descendants(fn) if n._prod == "Let"}
               for fn in fns}
    met = []  # the type of what each dereference and shared borrow reads, None if unsaid
    for fn in fns:
        st.types, st.values = st.locals[fn.name], st.lets[fn.name]
        st.types.update(given_types(st, fn))
        met += [said_type(st, n.value) for n in descendants(fn)
                if n._prod == "Deref" or n._prod == "Borrow" and not n.mutable]
    if not any(chain(n) for n in descendants(program)) and not any(map(_shared, met)):
        return program
    if not all(map(known, met)):
        return program
    return run.rebuild(program)


@collapse_reference_chains.on("Fn")
def _fn(run, fn):
    run.state.types, run.state.values = run.state.locals[fn.name], run.state.lets[fn.name]
    return run.rebuild(fn)


@collapse_reference_chains.on("BorrowType")
def _borrow_type(run, ty):
    made = run.rebuild(ty)
    while chain(made):
        made = made.inner.replace(span=ty.span)
    return made


@collapse_reference_chains.on("Borrow")
def _borrow(run, e):
    if not e.mutable and _shared(said_type(run.state, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)


@collapse_reference_chains.on("Deref")
def _deref(run, e):
    if chain(said_type(run.state, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)
