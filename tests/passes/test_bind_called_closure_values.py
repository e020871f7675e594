"""bind-called-closure-values: a closure value a call gives, called at once, is bound by a
`let` before its statement where nothing computed before it could see the difference;
native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_called_closure_values import bind_called_closure_values
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_called_closure_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_called_closure_values)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_called_closure_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_value_called_at_once_is_bound_first():
    ran = run_front(CASES / "called_at_once.vx", bind_called_closure_values)
    made = [n for n in ran.nodes("Let") if n.name.startswith("made")]
    assert len(made) == 3
    assert not [n for n in ran.nodes("Call") if n.callee._prod == "Call"]


# Hand-written Lsplit: the call of a closure value after an argument that calls something,
# or after a variable a closure assigns, stays; the one first of its statement is bound.
HANDWRITTEN = """
    // IL: Lsplit
    fn two(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let mut n: i32 = 1;
        let bump: ~_ = || {
            n = n + 1;
        };
        let mk: ~_ = |y: i32| {
            || {
                y + 1
            }
        };
        @print(@two(n, mk(1)()));
        @print(@two(@two(1, 2), mk(2)()));
        @print(@two(3, mk(3)()));
        bump();
    }
"""


def test_handwritten_a_value_called_after_what_may_change_stays(run_pass, snapshot_txt):
    ran = run_pass("bind-called-closure-values", HANDWRITTEN)
    assert ran.codes == []
    assert "@two(n, mk(1)())" in ran.dump and "mk(2)()" in ran.dump
    assert ran.dump.count("let made") == 1
    assert ran.dump == snapshot_txt
