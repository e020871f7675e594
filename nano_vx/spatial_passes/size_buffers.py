"""size-buffers: Splaced -> Ssized."""

from __future__ import annotations

from ..languages.splaced import Splaced
from ..languages.ssized import Ssized
from ..nanopass import Pass
from ..spatial.buffer_depths import buffer_demands
from ..spatial.program import Program
from ..spatial.reject import SpatialReject

size_buffers = Pass("size-buffers", Splaced, Ssized, """
Give each stream a buffer on its consumer's site: deep enough to finish, at full rate if it
fits (E7011 when a site cannot hold them).

For a stream whose producer puts p tokens per firing and whose consumer takes c, carrying T
tokens in one run (its firings by the balance equations times p):

1. Deadlock-free depths. Every depth starts at p + c - gcd(p, c), the least with which the
   stream alone never stalls its two ends for good. `firings.simulate_engines` runs the
   program on its engines with these depths; while the run is stuck, each stream that a stuck
   engine's next stage finds full gets p more slots, never more than T (with T slots its
   producer never finds it full). The run goes on from where it stopped, which ends where a
   fresh run would. The depths it finishes with are the deadlock-free depths. A program that
   is stuck with no such stream (a cycle) is refused (E7002).
2. Full rate. Each depth is then raised to max(deadlock-free, min(p + c, T)), so that the
   producer can put the next firing's tokens while the consumer drains the current ones.
3. Fit. A buffer takes depth x (bytes of one token, `shapes.token_bytes`) bytes in the SRAM
   of its consumer's site, rounded up to whole granules of the target. A site holds at most
   `target.buffers` buffers, and at the deadlock-free depths at most `target.sram_bytes`
   bytes; otherwise the program is refused (E7011), naming the site, the bytes it needs, its
   capacity and its biggest buffers. Where the full-rate depths of a site do not fit, its
   raised buffers give their raise back, the largest (in bytes at full rate, then by name)
   first, until the site fits: those keep their deadlock-free depths.

A deeper buffer never makes a run stuck (every run with shallower buffers is a run with
deeper ones too), so every depth chosen here finishes.
Steps 1 and 2 are `spatial/buffer_depths.py`, which the certificate of an E7011 refusal
(`spatial_backend/certify.py`) also reads; step 3 is this pass.
""", requires=("target",))
L = Ssized
SHOWN = 3  # buffers a refusal lists


@size_buffers.on("Graph")
def _graph(run, g):
    p = Program(g)
    target = run.ctx.target
    site, found, full, token = buffer_demands(g)
    depths = {}
    for where, names in sorted(_by_site(site).items()):
        _check_fits(target, where, names, found, token)
        depths.update(_raised(target, names, found, full, token))
    buffers = tuple(L["Buffer"](s, site[s], depths[s], depths[s] * token[s]) for s in p.streams)
    return L["Graph"](g.name, g.tensors, g.streams, g.stages, g.places, buffers, span=g.span)


def _by_site(site: dict[str, tuple]) -> dict[tuple, list[str]]:
    out: dict[tuple, list[str]] = {}
    for s, where in site.items():
        out.setdefault(where, []).append(s)
    return out


def _used(target, names, depths, token) -> int:
    """SRAM bytes the buffers take, each rounded up to whole granules."""
    return sum(target.granules(depths[s] * token[s]) * target.granule for s in names)


def _check_fits(target, site, names, depths, token) -> None:
    biggest = sorted(names, key=lambda s: (-depths[s] * token[s], s))
    listed = ", ".join(f"'{s}' (depth {depths[s]}, {depths[s] * token[s]:,} bytes)"
                       for s in biggest[:SHOWN])
    if len(names) > target.buffers:
        raise SpatialReject(
            "E7011", "size-buffers",
            f"site {site} needs {len(names)} buffers but {target.name} gives each site "
            f"{target.buffers}; the biggest: {listed}", site=site, buffer=biggest[0])
    need = _used(target, names, depths, token)
    if need > target.sram_bytes:
        raise SpatialReject(
            "E7011", "size-buffers",
            f"site {site} needs {need:,} bytes of SRAM (in {target.granule}-byte granules) "
            f"for its {len(names)} buffers at their deadlock-free depths, but {target.name} "
            f"has {target.sram_bytes:,} bytes per site; the biggest: {listed}",
            site=site, buffer=biggest[0])


def _raised(target, names, found, full, token) -> dict[str, int]:
    depths = {s: full[s] for s in names}
    give_back = sorted((s for s in names if full[s] > found[s]),
                       key=lambda s: (-full[s] * token[s], s))
    for s in give_back:
        if _used(target, names, depths, token) <= target.sram_bytes:
            break
        depths[s] = found[s]
    return depths
