"""Working sets: the tiles one function places in a memory space, how long each stays, and
what each call leaves resident while the callee runs.

summarize-working-sets finds them and leaves them on the compilation (`working_sets`,
`call_sites`); check-capacity judges each function's sets against capacities,
schedule-sub-spaces lays them out, and fold-working-sets adds them up along the call graph,
so all three agree on what is resident when because they read one analysis.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l4_resolved import display_name


@dataclass
class Tile:
    space: str
    size: int  # exact bytes of the tensor
    footprint: int  # bytes it occupies: rounded up to the space's granule
    transfer: object  # the Transfer node that placed it
    ordinal: int  # which transfer of the program it is, counting in walk order from 0
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
