"""check-vector-types: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lresolved import Lresolved, display_name
from ..nanopass import Analysis
from ..placement.typer import show

# The most lanes a vector holds: a splat makes them all, so a number past any register file
# is refused rather than allocated.
MAX_LANES = 4096

check_vector_types = Analysis("check-vector-types", Lresolved, """
Refuse a vector type whose lane count is not a positive integer literal or whose lanes are not
of a scalar type (E3014), and `vec<N x T>(..)` given other than N values (E3010).

`<N x T>` is N lanes of T, N written as a number from 1 to 4096 (not a `const`, a generic
parameter or arithmetic: the lane count is part of the type as written) and T a scalar type
(`f32`, `i64`, `bool`, ..: not a tensor, a struct, another vector). This runs before
`const` items and generic parameters are folded into numbers, so the type is judged as the
programmer wrote it. `vec<N x T>(a, b, ..)` gives one value per lane.
""")


@check_vector_types.on("VectorType")
def _vector_type(run, node):
    run.descend(node)
    shown = show(node)
    lanes = node.lanes
    if lanes._prod != "DimInt" or not 1 <= lanes.value <= MAX_LANES:
        written = _lanes_written(lanes)
        run.ctx.diagnostics.error(
            "E3014", lanes.span or node.span,
            f"the lane count of `{shown}` is {written}: it is an integer literal from 1 to "
            f"{MAX_LANES}", help=["write the number of lanes: `<4 x f32>`"],
            type=shown, lanes=written)
    elem = node.elem
    if elem._prod != "Scalar":
        run.ctx.diagnostics.error(
            "E3014", elem.span or node.span,
            f"the lanes of `{shown}` are {_kind(elem)}: a vector's lanes are of a scalar type",
            help=["a vector of vectors or of tensors is a tensor: `Tensor<f32, [4, 2]>`"]
            if elem._prod in ("VectorType", "TensorType") else [],
            type=shown, lanes=_kind(elem))


@check_vector_types.on("VecLit")
def _vec_literal(run, node):
    run.descend(node)
    lanes = node.type.lanes
    if lanes._prod == "DimInt" and 1 <= lanes.value <= MAX_LANES \
            and len(node.elems) != lanes.value:
        shown = show(node.type)
        run.ctx.diagnostics.error(
            "E3010", node.span,
            f"`vec{shown}` takes {lanes.value} values, one per lane, but is given "
            f"{len(node.elems)}", help=["to give every lane one value, write `splat(v)`"],
            callee=f"vec{shown}", expected=lanes.value, found=len(node.elems))


def _lanes_written(d) -> str:
    if d._prod == "DimInt":
        return str(d.value)
    if d._prod == "DimName":
        return f"'{display_name(d.name)}', a name"
    if d._prod == "DimAny":
        return "`?`, known only when the program runs"
    return "arithmetic"


def _kind(t) -> str:
    """What the lanes of a vector whose lane type is `t` are, as a message says it."""
    if t._prod in ("NamedType", "AppliedType"):
        return f"'{t.name}', no scalar type"
    return {"TensorType": "tensors", "VectorType": "vectors", "TupleType": "tuples",
            "BorrowType": "references", "PtrType": "pointers"}.get(t._prod, show(t))
