"""check-tensor-literals: a tensor literal whose extents, once constants and generic
arguments are numbers, hold another number of elements than its list (E3018)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_tensor_literals import check_tensor_literals
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_tensor_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "const_extent": ("E3018", "this list has 2 elements, but a tensor of extents [3] has 3"),
    "generic_extent": ("E3018", "this list has 4 elements, but a tensor of extents [3, 2] has "
                                "6"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_tensor_literals)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == ([REFUSED[case][0]] if case in REFUSED else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_tensor_literals, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_tensor_literals)


# Hand-written Ltyped: a ragged nested list, whose rows desugar-tensor-constructors refuses
# to differ (E3018) long before this pass; its four numbers read as two rows, each one
# element of the literal, so the count is two against the four the extents hold.
RAGGED_ROWS = """
    // IL: Ltyped
    fn main() {
        let c: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>([[1, 2, 3], [4]]);
        @print(c);
    }
"""


def test_handwritten_ragged_rows_are_counted_as_rows(run_pass, snapshot_txt):
    ran = run_pass("check-tensor-literals", RAGGED_ROWS)
    assert ran.codes == ["E3018"]
    assert ran.diagnostics.items[0].data == {"extents": [2, 2], "elements": 2}
    assert ran.dump == snapshot_txt
