"""call-functions-by-name: a call through a variable a `let` binds to a function, only called,
is the call of the function by its name; every other function value stays."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.call_functions_by_name import call_functions_by_name
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "call_functions_by_name"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", call_functions_by_name)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", call_functions_by_name)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_call_through_a_variable_only_called_calls_by_name_and_the_let_goes():
    main = to_text(run_front(CASES / "returning_a_struct.vx", call_functions_by_name).after)
    assert "let f" not in main
    assert "let p: ~_ = @mk(3);" in main and "@mk(4).y" in main and "@mk(k).x" in main


def test_a_variable_assigned_chosen_or_copied_stays_a_function_value():
    main = to_text(run_front(CASES / "assigned_or_chosen.vx", call_functions_by_name).after)
    for kept in ("let only: ~_ = @add;", "let mut assigned: ~_ = @add;", "let chosen: ~_ = if",
                 "let copied: ~_ = only;", "@print(only(k, 1));"):
        assert kept in main
    assert "let direct" not in main and "@print(@sub(1, k));" in main


HANDWRITTEN = """
    // IL: Lconstparts
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let f: ~_ = @add;
        let g: ~_ = @add;
        @print(f(1, 2));
        @print(g(3, 4));
        @print(g);
    }
"""


def test_handwritten_a_variable_only_called_is_the_function_and_one_printed_stays(
        run_pass, snapshot_txt):
    ran = run_pass("call-functions-by-name", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(@add(1, 2));" in ran.dump and "let f" not in ran.dump
    assert "let g: ~_ = @add;" in ran.dump and "@print(g(3, 4));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == \
        "3\n7\nstopped: E9006: cannot print a value of type function\n"
    assert ran.dump == snapshot_txt
