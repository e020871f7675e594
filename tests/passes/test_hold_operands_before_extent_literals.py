"""hold-operands-before-extent-literals: each argument a call computes before a tensor literal
of several extents naming variables is held in a `let` first, in order, so that
bind-extent-literals finds the literal computed first; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hold_operands_before_extent_literals import \
    hold_operands_before_extent_literals
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hold_operands_before_extent_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hold_operands_before_extent_literals)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hold_operands_before_extent_literals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_local_before_a_held_call_is_held_before_it():
    ran = run_front(CASES / "local_before_a_call_changing_it.vx",
                    hold_operands_before_extent_literals)
    main = to_text(next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main"))
    held = ["let argument: ~_ = x;", "let argument#1: ~_ = @bump(&mut x);",
            "@three(argument, argument#1, Tensor<i32, [n, n + 1]>([1, 2]))"]
    assert [main.index(h) for h in held] == sorted(main.index(h) for h in held)


# Hand-written Lsplit: arguments before a literal reached through a cast and a method's
# receiver are held, and an operator's left operand before it; a literal after a borrow, one
# right of `&&`, one of one variable extent and one after reads only are left as they are.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let n: i32 = 2;
        let mut x: i32 = 1;
        @print(@pair(@shown(1), Tensor<i32, [n, n]>([1, 2, 3, 4]).extent(0)) as i64);
        @print(@pair(&mut x, Tensor<i32, [n, n]>([1, 2, 3, 4])));
        @print(@shown(1) + @pair(@shown(2), Tensor<i32, [n, n]>([1, 2, 3, 4])));
        @print(@shown(1) > 0 && @pair(@shown(2), Tensor<i32, [n, n]>([1, 2, 3, 4])) > 0);
        @print(@pair(@shown(1), Tensor<i32, [n]>([1, 2])));
        @print(@pair(n, Tensor<i32, [n, n]>([1, 2, 3, 4])));
    }
"""


def test_handwritten_only_arguments_on_the_way_to_a_literal_are_held(run_pass, snapshot_txt):
    ran = run_pass("hold-operands-before-extent-literals", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("let argument") == 3
    assert ran.dump == snapshot_txt
