"""Working sets: the tiles one function places in a memory space, how long each stays, and
what each call leaves resident while the callee runs.

summarize-working-sets finds them and leaves them on the compilation (`working_sets`,
`call_sites`); check-capacity judges each function's sets against capacities,
schedule-sub-spaces lays them out, and fold-working-sets adds them up along the call graph,
so all three agree on what is resident when because they read one analysis.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name


@dataclass
class Tile:
    space: str
    size: int  # exact bytes of the tensor
    footprint: int  # bytes it occupies: rounded up to the space's granule
    transfer: object  # the node that placed it: a Transfer, or the constructor that made it
    ordinal: int | None  # which transfer of the program it is, counting in walk order from 0;
    # None for a tile made in place, which schedule-sub-spaces gives no slot
    start: int  # the point it is placed at; points number a function's nodes in order
    name: str | None = None  # the local it is bound to
    last: int = 0  # the last point it is resident at

    def __post_init__(self):
        self.last = self.start

    @property
    def label(self) -> str:
        return f"'{display_name(self.name)}'" if self.name is not None else "a temporary"


@dataclass
class WorkingSet:
    function: str
    space: str
    peak: int  # bytes at the peak
    resident: list[Tile] = field(default_factory=list)  # the tiles resident at the peak
    tiles: list[Tile] = field(default_factory=list)  # every tile placed in the space


@dataclass
class CallSite:
    caller: str
    callee: str
    call: object  # the Call node
    point: int  # the caller's program point where the call starts
    held: dict[str, list[Tile]] = field(default_factory=dict)  # space -> tiles resident across

    def live(self, space: str) -> int:
        """The bytes the caller holds in `space` while the callee runs."""
        return sum(t.footprint for t in self.held.get(space, ()))


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start) if node.span else (0, 0)
    return f"{line}:{col}"


def describe_working_sets(working_sets: list[WorkingSet]) -> str:
    """The working sets as a reader of a dump reads them: per function and space, the peak
    and the tiles resident at it (marked *), then every tile with its size, its transfer and
    the program points it is resident at."""
    lines = []
    for ws in working_sets:
        lines.append(f"fn {ws.function}, space {ws.space}: peak {ws.peak} bytes, "
                     f"{len(ws.resident)} of {len(ws.tiles)} tiles resident at the peak")
        for t in ws.tiles:
            peak = "*" if t in ws.resident else " "
            how = "placed" if t.ordinal is None else f"transfer #{t.ordinal}"
            lines.append(f"  {peak} {t.label}: {t.size} bytes, footprint {t.footprint}, "
                         f"{how} at {_where(t.transfer)}, "
                         f"points {t.start}..{t.last}")
    return "".join(line + "\n" for line in lines)


def describe_call_sites(call_sites: list[CallSite]) -> str:
    """Each call of a function of the program, with the bytes its caller holds across it."""
    lines = []
    for c in call_sites:
        held = ", ".join(f"{space} {c.live(space)} bytes" for space in c.held) or "nothing"
        lines.append(f"call {c.caller} -> {c.callee} at {_where(c.call)}, point {c.point}: "
                     f"holds {held}")
    return "".join(line + "\n" for line in lines)
