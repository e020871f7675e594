"""check-tensor-constructors: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..values.constructors import TAKES

check_tensor_constructors = Analysis("check-tensor-constructors", Ltyped, """
Refuse `Tensor<..>::ctor(..)` with a constructor Tensor has not or the wrong arguments (E3010).

`::new()` and `::uninit()` take nothing and `::fill(v)` one value; a tensor with `?` extents
takes the list of its extents first (`::fill([n], v)`). Anything else would only stop the
program when it ran.
""")


@check_tensor_constructors.on("TensorNew")
def _new(run, node):
    run.descend(node)
    takes = TAKES.get(node.ctor)
    sized = any(d._prod == "DimAny" for d in node.type.dims)  # its extents list comes first
    given = len(node.args) - sized
    if takes is None:
        run.ctx.diagnostics.error(
            "E3010", node.span, f"Tensor has no constructor `::{node.ctor}`",
            help=["its constructors: `::new()`, `::uninit()`, `::fill(v)`"],
            constructor=node.ctor)
    elif given < 0:  # the parser refuses this (E1001); a hand-written IL may hold it
        shown = ", ".join(["[..]"] + ["v"] * takes)
        run.ctx.diagnostics.error(
            "E3010", node.span,
            f"`::{node.ctor}` of a tensor with `?` extents takes the list of its extents "
            f"first, but this gives nothing", help=[f"write `::{node.ctor}({shown})`"],
            constructor=node.ctor)
    elif given != takes:
        run.ctx.diagnostics.error(
            "E3010", node.span,
            f"`::{node.ctor}` takes {takes} value{'s' * (takes != 1)}, but this gives {given}",
            constructor=node.ctor, expected=takes, found=given)
