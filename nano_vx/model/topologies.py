"""Topologies and transfer edges: what a `Topology NAME { ... }` declaration says."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ..languages.lsrc import EDGE_FLAGS, NARROW, SCALAR_NAMES, SPELLINGS
from .fields import Fields
from .units import COUNT, RATE, quantity

# The targets nano-vx knows by name. The set is open: another name is kept as written, with
# W1029 in case it is a misspelling (`arch:` is recorded, not used to generate code).
ARCHES = ("x86_64", "i686", "aarch64", "armv7", "thumbv7em", "thumbv6m", "riscv64", "riscv32",
          "powerpc64le", "s390x", "wasm32", "wasm64", "nvptx64", "amdgcn", "applegpu",
          "spirv64", "spirv32", "hexagon")
# What a device may say it represents: the element types of Vx tensors, scalar and narrow.
DTYPES = (*(s for s in SCALAR_NAMES if s != "void"), *NARROW)

TOPOLOGY_FIELDS = {
    "arch": "a target name (`nvptx64`, `x86_64`, ...)",
    "memory": "a memory space (`Memory::NAME`)",
    "visible": "a list of memory spaces (`[Memory::A, Memory::B]`)",
    "dtypes": "a list of element types (`[f32, f16]`)",
    "replicas": "a whole number (the units `try_pin` may pin at once)",
}

# One cost unit is the time a byte takes on a 1575 GB/s link, so that a PCIe 4 x16 host link
# (31.5 GB/s) costs 50, the cost of the built-in host edges: declared relative costs and
# declared bandwidths then sit on one scale, and a machine file's host link prices a copy the
# way the built-in model does.
REFERENCE_BPS = Fraction(1575 * 10**9)


def bandwidth_cost(bps: Fraction) -> Fraction:
    """The relative cost of moving over a link of `bps` bytes per second (exact)."""
    return REFERENCE_BPS / bps


@dataclass(frozen=True)
class Topology:
    name: str
    memory: str                          # the space this device holds
    visible: tuple[str, ...]             # the spaces it may read (memory first)
    dtypes: tuple[str, ...] | None = None
    arch: str | None = None
    replicas: int = 1                    # how many pins `try_pin` may hold on it at once
    span: object = None                  # the declaration; None for a built-in topology


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    # Relative; a bandwidth edge converted by bandwidth_cost. None only between reading a
    # declaration and build_model, for an edge written without a cost (derived there).
    cost: Fraction | None
    bandwidth_bps: Fraction | None = None  # as declared, or the bottleneck it was derived from
    topology: str | None = None          # the declaring topology (None: built in)
    span: object = None
    derived: bool = False                # the cost comes from the bandwidths along `within:`
    ordering: str | None = None          # "relaxed" or "sync", as the edge's flags say
    copy_engine: bool = False            # the `copy_engine` flag


def read_topology(decl, diagnostics) -> tuple[Topology | None, list[Edge], list, list]:
    """The Topology, its edges, the MemRef nodes of its fields and those of its edges (to
    check that they exist).

    No Topology when `memory:` is missing or malformed (reported): nothing can be placed on a
    device that holds no memory."""
    f = Fields(decl, "topology", TOPOLOGY_FIELDS, diagnostics)
    refs = []
    memory = f.mem("memory")
    if memory is None and f.get("memory") is None:
        f.bad(decl, f"topology '{decl.name}' does not say which memory it holds",
              help=["add `memory: Memory::NAME`"])
    visible = f.items("visible", "MemRef")
    dtypes = f.items("dtypes", "Word")
    for d in dtypes or ():
        if SPELLINGS.get(d.word, d.word) not in DTYPES:
            f.bad(d, f"`{d.word}` in `dtypes` of topology '{decl.name}' is not an element type",
                  help=["element types: " + ", ".join(DTYPES)])
    edges = [e for e in (_edge(f, node) for node in f.edges) if e is not None]
    refs.extend(r for r in (memory, *(visible or ())) if r is not None)
    edge_refs = [r for node in f.edges for r in (node.src, node.dst)]
    arch = _arch(f)
    if memory is None:
        return None, edges, refs, edge_refs
    seen = [memory.name] + [v.name for v in visible or () if v.name != memory.name]
    topology = Topology(
        name=decl.name,
        memory=memory.name,
        visible=tuple(dict.fromkeys(seen)) if visible is not None else (memory.name,),
        dtypes=(tuple(SPELLINGS.get(d.word, d.word) for d in dtypes)
                if dtypes is not None else None),
        arch=arch,
        replicas=f.count("replicas") or 1,
        span=decl.span,
    )
    return topology, edges, refs, edge_refs


def _arch(f: Fields) -> str | None:
    """The target name as written; W1029 for one nano-vx does not know."""
    field = f.get("arch")
    if field is None:
        return None
    v = field.value
    if v is None or v._prod != "Word":
        f.expected(field, v)
        return None
    if v.word not in ARCHES:
        f.diagnostics.warning(
            "W1029", v.span, f"`arch` of topology '{f.decl.name}' is `{v.word}`, a target "
                             f"nano-vx does not know; it is kept as written",
            help=["the targets it knows: " + ", ".join(ARCHES)],
            declaration=f.decl.name, arch=v.word)
    return v.word


def edge_text(src: str, dst: str) -> str:
    return f"transfer Memory::{src} -> Memory::{dst}"


def _edge(f: Fields, node) -> Edge | None:
    """The edge as written; its cost is None when it gave none (build_model derives it)."""
    where = edge_text(node.src.name, node.dst.name)
    ordering, copy_engine = _flags(f, node, where)
    edge = Edge(node.src.name, node.dst.name, None, None, f.decl.name, node.span,
                ordering=ordering, copy_engine=copy_engine)
    v = node.cost
    if v is None:
        return edge
    if v._prod != "Quantity" or v.unit is not None and quantity(v.number, v.unit)[0] != RATE:
        f.bad(v, f"the cost of `{where}` in topology '{f.decl.name}' must be a relative cost "
                 f"(a number) or a bandwidth (`31.5 GB/s`)")
        return None
    kind, value = quantity(v.number, v.unit)
    if value <= 0:
        f.diagnostics.error("E6008", v.span, f"the cost of `{where}` in topology "
                                             f"'{f.decl.name}' is {value}; it must be positive",
                            declaration=f.decl.name)
        return None
    if kind == COUNT:
        return replace(edge, cost=value)
    return replace(edge, cost=bandwidth_cost(value), bandwidth_bps=value)


def _flags(f: Fields, node, where: str) -> tuple[str | None, bool]:
    """(ordering, copy_engine) from the edge's flags; E6016 for an unknown or repeated flag,
    and for `relaxed` with `sync`."""
    seen: list[str] = []
    for flag in node.flags:
        if flag not in EDGE_FLAGS:
            f.bad(node, f"`{flag}` is not a flag of `{where}` in topology '{f.decl.name}'",
                  help=["an edge may carry `relaxed` or `sync`, and `copy_engine`"])
        elif flag in seen:
            f.bad(node, f"`{where}` in topology '{f.decl.name}' gives `{flag}` twice")
        else:
            seen.append(flag)
    if "relaxed" in seen and "sync" in seen:
        f.bad(node, f"`{where}` in topology '{f.decl.name}' is both `relaxed` and `sync`; an "
                    f"edge is one or the other")
        ordering = None
    else:
        ordering = next((o for o in ("relaxed", "sync") if o in seen), None)
    return ordering, "copy_engine" in seen
