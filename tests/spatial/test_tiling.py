"""The tiling planner (nano_vx/spatial/tiling.py) asked directly: the plan of every reference
program on every shipped target (a snapshot: the grid, the order, what each stage reduces),
what a plan says each stage does (its loop nest, its firing dimensions, its input rates), the
whole-tensor plan, and that the planner is a library of the spatial lane, which loads no
pass, no oracle and no driver."""

from __future__ import annotations


import pytest

from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial.tiling import firing_dims, nest, over, plan_tiles, rate
from test_tile import CASES, GEMM, RATED, SQUARE, reference


def described(p, plan) -> str:
    """A plan as text, each dimension by its loop variable."""
    if plan.whole:
        return "whole-tensor tiles\n"
    name = plan.names.get
    lines = [f"order: {' '.join(name(d) for d in plan.order)}",
             f"grid: {', '.join(f'{name(d)} {plan.grid[d]}' for d in plan.order)}"]
    lines += [f"{stage} reduces {' '.join(name(d) for d in ds)}"
              for stage, ds in sorted(plan.reduces.items()) if ds]
    lines += [f"{stage} accumulates over {n} firings" for stage in sorted(plan.reduces)
              if (n := over(p, plan, stage)) is not None]
    lines += [f"{s}: tile {list(plan.tile_shape(s))} of {list(plan.shapes[s])}"
              for s in sorted(plan.shapes)]
    return "\n".join(lines) + "\n"


def planned(text: str, target):
    p = Program(parse_spatial(text))
    return p, plan_tiles(p, target)


@pytest.mark.parametrize("name, target", CASES)
def test_the_plan_of_each_reference_program(name, target, snapshot_txt):
    p = Program(reference(name))
    assert described(p, plan_tiles(p, load_target(target))) == snapshot_txt


def test_a_matmul_fires_per_output_tile_and_takes_the_inner_tiles_innermost():
    # 1024 bytes of SRAM on one site: the matmul cuts all three dimensions.
    p, plan = planned(GEMM, small_target(1, 1, sram_bytes=1024))
    name = plan.names.get
    assert [name(d) for d in plan.order] == ["i", "j", "k"]
    [inner] = plan.reduces["mm"]
    assert plan.grid[inner] > 1
    assert [name(d) for d in nest(p, plan, "mm")] == ["i", "j", "k"]
    assert [name(d) for d in firing_dims(p, plan, "mm")] == ["i", "j"]
    assert firing_dims(p, plan, "st") == firing_dims(p, plan, "mm")
    # one K-block of each a firing, summed over the K-blocks
    assert rate(p, plan, "mm", "a") == rate(p, plan, "mm", "b") == 1
    assert over(p, plan, "mm") == plan.grid[inner]


def test_a_stage_that_reduces_nothing_takes_one_tile_per_firing():
    p, plan = planned(GEMM, small_target(1, 1, sram_bytes=1024))
    assert rate(p, plan, "st", "c") == 1


def test_rates_other_than_one_keep_whole_tensor_tiles():
    _, plan = planned(RATED, small_target(2, 2))
    assert plan.whole and plan.order == [] and plan.shapes["a"] == (4, 4)


def test_one_load_on_both_sides_of_a_matmul_cuts_nothing():
    _, plan = planned(SQUARE, small_target(2, 2))
    assert not plan.whole and set(plan.grid.values()) == {1}
