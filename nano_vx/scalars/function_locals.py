"""What a pass asks of a function's locals before it computes a part of a statement at another
point than the program did: which may hold another value than their `let` gave them, which a
call may change, which name a tensor, and whether a condition reads only such as keep it."""

from __future__ import annotations

from ..nanopass import descendants
from .aggregates import strip


def place_root(place) -> str | None:
    """The local whose cell the place is in, if any."""
    while place._prod in ("FieldGet", "TupleGet", "Index", "Deref"):
        place = place.value if place._prod == "Deref" else place.base
    return place.name if place._prod == "Local" else None


def computed_from(cond, fixed: set) -> bool:
    """Whether the condition reads only literals and the locals of `fixed`, by arithmetic,
    comparisons and logic: computed again, it reads what it read."""
    kind = cond._prod
    if kind in ("Int", "Float", "Bool"):
        return True
    if kind == "Local":
        return cond.name in fixed
    if kind == "Unary":
        return computed_from(cond.operand, fixed)
    if kind == "Binary":
        return computed_from(cond.left, fixed) and computed_from(cond.right, fixed)
    return False


def changed_locals(fn) -> set:
    """The locals of fn declared `let mut`, assigned or lent `&mut`: the others keep their
    value."""
    changed = set()
    for n in descendants(fn):
        if n._prod == "Let" and n.mutable:
            changed.add(n.name)
        elif n._prod == "Assign" or n._prod == "Borrow" and n.mutable:
            changed.add(place_root(n.target if n._prod == "Assign" else n.value))
    changed.discard(None)
    return changed


def lent_locals(fn) -> set:
    """The locals of fn a call may change: those lent `&mut` or pointed into by a `*mut`
    anywhere, and those a closure assigns (it may be called anywhere)."""
    lent = set()
    for n in descendants(fn):
        if n._prod in ("Borrow", "AsPtr") and n.mutable:
            lent.add(place_root(n.value))
        elif n._prod == "Closure":
            lent |= assigned_locals(n.body)
    lent.discard(None)
    return lent


def assigned_locals(node) -> set:
    """The locals an assignment inside node writes."""
    return {place_root(n.target) for n in descendants(node) if n._prod == "Assign"} - {None}


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
