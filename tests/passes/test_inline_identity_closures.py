"""inline-identity-closures: a call of a closure whose body is one of its parameters, itself
called, is what the closure is given there; native code runs each case as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.inline_identity_closures import inline_identity_closures
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "inline_identity_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_identity_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_no_call_is_of_what_a_call_gives_back(case):
    ran = run_front(CASES / f"{case}.vx", inline_identity_closures)
    assert not [n for n in ran.nodes("Call") if n.callee._prod == "Call"]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_identity_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_call_whose_value_is_not_called_stays():
    ran = run_front("fn main() {\n    let x = 5;\n    let r = &x;\n    let id = |p| p;\n"
                    "    print(*id(r));\n}\n", inline_identity_closures)
    assert "@print(*id(r));" in to_text(ran.after)


def test_a_call_given_a_call_besides_stays():
    # A closure's call beside (which may assign what the closure captures): a function's
    # call of scalars, `two()`, bind-chosen-closure-arguments binds before the statement.
    ran = run_front("fn dbl(x: i32) -> i32 { x * 2 }\n"
                    "fn main() {\n    let two = || { print(2); 2 };\n"
                    "    let first = |a, b: i32| a;\n"
                    "    print(first(dbl, two())(3));\n}\n", inline_identity_closures)
    assert "first(@dbl, two())(3)" in to_text(ran.after)
    assert ran.prints() == ("2\n6\n",) * 2


# Hand-written Lmatched: a closure giving back the second of its parameters, called as what
# it gives back with a closure and with a call of itself given a function; another call,
# whose value is printed, stays.
HANDWRITTEN = """
    // IL: Lmatched
    fn dbl(x: i32) -> i32 {
        x * 2
    }

    fn main() {
        let inc: ~_ = |x: i32| {
            x + 1
        };
        let second: ~_ = |a: i32, h| {
            h
        };
        let k: i32 = 4;
        @print(second(k, inc)(10));
        @print(second(1, second(k, @dbl))(10));
        @print(second(2, k));
    }
"""


def test_handwritten_a_call_given_back_is_what_it_is_given(run_pass, snapshot_txt):
    ran = run_pass("inline-identity-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(inc(10));" in ran.dump and "@print(@dbl(10));" in ran.dump
    assert "@print(second(2, k));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "11\n20\n4\n"
    assert ran.dump == snapshot_txt
