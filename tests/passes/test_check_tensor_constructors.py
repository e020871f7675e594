"""check-tensor-constructors: a constructor Tensor has not, or one given the wrong number of
values (E3010); a `?` tensor's list of extents is not one of them."""

from pathlib import Path

import pytest

from nano_vx.passes.check_tensor_constructors import check_tensor_constructors
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_tensor_constructors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "fill_without_value": ("E3010", "`::fill` takes 1 value, but this gives 0"),
    "unknown_constructor": ("E3010", "Tensor has no constructor `::zeros`"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_tensor_constructors)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == ([REFUSED[case][0]] if case in REFUSED else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_tensor_constructors,
                                 *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_tensor_constructors)


def test_the_extents_of_a_question_mark_tensor_come_first_and_are_not_a_value():
    text = "fn main() {\n  let n = 2;\n  let d = Tensor<f64, [?]>::fill([n], 1.0);\n}\n"
    assert not run_front(text, check_tensor_constructors).diagnostics.items


# Hand-written Ltyped: a tensor with `?` extents made without its extents list, which the
# parser refuses (E1001). This pass counted the missing list as a value and said "this gives
# -1"; it says what is missing.
NO_EXTENTS_LIST = """
    // IL: Ltyped
    fn main() {
        let a: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::new();
        let b: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::fill();
        @print(a);
    }
"""


def test_handwritten_a_sized_constructor_without_its_extents_list(run_pass, snapshot_txt):
    ran = run_pass("check-tensor-constructors", NO_EXTENTS_LIST)
    assert ran.codes == ["E3010", "E3010"]
    assert [d.help for d in ran.diagnostics.items] == [["write `::new([..])`"],
                                                      ["write `::fill([..], v)`"]]
    assert ran.dump == snapshot_txt
