"""The built-in model (vx-reference §2), in force when no machine model is.

Declared spaces and topologies of the same name refine these (a declaration replaces the
built-in entry of its name); the built-in edges stay.
"""

from __future__ import annotations

from fractions import Fraction

from .spaces import Space
from .topologies import Edge, Topology

SPACES = {name: Space(name) for name in
          ("CPU_DRAM", "NPU_HBM", "GPU_HBM", "Local_SRAM", "Remote_HBM")}

# NPU[i] and AccCore[i] are looked up by their base name (Model.topology_of).
TOPOLOGIES = {t.name: t for t in (
    Topology("CPU", "CPU_DRAM", ("CPU_DRAM", "NPU_HBM"), arch="x86_64"),
    Topology("GPU", "GPU_HBM", ("GPU_HBM", "CPU_DRAM")),
    Topology("NPU", "NPU_HBM", ("NPU_HBM",)),
    Topology("AccCore", "Local_SRAM", ("Local_SRAM",)),
    # The host's vector and matrix units, as users of the public Vx compiler name them: each
    # holds and reads what CPU does.
    Topology("AMX", "CPU_DRAM", ("CPU_DRAM", "NPU_HBM"), arch="x86_64"),
    Topology("CpuAvx512", "CPU_DRAM", ("CPU_DRAM", "NPU_HBM"), arch="x86_64"),
    Topology("CpuNeon", "CPU_DRAM", ("CPU_DRAM", "NPU_HBM"), arch="aarch64"),
    # Neural engines, holding what NPU does.
    Topology("ANE", "NPU_HBM", ("NPU_HBM",)),
    Topology("Slice", "NPU_HBM", ("NPU_HBM",)),
)}


def _both(a: str, b: str, cost: int) -> list[Edge]:
    return [Edge(a, b, Fraction(cost)), Edge(b, a, Fraction(cost))]


EDGES = [
    *_both("CPU_DRAM", "NPU_HBM", 50),
    *_both("CPU_DRAM", "GPU_HBM", 50),
    *_both("NPU_HBM", "Local_SRAM", 10),
    Edge("CPU_DRAM", "Remote_HBM", Fraction(300)),  # one way
]
