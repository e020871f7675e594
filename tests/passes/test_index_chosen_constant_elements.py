"""index-chosen-constant-elements: a reference constant whose value calls a function and
gives only elements of one tensor constant at literal indices within its extents is a
constant of the indices it chooses, each read a borrow of the element at them. The program
prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.index_chosen_constant_elements import index_chosen_constant_elements
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "index_chosen_constant_elements"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", index_chosen_constant_elements)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", index_chosen_constant_elements)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_grids_indices_are_a_tuple_read_per_extent():
    text = to_text(run_front(CASES / "of_a_grid_read_by_another_constant.vx",
                             index_chosen_constant_elements).after)
    assert "const G_at: (i64, i64) = if @count(2) > 1 {" in text
    assert "    (1, 2)\n} else {\n    (0, 0)\n};" in text
    assert "const H: &i32 = &@M[@G_at.0][@G_at.1];" in text


# Hand-written Lassumed: a reference choosing by a call between elements of one tensor
# constant is indexed; one choosing between two tensors, one at an index past the extent, one
# at an index a variable holds, one of a tensor whose value calls, and one calling nothing,
# stay.
KINDS = """
    // IL: Lassumed
    fn pick() -> bool {
        @print(7);
        false
    }

    fn made() -> Tensor<i32, [2]> {
        Tensor<i32, [2]>::fill(1)
    }

    const T: Tensor<i32, [2]> = Tensor<i32, [2]>([4, 5]);

    const U: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(6);

    const C: Tensor<i32, [2]> = @made();

    const A: &i32 = if @pick() { &@T[0] } else { &@T[1] };

    const B: &i32 = if @pick() { &@T[0] } else { &@U[1] };

    const P: &i32 = if @pick() { &@T[0] } else { &@T[2] };

    const V: &i32 = if @pick() { let k: i32 = 1; &@T[k] } else { &@T[0] };

    const M: &i32 = if @pick() { &@C[0] } else { &@C[1] };

    const Q: &i32 = if true { &@T[0] } else { &@T[1] };

    fn main() {
        @print(*@A + *@Q);
    }
"""


def test_handwritten_one_tensor_at_literal_indices_within_it_is_indexed(run_pass):
    ran = run_pass("index-chosen-constant-elements", KINDS)
    assert ran.codes == []
    assert "const A_at: i64 = if @pick() {\n    0\n} else {\n    1\n};" in ran.dump
    assert "@print(*(&@T[@A_at]) + *@Q);" in ran.dump
    for kept in ("B", "P", "V", "M", "Q"):
        assert f"const {kept}: &i32 = " in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n9\n"
