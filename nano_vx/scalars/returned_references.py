"""Functions returning a `&mut` to a struct or tuple that only choose among places of their
`&mut` parameters: native code returns one value, where such a reference is one per scalar
part, so split-returned-references makes one a function per part and
inline-returned-references writes the choice itself where a call's result is used whole."""

from __future__ import annotations

from .aggregates import Shapes, Tree, concrete, is_tensor, lent, strip


def returned_parts(fn, shapes: Shapes, reading: bool = False) -> Tree | None:
    """The shape of what fn returns a `&mut` to, where fn is such a choice and that is a
    struct or tuple of scalars; None otherwise. Its conditions read only its parameters by
    value, or, `reading`, also scalars through its `&mut` ones (a choice made once)."""
    if not lent(fn.ret) or (shape := shapes.of(fn.ret)) is None:
        return None
    return shape if _choosing(fn, reading) and _scalars(shape) else None


def _scalars(shape: Tree) -> bool:
    """A struct or tuple of scalars and such (an enum's tag is no place a reference names)."""
    if shape.kind == "leaf":
        return concrete(shape.leaf) and not is_tensor(shape.leaf)
    return shape.kind in ("struct", "tuple") and all(_scalars(p) for _, p in shape.parts)


def _choosing(fn, reading: bool) -> bool:
    """Whether fn's body is a choice among places of its `&mut` parameters alone."""
    mutable = {p.name for p in fn.params if lent(p.type)}
    values = {p.name for p in fn.params if strip(p.type) is None or
              strip(p.type)._prod != "BorrowType"}
    return not fn.body.stmts and fn.body.value is not None and \
        _chooses(fn.body.value, mutable, values, mutable if reading else set())


def _chooses(e, mutable: set, values: set, read: set) -> bool:
    p = e._prod
    if p == "IfExpr":
        return _settled(e.cond, values, read) and all(
            not b.stmts and b.value is not None and _chooses(b.value, mutable, values, read)
            for b in (e.then, e.orelse))
    if p == "Borrow":
        return e.mutable and _rooted(e.value, mutable)
    return p == "Local" and e.name in mutable


def _rooted(e, mutable: set) -> bool:
    """Whether e is a place reached from a `&mut` parameter: `p.a`, `(*p).a.0`, `*p`."""
    while e._prod in ("FieldGet", "TupleGet"):
        e = e.base
    if e._prod == "Deref":
        e = e.value
    return e._prod == "Local" and e.name in mutable


_QUIET = frozenset("== != < <= > >= && ||".split())


def _settled(e, values: set, read: set) -> bool:
    """Whether the condition e reads only parameters by value, places through the `&mut`
    parameters of `read` and literals, and cannot stop."""
    p = e._prod
    if p in ("Int", "Float", "Bool"):
        return True
    if p == "Local":
        return e.name in values
    if p in ("FieldGet", "TupleGet"):
        return _rooted(e, read)
    if p == "Unary":
        return e.op == "!" and _settled(e.operand, values, read)
    return p == "Binary" and e.op in _QUIET and _settled(e.left, values, read) and \
        _settled(e.right, values, read)




def quiet(a) -> bool:
    """Whether a reads the same wherever a call's argument is read again, and does nothing
    else: a literal, a local, or a reference to a variable or a part of one."""
    if a._prod in ("Int", "Float", "Bool", "Local"):
        return True
    if a._prod != "Borrow":
        return False
    place = a.value
    while place._prod in ("FieldGet", "TupleGet"):
        place = place.base
    if place._prod == "Deref":
        place = place.value
    return place._prod == "Local"
