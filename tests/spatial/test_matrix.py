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

# Slow (the whole suite's, not the inner loop's): the matrix unit's cost model.
pytestmark = pytest.mark.slow

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


def refused_fidelity(tmp_path, target: str, fidelity: str) -> str:
    """The message of the one diagnostic a bf16 GEMM gets on `target` at `fidelity`, which
    must be E7004."""
    program = tmp_path / "p.sdf"
    program.write_text(gemm("bf16"), encoding="utf-8")
    code, _, err = spatial(program, "--target", target, "--math-fidelity", fidelity,
                           "--error-format=json")
    [found] = json.loads(err)["diagnostics"]
    assert code == 1 and found["code"] == "E7004"
    return found["message"]


def test_the_math_fidelity_flag_on_a_target_without_a_matrix_unit_is_e7004(tmp_path):
    assert "--math-fidelity hifi2, but the target has no matrix unit" in \
        refused_fidelity(tmp_path, "fabric", "hifi2")


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


# -- the GPU's tensor cores ------------------------------------------------------------------

GPU = load_target("gpu-sm")


def test_the_gpu_tensor_cores_take_bf16_and_f16_and_f32_stays_on_the_cuda_cores():
    for t, expected in (("bf16", True), ("f16", True), ("f32", False)):
        p = Program(parse_spatial(gemm(t), "p.sdf"))
        assert on_matrix(GPU, p, p.stages["mm"]) is expected, t
    assert (GPU.matrix.block, GPU.matrix.formats, GPU.matrix.cycles) == (
        (16, 16, 8), ("bf16", "f16"), (("hifi4", 16),))


def test_a_large_bf16_product_on_the_tensor_cores_is_math_bound_at_2048_multiply_adds():
    unit = GPU.matrix
    # 256^3 multiply-adds at 2,048 a clock; the 4 x 8 tile sub-blocks the 32 accumulator
    # tiles allow unpack 384 KiB over shared memory's 128 B a clock, 3,072 clocks, under it.
    assert unit.firing_cycles((256, 256), (256, 256), 1, "bf16", "bf16", "bf16") == 8192
    # one pair of tiles reuses nothing: shared memory bounds it, 4 KiB at 128 B a clock
    assert unit.firing_cycles((32, 32), (32, 32), 1, "bf16", "bf16", "bf16") == 32


def gpu_plan(dtype: str) -> list[str]:
    """How the lane plans and costs a 256^3 GEMM on gpu-sm: the product's tiles, the unit
    one firing runs on and its cycles, and the period."""
    final = lane(gemm(dtype, 256, 256, 256), GPU)
    cycles = OpCycles(final, GPU)
    p = Program(final)
    site, op = next((s.site, op) for s in final.schedules if s.engine == "compute"
                    for op in flat_ops(s.ops) if op._prod == "Fire")
    st = p.stages[op.stage]
    w = cycles.works.of(site, op)
    unit = (f"matrix unit, {w.matrix} cycles" if w.matrix
            else f"vector unit, {w.ops} {w.dtype} ops at {GPU.rates[w.dtype]} a cycle")
    shapes = " by ".join(str(list(cycles.works.shapes[port.stream])) for port in st.ins)
    return [f"{dtype}: {op.stage} fires on {shapes} tokens at rate {st.ins[0].rate}, on the "
            f"{unit}: {cycles.of(site, 'compute', op)} cycles a firing",
            f"  {sum(1 for s in final.schedules if s.engine == 'compute')} compute sites, "
            f"period {periods(final, GPU).clock.period} cycles"]


def test_the_lane_plans_a_bf16_gemm_on_the_tensor_cores_and_an_f32_one_on_the_cuda_cores(
        snapshot_txt):
    text = "\n".join(gpu_plan("bf16") + gpu_plan("f32")) + "\n"
    bf16, f32 = text.split("f32:")
    assert "on the matrix unit" in bf16 and "vector unit" in f32
    assert text == snapshot_txt


def test_the_tensor_cores_have_one_fidelity_and_the_flag_takes_no_other(tmp_path):
    assert "math fidelity 'lofi': the matrix unit has figures for hifi4" in \
        refused_fidelity(tmp_path, "gpu-sm", "lofi")


# -- reductions on the matrix unit -----------------------------------------------------------


def reduction(t: str, op: str = "sum") -> str:
    return (f"spatial r {{\n    tensor X: {t}[64, 64] input\n    tensor Y: {t}[64, 1] output\n"
            f"    stream x: {t}\n    stream y: {t}\n    load lx X -> x\n"
            f"    compute s {op} axis 1 (x) -> y\n    store sy y -> Y\n}}\n")


def test_wormhole_reduces_floats_on_the_matrix_unit_and_int32_on_the_vector_unit():
    for t, expected in (("f32", True), ("bf16", True), ("bfp8", True), ("i32", False)):
        p = Program(parse_spatial(reduction(t), "p.sdf"))
        assert on_matrix(WORMHOLE, p, p.stages["s"]) is expected, t
    p = Program(parse_spatial(reduction("bf16"), "p.sdf"))
    assert not on_matrix(GPU, p, p.stages["s"])  # the tensor cores do not reduce


def test_a_reduction_folds_16_by_16_a_cycle_a_sum_once_per_phase_a_max_once():
    hifi4 = WORMHOLE.matrix.at("hifi4")
    # a 32 x 32 bfp4 token: 4 blocks; bfp4's 576 bytes unpack in 7.2 cycles
    assert hifi4.reduce_cycles((32, 32), 1, "sum", "bfp4", "bfp4", 1) == 4 * 4
    assert hifi4.reduce_cycles((32, 32), 1, "max", "bfp4", "bfp4", 1) == Fraction(576, 80)
    lofi = WORMHOLE.matrix.at("lofi")
    assert lofi.reduce_cycles((32, 32), 1, "sum", "bfp4", "bfp4", 1) == Fraction(576, 80)
    # f32 unpacks 4 bytes an element: two tokens of 4 x 32 are 1,024 bytes, 12.8 cycles
    assert lofi.reduce_cycles((4, 32), 2, "sum", "f32", "f32", 1) == Fraction(1024, 80)


def test_a_fire_of_a_float_reduction_costs_matrix_unit_cycles():
    final = lane(reduction("bf16"))
    cycles = OpCycles(final, WORMHOLE)
    assert cycles.total.matrix and not any(k[1] == "sum" for k in cycles.total.ops)
    found = periods(final, WORMHOLE)
    assert found.clock.period == found.timed.period


def test_a_reduce_block_without_its_formats_is_refused(tmp_path):
    text = (TARGET_DIR / "wormhole.toml").read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if "reduce_formats" not in x]
    path = tmp_path / "t.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(TargetError, match="'matrix.reduce_block' needs 'matrix.reduce_formats' "
                                          "beside it"):
        load_target(path)
    whole = text.replace("reduce_block = [16, 16]", "reduce_block = [16, 12]")
    path.write_text(whole, encoding="utf-8")
    with pytest.raises(TargetError, match=r"'matrix.reduce_block' \[16, 12\] must divide the "
                                          r"tile, 32"):
        load_target(path)
