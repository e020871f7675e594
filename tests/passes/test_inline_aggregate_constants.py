"""inline-aggregate-constants: each read of a constant holding a struct, a tuple or an enum
is its value, its numbers typed as the interpreter types them, and the constant is gone; a
value that calls a function, may stop the run or binds a variable (of a generic struct's
erased field the value does not type: split-computed-constants splits the others) or makes a
tensor other than as a part of its literal (hoist-constant-tensors made those constants of their own) is refused
(E5010). The program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.inline_aggregate_constants import inline_aggregate_constants
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "inline_aggregate_constants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


def _aggregate_constants(tree) -> list:
    return [i.name for i in tree.items if i._prod == "ConstItem"
            and i.type._prod not in ("Scalar", "TensorType")]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_aggregate_constants)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert _aggregate_constants(ran.after) == []
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_aggregate_constants)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_read_is_the_value_with_the_constants_it_reads_inlined():
    text = to_text(run_front(CASES / "reads.vx", inline_aggregate_constants).after)
    assert "const N: i32 = P { x: 2, y: 3 }.x + P { x: 2, y: 3 }.y;" in text
    assert "@print(@pick(Mode::Fast(P { x: 2, y: 3 }.y)));" in text
    assert "const UNREAD" not in text


def test_numbers_are_cast_to_the_types_the_interpreter_gives_them():
    text = to_text(run_front(CASES / "typed_as_declared.vx", inline_aggregate_constants).after)
    # a struct's field types its literals, and so does a tuple's element, as in a `let`
    assert "S { a: 1000000 as i64 * 10000 as i64, b: 0.1 as f32 }.a" in text
    assert "(1000000 as i64 * 10000 as i64, 0.1 as f32).0" in text


@pytest.mark.parametrize("case, says", [
    ("e5010_holding_two_tensors_constants_hold_chosen_by_ifs",
     "a constant holding an aggregate whose value calls a function"),
    ("e5010_holding_two_tensors_made_by_uninit",
     "a constant holding an aggregate whose value calls a function"),
    ("e5010_holding_two_rows_of_one_tensor",
     "a constant holding an aggregate whose value calls a function"),
])
def test_a_constant_not_inlined_is_refused_then_repaired(case, says):
    assert_refused_then_repaired(CASES / f"{case}.vx", inline_aggregate_constants, "E5010",
                                 says)


# Hand-written Lconstparts.
POINT = """
    // IL: Lconstparts
    struct P {
        x: i32,
        y: i32,
    }
"""

# A constant reading a scalar constant that divides by another, read only through the first:
# the interpreter computes the division at the first read (in the pipeline
# split-computed-constants splits such a struct first; what reaches this pass is refused).
STOPPING_THROUGH_A_SCALAR = POINT + """
    const Z: i32 = 0;

    const Q: i32 = 7 / @Z;

    const BAD: P = P { x: @Q, y: 3 };

    fn main() {
        @print(@BAD.y);
    }
"""

# The same constant read twice, its value not a division: inlined at both reads, once made.
READ_TWICE = POINT + """
    const K: i32 = 4;

    const O: P = P { x: @K, y: 3 };

    fn main() {
        @print(@O.x + @O.y);
    }
"""


def test_handwritten_a_stop_in_a_scalar_constant_read_is_refused(run_pass):
    ran = run_pass("inline-aggregate-constants", STOPPING_THROUGH_A_SCALAR)
    assert ran.codes == ["E5010"]


def test_handwritten_a_constant_read_twice_is_its_value_twice(run_pass):
    ran = run_pass("inline-aggregate-constants", READ_TWICE)
    assert ran.codes == []
    assert "@print(P { x: @K, y: 3 }.x + P { x: @K, y: 3 }.y);" in ran.dump
    assert "const O" not in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n"


def test_a_tensor_part_is_read_from_its_own_constant_at_each_read():
    text = to_text(run_front(CASES / "holding_a_tensor.vx", inline_aggregate_constants).after)
    assert "const C_t: Tensor<f32, [3], Memory::CPU_DRAM> = Tensor<f32, [3]>([1.0, 2.0, 3.0]);" \
        in text
    assert "@print(H { t: @C_t, n: 2 }.t[0]);" in text
