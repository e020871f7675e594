"""hold-operands-before-kernel-moved-reads: each operand a statement of a kernel computes
before a read of the tensor it is lent `&mut` and moves, where the statement may run after
the move, is held by a `let` before it, so that the statement reads the tensor first; the
program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hold_operands_before_kernel_moved_reads import (
    hold_operands_before_kernel_moved_reads)
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hold_operands_before_kernel_moved_reads"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hold_operands_before_kernel_moved_reads)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.after is not ran.before
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hold_operands_before_kernel_moved_reads)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_condition_reading_after_an_operator_reads_first_after_the_operand_held():
    text = to_text(run_front(CASES / "condition_reading_it_after_an_operator.vx",
                             hold_operands_before_kernel_moved_reads).after)
    assert "    while true {\n        let operand: ~_ = s + i;\n" \
        "        if operand >= (*t)[0] + 20 {\n" in text


def test_a_read_on_the_right_of_and_is_held_as_the_if_choosing_by_the_left():
    text = to_text(run_front(CASES / "read_on_the_right_of_and.vx",
                             hold_operands_before_kernel_moved_reads).after)
    assert "    let operand: ~_ = if n > 2 {\n        (*t)[0] > 5\n    } else {\n" \
        "        false\n    };\n    let big: ~bool = operand;\n" in text


# Hand-written Lparted: a kernel moving the tensor it is lent, then reading it after an
# operator, in a statement before the move (which runs before it: left) and in two after it
# (an assignment to a variable, held; one to an element of the tensor, left).
HANDWRITTEN = """
    // IL: Lparted
    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        let mut s: i32 = 0;
        launch main$kernel0 on(Topology::CPU)(&mut t, &mut s);
        @print(s);
    }

    fn main$kernel0(t: &mut Tensor<i32, [2]>, s: &mut i32) on Topology::CPU {
        let k: i32 = 2;
        let mut u: i32 = k + (*t)[0];
        let a: Tensor<i32, [2]> = transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](*t, Memory::NPU_HBM);
        *t = Tensor<i32, [2]>::fill(a[0] + 5);
        u = u + k * 3 + (*t)[1];
        (*t)[0] = k + (*t)[1];
        *s = u;
    }
"""


def test_handwritten_only_a_statement_after_the_move_is_held(run_pass, snapshot_txt):
    ran = run_pass("hold-operands-before-kernel-moved-reads", HANDWRITTEN)
    assert ran.codes == []
    assert "    let mut u: i32 = k + (*t)[0];\n" in ran.dump
    assert "    let operand: ~_ = u + k * 3;\n    u = operand + (*t)[1];\n" in ran.dump
    assert "    (*t)[0] = k + (*t)[1];\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "15\n"
    assert ran.dump == snapshot_txt
