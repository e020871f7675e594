"""synthesize-handshakes: Sfused -> Shandshaked."""

from __future__ import annotations

from ..languages.sfused import Sfused
from ..languages.shandshaked import Shandshaked
from ..nanopass import Pass
from ..spatial.handshakes import handshake_kind, semaphore_sites
from ..spatial.program import Program
from ..spatial.reject import SpatialReject

synthesize_handshakes = Pass("synthesize-handshakes", Sfused, Shandshaked, """
Give every buffer a handshake (fifo, semaphore pair, barrier, valid/ready) and semaphores
(E7012 for too many on a site).

The handshake is how a buffer's producer and consumer agree on free slots and on tokens:

- a buffer that receives a multicast is a `barrier`: the producer waits for a credit from
  every receiver of the group, so one token goes to all of them at once;
- producer and consumer on one site: a `fifo`, whose circular buffer is its own handshake;
- across sites on a target whose links stream (a fabric): `valid_ready`;
- across sites otherwise: a `semaphore_pair`.

A barrier or a semaphore pair gets two semaphores: the credit semaphore on the producer's site
(it starts at the depth: every slot is free) and the data semaphore on the consumer's site
(it starts at 0). A site needs no more semaphores than the target gives it.
""", requires=("target",))
L = Shandshaked


@synthesize_handshakes.on("Graph")
def _graph(run, g):
    p = Program(g)
    target = run.ctx.target
    handshakes, semaphores = [], []
    for b in g.buffers:
        kind = handshake_kind(p, b.stream, target)
        credit = data = None
        sites = semaphore_sites(p, b.stream, target)
        if sites is not None:
            credit, data = f"{b.stream}_credit", f"{b.stream}_data"
            semaphores.append(L["Semaphore"](credit, sites[0], b.depth))
            semaphores.append(L["Semaphore"](data, sites[1], 0))
        handshakes.append(L["Handshake"](b.stream, kind, credit, data))
    _check_semaphores(semaphores, target)
    return L["Graph"](g.name, g.tensors, g.streams, g.stages, g.places, g.buffers, g.groups,
                      tuple(handshakes), tuple(semaphores), span=g.span)


def _check_semaphores(semaphores, target) -> None:
    per_site: dict[tuple, list[str]] = {}
    for s in semaphores:
        per_site.setdefault(s.site, []).append(s.name)
    for site, names in sorted(per_site.items()):
        if len(names) > target.semaphores:
            raise SpatialReject(
                "E7012", "synthesize-handshakes",
                f"site {site} needs {len(names)} semaphores ({', '.join(names[:6])}"
                f"{', ...' if len(names) > 6 else ''}) but {target.name} gives each site "
                f"{target.semaphores}", site=site)
