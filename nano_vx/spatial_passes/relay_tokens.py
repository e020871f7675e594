"""relay-tokens: Sfused -> Sfused.

It keeps its IL: a relay is a scalar stage, a place, a stream and a buffer, all of which
Sfused has."""

from __future__ import annotations

from ..languages.sfused import Sfused
from ..nanopass import Pass
from ..spatial.handshakes import relayed_ends
from ..spatial.program import Program
from ..spatial.reject import SpatialReject

relay_tokens = Pass("relay-tokens", Sfused, Sfused, """
Hand every semaphore handshake to an engine the target lets touch semaphores (E7011 when a site
cannot hold the relays' buffers).

A buffer whose handshake will carry semaphores (a multicast receiver, a buffer between the
sites of a noc target: see synthesize-handshakes) has its consumer wait on its data semaphore
and signal its credits, and its producer the other way round. Where the target keeps that
engine off semaphores (`semaphore_engines`: on wormhole a compute kernel has no semaphore or
NoC calls), a relay stands in for it:

- consumer side: the scalar stage `relay_<b>_in`, the identity, on the reader of the
  consumer's site, takes the tokens of `b` one at a time and puts them into the new stream
  `<b>_in`, which the consumer reads instead;
- producer side: the producer puts into the new stream `<b>_out` instead, and the scalar
  stage `relay_<b>_out` on the writer of the producer's site passes its tokens on into `b`.

The new stream's buffer is on its consumer's site, as deep as `b`'s, so each end keeps the
room it was sized with; the relay takes and puts one token a firing. A relay copies each
token once, in SRAM, on the relaying engine: what it costs the period the cycle model counts.
A site that cannot also hold the new buffers is refused (E7011), naming the relays.
""", requires=("target",))
L = Sfused


@relay_tokens.on("Graph")
def _graph(run, g):
    p = Program(g)
    target = run.ctx.target
    taken = set(p.streams) | set(p.stages)
    stages, places = list(g.stages), list(g.places)
    streams, buffers = list(g.streams), list(g.buffers)
    added = []
    for b in g.buffers:
        for side in relayed_ends(p, b.stream, target):
            end, engine = ((p.consumer(b.stream), "reader") if side == "in"
                           else (p.producer(b.stream), "writer"))
            relay = _Relay(p, b, side, end.stage, engine, _fresh(taken, f"{b.stream}_{side}"),
                           _fresh(taken, f"relay_{b.stream}_{side}"))
            relay.insert(stages, places, streams, buffers)
            added.append(relay)
    if not added:
        return g
    _check_fits(target, buffers, added)
    return L["Graph"](g.name, g.tensors, tuple(streams), tuple(stages), tuple(places),
                      tuple(buffers), g.groups, span=g.span)


class _Relay:
    """One relay: `stage`, on `engine` of the site of `end` (the stage that loses its
    semaphores), joined to it by the new stream `local`."""

    def __init__(self, p: Program, buffer, side: str, end: str, engine: str, local: str,
                 stage: str):
        self.p, self.buffer, self.side, self.end = p, buffer, side, end
        self.engine, self.local, self.stage = engine, local, stage
        self.site = p.places[end][0]

    def insert(self, stages: list, places: list, streams: list, buffers: list) -> None:
        b = self.buffer
        at = next(i for i, st in enumerate(stages) if st.name == self.end)
        stages[at] = _renamed(stages[at], b.stream, self.local)
        given, put = (b.stream, self.local) if self.side == "in" else (self.local, b.stream)
        relay = L["Scalar"](self.stage, ("t",), L["Arg"]("t"), (L["Port"](given, 1),),
                            (L["Port"](put, 1),), None)
        stages.insert(at + (self.side == "out"), relay)
        spot = next(i for i, pl in enumerate(places) if pl.stage == self.end)
        places.insert(spot + (self.side == "out"), L["Place"](self.stage, self.site,
                                                               self.engine))
        dtype = self.p.token_dtype(b.stream)
        streams.insert(next(i for i, s in enumerate(streams) if s.name == b.stream) + 1,
                       L["Stream"](self.local, dtype))
        buffers.insert(next(i for i, x in enumerate(buffers) if x.stream == b.stream) + 1,
                       L["Buffer"](self.local, self.site, b.depth, b.bytes))


def _renamed(stage, old: str, new: str):
    """`stage` with its port on stream `old` moved to `new`."""
    def port(pt):
        return pt.replace(stream=new) if pt.stream == old else pt
    if stage._prod == "Store":
        return stage.replace(input=port(stage.input))
    fields = {f: tuple(port(pt) for pt in getattr(stage, f))
              for f in ("ins", "outs") if f in stage._fields}
    return stage.replace(**fields)


def _fresh(taken: set, name: str) -> str:
    """`name`, or `name_2`, `name_3`, ...: the first no stream or stage has."""
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name}_{n}"
    taken.add(found)
    return found


def _check_fits(target, buffers: list, added: list) -> None:
    relays_at: dict[tuple, list] = {}
    for relay in added:
        relays_at.setdefault(relay.site, []).append(relay.local)
    for site, locals_ in sorted(relays_at.items()):
        here = [b for b in buffers if b.site == site]
        need = sum(target.granules(b.bytes) * target.granule for b in here)
        named = ", ".join(f"'{n}'" for n in locals_[:3]) + (", ..." if len(locals_) > 3 else "")
        if len(here) > target.buffers:
            raise SpatialReject(
                "E7011", "relay-tokens",
                f"site {site} needs {len(here)} buffers with the relay buffers {named}, but "
                f"{target.name} gives each site {target.buffers}", site=site,
                buffer=locals_[0])
        if need > target.sram_bytes:
            raise SpatialReject(
                "E7011", "relay-tokens",
                f"site {site} needs {need:,} bytes of SRAM (in {target.granule}-byte granules) "
                f"with the relay buffers {named}, but {target.name} has "
                f"{target.sram_bytes:,} bytes per site", site=site, buffer=locals_[0])
