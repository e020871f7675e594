"""Which handshake a buffer needs and where its semaphores sit: the rule
`synthesize-handshakes` applies, and that `fuse-readers` counts with before it makes a group
(a multicast to n receivers puts n credit semaphores on the reader's site)."""

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
