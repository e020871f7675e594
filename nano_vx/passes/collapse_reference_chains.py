"""collapse-reference-chains: Lassumed -> Lassumed.

Same IL: a shared reference to a shared reference reads, through its two dereferences, what
the inner one reads through one, and the loan of the inner reference's variable keeps that
variable unassigned while the outer one lives (check-loans), so the copy of the inner
reference the output holds instead is the reference the outer one would find."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # each function's name -> its result type
    types: dict = field(default_factory=dict)  # each local of the function -> its type


collapse_reference_chains = Pass("collapse-reference-chains", L, L, """
Make each shared reference to a shared reference (`&&i32`) the inner reference itself: its
type the inner one's, `&r` of a shared reference `r` the copy `r`, and a dereference of such
a reference the reference (`**rr` is `*rr`, `fn f(p: &&i32) -> i32 { **p }` is `fn f(p:
&i32) -> i32 { *p }`).

Native code makes a reference the address of a scalar's cell, and a reference has no cell:
type-scalars refuses a reference to one. A chain whose outer or inner reference is `&mut`
stays, for type-scalars to refuse (a write through `&mut &i32` makes the inner reference
refer elsewhere), and so does one read from a field, an element or a closure's call, whose
type no `let`, parameter or function result says here.
""", state=State)


def _chain(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
        ty.inner._prod == "BorrowType" and not ty.inner.mutable


def _shared(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable


@collapse_reference_chains.on("Program")
def _program(run, program):
    run.state.returns = {item.name: item.ret for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


@collapse_reference_chains.on("Fn")
def _fn(run, fn):
    if not any(_chain(n) or n._prod == "Borrow" for n in descendants(fn)):
        return fn  # `f(&r)` is a chain, though no type here says one
    run.state.types = {n.name: n.type for n in descendants(fn) if n._prod in ("Let", "Param")}
    return run.rebuild(fn)


def _type(run, e):
    """The type of e where a `let`, a parameter or a function's result says it, else None."""
    if e._prod == "Local":
        return run.state.types.get(e.name)
    if e._prod == "Deref":
        ref = _type(run, e.value)
        return ref.inner if ref is not None and ref._prod == "BorrowType" else None
    if e._prod == "Borrow":
        inner = _type(run, e.value)
        return None if inner is None else L["BorrowType"](inner, e.mutable, span=e.span)
    if e._prod == "Call" and e.callee._prod == "Global":
        return run.state.returns.get(e.callee.name)
    return None


@collapse_reference_chains.on("BorrowType")
def _borrow_type(run, ty):
    made = run.rebuild(ty)
    while _chain(made):
        made = made.inner.replace(span=ty.span)
    return made


@collapse_reference_chains.on("Borrow")
def _borrow(run, e):
    if not e.mutable and _shared(_type(run, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)


@collapse_reference_chains.on("Deref")
def _deref(run, e):
    if _chain(_type(run, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)
