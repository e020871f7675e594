"""The cost of a transfer edge written without one, derived from the bandwidths along `within:`.

`transfer Memory::HBM -> Memory::L2` (no cost) moves data along the containment tree: from
HBM up to the nearest space that contains both ends and down to L2 (here HBM is that space).
Every space on that path carries the data, so the copy streams no faster than the slowest of
them: the edge costs what a declared edge of that bottleneck bandwidth costs
(topologies.bandwidth_cost, on the scale of relative costs). A space that declares no
bandwidth, or one in B/cyc with no `clock:`, does not bound it.

So a cost is derivable when both ends are in one `within:` tree and some space on the path
between them declares a bandwidth in bytes per second. An edge that writes a cost anyway is
E6013 (two prices for one edge); one that writes none where none is derivable is E6016,
naming what is missing. Built-in edges are taken as they are.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from .routing import cost_number, cost_text
from .topologies import Edge, bandwidth_cost, edge_text
from .units import show_rate


def price_edges(model, edges: list[Edge], diagnostics) -> list[Edge]:
    """The edges with every cost settled: derived where none was written (dropped after
    E6016 when none can be), and E6013 where one was written but a derived one exists."""
    priced = []
    for e in edges:
        if e.topology is None:  # built in
            priced.append(e)
            continue
        path = containment_path(model, e.src, e.dst)
        found = _bottleneck(model, path) if path is not None else None
        if e.cost is None:
            if found is None:
                _underivable(model, e, path, diagnostics)
                continue
            _, bps = found
            priced.append(replace(e, cost=bandwidth_cost(bps), bandwidth_bps=bps, derived=True))
        else:
            if found is not None:
                _two_prices(e, path, found, diagnostics)
            priced.append(e)
    return priced


def containment_path(model, a: str, b: str) -> tuple[str, ...] | None:
    """The spaces from `a` up to the nearest space containing both and down to `b`, ends
    included; None when they are in different `within:` trees."""
    up_a = (a, *model.ancestors(a))
    up_b = (b, *model.ancestors(b))
    at = {s: i for i, s in enumerate(up_b)}
    for i, s in enumerate(up_a):
        if s in at:
            return up_a[:i + 1] + tuple(reversed(up_b[:at[s]]))
    return None


def _bottleneck(model, path: tuple[str, ...]) -> tuple[str, Fraction] | None:
    """(space, bytes per second) of the narrowest space on `path` that declares a
    bandwidth; the first of equals."""
    rated = [(name, model.spaces[name].bandwidth_bps) for name in path
             if model.spaces[name].bandwidth_bps is not None]
    return min(rated, key=lambda r: r[1]) if rated else None


def _two_prices(e: Edge, path, found, diagnostics) -> None:
    space, bps = found
    derived = bandwidth_cost(bps)
    written = show_rate(e.bandwidth_bps) if e.bandwidth_bps is not None else cost_text(e.cost)
    where = edge_text(e.src, e.dst)
    diagnostics.error(
        "E6013", e.span,
        f"`{where}` in topology '{e.topology}' gives the cost {written}, but its cost is "
        f"derived from the bandwidths along `within:`: {cost_text(derived)} (the "
        f"{show_rate(bps)} of {space}, the narrowest on {' -> '.join(path)})",
        help=[f"drop the cost: `{where}`"],
        edge=f"{e.src} -> {e.dst}", topology=e.topology, cost=written,
        derived=cost_number(derived), bottleneck=space)


def _underivable(model, e: Edge, path, diagnostics) -> None:
    where = edge_text(e.src, e.dst)
    if path is None:
        why = f"{e.src} and {e.dst} are not in one `within:` tree"
    else:
        why = f"no space on {' -> '.join(path)} declares a bandwidth in bytes per second"
    per_cycle = [name for name in path or ()
                 if model.spaces[name].bytes_per_cycle is not None]
    notes = [f"the bandwidth of {name} is per cycle, and it declares no `clock:` to make it "
             f"bytes per second" for name in per_cycle]
    diagnostics.error(
        "E6016", e.span,
        f"`{where}` in topology '{e.topology}' has no cost, and none can be derived: {why}",
        notes=notes,
        help=[f"write its cost: `{where} : 20` (a relative cost) or `: 31.5 GB/s` (the "
              f"link's bandwidth)"],
        declaration=e.topology, edge=f"{e.src} -> {e.dst}")
