"""Lscheduled: a Transfer into a granule'd space carries its Slot and the space's descriptor."""

from __future__ import annotations

from ..nanopass import prod
from .lrouted import Lrouted

Lscheduled = Lrouted.extend(
    "Lscheduled",
    "Lrouted with sub-space schedules: each tile placed in a granule'd space has its slot",
    remove={"Expr": ["Transfer"]},
    add={
        "Expr": [prod("Transfer",
                      "value: Expr, dest: Mem, mark: mark, src: Mem?, route: Route?, slot: Slot?",
                      "slot: where the tile sits in a space with a granule, else none")],
        "Slot": [prod("Slot", "offset: int, slots: int, space: SubSpace",
                      "a byte offset and a count of granules within the space")],
        "SubSpace": [prod("SubSpace",
                          "name: name, capacity: int?, granule: int, within: name?, "
                          "scope: name?, managed: name, replicas: int, overcommit: bool",
                          "the space's full descriptor, kept for the back end")],
    },
)
