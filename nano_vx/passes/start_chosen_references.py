"""start-chosen-references: Lscalars -> Lscalars.

Same IL: the `if` is computed where the `let` computed it, each arm making the reference it
chose, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscalars import Lscalars as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import (binder_types, bound_in, chosen_elements, reference_to_first,
                                reference_to_zero)
from ..values.narrow import NARROW_TYPES
from ..values.places import CPU_DRAM


@dataclass
class State:
    taken: set = field(default_factory=set)  # the names of the function's locals
    types: dict = field(default_factory=dict)  # each local of the function -> its type


start_chosen_references = Pass("start-chosen-references", L, L, """
Make each `let` of a reference that an `if` chooses a `let mut` of a reference to a zero bound
before it, or to the first element of a tensor an arm borrows one of, which the `if` then
assigns.

`let r = if c { &mut a } else { &mut t[i] };` is `let mut r#1 = 0; let mut r = &mut r#1; r =
if c { &mut a } else { &mut t[i] };`. explicate-control starts a variable an `if` gives its
value at its type's zero, and each arm assigns it; a reference has no zero, so it is given
one, a variable nothing else reads. A reference to a variable's cell and one to an element
of a tensor are the same machine value (a memref of rank 0 at an offset), so the variable
holds either, and only the arm taken makes its reference (an element's index is checked
there, as the interpreter checks it). A `match` is an `if` chain by now (lower-matches). A
reference to an element of a tensor of a narrow type is to a byte, which no variable holds:
`let r = if c { &mut t[1] } else { &mut t[2] };` starts at `&mut t[0]`, the first element
of a tensor an arm borrows one of, whose extents are static and none 0, so that no index
check stops there; where no such tensor is there (extents `?` or 0, or arms naming
references), at the element of a tensor of one element of its own, made by `::new()`
(mapped lazily: nothing touches it).
""", state=State)


@start_chosen_references.on("Fn")
def _fn(run, fn):
    if not any(_chosen(n) for n in descendants(fn.body)):
        return fn
    run.state.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    run.state.types = binder_types(fn)
    return run.rebuild(fn)


@start_chosen_references.on("Let", splice=True)
def _let(run, let):
    if not _chosen(let):
        return (run.rebuild(let),)
    span = let.span
    target = let.type.inner
    if target._prod == "Scalar" and target.name in NARROW_TYPES:
        start = _narrow_start(run.state, let)
    else:
        start = reference_to_zero(let.name, let.type, run.state.taken, span)
    return (*start,
            L["Assign"](L["Local"](let.name, span=span), "=", run.walk(let.value), span=span))


def _narrow_start(st, let) -> list:
    """The `let mut` of a reference to an element of a tensor of a narrow type: to the first
    element of a tensor an arm borrows one of, of static extents none 0, else to the one
    element of a tensor of its own (of the space of one an arm borrows, if any), bound before
    it, so that no index check stops there."""
    span, found = let.span, [(name, rank) for name, rank in chosen_elements(let.value)
                             if _tensor(st.types.get(name), rank)]
    first = next(((name, rank) for name, rank in found if _first_in_bounds(st.types[name])),
                 None)
    if first is not None:
        return [reference_to_first(let.name, let.type, *first, span)]
    cell, one = unused_name(display_name(let.name), st.taken), (L["DimInt"](1, span=span),)
    own = st.types[found[0][0]].replace(dims=one) if found else \
        L["TensorType"](let.type.inner, one, L["MemRef"](CPU_DRAM, span=span), span=span)
    made = L["TensorNew"](own.replace(place=None), "new", (), span=span)
    return [L["Let"](cell, let.type.mutable, own, made, span=span),
            reference_to_first(let.name, let.type, cell, 1, span)]


def _chosen(s) -> bool:
    """`s` is a `let` of a reference an `if` chooses (type-scalars admits only one to a
    scalar or a vector held as its type, or to an element of a tensor of a narrow type whose
    first element _first_in_bounds finds)."""
    return s._prod == "Let" and s.value._prod == "IfExpr" and s.type._prod == "BorrowType"


def _tensor(ty, rank: int) -> bool:
    return ty is not None and ty._prod == "TensorType" and len(ty.dims) == rank


def _first_in_bounds(ty) -> bool:
    """A tensor of static extents, none 0: its first element is in bounds."""
    return all(d._prod == "DimInt" and d.value > 0 for d in ty.dims)
