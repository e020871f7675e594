"""check-extent-queries: `.extent(i)` with an axis that is not a literal below the rank
(E3025), and `.shape` (E3024)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_extent_queries import check_extent_queries
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_extent_queries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "axis_past_rank": ("E3025", "`.extent(i)` takes one integer literal below the tensor's "
                                "rank, 2, naming an axis"),
    "axis_not_literal": ("E3025", "`.extent(i)` takes one integer literal below the tensor's "
                                  "rank, 2, naming an axis"),
    "axis_of_a_result_not_literal": ("E3025", "`.extent(i)` takes one integer literal "
                                              "naming an axis"),
    "shape_field": ("E3024", "a tensor has no `.shape`: its extents are part of its type"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_extent_queries)
    assert ran.after is ran.before
    expected = {REFUSED[case][0]} if case in REFUSED else set()
    assert set(ran.diagnostics.codes()) == expected
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_query_is_refused_and_the_repair_admitted(case):
    code, message = REFUSED[case]
    ran = run_front(CASES / f"{case}.vx", check_extent_queries)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [(code, message)]
    repaired = run_front(CASES / f"{case}_repaired.vx", check_extent_queries)
    assert not repaired.diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_extent_queries)


# Hand-written Ltyped: one unique name bound twice in a function, which resolve-names'
# renaming prevents (the second would be `t#1`). Each query is judged by the binding walked
# last before it: the same `.extent(1)` fits the first tensor and not the second.
NAME_BOUND_TWICE = """
    // IL: Ltyped
    fn main() {
        let t: Tensor<f32, [2, 3], Memory::CPU_DRAM> = Tensor<f32, [2, 3]>::new();
        @print(t.extent(1));
        let t: Tensor<f32, [4], Memory::CPU_DRAM> = Tensor<f32, [4]>::new();
        @print(t.extent(1));
    }
"""


def test_handwritten_a_name_bound_twice_is_judged_by_its_last_binding(run_pass, snapshot_txt):
    ran = run_pass("check-extent-queries", NAME_BOUND_TWICE)
    assert ran.codes == ["E3025"]
    assert ran.diagnostics.items[0].span.line == 6  # the second query
    assert ran.dump == snapshot_txt
