"""The matrix unit of a spatial target (nano_vx/spatial/matrix.py): Wormhole's as its file
declares it, the cycles of a product on it per math fidelity, the unpack and pack costs and
the destination register's sub-blocks, and the lane planning and timing a bf16 or block-float
matmul on it while f32 stays on the vector unit; `--math-fidelity` choosing the fidelity."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from fractions import Fraction

import pytest

from nano_vx.cli import main
from test_formats import gemm as formats_gemm
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.cost import OpCycles
from nano_vx.spatial.matrix import on_matrix
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program, flat_ops
from nano_vx.spatial.roofs import roofline
from nano_vx.spatial.target import TARGET_DIR, TargetError, load_target
from nano_vx.spatial_backend.periods import periods
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE

WORMHOLE = load_target("wormhole")

def gemm(t: str, m: int = 64, k: int = 128, n: int = 64) -> str:
    return formats_gemm(t, m=m, k=k, n=n)


def lane(text: str, target=WORMHOLE):
    graph = parse_spatial(text, "p.sdf")
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
    return graph


@pytest.mark.parametrize("fidelity, cycles", [("lofi", 16), ("hifi2", 32), ("hifi3", 48),
                                               ("hifi4", 64)])
def test_a_tile_product_takes_the_published_cycles(fidelity, cycles):
    unit = WORMHOLE.matrix.at(fidelity)
    # a product of two 32 x 32 tiles, its unpack and pack overlapping it: bfp4 operands and
    # output are small enough that the math is the longest of the three
    assert unit.firing_cycles((32, 32), (32, 32), 1, "bfp4", "bfp4", "bfp4") == cycles


def test_the_unit_multiplies_whole_blocks():
    unit = WORMHOLE.matrix.at("hifi4")
    # one row still takes an 8 x 16 block of the first operand: 1/8 of the throughput
    one_row = unit.firing_cycles((1, 32), (32, 32), 1, "bfp4", "bfp4", "bfp4")
    assert one_row == Fraction(64, 4)  # a quarter of a tile product (8 of 32 rows)


def test_unpacking_bf16_bounds_a_lofi_product_and_the_destination_sets_the_reuse():
    unit = WORMHOLE.matrix.at("lofi")
    # 128 x 128 by 128 x 128: 64 tile products (1,024 cycles at LoFi); the output's 4 x 4
    # tiles in sub-blocks of 2 x 2 (4 destination tiles) unpack each operand twice
    got = unit.firing_cycles((128, 128), (128, 128), 1, "bf16", "bf16", "bf16")
    assert got == Fraction(2 * 32768 * 2, 80)
    hifi4 = unit.at("hifi4").firing_cycles((128, 128), (128, 128), 1, "bf16", "bf16", "bf16")
    assert hifi4 == 64 * 64  # the math is the longest at HiFi4
    # the whole output in Dst: each operand unpacked once, 819.2 cycles, under the math
    roomy = replace(unit, dst_tiles=16)
    assert roomy.firing_cycles((128, 128), (128, 128), 1, "bf16", "bf16", "bf16") == 1024


def test_f32_stays_on_the_vector_unit_and_bf16_goes_to_the_matrix_unit():
    for t, expected in (("f32", False), ("bf16", True), ("bfp8", True)):
        p = Program(parse_spatial(gemm(t), "p.sdf"))
        assert on_matrix(WORMHOLE, p, p.stages["mm"]) is expected
    gpu = load_target("gpu-sm")
    p = Program(parse_spatial(gemm("bf16"), "p.sdf"))
    assert gpu.matrix is None and not on_matrix(gpu, p, p.stages["mm"])


def test_a_fire_on_the_matrix_unit_costs_its_cycles_and_the_roofline_counts_them():
    final = lane(gemm("bf16"))
    cycles = OpCycles(final, WORMHOLE)
    fires = [(s.site, op) for s in final.schedules if s.engine == "compute"
             for op in flat_ops(s.ops) if op._prod == "Fire" and op.stage.startswith("mm")]
    site, op = fires[0]
    w = cycles.works.of(site, op)
    assert w.matrix and cycles.of(site, "compute", op) >= w.matrix
    assert cycles.total.matrix and not any(k[1] == "matmul_acc" for k in cycles.total.ops)
    assert roofline(cycles.total, cycles.roofs).cycles > 0


def test_the_clock_and_the_timed_oracle_agree_on_a_matrix_unit_program():
    final = lane(gemm("bfp8"))
    found = periods(final, WORMHOLE)
    assert found.clock is not None and found.clock.period == found.timed.period


def test_a_higher_fidelity_is_never_faster():
    # On one core, where the products outweigh the reads (spread over 64 cores, a GEMM this
    # small waits on its readers at every fidelity).
    text = gemm("bf16", 256, 256, 256)
    times = []
    for fidelity in ("lofi", "hifi2", "hifi4"):
        target = replace(WORMHOLE, rows=1, cols=1, matrix=WORMHOLE.matrix.at(fidelity))
        times.append(periods(lane(text, target), target).clock.period)
    assert times == sorted(times) and times[0] < times[-1]


def test_a_matrix_figure_without_a_source_is_refused(tmp_path):
    text = (TARGET_DIR / "wormhole.toml").read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if not x.startswith('"matrix.cycles"')]
    path = tmp_path / "t.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(TargetError, match="'matrix.cycles' has no entry in \\[sources\\]"):
        load_target(path)


def spatial(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["spatial", *map(str, args)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_math_fidelity_flag_on_a_target_without_a_matrix_unit_is_e7004(tmp_path):
    program = tmp_path / "p.sdf"
    program.write_text(gemm("bf16"), encoding="utf-8")
    code, _, err = spatial(program, "--target", "gpu-sm", "--math-fidelity", "hifi2",
                           "--error-format=json")
    [found] = json.loads(err)["diagnostics"]
    assert code == 1 and found["code"] == "E7004"
    assert "--math-fidelity hifi2, but the target has no matrix unit" in found["message"]


def test_the_math_fidelity_flag_on_wormhole_is_taken(tmp_path):
    program = tmp_path / "p.sdf"
    program.write_text(gemm("bf16"), encoding="utf-8")
    code, out, err = spatial(program, "--target", "wormhole", "--math-fidelity", "hifi4")
    assert (code, err) == (0, "") and "outcome: finished" in out


def test_the_target_description_names_its_matrix_unit():
    code, out, _ = spatial("--target", "wormhole")
    assert code == 0
    assert "matrix    32 x 32 tiles of bf16 f16 bfp8 bfp4: cycles a tile product lofi 16, " \
           "hifi2 32, hifi3 48, hifi4 64; at lofi" in out
