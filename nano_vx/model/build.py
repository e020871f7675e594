"""build_model: the Model of a program's `Memory`/`Topology` items, reporting what is wrong.

With no machine model (no declared space has `scope: device`), the built-in model is in
force and declarations add to it or refine it by name. With one, the declarations are the
whole model: a machine file says which spaces exist, and no host is assumed (E6014 is the
routing pass's): a machine file's host-link edges name `CPU_DRAM` before any host declares
it, and wait for one (kept as `host_links`, so that routing can say a move would stage
through it). The host program still runs on `CPU`: when no `Topology CPU` is declared, `CPU`
holds `CPU_DRAM` and sees only it, whether or not a host declared that space (a move to,
from or only through an undeclared `CPU_DRAM` is then E6014).
"""

from __future__ import annotations

from dataclasses import replace

from . import builtin
from .derived_costs import price_edges
from .memory_model import Model
from .spaces import Space, read_space
from .topologies import Edge, Topology, read_topology

HOST_MEMORY = "CPU_DRAM"


def build_model(items, diagnostics) -> Model:
    """The model the declarations describe; E2001, E6008 and E6016 for what cannot be read,
    E6013 for an edge that writes a cost derived from `within:` (derived_costs.py). A
    `within:` cycle is cut and kept on `model.cycles`."""
    spaces: dict[str, Space] = {}
    parents = {}
    topologies: dict[str, Topology] = {}
    edges: list[Edge] = []
    refs, edge_refs = [], []
    for item in items:
        if item._prod == "MemoryDecl":
            spaces[item.name], parents[item.name] = read_space(item, diagnostics)
        elif item._prod == "TopologyDecl":
            topology, its_edges, its_refs, its_edge_refs = read_topology(item, diagnostics)
            if topology is not None:
                topologies[item.name] = topology
            edges.extend(its_edges)
            refs.extend(its_refs)
            edge_refs.extend(its_edge_refs)
    has_machine = any(s.scope == "device" for s in spaces.values())
    if not has_machine:
        spaces = builtin.SPACES | spaces
        topologies = builtin.TOPOLOGIES | topologies
        edges = builtin.EDGES + edges
    refs.extend(r for r in parents.values() if r is not None)
    refs.extend(r for r in edge_refs if not (has_machine and r.name == HOST_MEMORY))
    unknown = _report_unknown(refs, spaces, diagnostics)
    if has_machine and HOST_MEMORY not in spaces:
        unknown.add(HOST_MEMORY)
    spaces = {n: replace(s, within=None) if s.within in unknown else s
              for n, s in spaces.items()}
    topologies = {n: replace(t, visible=tuple(v for v in t.visible if v not in unknown))
                  for n, t in topologies.items() if t.memory not in unknown}
    # A machine's host links wait for a host; routing asks them whether a move that finds
    # no path would have staged through the host memory no input declares (E6014).
    host_links = tuple(e for e in edges if HOST_MEMORY in unknown and e.cost is not None
                       and HOST_MEMORY in (e.src, e.dst)
                       and not {e.src, e.dst} - {HOST_MEMORY} & unknown)
    edges = [e for e in edges if e.src not in unknown and e.dst not in unknown]
    if has_machine and "CPU" not in topologies:
        topologies["CPU"] = Topology("CPU", HOST_MEMORY, (HOST_MEMORY,), arch="x86_64")
    cycles = _cut_cycles(spaces)
    model = Model(spaces, topologies, [], builtin=not has_machine, has_machine=has_machine,
                  cycles=cycles, host_links=host_links)
    # Derived costs follow `within:`, so they wait until the tree is whole and acyclic.
    model.edges = price_edges(model, edges, diagnostics)
    return model


def _cut_cycles(spaces: dict[str, Space]) -> tuple[tuple[str, ...], ...]:
    """Cut each `within:` cycle at its first declared member, so that every walk up the tree
    ends; return the cycles, each from that member round to it again (check-memory-
    declarations reports them)."""
    settled: set[str] = set()
    order = {name: i for i, name in enumerate(spaces)}
    cycles = []
    for name in order:
        chain: dict[str, None] = {}  # in order, with a constant-time membership test
        here = name
        while here in spaces and here not in settled and here not in chain:
            chain[here] = None
            here = spaces[here].within
        settled.update(chain)
        if here not in chain:
            continue  # reached the root, an unknown name, or a part already checked
        walked = list(chain)
        cycle = walked[walked.index(here):]
        first = min(cycle, key=order.__getitem__)
        at = cycle.index(first)
        cycles.append((*cycle[at:], *cycle[:at], first))
        spaces[first] = replace(spaces[first], within=None)
    return tuple(cycles)


def _report_unknown(refs, spaces, diagnostics) -> set[str]:
    unknown = set()
    for ref in refs:
        if ref.name in spaces:
            continue
        unknown.add(ref.name)
        diagnostics.error("E2001", ref.span, f"no memory space named '{ref.name}'",
                          help=["the memory spaces are " + ", ".join(sorted(spaces))],
                          name=ref.name)
    return unknown
