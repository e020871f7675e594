"""The cycle model of the spatial lane, from a target's rates alone: what `tile` minimises when
it chooses tile shapes and what `fuse-readers` compares when it weighs a multicast against
streaming each reader its own copy. Every figure comes from the target file; nothing here is
fitted to a program."""

from __future__ import annotations


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
    return [d for d in range(1, n + 1) if n % d == 0]


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
