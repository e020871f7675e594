"""The deadlock-free and full-rate depths of a spatial program's buffers (steps 1 and 2 of
size-buffers), shared by that pass and by the certificate of its E7011 refusal, which places
the deadlock-free depths."""

from __future__ import annotations

from math import gcd

from .balance import RateError, port_tokens, repetitions
from .firings import EngineRun, SimulationError, Stuck
from .program import Program
from .reject import SpatialReject
from .shapes import ShapeError, token_bytes, token_shapes


def buffer_demands(g) -> tuple[dict, dict, dict, dict]:
    """Per stream: its buffer's site, its deadlock-free depth (step 1), its full-rate depth
    (step 2) and the bytes of one token."""
    p = Program(g)
    carried = _carried(p)
    rates = {s: (p.producer(s).rate, p.consumer(s).rate) for s in p.streams}
    found = _deadlock_free(g, rates, carried)
    token = _token_bytes(p)
    site = {s: p.places[p.consumer(s).stage][0] for s in p.streams}
    full = {s: max(d, min(sum(rates[s]), carried[s])) for s, d in found.items()}
    return site, found, full, token


def _carried(p: Program) -> dict[str, int]:
    try:
        return port_tokens(p, repetitions(p))
    except RateError as error:
        raise SpatialReject("E7003", "size-buffers", str(error)) from None


def _token_bytes(p: Program) -> dict[str, int]:
    try:
        shapes = token_shapes(p)
    except ShapeError as error:
        raise SpatialReject("E7002", "size-buffers", str(error)) from None
    return {s: token_bytes(p, shapes, s) for s in p.streams}


def _deadlock_free(g, rates, carried) -> dict[str, int]:
    depths = {s: pr + cr - gcd(pr, cr) for s, (pr, cr) in rates.items()}
    try:
        sim = EngineRun(g, depths)
    except SimulationError as error:
        raise SpatialReject("E7002", "size-buffers", str(error)) from None
    while isinstance(stuck := sim.run(), Stuck):
        # Each turn deepens a stream below its T, so the loop ends within sum(T) turns.
        full = {w.stream: w.rate for w in stuck.full() if depths[w.stream] < carried[w.stream]}
        if not full:
            raise SpatialReject(
                "E7002", "size-buffers",
                f"'{g.name}' is stuck whatever the buffer depths: {stuck.describe()}",
                stage=stuck.blocked[0].stage, site=stuck.blocked[0].site)
        for s, rate in full.items():
            depths[s] = min(depths[s] + rate, carried[s])
            sim.deepen(s, depths[s])
    return depths
