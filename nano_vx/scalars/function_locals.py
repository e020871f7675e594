"""What a pass asks of a function's locals before it computes a part of a statement at another
point than the program did: which may hold another value than their `let` gave them, which
name a tensor."""

from __future__ import annotations

from ..nanopass import descendants
from .aggregates import strip


def changed_locals(fn) -> set:
    """The locals of fn declared `let mut`, assigned or lent `&mut`: the others keep their
    value."""
    changed = set()
    for n in descendants(fn):
        place = n.target if n._prod == "Assign" else n.value if n._prod == "Borrow" and \
            n.mutable else None
        while place is not None and place._prod in ("FieldGet", "TupleGet", "Index", "Deref"):
            place = place.value if place._prod == "Deref" else place.base
        if n._prod == "Let" and n.mutable or place is not None and place._prod == "Local":
            changed.add(n.name if n._prod == "Let" else place.name)
    return changed


def tensor_locals(fn) -> set:
    """The parameters and locals of fn whose written or inferred type is a tensor, or a
    reference to one (not a raw pointer, whose element no reference names)."""
    found = set()
    for n in (*fn.params, *descendants(fn.body)):
        if n._prod in ("Param", "Let") and n.type is not None:
            ty = strip(n.type)
            if ty is not None and ty._prod == "BorrowType":
                ty = strip(ty.inner)
            if ty is not None and ty._prod == "TensorType":
                found.add(n.name)
    return found
