"""fuse-readers: Ssized -> Sfused."""

from __future__ import annotations

from ..languages.ssized import Ssized
from ..languages.sfused import Sfused
from ..nanopass import Pass
from ..spatial import cost
from ..spatial.handshakes import over_budget
from ..spatial.ops import loop_points, tile_coords
from ..spatial.program import Program
from ..spatial.reject import SpatialReject
from ..spatial.shapes import token_bytes, token_shapes

fuse_readers = Pass("fuse-readers", Ssized, Sfused, """
Read a tile once for all its readers, multicasting it, where the cost model says that pays.

Readers of one tile are the loads on a `reader` engine that read the same tensor with the same
tile shape and the same sequence of tile coordinates (compared point by point, so loads whose
loops differ only in a variable their index does not use, over as many points, are readers of
one tile). Each set of two or more such loads becomes the first of them in the graph's order,
which keeps its name and place and takes the out ports of the whole set; the others and their
places go. That happens when

- every receiver is on the kept load's site (its buffer is there): one read feeding several
  consumers of its own site costs no DRAM traffic and needs no network; or
- the target multicasts, the receivers' sites (their buffers') fill a rectangle of the mesh
  (what a multicast reaches: every site in it receives), and one fetch plus a multicast from
  the kept load's site to them costs fewer cycles per tile (`cost.multicast_cycles`) than
  every load fetching its own copy (`cost.read_cycles` with one copy per load), DRAM shared
  by every site that holds a load.

Otherwise the loads stay as they are, each streaming its reader its own copy. Every load left
with several out ports (fused, or one read that fed several consumers already) gets a group
`<load>_group` of all its out streams. A group costs semaphores: each receiver gets a credit
on the reader's site and a data one on its own; and on a target that keeps compute engines off
semaphores, a relay buffer beside each receiver that such an engine consumes (relay-tokens).
Where that would put more semaphores, buffers or SRAM bytes on a site than the target has, the
group with the most receivers read from that site is split in two, each half read once by its
first load (a group of one load is given up: it reads once per consumer), until every site
fits.
Buffers do not change: each receiver keeps its own buffer and its own slot accounting.
""", requires=("target",))
L = Sfused


@fuse_readers.on("Graph")
def _graph(run, g):
    p = Program(g)
    target = run.ctx.target
    shapes = token_shapes(p)
    shared = [readers for readers in _readers_of_one_tile(p)
              if (len(readers) > 1 and _fuse_pays(p, shapes, readers, target))
              or (len(readers) == 1 and len(readers[0].outs) > 1)]
    while True:
        out = _sharing(g, shared)
        site = over_budget(Program(out), target)
        if site is None:
            return out
        here = [readers for readers in shared if site in _sites_of(p, readers)]
        if not here:  # the site is short without any group: a later pass says so
            return out
        biggest = max(here, key=lambda readers: sum(len(ld.outs) for ld in readers))
        shared.remove(biggest)
        half = len(biggest) // 2
        if half:  # two smaller groups, each read once, the second from its own first load
            shared += [part for part in (biggest[:half], biggest[half:])
                       if len(part) > 1 or len(part[0].outs) > 1]


def _sites_of(p: Program, readers: list) -> set:
    """The sites a group of these readers puts semaphores or buffers on: the reading site
    and every receiver's."""
    return {p.places[readers[0].name][0]} | {p.buffers[port.stream].site
                                             for ld in readers for port in ld.outs}


def _sharing(g, shared: list):
    """The program in which each set of readers is its first load, feeding a group."""
    fused = {readers[0].name: tuple(port for ld in readers for port in ld.outs)
             for readers in shared}
    gone = {ld.name for readers in shared for ld in readers[1:]}
    stages = tuple(st.replace(outs=fused[st.name]) if st.name in fused else st
                   for st in g.stages if st.name not in gone)
    places = tuple(pl for pl in g.places if pl.stage not in gone)
    groups = tuple(L["Group"](f"{st.name}_group", st.name, tuple(o.stream for o in st.outs))
                   for st in stages if st.name in fused)
    return L["Graph"](g.name, g.tensors, g.streams, stages, places, g.buffers, groups,
                      span=g.span)


def _readers_of_one_tile(p: Program) -> list[list]:
    """The loads on reader engines that feed something, in sets of equal reads, each in
    graph order."""
    sets: dict[tuple, list] = {}
    for st in p.graph.stages:
        if st._prod != "Load" or not st.outs or _engine(p, st.name) != "reader":
            continue
        sequence = tuple(tile_coords(st.index, point) for point in loop_points(st.loops))
        sets.setdefault((st.tensor, st.tile, sequence), []).append(st)
    return list(sets.values())


def _engine(p: Program, stage: str) -> str | None:
    place = p.places.get(stage)
    return place[1] if place else None


def _fuse_pays(p: Program, shapes, readers: list, target) -> bool:
    source = p.places[readers[0].name][0]
    receivers = [_receiver_site(p, ld, port.stream) for ld in readers for port in ld.outs]
    if all(site == source for site in receivers):
        return True
    if not target.multicast or not _rectangle(set(receivers)):
        return False
    nbytes = token_bytes(p, shapes, readers[0].outs[0].stream)
    sharing = len({site for stage, (site, _) in p.places.items()
                   if p.stages[stage]._prod == "Load"})
    return (cost.multicast_cycles(target, nbytes, source, receivers, sharing)
            < cost.read_cycles(target, nbytes, copies=len(readers), sharing=sharing))


def _rectangle(sites: set) -> bool:
    """Do the sites fill a rectangle of the mesh, the shape a multicast reaches?"""
    rows = [r for r, _ in sites]
    cols = [c for _, c in sites]
    area = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
    return area == len(sites)


def _receiver_site(p: Program, load, stream: str) -> tuple:
    buffer = p.buffers.get(stream)
    if buffer is None:
        raise SpatialReject("E7002", "fuse-readers",
                            f"stream '{stream}' of load '{load.name}' has no buffer; every "
                            f"stream of an Ssized program has one", stage=load.name,
                            buffer=stream)
    return buffer.site
