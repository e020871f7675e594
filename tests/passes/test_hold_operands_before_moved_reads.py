"""hold-operands-before-moved-reads: an operand computed before a read of a variable a closure
may move is held by a `let` before the statement, so that track-moved-captures's check of the
read comes after it, where the interpreter reads the variable."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hold_operands_before_moved_reads import hold_operands_before_moved_reads
from nano_vx.passes.track_moved_captures import track_moved_captures
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_front)

CASES = Path(__file__).parent / "cases" / "hold_operands_before_moved_reads"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hold_operands_before_moved_reads)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_and_stops_as_the_input(case):
    assert_prints_the_same(CASES / f"{case}.vx", hold_operands_before_moved_reads)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_check_of_the_read_comes_after_the_operand_held():
    """The element is computed before the check of `t`'s flag, as the interpreter computes
    it before its read of `t`."""
    text = to_text(run_front(CASES / "read_after_an_element.vx", track_moved_captures).after)
    assert text.index("let operand: ~_ = u[0];") < text.index("if t_moved == 1 {") < \
        text.index("@keep(operand, transfer")


def test_a_read_on_the_right_of_and_is_held_as_an_if_whose_arm_reads_it():
    text = to_text(run_front(CASES / "read_right_of_and.vx", track_moved_captures).after)
    assert "let operand: ~_ = if c > 0 {\n            if t_moved == 1 {" in text
    assert "t[0] > 0\n        } else {\n            false\n        };\n        operand\n" in text


@pytest.mark.parametrize("value", ["keep(2 * 3, t[0])", "keep2(&u[1], t[0])",
                                   "keep2(&(*same(&t))[c], t[0])"])
def test_a_read_no_operand_held_would_make_first_is_left_as_it_is(value):
    """A read after literals alone (typed by where they are), after a reference to an element
    that cannot stop (the read is first already) or after one through a reference to `t`
    (lent where it is made): track-moved-captures refuses the first and the last."""
    text = ("fn keep(a: i64, x: i32) -> bool { a > 0 }\n"
            "fn keep2(a: &i32, x: i32) -> bool { *a > 0 }\n"
            "fn same(r: &Tensor<i32, [2]>) -> &Tensor<i32, [2]> { r }\n"
            "fn main() {\n  let t = Tensor<i32, [2]>::fill(1);\n"
            "  let u = Tensor<i32, [2]>::fill(2);\n  let c = 1;\n"
            f"  let peek = || {value};\n  print(peek());\n"
            "  let a = transfer(t, Memory::NPU_HBM);\n}\n")
    ran = run_front(text, hold_operands_before_moved_reads)
    assert not ran.diagnostics.items and ran.after == ran.before


# Hand-written Lsafe: a closure reading `t` after two calls and an element, which a
# `transfer` moves: each is held, in order, and the call of the closure after the move prints
# what the calls print before it stops.
HELD_IN_ORDER = """
    // IL: Lsafe
    fn show(x: i32) -> i32 {
        @print(x);
        x
    }

    fn main() {
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4);
        let peek: ~_ = || {
            show(1) + show(2) * u[1] + t[0]
        };
        @print(peek());
        let a: ~_ = transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50](t, Memory::NPU_HBM);
        @print(peek());
    }
"""


def test_handwritten_operands_held_in_order(run_pass, snapshot_txt):
    ran = run_pass("hold-operands-before-moved-reads", HELD_IN_ORDER)
    assert ran.codes == []
    assert "let operand: ~_ = show(1) + show(2) * u[1];" in ran.dump
    assert "operand + t[0]" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree)
    assert ran.dump == snapshot_txt


def test_a_reference_to_an_element_at_a_variable_index_is_held_before_the_read():
    text = to_text(run_front(CASES / "past_references_at_variable_indices.vx",
                             hold_operands_before_moved_reads).after)
    assert "let operand: ~_ = &u[k];\n        let operand#1: ~_ = &u[@look(&u, k + 1)];\n" \
        "        @pick(operand, operand#1, t[1])\n" in text
