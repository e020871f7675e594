"""inline-reference-constant-lets: a variable a block of a reference constant's value binds
to another constant or a borrow, in a block of such `let`s alone, is read as that value,
and the `let` goes. The program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.inline_reference_constant_lets import inline_reference_constant_lets
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "inline_reference_constant_lets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_reference_constant_lets)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not [n for i in ran.after.items if i._prod == "ConstItem" and i.value is not None
                for n in descendants(i.value) if n._prod == "Let"]
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_reference_constant_lets)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


# Hand-written Lconstparts: a `let` read where it was bound of a constant whose first read
# may stop (an index), which is inlined; one of such a constant read after another `let`,
# one beside a statement and a `let mut`, which stay.
KINDS = """
    // IL: Lconstparts
    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const E: &i32 = &@T[0];

    const A: &i32 = if true {
        let k: &i32 = @E;
        k
    } else {
        &@T[1]
    };

    const B: &i32 = if true {
        let k: &i32 = @E;
        let m: &i32 = &1;
        k
    } else {
        &@T[1]
    };

    const C: &i32 = if true {
        @print(2);
        let k: &i32 = @E;
        k
    } else {
        &@T[1]
    };

    const D: &i32 = if true {
        let mut k: &i32 = @E;
        k
    } else {
        &@T[1]
    };

    fn main() {
        @print(*@A + *@B + *@C + *@D);
    }
"""


def test_handwritten_a_let_read_where_it_was_is_inlined_and_others_stay(run_pass):
    ran = run_pass("inline-reference-constant-lets", KINDS)
    assert ran.codes == []
    assert "const A: &i32 = if true {\n    @E\n} else {" in ran.dump
    assert "const B: &i32 = if true {\n    let k: &i32 = @E;" in ran.dump
    assert "const C: &i32 = if true {\n    @print(2);" in ran.dump
    assert "const D: &i32 = if true {\n    let mut k: &i32 = @E;" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n16\n"
