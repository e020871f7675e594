"""The memory model: memory spaces, topologies and transfer edges, and routing between spaces.

Built from the program's `Memory`/`Topology` items (with those of `--machine`/`--host` files
appended by load-machine-files) by the pass check-memory-declarations, which checks that the
containment tree makes sense and provides it as the fact `model` for later passes. Tests may
build one directly:

    model = build_model(program.items, diagnostics)     # reports E2001/E6008/E6013/E6016

API (everything is exact: sizes are int bytes, rates and costs are Fractions):

    model.spaces[name] -> Space(name, capacity: int | None (bytes, ONE replica),
                                granule: int | None, within: str | None,
                                scope: str | None ("device" | "sm" | "cta" | "thread", as
                                declared), managed: "explicit" | "cached",
                                replicas: int (default 1), overcommit: bool,
                                bandwidth_bps: Fraction | None (B/cyc times clock when both
                                are given), bytes_per_cycle, clock_hz, span (None: built in))
    model.topologies[name] -> Topology(name, memory: str, visible: tuple[str, ...] (memory
                                first; default (memory,)), dtypes: tuple[str, ...] | None,
                                arch: str | None (as written; an unknown target is
                                W1029), replicas: int (pins held at once by
                                `try_pin`; default 1), span)
    model.topology_of("NPU[0]") -> Topology | None      # by base name: NPU[i], NPU[a..b]
                                # Under a machine model `CPU` always exists and holds
                                # CPU_DRAM, which is in model.spaces only when an input
                                # declares it (--host); moving to or from it is E6014.
    model.staged_route(src, dst) -> Route | None        # through the machine's host links
                                # to that undeclared CPU_DRAM (model.host_links): a move
                                # with no route but this one is E6014 too.
    model.route(src, dst) -> Route(path: tuple[str, ...], cost: Fraction, legs) | None
                                # cheapest; None: no path, or an unknown space. src == dst
                                # is Route((src,), 0). Leg(src, dst, cost, via "edge"|"within")
    model.ancestors(space) -> tuple[str, ...]            # `within:` chain, nearest first
    model.scope_of(space) -> str | None                  # declared, else inherited
    model.sized_ancestor(space) -> str | None            # nearest ancestor with a capacity
                                # (both remembered: asked of every space, a chain is
                                # walked once, not once per space)
    model.has_machine    # some space has `scope: device` (a machine model is in force)
    model.builtin        # the built-in model of vx-reference §2 is part of this one
    model.cycles         # `within:` cycles, each cut at its first declared member
    model.edges          # [Edge(src, dst, cost, bandwidth_bps, topology, span, derived,
                                #       ordering: "relaxed" | "sync" | None, copy_engine)]

Costs: a relative cost is taken as written; a bandwidth edge costs REFERENCE_BPS / bandwidth
(1575 GB/s, so a 31.5 GB/s PCIe 4 link costs 50 like the built-in host edge); an edge written
without a cost costs what one of the narrowest bandwidth on its `within:` path would
(derived_costs.py). See routing.py for how sub-spaces are reached through `within:`.

Modules: units (exact quantities), fields (reading one declaration), spaces, topologies,
builtin, routing (Dijkstra), memory_model (Model), derived_costs, build.
"""

from .build import build_model
from .memory_model import Model
from .routing import Leg, Route, cost_number, cost_text
from .spaces import SCOPES, Space
from .topologies import REFERENCE_BPS, Edge, Topology, bandwidth_cost

__all__ = ["REFERENCE_BPS", "SCOPES", "Edge", "Leg", "Model", "Route", "Space", "Topology",
           "bandwidth_cost", "build_model", "cost_number", "cost_text"]
