"""The reference programs (examples/spatial/*.sdf) on the shipped targets, run through the
lane up to one pass: what every pass's snapshot and oracle tests start from. Each program
goes through the lane once per target; the steps are kept for the whole test session."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "spatial"
PROGRAMS = ("gemm", "gemv", "softmax", "row_sums")
TARGETS = ("wormhole", "gpu-sm", "fabric")
CASES = [(p, t) for p in PROGRAMS for t in TARGETS]
IDS = [f"{p}-{t}" for p, t in CASES]


@lru_cache(maxsize=None)
def steps(program: str, target: str) -> dict[str, tuple]:
    """pass name -> (its input, its output) along the whole lane."""
    graph = parse_spatial((EXAMPLES / f"{program}.sdf").read_text(), f"{program}.sdf")
    ctx = SpatialContext(load_target(target))
    out = {}
    for p in SPATIAL_PIPELINE:
        after = p(graph, ctx)
        out[p.name] = (graph, after)
        graph = after
    return out


def step(program: str, target: str, pass_name: str) -> tuple:
    return steps(program, target)[pass_name]


def inputs(program: str) -> dict[str, np.ndarray]:
    with np.load(EXAMPLES / f"{program}.npz") as data:
        return {name: data[name] for name in data.files}
