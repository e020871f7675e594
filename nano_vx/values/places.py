"""Values that name places: topologies, memory spaces and placement queries.

The interpreter and the compile-time evaluator both make and compare them, so an assert
about placement decided while compiling means what it would have meant at run time.
"""

from __future__ import annotations

CPU_DRAM = "CPU_DRAM"


class Topo:
    """`Topology::NAME`, `Topology::NAME[i]` or `Topology::NAME[a..b]` with its bounds evaluated."""

    __slots__ = ("name", "index", "end")
    kind = "topology"

    def __init__(self, name: str, index: int | None, end: int | None):
        self.name, self.index, self.end = name, index, end

    def key(self):
        return (self.name, self.index, self.end)

    def __str__(self):
        if self.index is None:
            return f"Topology::{self.name}"
        rng = f"{self.index}..{self.end}" if self.end is not None else f"{self.index}"
        return f"Topology::{self.name}[{rng}]"


class SomeTopo:
    __slots__ = ("topo",)
    kind = "Option<Topology>"

    def __init__(self, topo: Topo):
        self.topo = topo


class NoTopo:
    __slots__ = ()
    kind = "Option<Topology>"


NONE_TOPO = NoTopo()


class MemValue:
    """`Memory::NAME` used as a value."""

    __slots__ = ("name",)
    kind = "memory space"

    def __init__(self, name: str):
        self.name = name


class Placement:
    """What `x.topology()` gives: the topology x was spawned on, else the one holding its
    space (None when no topology holds it)."""

    __slots__ = ("space", "pinned", "holder")
    kind = "placement query"

    def __init__(self, space: str, pinned: Topo | None, holds: dict):
        self.space, self.pinned = space, pinned
        self.holder = next((t for t, s in holds.items() if s == space), None)

    def matches(self, other) -> bool:
        if type(other) is NoTopo:
            return self.pinned is None and self.holder is None
        if self.pinned is not None:
            return self.pinned.key() == other.topo.key()
        # Only the space is known: any unit of the holding kind (NPU[0], NPU[3]) matches.
        return self.holder == other.topo.name


def same(a, b):
    """== on place values, or None when neither side is one (an ordinary comparison)."""
    ta, tb = type(a), type(b)
    if ta is Placement and tb in (SomeTopo, NoTopo):
        return a.matches(b)
    if tb is Placement and ta in (SomeTopo, NoTopo):
        return b.matches(a)
    if ta is SomeTopo and tb is SomeTopo:
        return a.topo.key() == b.topo.key()
    if ta is NoTopo or tb is NoTopo:
        return ta is tb
    if ta is Topo and tb is Topo:
        return a.key() == b.key()
    if ta is MemValue and tb is MemValue:
        return a.name == b.name
    if ta in _PLACE_TYPES or tb in _PLACE_TYPES:
        return False
    return None


_PLACE_TYPES = (Topo, SomeTopo, NoTopo, MemValue, Placement)
