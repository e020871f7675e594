"""The reference programs (examples/spatial/*.sdf) on the shipped targets, run through the
lane up to one pass: what every pass's snapshot and oracle tests start from. Each program
goes through the lane once per target; the steps are kept for the whole test session."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import ml_dtypes
import numpy as np

from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "spatial"
PROGRAMS = ("gemm", "gemv", "softmax", "row_sums", "attention", "mlp")
# In bf16, taken through the lane on wormhole (gpu-sm's bf16 is tested on GEMMs,
# test_matrix.py; fabric gives it no rate).
NARROW = ("attention", "mlp")
TARGETS = ("wormhole", "gpu-sm", "fabric")
CASES = [(p, t) for p in PROGRAMS for t in TARGETS if p not in NARROW or t == "wormhole"]
IDS = [f"{p}-{t}" for p, t in CASES]
# What both backends lower: cuda writes no bf16, so the bf16 programs go as their f32 forms
# (`NAME-f32`, the same text with f32 for bf16), on every target whose sites hold their
# buffers (place keeps a copy's stages on one site, and an attention head has 14 streams,
# which gpu-sm's 8 buffers a site cannot hold: E7011).
LOWERED = [(p, t) for p in PROGRAMS for t in TARGETS if p not in NARROW] + [
    (f"{p}-f32", t) for p in NARROW for t in TARGETS if (p, t) != ("attention", "gpu-sm")]
LOWERED_IDS = [f"{p}-{t}" for p, t in LOWERED]


def source(program: str) -> str:
    """The text of a reference program, or of the f32 form of one (`NAME-f32`)."""
    if program.endswith("-f32"):
        return (EXAMPLES / f"{program[:-4]}.sdf").read_text().replace("bf16", "f32")
    return (EXAMPLES / f"{program}.sdf").read_text()


@lru_cache(maxsize=None)
def steps(program: str, target: str) -> dict[str, tuple]:
    """pass name -> (its input, its output) along the whole lane."""
    graph = parse_spatial(source(program), f"{program}.sdf")
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
    """The inputs beside a reference program; a bf16 array, which numpy.savez writes as
    two-byte records, read back as bfloat16 (as `nano-vx spatial` reads it)."""
    with np.load(EXAMPLES / f"{program}.npz") as data:
        return {name: data[name].view(ml_dtypes.bfloat16) if data[name].dtype.kind == "V"
                else data[name] for name in data.files}
