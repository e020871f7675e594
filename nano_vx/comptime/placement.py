"""Placement facts while compiling: `x.topology()` and `Reachable<A, B>`.

Neither needs x's value, only where it lives: a value the evaluator made carries its space
(as in the interpreter), and a run-time variable has the type infer-placement recorded on
its `let` or parameter. The comparison itself is the interpreter's (`Placement`, `same`
in nano_vx/values/places.py), so a decided assert means what it would have meant at run time.
"""

from __future__ import annotations

from ..values.numbers import Placed, unplace
from ..values.places import CPU_DRAM, Placement, Topo
from ..values.tensors import Tensor
from .errors import cannot_finish, written
from .values import Unknown

_WRAPPERS = ("VerifiedType",)


class PlacementMixin:
    def holds(self) -> dict:
        """Topology name -> the memory space it holds, from the memory model."""
        if self.model is None:
            return {}
        return {t.name: t.memory for t in self.model.topologies.values()}

    def placement_query(self, node):
        """`x.topology()`, compiled: `f(frame) -> Placement`."""
        recv, span = node.receiver, node.span
        receiver = self.expr(recv)

        def query(frame):
            v = receiver(frame)
            if type(v) is not Unknown:
                if type(v) is Tensor or type(v) is Placed:
                    return Placement(v.space, v.topo, self.holds())
                return Placement(CPU_DRAM, None, self.holds())  # an unmarked value: the host
            ty = self.types.get(recv.name) if recv._prod == "Local" else None
            if ty is None:
                cannot_finish(span, f"the placement of `{written(recv)}` is not recorded, so "
                                    f"`.topology()` cannot be decided")
            return self.placement_of(ty, frame, span)
        return query

    def placement_of(self, ty, frame, span) -> Placement:
        """Where a value of type `ty` lives, as `.topology()` reports it."""
        while ty._prod in _WRAPPERS:
            ty = ty.inner
        kind = ty._prod
        if kind in ("PinnedType", "HardwareStateType"):
            topo = unplace(self.expr(ty.topo)(frame))
            if type(topo) is not Topo:
                cannot_finish(span, "the topology in this value's type is not known while "
                                    "compiling")
            inner = self.placement_of(ty.inner, frame, span)
            return Placement(self.holds().get(topo.name, inner.space), topo, self.holds())
        if kind == "TensorType" and ty.place is not None:
            place = ty.place
            space = place.name if place._prod == "MemRef" else self.holds().get(place.name)
            if space is None:
                cannot_finish(span, f"`Topology::{place.name}` holds no memory space here")
            return Placement(space, None, self.holds())
        if kind == "RefType":
            return Placement(ty.mem.name, None, self.holds())
        if kind == "OpaqueType":
            cannot_finish(span, "the placement of this value was not inferred")
        return Placement(CPU_DRAM, None, self.holds())

    def reachable(self, node):
        """`Reachable<A, B>`: whether data can get from A's memory to B's, each a topology
        (its `memory:` space) or a memory space."""
        if self.model is None:
            cannot_finish(node.span, "`Reachable<A, B>` needs the memory model")
        spaces = []
        for ref in (node.src, node.dst):
            space = self.model.space_of(ref)
            if space is None:
                word, kind = ("Memory", "memory space") if ref._prod == "MemRef" else \
                    ("Topology", "topology")
                cannot_finish(ref.span, f"`{word}::{ref.name}` is not a declared {kind}")
            spaces.append(space)
        return self.model.route(*spaces) is not None
