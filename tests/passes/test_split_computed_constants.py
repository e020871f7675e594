"""split-computed-constants: a constant holding a struct, a tuple or an enum whose value
calls a function or may stop the run is a constant per scalar part, which a function
computing the whole value fills at the first read of any part; each read of the constant is
the literal of its parts. The program prints what it printed (and stops where it stopped),
and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.scalars.constant_values import calls
from nano_vx.passes.split_computed_constants import split_computed_constants
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_computed_constants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def _split_left(tree) -> list:
    """The constants holding an aggregate whose value calls a function: none is left."""
    return [i.name for i in tree.items if i._prod == "ConstItem" and i.type._prod != "Scalar"
            and i.type._prod != "VectorType" and calls(descendants(i.value))]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_computed_constants)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert _split_left(ran.after) == []
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_computed_constants)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_read_is_the_literal_of_the_parts_and_the_function_fills_them():
    text = to_text(run_front(CASES / "calling_a_function.vx", split_computed_constants).after)
    assert "fn C$fill(part: &mut i32, part#1: &mut i32) {" in text
    assert "const C_x: i32 = const_part 0 of C by C$fill;" in text
    assert "@print(P { x: @C_x, y: @C_y }.y);" in text
    assert "const C: P" not in text


# Hand-written Lassumed: a tuple constant whose value divides by a constant (which may be
# zero), and one of literals only, which inline-aggregate-constants inlines instead.
DIVIDING = """
    // IL: Lassumed
    const Z: i32 = 2;

    const Q: (i32, bool) = (7 / @Z, true);

    const O: (i32, bool) = (1, false);

    fn main() {
        @print(@Q.0);
        @print(@O.0);
    }
"""


def test_handwritten_a_value_that_may_stop_is_split_and_literals_are_left(run_pass):
    ran = run_pass("split-computed-constants", DIVIDING)
    assert ran.codes == []
    assert "const Q_0: i32 = const_part 0 of Q by Q$fill;" in ran.dump
    assert "@print((@Q_0, @Q_1).0);" in ran.dump
    assert "const O: (i32, bool) = (1, false);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "3\n1\n"


def test_a_tensor_part_is_what_the_function_returns_after_the_parts_it_writes():
    text = to_text(run_front(CASES / "tensor_part_of_a_tuple.vx", split_computed_constants).after)
    assert "fn C$fill(part: &mut i32, part#1: &mut f64) -> Tensor<i32, [2], Memory::CPU_DRAM> " \
        "{" in text
    assert "    *part#1 = value.2;\n    value.1\n}" in text
    assert "const C_1: Tensor<i32, [2], Memory::CPU_DRAM> = const_part 2 of C by C$fill;" in text


# Hand-written Lassumed: a struct whose tensor an `if` makes (in neither arm a part of the
# literal the constant is), and one whose tensor its literal makes, which
# hoist-constant-tensors makes a constant of its own instead.
TENSORS = """
    // IL: Lassumed
    struct H {
        t: Tensor<i32, [2]>,
        n: i32,
    }

    const A: H = if true {
        H { t: Tensor<i32, [2]>::fill(1), n: 1 }
    } else {
        H { t: Tensor<i32, [2]>::fill(2), n: 2 }
    };

    const B: H = H { t: Tensor<i32, [2]>::fill(3), n: 3 };

    fn main() {
        @print(@A.t[0] + @A.n);
        @print(@B.t[1]);
    }
"""


def test_handwritten_a_tensor_an_if_makes_is_split_and_a_literal_one_is_left(run_pass):
    ran = run_pass("split-computed-constants", TENSORS)
    assert ran.codes == []
    assert "fn A$fill(part: &mut i32) -> Tensor<i32, [2]> {" in ran.dump
    assert "const A_t: Tensor<i32, [2]> = const_part 1 of A by A$fill;" in ran.dump
    assert "const B: H = H { t: Tensor<i32, [2]>::fill(3), n: 3 };" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n3\n"


def test_a_tensor_after_the_first_is_copied_into_a_buffer_the_first_read_makes():
    text = to_text(run_front(CASES / "tensor_parts_of_a_tuple.vx", split_computed_constants).after)
    assert "fn P$fill(part: &mut i32, part#1: Tensor<f32, [2], Memory::CPU_DRAM>) -> " in text
    assert "part#1[copied] = value.2[copied];" in text
    assert "const P_2: Tensor<f32, [2], Memory::CPU_DRAM> = const_part 1 of P by P$fill;" in text


# Two tensors of a struct, one a constant's: the function returns that one, the constant's
# buffer, and copies the other, which nothing else holds; two constants' are left whole, as a
# copy of either would not be that constant's.
SHARED = """
    // IL: Lassumed
    struct H {
        a: Tensor<i32, [2]>,
        b: Tensor<i32, [2]>,
    }

    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const U: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(5);

    fn mk() -> Tensor<i32, [2]> {
        @print(1);
        Tensor<i32, [2]>::fill(2)
    }

    const C: H = H { a: @mk(), b: @T };

    const D: H = if @mk()[0] > 1 { H { a: @T, b: @U } } else { H { a: @U, b: @T } };

    fn main() {
        @print(@C.a[0] + @C.b[1] + @D.b[0]);
    }
"""


def test_handwritten_of_two_tensors_one_a_constant_holds_is_returned(run_pass):
    ran = run_pass("split-computed-constants", SHARED)
    assert ran.codes == []
    assert "fn C$fill(part: Tensor<i32, [2]>) -> Tensor<i32, [2]> {" in ran.dump
    assert "part[copied] = value.a[copied];" in ran.dump
    assert "const C_b: Tensor<i32, [2]> = const_part 1 of C by C$fill;" in ran.dump
    assert "const D: H = if @mk()[0] > 1 {" in ran.dump
    assert "D$fill" not in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "1\n1\n11\n"
