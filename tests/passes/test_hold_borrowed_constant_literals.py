"""hold-borrowed-constant-literals: a literal (or a scalar constant) a constant holding a `&`
to a scalar gives as its reference is the one element of a tensor constant of its own,
borrowed. The program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hold_borrowed_constant_literals import hold_borrowed_constant_literals
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hold_borrowed_constant_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hold_borrowed_constant_literals)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hold_borrowed_constant_literals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_kind_is_a_tensor_of_its_type():
    text = to_text(run_front(CASES / "literals_of_each_kind.vx",
                             hold_borrowed_constant_literals).after)
    assert "const G_literal: Tensor<f64, [1], Memory::CPU_DRAM> = " \
        "Tensor<f64, [1]>::fill(-1.25);" in text
    assert "const H_literal: Tensor<bool, [1], Memory::CPU_DRAM> = " \
        "Tensor<bool, [1]>::fill(false);" in text
    assert "} else {\n    &@H_literal[0]\n};" in text


# Hand-written Lconstparts: a borrowed literal an i64 reference gives, which the interpreter
# holds as the i32 it wraps to, stays; an i32 one is held; one given to a function stays.
KINDS = """
    // IL: Lconstparts
    fn at(r: &i32) -> &i32 {
        r
    }

    const T: Tensor<i64, [2]> = Tensor<i64, [2]>::fill(4);

    const U: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const W: &i64 = if false {
        &@T[0]
    } else {
        &3000000000
    };

    const V: &i32 = if false {
        &@U[0]
    } else {
        &7
    };

    const Q: &i32 = @at(&8);

    fn main() {
        @print(*@W);
        @print(*@V + *@Q);
    }
"""


def test_handwritten_an_i32_literal_is_held_and_others_stay(run_pass):
    ran = run_pass("hold-borrowed-constant-literals", KINDS)
    assert ran.codes == []
    assert "} else {\n    &3000000000\n};" in ran.dump
    assert "const V_literal: Tensor<i32, [1], Memory::CPU_DRAM> = " \
        "Tensor<i32, [1]>::fill(7);" in ran.dump
    assert "} else {\n    &@V_literal[0]\n};" in ran.dump
    assert "const Q: &i32 = @at(&8);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "-1294967296\n15\n"
