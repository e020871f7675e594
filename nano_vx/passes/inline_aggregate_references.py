"""inline-aggregate-references: Lmatched -> Lmatched.

Same IL: each read or write through such a reference reads or writes the place it named, so
the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import Shaped
from ..scalars.aggregates import strip


@dataclass
class State(Shaped):
    held: set = field(default_factory=set)  # the current function's references to inline
    named: dict = field(default_factory=dict)  # such a reference -> the reference it holds
    refs: set = field(default_factory=set)  # its reference parameters and locals
    fixed: set = field(default_factory=set)  # those never assigned nor lent


inline_aggregate_references = Pass("inline-aggregate-references", L, L, """
Write each local holding a reference to a place of a struct, tuple or enum as that place:
`let r = &mut a.from; r.x = 1; shift(r, 2);` is `a.from.x = 1; shift(&mut a.from, 2);`.

A `let` of a reference to an aggregate whose value is `&p` or `&mut p`, p a variable, a part
of one (a field, a tuple's element, through `*q` too) or a reference parameter, goes, and
each use of its local is the place (`*r` and `r.x` read and write p's) or the reference to
it (r passed on): while r lives the borrow rules keep p naming the same place, so native
code needs no cell holding which place r names, and scalarize-aggregates takes p's parts
apart as any variable's. A reference assigned (made to refer elsewhere) or lent stays, and
so does one to what is no place (a call's result, an `if` choosing): scalarize-aggregates
holds a shared one as the values it refers to, which nothing writes while it lives.
""", state=State)


@inline_aggregate_references.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@inline_aggregate_references.on("Fn")
def _fn(run, fn):
    st = run.state
    st.enter_function(fn)
    nodes = list(descendants(fn.body))
    moved = {n.target.name for n in nodes if n._prod == "Assign" and n.target._prod == "Local"}
    moved |= {n.value.name for n in nodes if n._prod == "Borrow" and n.value._prod == "Local"}
    refs = {p.name for p in fn.params if _reference(p.type)}
    for n in nodes:
        if n._prod == "Let" and (_reference(n.type) or n.value._prod == "Borrow" or
                                 n.value._prod == "Local" and n.value.name in refs):
            refs.add(n.name)
    st.held = {name for name in refs - moved if name in st.env}
    st.named, st.refs, st.fixed = {}, refs, refs - moved
    if not st.held:
        return fn
    return run.rebuild(fn)


def _reference(ty) -> bool:
    ty = strip(ty)
    return ty is not None and ty._prod == "BorrowType"


@inline_aggregate_references.on("Let", splice=True)
def _let(run, let):
    st = run.state
    made = run.rebuild(let)
    if let.name in st.held and _names_a_place(st, made.value):
        st.named[let.name] = made.value
        return ()
    return (made,)


def _names_a_place(st, e) -> bool:
    """Whether the reference e names one place as long as it lives: a reference parameter or
    local never assigned, or `&p` of such a place p."""
    if e._prod == "Local":
        return e.name in st.fixed
    return e._prod == "Borrow" and _place(st, e.value)


def _place(st, e, whole: bool = True) -> bool:
    """Whether e is a variable, or a part of one or of what a reference never assigned
    names (`q.to` reads through q)."""
    p = e._prod
    if p == "Local":
        return e.name not in st.refs or not whole and e.name in st.fixed
    if p in ("FieldGet", "TupleGet"):
        return _place(st, e.base, whole=False)
    return p == "Deref" and e.value._prod == "Local" and e.value.name in st.fixed


@inline_aggregate_references.on("Local")
def _local(run, e):
    return run.state.named.get(e.name, e)


@inline_aggregate_references.on("Deref")
def _deref(run, e):
    value = run.walk(e.value)
    if value._prod == "Borrow" and e.value._prod == "Local":
        return value.value  # `*r`, r inlined: the place it named
    return e if value is e.value else e.replace(value=value)


@inline_aggregate_references.on("FieldGet", "TupleGet")
def _get(run, e):
    base = run.walk(e.base)
    if base._prod == "Borrow" and e.base._prod == "Local":
        base = base.value  # `r.x` reads through r: the field of the place it named
    return e if base is e.base else e.replace(base=base)
