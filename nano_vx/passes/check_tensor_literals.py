"""check-tensor-literals: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..values.sizes import extent

check_tensor_literals = Analysis("check-tensor-literals", Ltyped, """
Refuse a tensor literal with another number of elements than its extents hold (E3018).

desugar-tensor-constructors checks a list against the extents written as numbers; an extent
that names a constant (`Tensor<f32, [N]>([1.0, 2.0])`) is a number only once
fold-const-extents has folded it, so the list is checked again here, against every extent.
""")


@check_tensor_literals.on("TensorLit")
def _literal(run, node):
    run.descend(node)
    extents = [extent(d) for d in node.type.dims]
    if None in extents:
        return  # a generic's, not yet an instance's
    size = 1
    for n in extents:
        size *= n
    if size != len(node.elems):
        shown = ", ".join(map(str, extents))
        run.ctx.diagnostics.error(
            "E3018", node.span,
            f"this list has {len(node.elems)} element{'s' * (len(node.elems) != 1)}, but a "
            f"tensor of extents [{shown}] has {size}", extents=extents, elements=len(node.elems))
