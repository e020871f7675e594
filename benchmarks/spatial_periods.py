"""The spatial lane's clock on the reference programs: per program and shipped target, the
steady-state period predicted by the clock (the maximum cycle ratio of the handshake graph,
nano_vx/spatial/clock.py) and the one the timed oracle measures (nano_vx/oracle/timed.py),
in cycles a run and in µs at the target's clock, with the roofline of a run beside them.

    python benchmarks/spatial_periods.py

Prints one Markdown table, the one in the README's section "The spatial lane's clock"
(tests/spatial/test_periods_table.py checks they are the same). Nothing is timed on this
machine: every figure follows from the programs and the target files, so the table is the
same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]  # nano_vx uninstalled

from nano_vx.spatial.context import SpatialContext  # noqa: E402
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE  # noqa: E402
from nano_vx.spatial.parse import parse_spatial  # noqa: E402
from nano_vx.spatial_backend.periods import cycles_text, periods  # noqa: E402
from nano_vx.spatial.target import known_targets, load_target  # noqa: E402

EXAMPLES = HERE.parent / "examples" / "spatial"
PROGRAMS = ("gemm", "gemv", "softmax", "row_sums")


def choreographed(program: str, target):
    graph = parse_spatial((EXAMPLES / f"{program}.sdf").read_text(), f"{program}.sdf")
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
    return graph


def _us(cycles, target) -> str:
    return f"{float(cycles) / (target.clock_ghz * 1000):,.3f}"


def table() -> str:
    rows = ["| program | target | clock (cycles) | simulated (cycles) | clock (µs) | "
            "simulated (µs) | one run alone (cycles) | roofline (cycles) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for program in PROGRAMS:
        for name in known_targets():
            target = load_target(name)
            ps = periods(choreographed(program, target), target)
            c, t, b = ps.clock.period, ps.timed.period, ps.roofline
            rows.append(f"| {program} | {name} | {cycles_text(c)} | {cycles_text(t)} | "
                        f"{_us(c, target)} | {_us(t, target)} | {ps.timed.first_run:,} | "
                        f"{cycles_text(b.cycles)} ({b.resource}) |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table())
