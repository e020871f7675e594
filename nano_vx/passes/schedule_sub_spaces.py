"""schedule-sub-spaces: Lrouted -> Lscheduled."""

from __future__ import annotations

from ..languages.l7_routed import Lrouted
from ..languages.l8_scheduled import Lscheduled
from ..nanopass import Pass
from ..placement.residency import Residency
from ..placement.schedule import assign

schedule_sub_spaces = Pass("schedule-sub-spaces", Lrouted, Lscheduled, """
Give each tile placed in a space with a granule its slot: a byte offset and a granule count.

A granule-rounded bump allocator per function and space: a tile starts at the end of the
highest tile still resident when it is placed (residency as check-capacity computes it), and
takes its size rounded up to whole granules. The assignment and the space's descriptor ride
on the Transfer as metadata for later passes and the back end; spaces without a granule
(device-global HBM/DRAM) are not scheduled.
""")

S = Lscheduled.nodes


@schedule_sub_spaces.on("Program")
def _program(run, node):
    run.state["slots"] = assign(Residency(node, run.ctx.model).run())
    return run.rebuild(node)


@schedule_sub_spaces.on("Transfer")
def _transfer(run, node):
    value = run.walk(node.value)
    got = run.state["slots"].get(id(node))
    slot = None
    if got is not None:
        s = run.ctx.model.spaces[got.space]
        desc = S["SubSpace"](s.name, s.capacity, s.granule, s.within, s.scope, s.managed,
                             s.replicas, s.overcommit, span=node.dest.span)
        slot = S["Slot"](got.offset, got.slots, desc, span=node.dest.span)
    return S["Transfer"](value, node.dest, node.mark, node.src, node.route, slot, span=node.span)
