"""Which locals of a function may hold another value than their `let` gave them: what a pass
asks before it reads one at another point of its statement than the program did."""

from __future__ import annotations

from ..nanopass import descendants


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
