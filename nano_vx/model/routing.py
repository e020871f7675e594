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
    heap: list[tuple[Fraction, tuple[str, ...], tuple[Leg, ...]]] = [(Fraction(0), (src,), ())]
    done: set[str] = set()
    while heap:
        cost, path, legs = heapq.heappop(heap)
        here = path[-1]
        if here in done:
            continue
        if here == dst:
            return Route(path, cost, legs)
        done.add(here)
        for leg in graph.get(here, ()):
            if leg.dst in done or leg.dst in path:
                continue
            total = cost + leg.cost
            if leg.dst not in best or total <= best[leg.dst]:
                best[leg.dst] = total
                heapq.heappush(heap, (total, path + (leg.dst,), legs + (leg,)))
    return None
