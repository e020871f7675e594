"""wrap-function-values: a function used as a value becomes a closure calling it, which the
closure passes lower; where native code would not, it stays refused."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.wrap_function_values import wrap_function_values
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "wrap_function_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", wrap_function_values)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"wrap-function-values: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", wrap_function_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_function_value_is_a_closure_and_a_callee_stays():
    ran = run_front(CASES / "called.vx", wrap_function_values)
    main = to_text(next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main"))
    assert "let f: ~_ = |a: i32, b: i32| {\n        @add(a, b)\n    };" in main
    assert "let h: ~_ = || {\n        @hello()\n    };" in main


def test_a_function_value_printed_is_wrapped_and_the_stop_names_a_function():
    for case, stop in (("printed", "function"), ("chosen_with_a_closure_printed", "closure")):
        ran = run_front(CASES / f"{case}.vx", wrap_function_values)
        assert "@add(a" in to_text(ran.after)  # a call: the value wrapped
        status, _, err = run_cli(CASES / f"{case}.vx")
        assert status == 1 and "W5001" not in err
        assert f"cannot print a value of type {stop}" in err


HANDWRITTEN = """
    // IL: Lsplit
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let a: ~i32 = 5;
        let f: ~_ = @add;
        @print(f(a, 2));
        @print(@add(1, 1));
    }
"""


def test_handwritten_a_value_is_a_closure_with_fresh_parameters(run_pass, snapshot_txt):
    ran = run_pass("wrap-function-values", HANDWRITTEN)
    assert ran.codes == []
    assert "|a#1: i32, b: i32|" in ran.dump and "@print(@add(1, 1));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n2\n"
    assert ran.dump == snapshot_txt
