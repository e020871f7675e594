"""Routing: the cheapest chain of legs from one memory space to another (Dijkstra, exact).

The graph has two kinds of leg:
- `edge`: a declared (or built-in) `transfer A -> B : cost` edge, one way; when several
  topologies declare the same pair, the cheapest counts.
- `within`: between a space that has no edges of its own and its `within:` parent, both
  ways. That is how a sub-space is reached through its ancestors, and how a move between
  two siblings meets at their nearest common ancestor and pays both legs. A `within` leg
  costs by the sub-space's own bandwidth (topologies.bandwidth_cost), and 0 when the space
  declares none: no figure, no price.

A route starting in a sub-space starts there (the value is already resident), so its first
legs climb out of it. Costs are Fractions, so equal routes compare equal; among routes of
equal cost the lexicographically smallest path wins, so the answer never depends on the
order of declarations.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Leg:
    src: str
    dst: str
    cost: Fraction
    via: str  # "edge" or "within"


@dataclass(frozen=True)
class Route:
    path: tuple[str, ...]   # the spaces visited, source first, destination last
    cost: Fraction          # the sum of the legs' costs
    legs: tuple[Leg, ...] = ()

    def describe(self) -> str:
        return " -> ".join(self.path) + f" (cost {self.cost})"


def cost_text(cost: Fraction) -> str:
    """A cost as a message says it: `50`, or four significant digits when not whole."""
    return str(cost.numerator) if cost.denominator == 1 else f"{float(cost):.4g}"


def cost_number(cost: Fraction) -> int | float:
    """A cost as JSON carries it."""
    return cost.numerator if cost.denominator == 1 else float(cost)


Graph = dict[str, list[Leg]]


def cheapest(graph: Graph, src: str, dst: str) -> Route | None:
    """The cheapest route from src to dst in `graph`, or None when there is no path."""
    if src == dst:
        return Route((src,), Fraction(0))
    best: dict[str, Fraction] = {src: Fraction(0)}
    heap: list[tuple[Fraction, _Path]] = [(Fraction(0), _Path(src))]
    done: set[str] = set()
    while heap:
        cost, path = heapq.heappop(heap)
        here = path.here
        if here in done:
            continue
        if here == dst:
            return path.route(cost)
        done.add(here)  # every space on `path` is done: a route never visits one twice
        for leg in graph.get(here, ()):
            if leg.dst in done:
                continue
            total = cost + leg.cost
            if leg.dst not in best or total <= best[leg.dst]:
                best[leg.dst] = total
                heapq.heappush(heap, (total, _Path(leg.dst, leg, path)))
    return None


class _Path:
    """A route so far, as its last leg and the route it extends. Extending one costs the
    same however long it is, where a tuple of spaces is copied whole: along a `within:`
    chain of n spaces that made routing quadratic. Paths compare as their tuples of spaces
    would (equal costs go to the lexicographically smallest), in time logarithmic in their
    length: `up[k]` is the path 2**k legs shorter, so the point where two paths part is
    found by halving (binary lifting), not by walking back to the start."""

    __slots__ = ("here", "leg", "back", "depth", "up")

    def __init__(self, here: str, leg: Leg | None = None, back: _Path | None = None):
        self.here, self.leg, self.back = here, leg, back
        self.depth = 0 if back is None else back.depth + 1
        up = [] if back is None else [back]
        while up and len(up[-1].up) >= len(up):
            up.append(up[-1].up[len(up) - 1])
        self.up = up

    def _at(self, depth: int) -> _Path:
        """The start of this path that is `depth` legs long."""
        p, k, rise = self, 0, self.depth - depth
        while rise:
            if rise & 1:
                p = p.up[k]
            rise, k = rise >> 1, k + 1
        return p

    def __lt__(self, other: _Path) -> bool:
        depth = min(self.depth, other.depth)
        a, b = self._at(depth), other._at(depth)
        if a is b:  # one path starts the other
            return self.depth < other.depth
        for k in reversed(range(len(a.up))):
            if a.up[k] is not b.up[k]:
                a, b = a.up[k], b.up[k]
        # a and b extend the same path by one leg each. Two legs to the same space are
        # parallel edges, and only one of the two paths was extended further (the other
        # space was done by then): the shorter path is then a start of the longer.
        return a.here < b.here if a.here != b.here else self.depth < other.depth

    def route(self, cost: Fraction) -> Route:
        spaces, legs = [], []
        p = self
        while p is not None:
            spaces.append(p.here)
            if p.leg is not None:
                legs.append(p.leg)
            p = p.back
        return Route(tuple(reversed(spaces)), cost, tuple(reversed(legs)))
