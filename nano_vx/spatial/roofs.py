"""The roofs (docs/spatial.md, "The period"): the rates a target sustains, each with the citation its
target file gives it, and the roofline a program's work is held against: for each resource,
the cycles one run needs at the resource's rate. No run can be faster than its highest roof.
The cost model charges DRAM and compute so that the clock's period is never below those two
roofs (cost.OpCycles; compute when a site's firings are on one engine, as `place` puts
them); transfers sharing a link or a site's SRAM do not take turns in it, so
the link and SRAM roofs say where it may be optimistic. On the reference programs the period
is above every roof (tests/spatial/test_work.py).

Every rate is a figure of the target file; a derived one (a DRAM bandwidth in bytes per cycle
from GB/s and the clock) says how in the file's comment and its [sources] entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .work import Work


@dataclass(frozen=True)
class Rate:
    """A figure of the target (`key` in its file), in `unit`, and where it comes from."""

    key: str
    value: float
    unit: str
    source: str

    @property
    def exact(self) -> Fraction:
        """The figure as the file writes it (1691.9 is 16919/10, not the nearest double)."""
        return Fraction(repr(self.value))


@dataclass(frozen=True)
class Roofs:
    dram: Rate
    link: Rate
    sram: Rate
    hop: Rate
    dram_latency: Rate
    clock: Rate
    compute: dict[str, Rate]

    def all(self) -> list[Rate]:
        return [self.dram, self.link, self.sram, self.hop, self.dram_latency, self.clock,
                *self.compute.values()]


def roofs(target) -> Roofs:
    def rate(key: str, unit: str) -> Rate:
        return Rate(key, getattr(target, key), unit, target.sources[key])

    return Roofs(
        dram=rate("dram_bytes_per_cycle", "bytes per cycle, the chip's DRAM"),
        link=rate("link_bytes_per_cycle", "bytes per cycle, one link of the mesh"),
        sram=rate("sram_bytes_per_cycle", "bytes per cycle, one site's SRAM"),
        hop=rate("hop_cycles", "cycles per hop of the mesh"),
        dram_latency=rate("dram_latency_cycles", "cycles from a DRAM request to its data"),
        clock=rate("clock_ghz", "GHz"),
        compute={d: Rate(f"rates.{d}", r, "element operations per cycle, one site",
                         target.sources[f"rates.{d}"]) for d, r in target.rates.items()},
    )


@dataclass(frozen=True)
class Bound:
    """The cycles one run needs on one resource at its rate: `where` the busiest instance
    (a site, a link) when the resource is per site or per link."""

    resource: str
    cycles: Fraction
    where: object = None


def bounds(w: Work, r: Roofs) -> list[Bound]:
    """The roofline of one run: DRAM bytes over the DRAM bandwidth, the busiest link's bytes
    over a link's, the busiest site's element operations over its rates (and its matrix
    unit's cycles) and its SRAM bytes over its SRAM bandwidth."""
    out = [Bound("dram", w.dram_bytes / r.dram.exact)]
    if w.links:
        link = max(w.links, key=lambda k: (w.links[k], k))
        out.append(Bound("link", w.links[link] / r.link.exact, link))
    compute = {site: sum(Fraction(n) / r.compute[d].exact for d, n in by_type.items())
               for site, by_type in w.site_ops().items()}
    for site, cycles in w.matrix.items():
        compute[site] = compute.get(site, 0) + cycles
    if compute:
        site = max(compute, key=lambda s: (compute[s], s))
        out.append(Bound("compute", compute[site], site))
    if w.sram:
        site = max(w.sram, key=lambda s: (w.sram[s], s))
        out.append(Bound("sram", w.sram[site] / r.sram.exact, site))
    return out


def roofline(w: Work, r: Roofs) -> Bound:
    """The highest bound: what one run cannot beat."""
    return max(bounds(w, r), key=lambda b: b.cycles)
