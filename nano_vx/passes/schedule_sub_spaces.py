"""schedule-sub-spaces: Lrouted -> Lscheduled."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscheduled import Lscheduled
from ..languages.lrouted import Lrouted
from ..nanopass import Pass


@dataclass(frozen=True)
class Assignment:
    space: str
    offset: int
    slots: int


@dataclass
class State:
    slots: dict[int, Assignment] = field(default_factory=dict)  # by the transfer's ordinal
    ordinal: int = 0  # transfers met so far, counted as summarize-working-sets counts them


schedule_sub_spaces = Pass("schedule-sub-spaces", Lrouted, Lscheduled, """
Give each tile placed in a space with a granule its slot: a byte offset and a granule count.

A granule-rounded bump allocator per function and space: a tile starts at the end of the
highest tile placed before it that is ever resident with it (the working sets of
summarize-working-sets, the ones check-capacity judged): still resident where it is placed,
or, when a loop carries it into its next turn, placed on that turn before the read of it.
It takes its size rounded up to whole granules, so a tile reuses the room of tiles that died
before it and two tiles resident at once never overlap, but for two turns' tiles of one
transfer (a loop that places the next before it reads the last), which share its one slot.
The assignment and the space's descriptor ride on the Transfer as metadata for later passes
and the back end; spaces without a granule (device-global HBM/DRAM) are not scheduled.
""", state=State, requires=("model", "working_sets"))


@schedule_sub_spaces.on("Program")
def _program(run, node):
    for ws in run.ctx.working_sets:
        granule = run.ctx.model.spaces[ws.space].granule
        if not granule:
            continue
        placed: list[tuple[object, int]] = []  # (tile, offset), in placement order
        for tile in sorted(ws.tiles, key=lambda t: t.start):
            live = [off + t.footprint for t, off in placed if t.coexists(tile)]
            offset = max(live, default=0)
            placed.append((tile, offset))
            if tile.ordinal is not None:  # a tile made in place has no transfer to carry it
                run.state.slots[tile.ordinal] = Assignment(ws.space, offset,
                                                           tile.footprint // granule)
    return run.rebuild(node)


@schedule_sub_spaces.on("Transfer")
def _transfer(run, node):
    got = run.state.slots.get(run.state.ordinal)
    run.state.ordinal += 1
    value = run.walk(node.value)
    slot = None
    if got is not None:
        s = run.ctx.model.spaces[got.space]
        desc = Lscheduled["SubSpace"](s.name, s.capacity, s.granule, s.within, s.scope,
                                      s.managed, s.replicas, s.overcommit, span=node.dest.span)
        slot = Lscheduled["Slot"](got.offset, got.slots, desc, span=node.dest.span)
    return Lscheduled["Transfer"](value, node.dest, node.mark, node.src, node.route, slot,
                                  span=node.span)
