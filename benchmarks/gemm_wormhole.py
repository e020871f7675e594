"""The spatial lane's prediction for square GEMMs on Wormhole, beside tt-metal's measurements.

For C = A @ B of n x n matrices, n = 1024, 2048 and 4096, in bf16 at HiFi2 and in bfp8 at LoFi
(A, B and C all in the format, in DRAM), the lane compiles the program for Wormhole's 8 x 8
grid (the n150's 9 x 8 less a row, as tt-metal's benchmark runs it) with its matrix unit at
the fidelity, and the clock and the timed oracle give the cycles one run takes: the device
time of one GEMM, from its first read to its last write ("one run alone"), and the period
of back-to-back runs. Beside them: tt-metal's measured device time for the same GEMM on an
N150, out of the box, without trace (tech_reports/GEMM_FLOPS/GEMM_FLOPS.md, N150 out of box
results, its "Inference Time Avg"), the ratio of the two, and the utilisation each reaches
by that report's formula: ideal cycles = n^3 / 32^3 tile products x cycles a product (16 at
LoFi, 32 at HiFi2) / 64 cores, over the cycles taken (for tt-metal, of that time, and in
parentheses the report's own "Device Based Utilization", which counts the device's time
alone).

    python benchmarks/gemm_wormhole.py

Prints one Markdown table, the one in the README's section "GEMMs on Wormhole against
tt-metal". The programs are not run on tensors (a 4096 x 4096 GEMM is past what the lane
evaluates, E7062 and E7063): the passes are applied as `nano-vx spatial` applies them, and
the figures follow from the program and the target file, the same on every run. It takes
about 25 s of CPU time, most of it the clock and the timed oracle on the 4096 GEMMs (82,000
ops a run for bf16 at HiFi2).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]  # nano_vx uninstalled

from nano_vx.spatial.context import SpatialContext  # noqa: E402
from nano_vx.spatial.cost import OpCycles  # noqa: E402
from nano_vx.spatial.parse import parse_spatial  # noqa: E402
from nano_vx.spatial.target import load_target  # noqa: E402
from nano_vx.spatial_backend.periods import periods  # noqa: E402
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE  # noqa: E402

# (format, fidelity, n) -> tt-metal's time in ns ("Inference Time Avg") and its device-based
# utilisation in %, N150, 8 x 8 grid, DRAM operands, out of the box, no trace (GEMM_FLOPS.md).
MEASURED = {
    ("bf16", "hifi2", 1024): (72388.65, 41.69), ("bf16", "hifi2", 2048): (302200.32, 66.74),
    ("bf16", "hifi2", 4096): (2016849.52, 59.49),
    ("bfp8", "lofi", 1024): (46341.42, 33.86), ("bfp8", "lofi", 2048): (157222.75, 63.83),
    ("bfp8", "lofi", 4096): (941920.28, 64.38),
}
CORES = 64

GEMM = """\
spatial gemm {{
    tensor A: {t}[{n}, {n}] input
    tensor B: {t}[{n}, {n}] input
    tensor C: {t}[{n}, {n}] output
    stream a: {t}
    stream b: {t}
    stream c: {t}
    load load_a A -> a
    load load_b B -> b
    compute mm matmul_acc(a, b) -> c
    store store_c c -> C
}}
"""


def target_at(fidelity: str):
    wormhole = load_target("wormhole")
    return replace(wormhole, rows=8, matrix=wormhole.matrix.at(fidelity))


def predict(fmt: str, fidelity: str, n: int):
    """The choreographed program, its periods and its DRAM bytes a run."""
    target = target_at(fidelity)
    graph = parse_spatial(GEMM.format(t=fmt, n=n), "gemm.sdf")
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
    return graph, target, periods(graph, target)


def table() -> str:
    rows = ["| GEMM | format | lane: one run (µs) | lane: period (µs) | tt-metal (µs) | "
            "lane / tt-metal | lane: sites, DRAM (MB) | lane: roofline (µs) | "
            "utilisation: lane | utilisation: tt-metal (device) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for fmt, fidelity in (("bf16", "hifi2"), ("bfp8", "lofi")):
        for n in (1024, 2048, 4096):
            graph, target, ps = predict(fmt, fidelity, n)
            us = 1000 * target.clock_ghz
            alone, period = ps.timed.first_run / us, float(ps.clock.period) / us
            ns, device = MEASURED[fmt, fidelity, n]
            measured = ns / 1000
            ideal = (n // 32) ** 3 * target.matrix.tile_cycles() / CORES / us
            sites = len({s.site for s in graph.schedules if s.engine == "compute"})
            moved = OpCycles(graph, target).total.dram_bytes / 1e6
            b = ps.roofline
            rows.append(
                f"| {n}³ | {fmt} {fidelity} | {alone:,.1f} | {period:,.1f} | {measured:,.1f} | "
                f"{alone / measured:.2f} | {sites}, {moved:,.1f} | "
                f"{float(b.cycles) / us:,.1f} ({b.resource}) | {ideal / alone:.0%} | "
                f"{ideal / measured:.0%} ({device:.0f}%) |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table())
