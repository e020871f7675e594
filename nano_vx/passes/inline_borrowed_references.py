"""inline-borrowed-references: Lassumed -> Lassumed.

Same IL: a `let` never assigned holds a reference to the one variable it borrowed, so each
`*rr` reads and writes that variable, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    named: dict = field(default_factory=dict)  # each local to inline -> the variable it names


inline_borrowed_references = Pass("inline-borrowed-references", L, L, """
Write each local holding a borrow of a reference variable, through a `&mut` either way, as
that variable: `let rr = &mut r; *rr = &y;` is `r = &y;`, and `**rr` is `*r`.

Native code makes a reference the address of a scalar's cell, and a reference has no cell,
so type-scalars refuses a reference to one (collapse-reference-chains makes a chain of
shared references its inner one). A `let` binding `&mut r` or `&r` (r a reference with
`&mut` on one side of the chain) whose local is only ever dereferenced (so never assigned
either) names r as long as it lives, so it goes, and so does a `let` copying such a local
(`let again = rr; *again = &y;`), itself only dereferenced, in a closure too (which then
reads or assigns r: return-assigned-references makes a closure assigning it give it back).
One passed on or lent stays, for type-scalars to refuse.
""", state=State)


def _borrow(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType"


@inline_borrowed_references.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    types = {n.name: n.type for n in nodes if n._prod in ("Let", "Param")}
    named = {n.name: n.value.value.name for n in nodes if n._prod == "Let" and
             n.value._prod == "Borrow" and n.value.value._prod == "Local" and
             _borrow(types.get(n.value.value.name)) and
             (n.value.mutable or types[n.value.value.name].mutable)}
    copies = {n.name: n.value for n in nodes if n._prod == "Let" and n.value._prod == "Local"}
    while grown := {name: named[v.name] for name, v in copies.items()
                    if v.name in named and name not in named}:
        named |= grown
    derefs = {id(n.value) for n in nodes if n._prod == "Deref"}
    while True:
        # A copy `let again = rr;` that goes is no use of rr; one that stays passes rr on.
        going = {id(v) for name, v in copies.items() if name in named}
        passed = {n.name for n in nodes if n._prod == "Local" and id(n) not in derefs
                  and id(n) not in going}
        left = {name: r for name, r in named.items() if name not in passed}
        if left == named:
            break
        named = left
    run.state.named = named
    return run.rebuild(fn) if run.state.named else fn


@inline_borrowed_references.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.named else (run.rebuild(let),)


@inline_borrowed_references.on("Deref")
def _deref(run, e):
    if e.value._prod == "Local" and e.value.name in run.state.named:
        return L["Local"](run.state.named[e.value.name], span=e.value.span)
    return run.rebuild(e)
