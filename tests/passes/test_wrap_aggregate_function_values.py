"""wrap-aggregate-function-values: a function taking or returning a struct, tuple or enum
that a local only called may hold becomes a closure calling it, which the closure passes take
apart; any other value of it stays for check-aggregate-function-values to refuse."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.wrap_aggregate_function_values import wrap_aggregate_function_values
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "wrap_aggregate_function_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", wrap_aggregate_function_values)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"wrap-aggregate-function-values: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_no_function_of_aggregates_is_left_as_a_value(case):
    ran = run_front(CASES / f"{case}.vx", wrap_aggregate_function_values)
    fns = {item.name for item in ran.after.items if item._prod == "Fn"}
    callees = {id(n.callee) for n in descendants(ran.after) if n._prod == "Call"}
    assert not [n.name for n in descendants(ran.after) if n._prod == "Global"
                and n.name in fns and n.name != "main" and id(n) not in callees]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", wrap_aggregate_function_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


# Hand-written Lmatched: a function of a struct chosen by an `if` for a local only called, and
# the same function given to a closure, which no `let` gives a local only called.
HANDWRITTEN = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn sum(p: P) -> i32 {
        p.x + p.y
    }

    fn product(p: P) -> i32 {
        p.x * p.y
    }

    fn main() {
        let c: ~i32 = 1;
        let f: ~_ = if c > 0 {
            @sum
        } else {
            @product
        };
        let apply: ~_ = |g, q: P| {
            g(q)
        };
        @print(f(P { x: 2, y: 5 }));
        @print(apply(@product, P { x: 2, y: 5 }));
    }
"""


def test_handwritten_only_the_value_a_local_only_called_holds_is_wrapped(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("wrap-aggregate-function-values", HANDWRITTEN)
    assert ran.codes == []
    assert "|p: P| {\n            @sum(p)\n        }" in ran.dump
    assert "|p#1: P| {\n            @product(p#1)\n        }" in ran.dump
    assert "apply(@product, " in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n10\n"
    assert ran.dump == snapshot_txt
