"""The cycle model of the spatial lane, from a target's rates alone: what `tile` minimises when
it chooses tile shapes and what `fuse-readers` compares when it weighs a multicast against
streaming each reader its own copy. Every figure comes from the target file; nothing here is
fitted to a program."""

from __future__ import annotations

import math


def dram_cycles(target, nbytes: int) -> float:
    """Cycles to move `nbytes` between DRAM and the mesh, the chip's whole DRAM bandwidth."""
    return nbytes / target.dram_bytes_per_cycle


def compute_cycles(target, dtype: str, ops: int) -> float:
    return ops / target.rates[dtype]


def read_cycles(target, nbytes: int, copies: int, sharing: int = 1) -> float:
    """Per tile in the steady state, `copies` readers each fetching their own copy of it
    while `sharing` sites read DRAM at once: DRAM serves every copy at its share of the
    bandwidth while each copy crosses a link into its site (the two overlap), plus one
    latency."""
    share = target.dram_bytes_per_cycle / sharing
    return (max(copies * nbytes / share, nbytes / target.link_bytes_per_cycle)
            + target.dram_latency_cycles)


def multicast_cycles(target, nbytes: int, source, receivers, sharing: int = 1) -> float:
    """Per tile in the steady state, one fetch multicast to the receivers' sites: DRAM serves
    the tile once at the reader's share of the bandwidth while the network carries it once
    along the tree, plus one latency, plus the hops to the farthest receiver and back (the
    barrier waits for its credit)."""
    far = max((target.hops(source, r) for r in receivers), default=0)
    share = target.dram_bytes_per_cycle / sharing
    return (max(nbytes / share, nbytes / target.link_bytes_per_cycle)
            + target.dram_latency_cycles + 2 * far * target.hop_cycles)


def divisors(n: int) -> list[int]:
    """The divisors of n in increasing order, found in pairs (d, n // d) up to its root."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return small + [n // d for d in reversed(small) if d * d != n]


def split_counts(grids: list[int], sites: int) -> tuple[int, ...]:
    """How many blocks `place` cuts each of the first two parallel tile grids into: the most
    sites it can fill, each count dividing its grid (so every block has as many tiles), the
    first dimension cut first."""
    grids = grids[:2]
    if not grids:
        return ()
    best: tuple[int, ...] = tuple(1 for _ in grids)
    for a in divisors(grids[0]):
        rest = [b for b in (divisors(grids[1]) if len(grids) > 1 else [1]) if a * b <= sites]
        if a > sites or not rest:
            continue
        b = max(rest)
        if a * b > _product(best) or (a * b == _product(best) and a > best[0]):
            best = (a, b)[:len(grids)]
    return best


def _product(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


# -- the cycles of one op of a choreography (the clock and the timed oracle) ----------------

# Every op takes at least one cycle: the model's unit of time, the issue of the op by its
# engine. Bookkeeping ops (reserve, push, wait_front, pop, wait, barrier, a same-site signal)
# take exactly that; no target file publishes a finer figure for them.
ISSUE_CYCLES = 1


class OpCycles:
    """`of(site, engine, op)`: the integer cycles one op of a choreographed program occupies
    its engine, from the op's work (`work.OpWorks`) and the target's rates (`roofs`). Its
    effects (tokens put, slots freed, a semaphore signalled) are visible when it ends.

    - `read`, `write`: a DRAM latency plus the tile's bytes at the larger of two times: the
      engine's share of the DRAM bandwidth, and one link into its site. DRAM is shared in
      proportion to demand: in the steady state every engine's DRAM transfers spread over the
      period, so an engine moving a fraction f of the run's DRAM bytes gets f of the bandwidth,
      but never less than an equal share among the n engines that use DRAM (a small transfer
      is served beside the large ones, not behind them). The engine moving the most bytes has
      f >= 1/n, so its DRAM ops take at least the run's DRAM bytes over the bandwidth: the
      DRAM roof;
    - `send`, `multicast`: the bytes over one link (a multicast's tree carries them once,
      pipelined along its links) plus a hop latency per hop to the farthest receiver;
    - `fire`: the larger of its element operations over the site's rate for its element type
      (a matmul or float reduction on the site's matrix unit: its cycles, `matrix.py`) and
      its SRAM bytes over the site's SRAM bandwidth;
    - `signal` to another site: one cycle plus the hops;
    - every other op: ISSUE_CYCLES.
    Each is rounded up to whole cycles, so the clock's weights are integers."""

    def __init__(self, graph, target):
        from .roofs import roofs
        from .work import OpWorks, work

        self.works = OpWorks(graph, target)
        self.roofs = roofs(target)
        self.total = work(graph, self.works)
        self.cache: dict = {}

    def of(self, site, engine: str, op) -> int:
        key = (site, engine, op)
        if key not in self.cache:
            self.cache[key] = max(ISSUE_CYCLES, _ceil(self._cycles(site, engine, op)))
        return self.cache[key]

    def stages(self) -> dict[str, int]:
        """Per stage, the cycles one run spends on its firings: its reads, writes or fires
        and the puts (push, send, multicast) of its outputs. The bookkeeping ops around them
        (waits, reserves, pops, signals) are the engine's, not a stage's."""
        from .work import executions

        p = self.works.p
        out = dict.fromkeys(p.stages, 0)
        for sched in p.table("schedules"):
            for op, times in executions(sched.ops):
                kind = op._prod
                if kind in ("Read", "Write", "Fire"):
                    stage = op.stage
                elif kind in ("Push", "Send"):
                    stage = p.producer(op.buffer).stage
                elif kind == "Multicast":
                    stage = p.groups[op.group].stage
                else:
                    continue
                out[stage] += times * self.of(sched.site, sched.engine, op)
        return out

    def _cycles(self, site, engine: str, op):
        from fractions import Fraction

        w, r = self.works.of(site, op), self.roofs
        hops = w.hops * r.hop.exact
        moved = w.dram_read + w.dram_write
        if moved:
            users = sum(1 for n in self.total.engine_dram.values() if n)
            share = r.dram.exact * max(Fraction(self.total.engine_dram[site, engine],
                                                self.total.dram_bytes), Fraction(1, users))
            return r.dram_latency.exact + max(moved / share, moved / r.link.exact)
        if w.net_bytes:
            return w.net_bytes / r.link.exact + hops
        if w.kind is not None:
            sram = sum(n for _, n in w.sram)
            compute = w.matrix if w.matrix else w.ops / r.compute[w.dtype].exact
            return max(compute, sram / r.sram.exact)
        return ISSUE_CYCLES + hops


def _ceil(x) -> int:
    """An int or a Fraction, rounded up."""
    return -(-x.numerator // x.denominator)
