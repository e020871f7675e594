"""inline-uninit-element-references: a reference to an element of a tensor made by
`::uninit()`, at numbers within its extents, only read or written through, is that element
at each read or write, and its `let` goes. The program prints what it printed (and stops
where it stopped), and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.inline_uninit_element_references import inline_uninit_element_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "inline_uninit_element_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_uninit_element_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_uninit_element_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_read_and_write_through_is_the_element():
    text = to_text(run_front(CASES / "written_through.vx",
                             inline_uninit_element_references).after)
    assert "t[1] = 4;\n        t[1] += 2;\n        @print(t[1] * 10);" in text
    assert "let r" not in text


# Hand-written Lallset: references to elements of a tensor made by `::uninit()`: one read
# through, inlined; one given on, one at an index a variable holds and one past the extent,
# which stay.
KINDS = """
    // IL: Lallset
    fn show(r: &i32) {
        @print(*r);
    }

    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::uninit();
        t[0] = 1;
        t[1] = 2;
        let a: &i32 = &t[0];
        @print(*a);
        let b: &i32 = &t[1];
        @show(b);
        let i: i32 = 1;
        let c: &i32 = &t[i];
        @print(*c);
    }
"""


def test_handwritten_a_reference_only_read_through_is_its_element(run_pass):
    ran = run_pass("inline-uninit-element-references", KINDS)
    assert ran.codes == []
    assert "let a" not in ran.dump
    assert "@print(t[0]);" in ran.dump
    assert "let b: &i32 = &t[1];" in ran.dump
    assert "let c: &i32 = &t[i];" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "1\n2\n2\n"
