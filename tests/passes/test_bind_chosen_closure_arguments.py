"""bind-chosen-closure-arguments: arithmetic given to a closure choosing among its parameters,
whose value is called, is bound by a `let` first; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_chosen_closure_arguments import bind_chosen_closure_arguments
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "bind_chosen_closure_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_chosen_closure_arguments)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_each_closure_choosing_is_given_only_variables_and_literals(case):
    ran = run_front(CASES / f"{case}.vx", bind_chosen_closure_arguments)
    # each case's choosing closure is `pick`
    chosen = [n for n in ran.nodes("Call") if n.callee._prod == "Local" and
              n.callee.name == "pick"]
    assert chosen and all(a._prod in ("Local", "Global", "Int", "FieldGet")
                          for c in chosen for a in c.args)


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_chosen_closure_arguments)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


_LESS = "fn less(n: i32) -> i32 { print(n); n - 1 }\n" \
    "fn lower(n: &i32) -> i32 { *n - 1 }\n"
_PICK = "fn dbl(x: i32) -> i32 { x * 2 }\nfn main() {\n    let n = 1;\n" \
    "    let pick = |a, b, k: i32| if k > 0 { a } else { b };\n"


@pytest.mark.parametrize("statement, kept", [
    # a closure's call may assign a variable it captures that the arguments before it read
    ("let cut = |m: i32| m - 1;\n    print(pick(dbl, dbl, cut(n))(5));",
     "pick(@dbl, @dbl, cut(n))(5)"),
    # a function given a reference may write through it
    ("print(pick(dbl, dbl, lower(&n))(5));", "pick(@dbl, @dbl, @lower(&n))(5)"),
    # the call of `less` runs before the arithmetic: a `let` before the statement would not
    ("print(less(n) + pick(dbl, dbl, n - 1)(3));", "pick(@dbl, @dbl, n - 1)(3)"),
    # the right of `&&` may not run at all
    ("let b = n > 0 && pick(dbl, dbl, 10 / n)(3) > 0;", "pick(@dbl, @dbl, 10 / n)(3)"),
])
def test_arithmetic_not_computed_first_stays(statement, kept):
    ran = run_front(_LESS + _PICK + f"    {statement}\n}}\n", bind_chosen_closure_arguments)
    assert kept in to_text(ran.after)


def test_a_call_of_a_function_taking_scalars_is_bound_first():
    ran = run_front(_LESS + _PICK + "    print(pick(dbl, dbl, less(n * 2))(5));\n}\n",
                    bind_chosen_closure_arguments)
    assert "let k#1: i32 = @less(n * 2);" in to_text(ran.after)
    assert "pick(@dbl, @dbl, k#1)(5)" in to_text(ran.after)


# Hand-written Lmatched: a closure choosing between two closures by its typed parameter,
# given arithmetic twice, once called, once bound by a `let` of a local only called; a call
# of a closure not choosing stays.
HANDWRITTEN = """
    // IL: Lmatched
    fn main() {
        let inc: ~_ = |x: i32| {
            x + 1
        };
        let dbl: ~_ = |x: i32| {
            x * 2
        };
        let pick: ~_ = |a, b, k: i32| {
            if k > 0 {
                a
            } else {
                b
            }
        };
        let add: ~_ = |x: i32, y: i32| {
            x + y
        };
        let n: i32 = 3;
        @print(pick(inc, dbl, n - 4)(10));
        let f: ~_ = pick(inc, dbl, n * 2);
        @print(f(10));
        @print(add(n - 1, 1));
    }
"""


def test_handwritten_arithmetic_given_a_chosen_closure_is_bound_first(run_pass, snapshot_txt):
    ran = run_pass("bind-chosen-closure-arguments", HANDWRITTEN)
    assert ran.codes == []
    assert "let k#1: i32 = n - 4;" in ran.dump and "@print(pick(inc, dbl, k#1)(10));" in ran.dump
    assert "let f: ~_ = pick(inc, dbl, k#2);" in ran.dump
    assert "@print(add(n - 1, 1));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "20\n11\n3\n"
    assert ran.dump == snapshot_txt
