"""What a `Tensor<..>(..)` call of the source ILs means: the constructor or the tensor literal
desugar-tensor-constructors writes for it, and the reference interpreter runs when it meets the
call in an IL before that pass. One definition, so the two cannot differ."""

from __future__ import annotations

from .lshaped import Lshaped


def meaning(call, L=Lshaped, walk=lambda node: node):
    """The constructor or literal `Tensor<..>(..)` means, in language L, its parts given to
    `walk` (a refused one is `::new()` of what it writes): the reference interpreter runs a
    TensorCall as this."""
    span = call.span
    arg = call.args[0] if call.args else None
    place = walk(call.place) if call.place is not None else None

    def typed(dims):
        return L["TensorType"](walk(call.elem), dims, place, span=span)

    def new(dims, args=()):
        return L["TensorNew"](typed(dims), "new", args, span=span)
    written = tuple(walk(d) for d in call.dims)
    if arg is None or arg._prod != "ArrayLit":
        return new(written)
    extents, flat, ragged = rows(arg)
    if ragged is not None:
        return new(written)
    if _flat_shape(call, extents, flat):
        if all(e._prod == "Int" for e in flat):
            return new(tuple(L["DimInt"](e.value, span=e.span) for e in flat))
        return new(tuple(L["DimAny"](span=e.span) for e in flat), (walk(arg),))
    dims = written if call.shaped else tuple(L["DimInt"](n, span=span) for n in extents)
    return L["TensorLit"](typed(dims), tuple(walk(e) for e in flat), span=span)


def _flat_shape(call, extents, flat) -> bool:
    """Whether the list is a shape: no extents written, one level, no float literal."""
    return not call.shaped and len(extents) == 1 and not any(map(_float_literal, flat))


def rows(e):
    """(extents, the elements in row-major order, None) of a nested list; when two rows
    differ in shape, the list that holds them is the third."""
    if e._prod != "ArrayLit":
        return (), [e], None
    shapes, flat = set(), []
    for row in e.elems:
        got, items, ragged = rows(row)
        if ragged is not None:
            return (), [], ragged
        shapes.add(got)
        flat += items
    if len(shapes) > 1:
        return (), [], e
    return (len(e.elems), *next(iter(shapes), ())), flat, None


def _float_literal(e) -> bool:
    while e._prod in ("Unary", "Suffixed"):
        if e._prod == "Suffixed":
            return e.suffix.startswith(("f", "bf"))
        e = e.operand
    return e._prod == "Float"
