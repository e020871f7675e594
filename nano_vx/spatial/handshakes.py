"""Which handshake a buffer needs, where its semaphores sit and which of its ends a relay
stands in for: the rules `synthesize-handshakes` and `relay-tokens` apply, and that
`fuse-readers` counts with before it makes a group (a multicast to n receivers puts n credit
semaphores on the reader's site, and on a target that keeps compute off semaphores a relay
buffer on each receiver's site)."""

from __future__ import annotations

from .program import Program


def handshake_kind(p: Program, stream: str, target) -> str:
    """barrier for a multicast receiver, fifo on one site, valid_ready across a fabric's
    streaming links, semaphore_pair across sites otherwise."""
    if stream in p.group_of_stream:
        return "barrier"
    if p.places[p.producer(stream).stage][0] == p.places[p.consumer(stream).stage][0]:
        return "fifo"
    return "valid_ready" if target.links == "fabric" else "semaphore_pair"


def semaphore_sites(p: Program, stream: str, target) -> tuple[tuple, tuple] | None:
    """(site of the credit semaphore, site of the data semaphore), or None when the handshake
    needs none: the credit is waited on by the producer, the data by the consumer."""
    if handshake_kind(p, stream, target) not in ("barrier", "semaphore_pair"):
        return None
    return p.places[p.producer(stream).stage][0], p.buffers[stream].site


def semaphores_per_site(p: Program, target) -> dict[tuple, list[str]]:
    """The semaphores each site would hold, by name."""
    out: dict[tuple, list[str]] = {}
    for stream in p.streams:
        sites = semaphore_sites(p, stream, target)
        if sites is not None:
            out.setdefault(sites[0], []).append(f"{stream}_credit")
            out.setdefault(sites[1], []).append(f"{stream}_data")
    return out


def relayed_ends(p: Program, stream: str, target) -> tuple[str, ...]:
    """The ends of the stream ("in": its consumer, "out": its producer) that would touch its
    semaphores from an engine the target keeps off them, so that a relay stands in."""
    if semaphore_sites(p, stream, target) is None:
        return ()
    ends = (("in", p.consumer(stream)), ("out", p.producer(stream)))
    return tuple(side for side, end in ends
                 if p.places[end.stage][1] not in target.semaphore_engines)


def over_budget(p: Program, target) -> tuple | None:
    """The first site that would hold more semaphores, buffers or SRAM bytes than the target
    gives it, once every buffer has its handshake and every relay its buffer; None when all
    fit."""
    sems = semaphores_per_site(p, target)
    held: dict[tuple, list[int]] = {}
    for b in p.table("buffers"):
        held.setdefault(b.site, []).append(b.bytes)
        for side in relayed_ends(p, b.stream, target):
            end = p.consumer(b.stream) if side == "in" else p.producer(b.stream)
            held.setdefault(p.places[end.stage][0], []).append(b.bytes)
    for site in sorted(set(sems) | set(held)):
        sizes = held.get(site, [])
        room = sum(target.granules(n) for n in sizes) * target.granule
        if (len(sems.get(site, ())) > target.semaphores or len(sizes) > target.buffers
                or room > target.sram_bytes):
            return site
    return None
