"""check-memory-declarations: Lresolved -> Lresolved; build the memory model, check its tree."""

from __future__ import annotations

from ..languages import Lresolved
from ..model import build_model
from ..nanopass import Pass


def _run(tree, ctx):
    ctx.model = build_model(tree.items, ctx.diagnostics)
    return tree


check_memory_declarations = Pass("check-memory-declarations", Lresolved, Lresolved, """
Build the memory model from the Memory and Topology items and check that it is coherent.

The model (nano_vx.model: spaces, topologies, edges, routing) is stored on `ctx.model` for
the passes after this one; the tree is unchanged. Without a machine model (no space with
`scope: device`) the built-in model of vx-reference §2 is in force and declarations refine
it by name. Reported: a `within:` cycle (E6006), a sub-space larger than its parent
(E6007), a zero size, bandwidth, clock, granule or cost (E6008), a sub-space scope wider
than its parent's (E6011), an unknown field or a value of the wrong kind (E6015), and an
undeclared memory space named by a declaration (E2001).
""", run=_run)
