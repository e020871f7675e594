"""hoist-constant-tensors: each tensor the literal of a constant holding a struct, a tuple or
an enum makes as one of its parts is a constant of its own, read where the literal made it,
so that every read of the aggregate shares its buffer. The program prints what it printed,
and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hoist_constant_tensors import hoist_constant_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hoist_constant_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hoist_constant_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hoist_constant_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_tensor_part_is_a_constant_named_by_its_path():
    text = to_text(run_front(CASES / "nested_parts.vx", hoist_constant_tensors).after)
    assert "const C_h_t: Tensor<f32, [3], Memory::CPU_DRAM> = Tensor<f32, [3]>::fill(0.5);" \
        in text
    assert "const C: W = W { h: H { t: @C_h_t, n: 2 }, k: 1.5 };" in text
    assert "const P_1: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>([7, 8]);" in text


# Hand-written Lconstparts: a tuple holding a tensor whose value calls a function, left for
# inline-aggregate-constants to refuse, and one whose value calls none.
CALLING = """
    // IL: Lconstparts
    fn two() -> i32 {
        @print(2);
        2
    }

    const A: (i32, Tensor<i32, [2], Memory::CPU_DRAM>) = (@two(), Tensor<i32, [2]>::fill(1));

    const B: (i32, Tensor<i32, [2], Memory::CPU_DRAM>) = (3, Tensor<i32, [2]>::fill(1));

    fn main() {
        @print(@A.0 + @B.1[0]);
    }
"""


def test_handwritten_a_value_that_calls_is_left_and_one_that_does_not_is_hoisted(run_pass):
    ran = run_pass("hoist-constant-tensors", CALLING)
    assert ran.codes == []
    assert "const A: (i32, Tensor<i32, [2], Memory::CPU_DRAM>) = (@two(), " \
        "Tensor<i32, [2]>::fill(1));" in ran.dump
    assert "const B_1: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1);" \
        in ran.dump
    assert "const B: (i32, Tensor<i32, [2], Memory::CPU_DRAM>) = (3, @B_1);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n3\n"
