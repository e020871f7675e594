"""drop-unread-closure-parameters: a parameter a closure's body never names, given a closure
at every call, goes with those arguments, so that a closure it is given that no call types
may go too; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_unread_closure_parameters import drop_unread_closure_parameters
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_unread_closure_parameters"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_unread_closure_parameters)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_unread_closure_parameters)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_only_the_parameter_given_closures_goes():
    ran = run_front(CASES / "closures_given_to_a_closure_never_calling_them.vx",
                    drop_unread_closure_parameters)
    take = next(n.value for n in ran.nodes("Let") if n.name == "take")
    assert [p.name for p in take.params] == ["n"]
    assert all(len(c.args) == 1 for c in ran.nodes("Call") if c.callee.name == "take")


def test_parameters_named_or_given_what_is_not_a_closure_stay():
    ran = run_front(CASES / "parameters_kept.vx", drop_unread_closure_parameters)
    assert ran.after is ran.before
    ran = run_front("fn main() {\n    let g = |q: i32| q;\n    let either = |v| 5;\n"
                    "    print(either(g));\n    print(either(3));\n}\n",
                    drop_unread_closure_parameters)
    assert ran.after is ran.before


# A copy of the parameter named (the closure's value), or assigned another closure.
@pytest.mark.parametrize("copy", ["let y = x; y", "let mut y = x; y = g; 1"])
def test_a_parameter_whose_copy_is_named_stays(copy):
    ran = run_front("fn main() {\n    let g = |q| unsafe { q[0] };\n    let mut f = g;\n"
                    f"    let take = |x| {{ {copy} }};\n    let k = take(f);\n}}\n",
                    drop_unread_closure_parameters)
    assert ran.after is ran.before


def test_a_variable_assigned_what_is_not_a_closure_stays():
    ran = run_front("fn pick() -> i32 { 1 }\nfn main() {\n    let g = |q| unsafe { q[0] };\n"
                    "    let mut f = g;\n    f = if pick() > 0 { g } else { g };\n"
                    "    let take = |x| 1;\n    print(take(f));\n}\n",
                    drop_unread_closure_parameters)
    assert ran.after is ran.before


HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let g: ~_ = |q| {
            q[0]
        };
        let mut f: ~_ = g;
        let take: ~_ = |x, n: i32| {
            n + 1
        };
        @print(take(f, 2));
        @print(take(|w| { w[1] }, 3));
    }
"""


def test_handwritten_the_unread_parameter_goes_with_its_arguments(run_pass, snapshot_txt):
    ran = run_pass("drop-unread-closure-parameters", HANDWRITTEN)
    assert ran.codes == []
    assert "|n: i32|" in ran.dump and "take(2)" in ran.dump and "take(3)" in ran.dump
    assert ran.dump == snapshot_txt
