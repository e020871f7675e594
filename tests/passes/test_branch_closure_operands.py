"""branch-closure-operands: an `&&` or `||` whose right operand calls a closure
mark-uninit-closures marked becomes an `if` whose arm computes it, so that
name-closure-temporaries names the tensors the call is given there; native code runs each
case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.branch_closure_operands import branch_closure_operands
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "branch_closure_operands"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", branch_closure_operands)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", branch_closure_operands)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_operator_calling_a_marked_closure_is_left():
    for case in NAMES:
        ran = run_front(CASES / f"{case}.vx", branch_closure_operands)
        assert not any(n._prod == "Binary" and n.op in ("&&", "||") and
                       any(c._prod == "Call" and c.callee._prod == "Local"
                           for c in descendants(n.right)) for n in ran.nodes())


# Hand-written Lcopied: a marked closure called right of `&&` in a `let`, of `||` in a
# print's argument (held by a `let` first), and in a chain; a closure not marked right of `&&`
# is left as it is.
HANDWRITTEN = """
    // IL: Lcopied
    fn main() {
        let ok: bool = true;
        let at: ~_ = |x: Tensor<i32, [?], Memory::CPU_DRAM>, i: i32| {
            written copy (x);
            x[i]
        };
        let plain: ~_ = |i: i32| { i };
        let a: bool = ok && at(Tensor<i32, [?]>::fill([2], 3), 1) == 3;
        @print(ok || at(Tensor<i32, [?]>::fill([1], 4), 0) == 4);
        @print(ok && a && at(Tensor<i32, [?]>::fill([1], 5), 0) == 5);
        @print(ok && plain(1) == 1);
    }
"""


def test_handwritten_each_operator_right_of_which_a_marked_closure_is_called(run_pass,
                                                                             snapshot_txt):
    ran = run_pass("branch-closure-operands", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(ok && plain(1) == 1);" in ran.dump
    assert ran.dump.count("let operand") == 2
    assert ran.dump == snapshot_txt
