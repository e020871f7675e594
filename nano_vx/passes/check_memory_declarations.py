"""check-memory-declarations: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages import Lresolved
from ..model import Model, Space, build_model
from ..model.units import show_bytes
from ..nanopass import Analysis

check_memory_declarations = Analysis("check-memory-declarations", Lresolved, """
Build the memory model from the Memory and Topology items and check that it is coherent
(E6006-E6008, E6011, E6013, E6015, E6016, W1029).

The model (nano_vx.model: spaces, topologies, edges, routing) is the fact `model` for the
passes after this one. Without a machine model (no space with `scope: device`) the built-in
model of vx-reference §2 is in force and declarations refine it by name. Reading the
declarations reports an unknown field or a value of the wrong kind (E6016), a zero size,
bandwidth, clock, granule or cost (E6008), an undeclared memory space (E2001) and an `arch:`
it does not know (warning W1029). A transfer edge written without a cost gets one derived
from the bandwidths along `within:` (E6016 when none can be), and one that writes a cost
where a derived one exists is E6013; its flags (`relaxed` or `sync`, `copy_engine`) are kept
on the model's edge. Then the containment tree must make sense: no `within:` cycle (E6006),
no sub-space larger than its parent (E6007) or wider in scope (E6011). A space's granule, the
least a tile occupies in it, must fit its capacity (E6015): otherwise no tile fits.
""", provides=("model",))


@check_memory_declarations.on("Program")
def _program(run, node):
    model = build_model(node.items, run.ctx.diagnostics)
    on_cycle = set()
    for loop in model.cycles:
        _cycle(run, model, loop)
        on_cycle.update(loop)
    # A space on a cycle sits in a tree nobody declared (the cut one): it is not compared.
    for s in model.spaces.values():
        _granule(run, s)
        if s.within is not None and s.within in model.spaces and s.name not in on_cycle:
            _size(run, model, s)
            _scope(run, model, s)
    run.ctx.model = model


# A cycle through thousands of spaces is named by its ends, so the message stays a line.
SHOWN_ON_A_CYCLE = 8


def _cycle(run, model: Model, loop: tuple[str, ...]) -> None:
    first = loop[0]
    shown = list(loop)
    if len(loop) > SHOWN_ON_A_CYCLE:
        half = SHOWN_ON_A_CYCLE // 2
        shown = [*loop[:half], f"({len(loop) - 2 * half} more)", *loop[-half:]]
    run.ctx.diagnostics.error(
        "E6006", model.spaces[first].span,
        f"memory space '{first}' is within itself: " + " -> ".join(shown),
        help=["the outermost space has no `within:`"], space=first, cycle=list(loop))


def _size(run, model: Model, s: Space) -> None:
    if s.capacity is None:
        return
    # The nearest ancestor that declares a size bounds this one.
    name = model.sized_ancestor(s.name)
    if name is None:
        return
    parent = model.spaces[name]
    if s.capacity > parent.capacity:
        via = "" if name == s.within else f" (through '{s.within}')"
        run.ctx.diagnostics.error(
            "E6007", s.span,
            f"memory space '{s.name}' has capacity {show_bytes(s.capacity)}, larger "
            f"than the {show_bytes(parent.capacity)} of '{name}' that contains it{via}",
            space=s.name, capacity=s.capacity, parent=name,
            parent_capacity=parent.capacity)


def _granule(run, s: Space) -> None:
    if s.capacity is None or not s.granule or s.granule <= s.capacity:
        return
    run.ctx.diagnostics.error(
        "E6015", s.span,
        f"memory space '{s.name}' has granule {show_bytes(s.granule)}, larger than its "
        f"capacity of {show_bytes(s.capacity)}: every tile takes at least one granule, so "
        f"none fits",
        help=["the granule is the allocation quantum of the space: make it no larger than "
              "the capacity"],
        space=s.name, granule=s.granule, capacity=s.capacity)


def _scope(run, model: Model, s: Space) -> None:
    parent_scope = model.scope_of(s.within)
    if s.scope is None or parent_scope is None or not model.wider(s.scope, parent_scope):
        return
    run.ctx.diagnostics.error(
        "E6011", s.span,
        f"memory space '{s.name}' has scope {s.scope}, wider than the scope {parent_scope} "
        f"of '{s.within}' that contains it",
        help=["scopes nest device > sm > cta > thread; a sub-space is no wider than its "
              "parent"],
        space=s.name, scope=s.scope, parent=s.within, parent_scope=parent_scope)
