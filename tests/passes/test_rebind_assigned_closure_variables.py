"""rebind-assigned-closure-variables: an assignment of a variable a `let mut` binds to a
function or a closure, a statement of its block (or of an arm of an `if` ending it) giving it
one, is a `let` of a variable of its own, so that each read says which it reads; native code
runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.rebind_assigned_closure_variables import rebind_assigned_closure_variables
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "rebind_assigned_closure_variables"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", rebind_assigned_closure_variables)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", rebind_assigned_closure_variables)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_assignment_binds_a_variable_the_reads_after_it_read():
    ran = run_front(CASES / "variable_assigned_a_closure_then_functions.vx",
                    rebind_assigned_closure_variables)
    assert not list(ran.nodes("Assign"))
    assert not any(n.mutable for n in ran.nodes("Let"))
    assert [c.args[0].name for c in ran.nodes("Call") if c.callee._prod == "Local"
            and c.callee.name == "show"] == ["g", "g#1", "g#2"]


def test_each_assignment_in_an_arm_of_an_if_ending_its_block_binds_a_variable_of_its_own():
    ran = run_front(CASES / "variable_assigned_in_arms_of_ifs_ending_its_block.vx",
                    rebind_assigned_closure_variables)
    assert [n.target.name for n in ran.nodes("Assign")] == ["i"]
    assert [c.args[0].name for c in ran.nodes("Call") if c.callee._prod == "Local"
            and c.callee.name == "show"] == ["g#1", "g#2", "g#3", "g", "g#4", "g#5"]


def test_a_variable_a_closure_reads_or_an_if_something_follows_assigns_stays():
    ran = run_front(CASES / "variable_read_by_a_closure_beside_one_called.vx",
                    rebind_assigned_closure_variables)
    assert [n.target.name for n in ran.nodes("Assign")] == ["g"]
    ran = run_front("fn add(a: i32, b: i32) -> i32 { a + b }\nfn main() {\n"
                    "    let mut g = add;\n    if 2 > 1 {\n        g = |a: i32, b: i32| a - b;\n"
                    "    }\n    print(g(1, 2));\n}\n", rebind_assigned_closure_variables)
    assert ran.after is ran.before


HANDWRITTEN = """
    // IL: Lpinned
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let mut g: _ = @add;
        @print(g(1, 2));
        g = |a#1: i32, b#1: i32| {
            a#1 - b#1
        };
        @print(g(1, 2));
    }
"""


def test_handwritten_the_assignment_is_a_let_read_after_it(run_pass, snapshot_txt):
    ran = run_pass("rebind-assigned-closure-variables", HANDWRITTEN)
    assert ran.codes == []
    assert "let g: _ = @add;" in ran.dump and "let g#1: ~_ = |a#1" in ran.dump
    assert "@print(g#1(1, 2));" in ran.dump
    assert ran.dump == snapshot_txt
