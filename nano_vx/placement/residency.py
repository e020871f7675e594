"""Working sets: the tiles one function places by `transfer`, and how long each stays.

Every value node of a function gets a point, in evaluation order. A tile is placed at its
transfer's point and stays resident to the last use of the local it is bound to (`let sx =
transfer(x, W)`; a tile bound to nothing lives at its point only). A use inside a loop that
the placement is outside of keeps the tile to the end of that loop, since the next iteration
uses it again. A space's working set is the peak, over the points, of the sum of resident
tiles, each rounded up to the space's granule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .sizes import rounded, tensor_bytes
from .visibility import display
from .walk import PlacedWalk

_LOOPS = ("For", "While")


@dataclass
class Tile:
    space: str
    size: int  # exact bytes of the tensor
    footprint: int  # bytes it occupies: rounded up to the space's granule
    transfer: object  # the Transfer node that placed it
    start: int
    name: str | None = None  # the local it is bound to
    last: int = 0

    def __post_init__(self):
        self.last = self.start

    @property
    def label(self) -> str:
        return f"'{display(self.name)}'" if self.name is not None else "a temporary"


@dataclass
class WorkingSet:
    function: str
    space: str
    peak: int  # bytes at the peak
    resident: list[Tile] = field(default_factory=list)  # the tiles resident at the peak
    tiles: list[Tile] = field(default_factory=list)  # every tile placed in the space


class Residency(PlacedWalk):
    """Collects the tiles of each function; `sets` lists the working set of each space that
    is bounded or has a granule."""

    def __init__(self, tree, model):
        super().__init__(tree, model)
        self.point = 0
        self.sets: list[WorkingSet] = []

    def function(self, fn):
        self.tiles: list[Tile] = []
        self.bound: dict[str, Tile] = {}
        self.loops: list[tuple[int, int]] = []
        self.uses: list[tuple[str, int]] = []
        super().function(fn)
        for name, at in self.uses:
            tile = self.bound.get(name)
            if tile is not None and at > tile.start:
                tile.last = max(tile.last, self._through_loops(tile.start, at))
        self.sets.extend(self._working_sets(fn.name))

    def _through_loops(self, placed: int, used: int) -> int:
        """A use in a loop that does not hold the placement lasts to the loop's end."""
        end = used
        for start, stop in self.loops:
            if start <= used <= stop and not start <= placed <= stop:
                end = max(end, stop)
        return end

    def node(self, n):
        self.point += 1
        if n._prod in _LOOPS:
            start = self.point
            super().node(n)
            self.loops.append((start, self.point))
            return
        if n._prod == "Let" and n.value._prod == "Transfer":
            super().node(n)
            tile = next((t for t in reversed(self.tiles) if t.transfer is n.value), None)
            if tile is not None:
                tile.name = n.name
                self.bound[n.name] = tile
            return
        super().node(n)

    def visit(self, n):
        if n._prod == "Local":
            self.uses.append((n.name, self.point))
        elif n._prod == "Transfer":
            self.place(n)

    def place(self, transfer):
        space = self.model.spaces.get(transfer.dest.name)
        size = tensor_bytes(self.type_of(transfer.value))
        if space is None or size is None or space.capacity is None and not space.granule:
            return  # unknown, no static size, or neither bounded nor scheduled
        self.tiles.append(Tile(space.name, size, rounded(size, space.granule), transfer,
                               self.point))

    def _working_sets(self, fn_name: str):
        for space in dict.fromkeys(t.space for t in self.tiles):
            tiles = [t for t in self.tiles if t.space == space]
            best = WorkingSet(fn_name, space, 0, [], tiles)
            for at in sorted({t.start for t in tiles}):
                live = [t for t in tiles if t.start <= at <= t.last]
                total = sum(t.footprint for t in live)
                if total > best.peak:
                    best.peak, best.resident = total, live
            yield best
