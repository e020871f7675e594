"""check-uninit-element-indices: each index other than a number of a `let` of a reference
to an element of a tensor made by `::uninit()` of static extents, only read or written
through, is computed first, in order, then checked for its dimension where the reference is
taken, into a `let` the element is read at. The program prints what it printed (and stops
where it stopped), and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_uninit_element_indices import check_uninit_element_indices
from nano_vx.passes.inline_uninit_element_references import inline_uninit_element_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "check_uninit_element_indices"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
TRACKED = Path(__file__).parent / "cases" / "track_uninit_elements"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_uninit_element_indices)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_uninit_element_indices)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_indices_are_computed_in_order_then_checked():
    text = to_text(run_front(CASES / "borrowed_at_computed_indices.vx",
                             check_uninit_element_indices).after)
    assert "        let index: ~_ = @pick(1);\n        let index#1: ~_ = j - 1;\n" \
        "        let at: ~_ = if index < 0 {\n" in text
    assert "        let w: ~&mut i32 = &mut t[at][at#2];\n" in text


def test_the_element_at_checked_indices_is_inlined():
    text = to_text(run_front(TRACKED / "element_borrowed_at_a_computed_index.vx",
                             inline_uninit_element_references).after)
    assert "    let at: ~_ = if i < 0 {\n" in text
    assert "    @print(t[at]);\n" in text and "let r" not in text


def test_an_element_of_unknown_extents_stays():
    case = TRACKED / "e5010_element_of_unknown_extents_borrowed_at_a_computed_index.vx"
    ran = run_front(case, check_uninit_element_indices)
    assert ran.after is ran.before


# Hand-written Lallset: references to elements of a tensor made by `::uninit()`: `a` at a
# variable index, checked into a `let`; `b` at a number and a computed index, the number
# kept; `c`, given on, and `d`, at a number past the extent (where the program stops),
# stay.
KINDS = """
    // IL: Lallset
    fn show(r: &i32) {
        @print(*r);
    }

    fn main() {
        let mut t: Tensor<i32, [2, 2], Memory::CPU_DRAM> = Tensor<i32, [2, 2]>::uninit();
        t[0][0] = 1;
        t[1][1] = 2;
        let i: i32 = 1;
        let a: &i32 = &t[i][i];
        @print(*a);
        let b: &i32 = &t[0][i - 1];
        @print(*b);
        let c: &i32 = &t[i][1];
        @show(c);
        let d: &i32 = &t[i][2];
        @print(i);
    }
"""


def test_handwritten_indices_other_than_numbers_are_checked(run_pass, snapshot_txt):
    ran = run_pass("check-uninit-element-indices", KINDS)
    assert ran.codes == []
    assert "    let a: &i32 = &t[at][at#1];\n" in ran.dump
    assert "    let index: ~_ = i - 1;\n" in ran.dump
    assert "&t[0][at#2];\n" in ran.dump
    assert "    let c: &i32 = &t[i][1];\n" in ran.dump
    assert "    let d: &i32 = &t[i][2];\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == \
        "2\n1\n2\nstopped: E9003: index 2 is out of bounds for dimension 1 of extent 2\n"
    assert ran.dump == snapshot_txt
