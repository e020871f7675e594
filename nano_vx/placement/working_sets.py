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
    # Stretches outside its own span where its local may hold it, as (first, last, before):
    # where a loop's next turn finds it before its placement (its local carries it round the
    # loop, reading it there before giving it a new tile), from the loop's first point to
    # that read; and after a branch or a loop whose arm left it to its local, from there to
    # the last use of the local. `before` is a tile of its local, of the same footprint,
    # resident over the stretch on the other paths (on the loop's first turn, or through
    # the other arms): the two are never resident at once, and `before` stands for its bytes.
    again: list[tuple[int, int, Tile | None]] = field(default_factory=list, compare=False,
                                                       repr=False)
    # Stretches of points between its start and its last where it is not resident: the rest
    # of a branch's arm (or a loop's turn) once the arm gives its local another tile, or the
    # arms after the one that placed it; its later uses are on the paths through the others.
    gaps: list[tuple[int, int]] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self):
        self.last = self.start

    def spans(self, *, counted: bool = False) -> list[tuple[int, int, Tile | None]]:
        """The stretches of points it is resident at, each with the tile that holds it on the
        loop's first turn instead (None for its own span); with `counted`, only those whose
        bytes it adds itself, which a tile standing for it does not."""
        own, lo = [], self.start
        for gap_lo, gap_hi in sorted(self.gaps):
            if lo < gap_lo:
                own.append((lo, min(gap_lo - 1, self.last), None))
            lo = max(lo, gap_hi + 1)
        if lo <= self.last:  # a gap never starts at the placement
            own.append((lo, self.last, None))
        return own + [s for s in self.again if not (counted and s[2] is not None)]

    def coexists(self, other: Tile) -> bool:
        """Whether the two are ever resident at once: what schedule-sub-spaces keeps apart."""
        return any(lo <= other_hi and other_lo <= hi
                   for lo, hi, before in self.spans()
                   for other_lo, other_hi, other_before in other.spans()
                   if before is not other and other_before is not self)

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
    point: int | None = None  # the program point of the peak


@dataclass
class CallSite:
    caller: str
    callee: str
    call: object  # the Call node
    point: int  # the caller's program point where the call starts
    held: dict[str, list[Tile]] = field(default_factory=dict)  # space -> tiles resident across
    # The tiles its arguments place and hand to the callee (`step(transfer(x, M))`): placed
    # after the call starts, held across it all the same.
    given: list[Tile] = field(default_factory=list)

    def live(self, space: str) -> int:
        """The bytes the caller holds in `space` while the callee runs."""
        return sum(t.footprint for t in self.held.get(space, ()))


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start) if node.span else (0, 0)
    return f"{line}:{col}"


def _placed(t: Tile) -> str:
    how = "placed" if t.ordinal is None else f"transfer #{t.ordinal}"
    return f"{how} at {_where(t.transfer)}"


def describe_working_sets(working_sets: list[WorkingSet]) -> str:
    """The working sets as a reader of a dump reads them: per function and space, the peak
    and the tiles resident at it (marked *), then every tile with its size, its transfer and
    the program points it is resident at (but for the gaps in them): on a loop's next turn
    too, with the tile its local held there on the first turn, and after the branch whose arm
    left it to its local, with the tile counted there for it."""
    lines = []
    for ws in working_sets:
        distinct = len({id(t) for t in ws.resident})
        twice = len(ws.resident) - distinct  # this turn's and the one a loop carried
        lines.append(f"fn {ws.function}, space {ws.space}: peak {ws.peak} bytes, "
                     f"{distinct} of {len(ws.tiles)} tiles resident at the peak"
                     + (f", {twice} of them twice" if twice else ""))
        for t in ws.tiles:
            peak = "*" if t in ws.resident else " "
            gaps = "".join(f", not {lo}..{min(hi, t.last)}" for lo, hi in t.gaps
                           if lo <= t.last)
            again = "".join((f", {lo}..{hi} on a next turn"
                             + (f" ({_placed(before)} on the first)" if before else ""))
                            if lo < t.start else
                            f", {lo}..{hi} after its arm (counted as {_placed(before)})"
                            for lo, hi, before in t.again)
            lines.append(f"  {peak} {t.label}: {t.size} bytes, footprint {t.footprint}, "
                         f"{_placed(t)}, points {t.start}..{t.last}{gaps}{again}")
    return "".join(line + "\n" for line in lines)


def describe_call_sites(call_sites: list[CallSite]) -> str:
    """Each call of a function of the program, with the bytes its caller holds across it."""
    lines = []
    for c in call_sites:
        held = ", ".join(f"{space} {c.live(space)} bytes" for space in c.held) or "nothing"
        lines.append(f"call {c.caller} -> {c.callee} at {_where(c.call)}, point {c.point}: "
                     f"holds {held}")
    return "".join(line + "\n" for line in lines)
