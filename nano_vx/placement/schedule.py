"""Sub-space scheduling: a granule-rounded bump allocator per function and space.

Each tile placed in a space with a granule gets a byte offset and a number of granules
(slots). The pointer is the end of the highest tile still resident when the tile is placed,
so a tile reuses the space of tiles that died before it, and two tiles resident at once
never overlap. The same residency intervals feed check-capacity: one working set, two views.
"""

from __future__ import annotations

from dataclasses import dataclass

from .residency import Residency


@dataclass(frozen=True)
class Assignment:
    space: str
    offset: int
    slots: int


def assign(residency: Residency) -> dict[int, Assignment]:
    """id(Transfer node) -> its assignment, for every tile in a space with a granule."""
    out: dict[int, Assignment] = {}
    for ws in residency.sets:
        granule = residency.model.spaces[ws.space].granule
        if not granule:
            continue
        placed: list[tuple[object, int]] = []  # (tile, offset), in placement order
        for tile in sorted(ws.tiles, key=lambda t: t.start):
            live = [off + t.footprint for t, off in placed if t.start <= tile.start <= t.last]
            offset = max(live, default=0)
            placed.append((tile, offset))
            out[id(tile.transfer)] = Assignment(ws.space, offset, tile.footprint // granule)
    return out
