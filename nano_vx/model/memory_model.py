"""The `Model`: the memory spaces, topologies and edges one compilation is given."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .routing import Graph, Leg, Route, cheapest
from .spaces import SCOPES, Space
from .topologies import Edge, Topology, bandwidth_cost


@dataclass
class Model:
    spaces: dict[str, Space]
    topologies: dict[str, Topology]
    edges: list[Edge]
    builtin: bool           # the built-in model of vx-reference §2 is part of this one
    has_machine: bool       # some space has `scope: device`: a machine model is in force
    cycles: tuple[tuple[str, ...], ...] = ()  # `within:` cycles, cut where they start
    # Under a machine no host completed: its edges to and from the undeclared host memory.
    host_links: tuple[Edge, ...] = ()
    _graph: Graph | None = field(default=None, repr=False)
    _routes: dict = field(default_factory=dict, repr=False)
    _scopes: dict = field(default_factory=dict, repr=False)  # space -> its scope's holder
    _sized: dict = field(default_factory=dict, repr=False)  # space -> nearest with a capacity

    # -- topologies --------------------------------------------------------------------

    def topology_of(self, name: str) -> Topology | None:
        """The topology `name`, `NPU[0]` and `NPU[0..4]` by their base name `NPU`."""
        return self.topologies.get(name.split("[", 1)[0].strip())

    def space_of(self, place) -> str | None:
        """The memory space a `Memory::X` or `Topology::X` reference names (a topology's
        `memory:`), or None when the model declares no such space or topology."""
        if place._prod == "MemRef":
            return place.name if place.name in self.spaces else None
        topo = self.topology_of(place.name)
        return None if topo is None else topo.memory

    # -- the containment tree ----------------------------------------------------------

    def ancestors(self, space: str) -> tuple[str, ...]:
        """The `within:` chain above `space`, nearest first (not `space` itself)."""
        chain: list[str] = []
        seen = {space}
        s = self.spaces.get(space)
        while s is not None and s.within is not None and s.within not in seen:
            chain.append(s.within)
            seen.add(s.within)
            s = self.spaces.get(s.within)
        return tuple(chain)

    def scope_of(self, space: str) -> str | None:
        """The declared scope, else the nearest ancestor's: a sub-space is no wider."""
        holder = self._nearest(space, lambda s: s.scope is not None, self._scopes)
        return self.spaces[holder].scope if holder is not None else None

    def sized_ancestor(self, space: str) -> str | None:
        """The nearest ancestor of `space` (not `space` itself) that declares a capacity."""
        s = self.spaces.get(space)
        if s is None or s.within is None:
            return None
        return self._nearest(s.within, lambda s: s.capacity is not None, self._sized)

    def _nearest(self, space: str, has, cache: dict) -> str | None:
        """The first of `space` and its ancestors that `has`, remembered for every space
        walked: asked of every space of a chain, each link is walked once, not once per
        space below it."""
        walked: set[str] = set()  # a cycle stops the walk
        found = None
        while space is not None and space not in cache and space not in walked:
            s = self.spaces.get(space)
            if s is None:
                break
            walked.add(space)
            if has(s):
                found = space
                break
            space = s.within
        else:
            found = cache.get(space) if space is not None else None
        for name in walked:
            cache[name] = found
        return found

    @staticmethod
    def wider(a: str, b: str) -> bool:
        """Scope `a` is wider than scope `b` (device > sm > cta > thread)."""
        return SCOPES.index(a) < SCOPES.index(b)

    # -- routing -----------------------------------------------------------------------

    def route(self, src: str, dst: str) -> Route | None:
        """The cheapest route from space `src` to space `dst`; None when there is no path
        or either space is unknown."""
        if src not in self.spaces or dst not in self.spaces:
            return None
        key = (src, dst)
        if key not in self._routes:
            self._routes[key] = cheapest(self.graph(), src, dst)
        return self._routes[key]

    def staged_route(self, src: str, dst: str) -> Route | None:
        """The cheapest route from `src` to `dst` through the host links (`host_links`):
        where a move would stage through host memory once an input declared it; None when
        there are none, or they make no path."""
        if not self.host_links:
            return None
        graph = {space: list(legs) for space, legs in self.graph().items()}
        for e in self.host_links:
            graph.setdefault(e.src, []).append(Leg(e.src, e.dst, e.cost, "edge"))
        return cheapest(graph, src, dst)

    def graph(self) -> Graph:
        if self._graph is None:
            self._graph = _graph(self)
        return self._graph


def _graph(model: Model) -> Graph:
    cheapest_edge: dict[tuple[str, str], Fraction] = {}
    for e in model.edges:
        key = (e.src, e.dst)
        cheapest_edge[key] = min(e.cost, cheapest_edge.get(key, e.cost))
    graph: Graph = {}
    for (src, dst), cost in sorted(cheapest_edge.items()):
        graph.setdefault(src, []).append(Leg(src, dst, cost, "edge"))
    with_edges = {e.src for e in model.edges} | {e.dst for e in model.edges}
    for s in model.spaces.values():
        if s.within is None or s.name in with_edges or s.within not in model.spaces:
            continue
        cost = bandwidth_cost(s.bandwidth_bps) if s.bandwidth_bps else Fraction(0)
        graph.setdefault(s.within, []).append(Leg(s.within, s.name, cost, "within"))
        graph.setdefault(s.name, []).append(Leg(s.name, s.within, cost, "within"))
    return graph
