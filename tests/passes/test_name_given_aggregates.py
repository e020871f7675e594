"""name-given-aggregates: a struct a closure's call gives that split-closure-aggregates could
not give part by part (an operator on literals alone in a field) is held by a `let` of the
parameter's type just before its statement, which computes it first (what the statement
computes before it held by a `let` first); native code runs each case as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_given_aggregates import name_given_aggregates
from nano_vx.passes.split_closure_aggregates import split_closure_aggregates
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_given_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_given_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_given_aggregates)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_literal_of_an_operator_on_literals_is_held_then_given_by_its_parts():
    case = CASES / "struct_literal_of_an_operator_on_literals_given.vx"
    text = to_text(run_front(case, name_given_aggregates).after)
    assert "    let b#1: Big = Big { k: 1 << 40, n: 2 };\n    @print(f(b#1));" in text
    ran = run_front(case, split_closure_aggregates)
    [call] = [n for n in ran.nodes() if n._prod == "Call" and n.callee._prod == "Local"]
    assert len(call.args) == 2  # its parts: the closure is split


def test_what_the_statement_computes_first_is_held_first():
    text = to_text(run_front(CASES / "given_after_what_the_statement_computes_first.vx",
                             name_given_aggregates).after)
    assert "let operand: ~_ = @side(3);\n    let b#3: Big = Big { k: 1 << 40, n: 2 };\n" \
        "    @print(operand + f(b#3));" in text
    assert "let arg: ~_ = @side(5) as i32;\n    let b#4: Big = Big { k: 1 << 42, n: 1 };\n" \
        "    @print(two(arg, b#4));" in text
    assert "    if c {\n        let b#2: Big = Big { k: -(1 << 33), n: 1 };\n" in text


# Hand-written Lmatched: a struct literal given after a call that may stop (its `let` after
# the call's), one in a `while` condition (computed at every turn: left as it is), and a
# closure given only variables (nothing to hold).
HANDWRITTEN = """
    // IL: Lmatched
    struct Big {
        k: i64,
        n: i32,
    }

    fn half(x: i64) -> i64 {
        10 / x
    }

    fn main() {
        let f: ~_ = |b: Big| {
            b.k + 1
        };
        let g: ~_ = |b: Big| {
            b.k + b.n as i64
        };
        let mut i: ~i32 = 0;
        @print(@half(2) - f(Big { k: 1 << 40, n: 2 }));
        while g(Big { k: 1 << 40, n: i }) < 1099511627779 {
            i = i + 1;
        }
        let v: Big = Big { k: 3, n: 4 };
        @print(g(v));
    }
"""


def test_handwritten_a_literal_after_a_call_is_held_one_in_a_condition_left(run_pass,
                                                                              snapshot_txt):
    ran = run_pass("name-given-aggregates", HANDWRITTEN)
    assert ran.codes == []
    assert "let operand: ~_ = @half(2);\n    let b#1: Big = Big { k: 1 << 40, n: 2 };\n" \
        "    @print(operand - f(b#1));" in ran.dump
    assert "while g(Big { k: 1 << 40, n: i }) < 1099511627779 {" in ran.dump
    assert "@print(g(v));" in ran.dump and ran.dump.count("let b#") == 1
    assert _printed(ran.before) == _printed(ran.tree) == "-1099511627772\n7\n"
    assert ran.dump == snapshot_txt
