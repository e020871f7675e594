"""copy-closures-per-lent-reference: a closure whose calls lend a `&mut &T` parameter
different reference variables calls a copy per variable, so that capture-lent-references
finds each parameter lent one; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_closures_per_lent_reference import copy_closures_per_lent_reference
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_closures_per_lent_reference"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_lent_reference)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_per_lent_reference)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_calls_the_copy_of_the_variable_it_lends():
    ran = run_front(CASES / "references_lent_beside_a_value_read_then_pointed_again.vx",
                    copy_closures_per_lent_reference)
    assert [n.name for n in ran.nodes("Let") if n.value._prod == "Closure"] == \
        ["point", "point#1"]
    assert [c.callee.name for c in ran.nodes("Call") if c.callee._prod == "Local"] == \
        ["point", "point#1", "point"]


# One variable lent at every call (capture-lent-references takes it as it is), one bound
# after the closure's first call, a `&mut` passed on from a parameter, a parameter also read
# whole.
@pytest.mark.parametrize("body", [
    "let mut r = &x;\n    let point = |q: &mut &i32| { *q = &y; };\n"
    "    point(&mut r);\n    point(&mut r);",
    "let mut r = &x;\n    let point = |q: &mut &i32| { *q = &y; };\n    point(&mut r);\n"
    "    let mut s = &x;\n    point(&mut s);",
    "let mut r = &x;\n    let mut s = &x;\n    let point = |q: &mut &i32| { *q = &y; };\n"
    "    let on = |p: &mut &i32| { point(p); };\n    on(&mut r);\n    point(&mut s);",
    "let mut r = &x;\n    let mut s = &x;\n    let point = |q: &mut &i32| { let c = q; };\n"
    "    point(&mut r);\n    point(&mut s);",
])
def test_a_closure_lent_one_variable_or_what_no_copy_can_capture_is_left(body):
    ran = run_front(f"fn main() {{\n    let x = 5;\n    let y = 9;\n    {body}\n}}\n",
                    copy_closures_per_lent_reference)
    assert ran.after is ran.before


# Hand-written Lassumed: a closure of two `&mut &i32` parameters, lent (r, s) by two calls
# and (s, r) by a third, beside a closure no call lends a reference.
HANDWRITTEN = """
    // IL: Lassumed
    fn main() {
        let low: i32 = 3;
        let high: i32 = 4;
        let mut p: &i32 = &low;
        let mut u: &i32 = &high;
        let first: ~_ = |a: &mut &i32, b: &mut &i32| {
            *(*a) * 10 + *(*b)
        };
        let add: ~_ = |k: i32| {
            k + 1
        };
        @print(first(&mut p, &mut u));
        @print(first(&mut u, &mut p));
        @print(add(first(&mut p, &mut u)));
    }
"""


def test_handwritten_each_set_of_variables_lent_calls_a_copy(run_pass, snapshot_txt):
    ran = run_pass("copy-closures-per-lent-reference", HANDWRITTEN)
    assert ran.codes == []
    assert "let first#1: ~_ = |a#1: &mut &i32, b#1: &mut &i32|" in ran.dump
    assert "@print(first#1(&mut u, &mut p));" in ran.dump
    assert ran.dump.count("first(&mut p, &mut u)") == 2
    assert _printed(ran.before) == _printed(ran.tree) == "34\n43\n35\n"
    assert ran.dump == snapshot_txt
