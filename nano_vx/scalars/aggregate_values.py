"""What the passes that take aggregates apart ask of the tree besides their rewrite: whether
an expression calls, the shape of a `let`, an enum value's tree."""

from __future__ import annotations

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from .aggregates import TAG, Refused, Tree, concrete, unread_tensor, zero


def pure(e) -> bool:
    """Whether computing e earlier or twice changes nothing: no call in it."""
    return not any(n._prod in ("Call", "Launch", "MethodCall", "Transfer")
                   for n in descendants(e))


def merged(value: Tree | None, written: Tree | None) -> Tree | None:
    """The shape of a `let`: its value's, each leaf's type the written one where that is
    known (a generic struct's field is typed by the call that returns it, a tuple literal's
    by the `let`)."""
    if value is None or written is None or len(value.leaves()) != len(written.leaves()):
        return value or written
    return value.rebuilt(iter(w if concrete(w) else v
                              for v, w in zip(value.leaves(), written.leaves())))


def variant_index(shape, variant, at) -> int:
    labels = [label for label, _ in shape.variants()]
    if variant not in labels:
        raise Refused(at, f"the variant {variant}, which {shape.name} does not declare")
    return labels.index(variant)


def enum_value(shape: Tree, e, args: list) -> Tree:
    """The tree of the enum value e (`E::V(..)`, its args' trees given): its tag, its
    variant's values, every other variant's fields zero."""
    tag = L["Int"](variant_index(shape, e.variant, e), span=e.span)
    parts = [(TAG, Tree("leaf", leaf=tag))]
    for label, v in shape.variants():
        if label == e.variant:
            parts.append((label, Tree("variant", label, tuple(enumerate(args)))))
            continue
        zeros = [zero(t, e.span) or unread_tensor(t, e.span) for t in v.leaves()]
        if None in zeros:
            raise Refused(e, "an enum whose other variants hold what has no zero")
        parts.append((label, v.rebuilt(iter(zeros))))
    return Tree("enum", e.enum, tuple(parts))
