"""outline-constant-values: a constant holding a scalar, a vector, a string or a tensor whose
value binds a variable, borrows or needs a local of its own is the one part of itself, which a
function computing the value fills at its first read. The program prints what it printed
(and stops where it stopped), and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.outline_constant_values import outline_constant_values
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "outline_constant_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", outline_constant_values)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", outline_constant_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_function_binds_the_value_and_writes_it_through_its_parameter():
    text = to_text(run_front(CASES / "reading_a_field_of_a_call.vx",
                             outline_constant_values).after)
    assert "fn X$fill(part: &mut i32) {\n    let value: i32 = @make(4).x + @make(5).y;\n" \
        "    *part = value;\n}" in text
    assert "const X: i32 = const_part 0 of X by X$fill;" in text


# Hand-written Lconstparts: a constant binding a variable, one computed by operators alone,
# and one of a tensor, which its function returns, no `&mut` parameter giving a buffer back.
BINDING = """
    // IL: Lconstparts
    const K: i32 = if true {
        let a: i32 = 2;
        a + 1
    } else {
        0
    };

    const L: i32 = @K * 2;

    const T: Tensor<i32, [2], Memory::CPU_DRAM> = if true {
        let b: i32 = 4;
        Tensor<i32, [2]>::fill(b)
    } else {
        Tensor<i32, [2]>::fill(0)
    };

    fn main() {
        @print(@L);
        @print(@T[1]);
    }
"""


def test_handwritten_binding_constants_are_outlined_and_the_others_are_left(run_pass):
    ran = run_pass("outline-constant-values", BINDING)
    assert ran.codes == []
    assert "fn K$fill(part: &mut i32) {" in ran.dump
    assert "const K: i32 = const_part 0 of K by K$fill;" in ran.dump
    assert "const L: i32 = @K * 2;" in ran.dump
    assert "fn T$fill() -> Tensor<i32, [2], Memory::CPU_DRAM> {" in ran.dump
    assert "const T: Tensor<i32, [2], Memory::CPU_DRAM> = const_part 0 of T by T$fill;" \
        in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "6\n4\n"
