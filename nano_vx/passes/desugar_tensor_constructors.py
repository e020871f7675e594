"""desugar-tensor-constructors: Lonefile -> Lshaped."""

from __future__ import annotations

from ..languages import Lonefile, Lshaped
from ..nanopass import Pass
from ..placement.sizes import extent

desugar_tensor_constructors = Pass("desugar-tensor-constructors", Lonefile, Lshaped, """
Write each `Tensor<..>(..)` call as the constructor or the literal it means, with its extents.

- `Tensor<T, [..]>()` is `Tensor<T, [..]>::new()`.
- `Tensor<T, [..]>([..])` is a tensor literal: the nested list's elements in row-major order;
  the list has the written extents (E3018; an extent naming a constant is checked when the
  program runs).
- `Tensor<T>([[1.0, 2.0], [3.0, 4.0]])` takes its extents from the nesting, `[2, 2]`: every
  row has the same length (E3018).
- `Tensor<T>([n, m])`, a flat list of integers (no float literal in it), is the shape of a
  tensor of zeros: `Tensor<T, [2, 3]>::new()` when the extents are literals, else
  `Tensor<T, [?, ?]>::new([n, m])`, the extents known when the program runs.
- `Tensor<T, [..]>(x)` for anything but a list is E3023: one value for every element is
  `::fill(x)`; `Tensor<T>()` gives no shape (E3023).

An array literal `[a, b]` elsewhere is a tensor of scalars, so it needs an element (E3018) and
its elements are not lists (E3018).
""")


@desugar_tensor_constructors.on("TensorCall")
def _call(run, call):
    report = run.ctx.diagnostics.error
    arg = call.args[0] if call.args else None
    if len(call.args) > 1:  # the parser reads one; a hand-written IL may hold more
        report("E3023", call.args[1].span, "a tensor is initialised from one nested list of "
                                           "its elements, not from several values",
               help=["write every element in one list: `Tensor<T, [2, 2]>([[1, 2], [3, 4]])`"])
    elif arg is not None and arg._prod != "ArrayLit":
        report("E3023", call.span, "a tensor is initialised from a nested list of its "
                                   "elements, not from a single value",
               help=["write `Tensor<T, [..]>::fill(v)` for every element v"])
    elif arg is None and not call.shaped:
        report("E3023", call.span, "`Tensor<T>()` gives no shape",
               help=["write its extents, `Tensor<T, [4]>()`, or give them as a list, "
                     "`Tensor<T>([n])`"])
    elif arg is not None:
        extents, _, ragged = _rows(arg)
        if ragged is not None:
            report("E3018", ragged.span, "the rows of this nested list differ in shape: a "
                                         "tensor's rows all have the same extents")
        elif call.shaped and None not in (written := tuple(map(extent, call.dims))) and \
                written != extents:
            report("E3018", arg.span, f"this list has extents "
                                      f"[{', '.join(map(str, extents))}], not "
                                      f"[{', '.join(map(str, written))}] as the tensor's type "
                                      f"writes")
    return meaning(call, Lshaped, run.walk)


@desugar_tensor_constructors.on("ArrayLit")
def _array(run, node):
    report = run.ctx.diagnostics.error
    if not node.elems:
        report("E3018", node.span, "an empty array literal has no element type or length to "
                                   "give the tensor", help=["write `Tensor<T, [0]>::new()`"])
    nested = next((e for e in node.elems if e._prod == "ArrayLit"), None)
    if nested is not None:
        report("E3018", nested.span, "an array literal holds scalars; a nested list "
                                     "initialises a tensor",
               help=["write `Tensor<f32>([[1.0, 2.0], [3.0, 4.0]])`"])
    return run.rebuild(node)


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
    extents, flat, ragged = _rows(arg)
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


def _rows(e):
    """(extents, the elements in row-major order, None) of a nested list; when two rows
    differ in shape, the list that holds them is the third."""
    if e._prod != "ArrayLit":
        return (), [e], None
    shapes, flat = set(), []
    for row in e.elems:
        got, items, ragged = _rows(row)
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
