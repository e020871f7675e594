"""Memory spaces: what a `Memory NAME { ... }` declaration says, read into a `Space`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .fields import Fields
from .units import PER_CYCLE

# Widest first: a space `within:` another may be private to the same level or a narrower one.
SCOPES = ("device", "sm", "cta", "thread")
MANAGED = ("explicit", "cached")

MEMORY_FIELDS = {
    "within": "a memory space (`Memory::NAME`)",
    "capacity": "a size (`228 KiB`, `40 GB`, or a number of bytes)",
    "bandwidth": "a bandwidth (`3.35 TB/s` or `128 B/cyc`)",
    "clock": "a clock frequency (`1.98 GHz`)",
    "granule": "a size (`16 KiB`)",
    "scope": "one of " + ", ".join(SCOPES),
    "managed": "one of " + ", ".join(MANAGED),
    "replicas": "a whole number (the per-SM copies)",
    "overcommit": "a bare flag",
}


@dataclass(frozen=True)
class Space:
    name: str
    capacity: int | None = None          # bytes, of ONE replica
    granule: int | None = None           # bytes
    within: str | None = None            # the parent space's name
    scope: str | None = None             # as declared; see Model.scope_of for the inherited one
    managed: str = "explicit"
    replicas: int = 1
    overcommit: bool = False
    bandwidth_bps: Fraction | None = None  # bytes per second (B/cyc times the clock)
    bytes_per_cycle: Fraction | None = None
    clock_hz: Fraction | None = None
    span: object = None                  # the declaration; None for a built-in space


def read_space(decl, diagnostics) -> tuple[Space, object]:
    """The Space a MemoryDecl declares, and the MemRef node of its `within:` (for reports)."""
    f = Fields(decl, "memory space", MEMORY_FIELDS, diagnostics)
    for edge in f.edges:
        f.bad(edge, f"memory space '{decl.name}' cannot declare transfer edges",
              help=["declare edges in a `Topology`: `transfer Memory::A -> Memory::B : cost`"])
    rate, clock = f.rate("bandwidth"), f.clock("clock")
    per_cycle = bps = None
    if rate is not None:
        if rate[0] == PER_CYCLE:
            per_cycle = rate[1]
            bps = per_cycle * clock if clock is not None else None
        else:
            bps = rate[1]
    parent = f.mem("within")
    space = Space(
        name=decl.name,
        capacity=f.size("capacity"),
        granule=f.size("granule"),
        within=parent.name if parent is not None else None,
        scope=f.word("scope", SCOPES),
        managed=f.word("managed", MANAGED) or "explicit",
        replicas=f.count("replicas") or 1,
        overcommit=f.flag("overcommit"),
        bandwidth_bps=bps,
        bytes_per_cycle=per_cycle,
        clock_hz=clock,
        span=decl.span,
    )
    return space, parent
