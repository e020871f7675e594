"""The period of a choreographed program both ways: predicted by the clock (the maximum cycle
ratio of its handshake graph) and measured by the timed oracle (a discrete-event simulation
of its schedules), with one cost model for both. What `nano-vx spatial` reports after the
outcome and benchmarks/spatial_periods.py tabulates."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Periods:
    clock: object  # a clock.Clock, or None when the program has none (`why`)
    why: str | None
    timed: object  # a timed.Timed, or the Deadlock the simulation stopped at
    roofline: object  # roofs.Bound: the highest roof of one run


def periods(graph, target) -> Periods:
    from ..oracle.timed import run_timed
    from ..spatial.clock import ClockError, clock
    from ..spatial.cost import OpCycles
    from ..spatial.roofs import roofline

    cycles = OpCycles(graph, target)
    try:
        predicted, why = clock(graph, target, cycles), None
    except ClockError as err:
        predicted, why = None, str(err)
    timed = run_timed(graph, target, cycles=cycles)
    return Periods(predicted, why, timed, roofline(cycles.total, cycles.roofs))


def cycles_text(x) -> str:
    """2,488 for a whole number of cycles, else two decimals (1,234.50)."""
    x = Fraction(x)
    return f"{x.numerator:,}" if x.denominator == 1 else f"{float(x):,.2f}"


def microseconds_text(cycles, clock_ghz: float) -> str:
    return f"{float(cycles) / (clock_ghz * 1000):,.3f} µs"


def report_lines(ps: Periods, target) -> list[str]:
    from ..oracle.timed import Timed

    ghz = f"{target.clock_ghz:g} GHz"
    c, t = ps.clock, ps.timed
    if c is None:
        lines = [f"period: none ({ps.why})"]
    else:
        through = ", ".join(dict.fromkeys(engine for engine, _ in c.critical))
        lines = [f"period: {cycles_text(c.period)} cycles a run "
                 f"({microseconds_text(c.period, target.clock_ghz)} at {ghz}) by the clock; "
                 f"critical cycle through {through}"]
    if not isinstance(t, Timed):
        lines.append(f"simulated: {t.describe()}")
    elif t.period is None:
        lines.append(f"simulated: no steady state within {t.simulated} runs")
    else:
        lines.append(f"simulated: {cycles_text(t.period)} cycles a run "
                     f"({microseconds_text(t.period, target.clock_ghz)}) over {t.simulated} "
                     f"runs; one run alone {t.first_run:,} cycles")
    b = ps.roofline
    lines.append(f"roofline: {cycles_text(b.cycles)} cycles a run ({b.resource})")
    return lines
