"""give-early-return-conditions: a function returning a `&mut` to a struct or tuple early on
a condition read through its `&mut` parameters takes the condition as a `bool` parameter, a
function of its own computing it just before each call; the program prints what it printed,
and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.give_early_return_conditions import give_early_return_conditions
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "give_early_return_conditions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", give_early_return_conditions)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", give_early_return_conditions)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_computes_the_condition_just_before_it():
    ran = run_front(CASES / "condition_read_beside_a_parameter_by_value.vx",
                    give_early_return_conditions)
    text = to_text(ran.after)
    assert "fn early$cond(p: &mut Pair, k: i32) -> bool {\n    p.a.x > k && p.b.y < 10\n}" \
        in text
    assert "fn early(p: &mut Pair, k: i32, cond: bool) -> &mut Point {\n    if cond {\n" in text
    assert "    let cond: ~bool = @early$cond(&mut q, 0);\n" \
           "    let mut r: &mut Point = @early(&mut q, 0, cond);\n" in text
    assert "    let cond#1: ~bool = @early$cond(&mut q, 0);\n    r = @early(&mut q, 0, cond#1);" \
        in text


FUNCTION = """struct Point {{ x: i32, y: i32 }}
struct Pair {{ a: Point, b: Point }}
fn early(p: &mut Pair, k: i32) -> &mut Point {{ {body} }}
fn main() {{
  let mut q = Pair {{ a: Point {{ x: 1, y: 2 }}, b: Point {{ x: 3, y: 4 }} }};
  {call}
  print(q);
}}
"""


def test_a_condition_that_may_stop_is_computed_just_before_the_call():
    # its arguments compute nothing that may stop, so it stops where the body's first
    # statement did
    text = to_text(run_front(CASES / "condition_that_may_stop.vx",
                             give_early_return_conditions).after)
    assert "-> bool {\n    (p.a.x + 1) / (p.b.y - p.b.x) > 1\n}" in text
    assert "        let cond: ~bool = @early$cond(&mut q);\n" \
           "        let mut r: &mut Point = @early(&mut q, cond);\n" in text


def test_the_statements_before_the_condition_run_first_with_it():
    text = to_text(run_front(CASES / "condition_after_statements_binding_a_local_it_reads.vx",
                             give_early_return_conditions).after)
    assert "fn early$cond(p: &mut Pair, k: i32) -> bool {\n    @print(k);\n" \
           "    let s: ~_ = p.a.x + k;\n    p.b.x += 1;\n    s / p.b.x > 0\n}" in text
    assert "fn early(p: &mut Pair, k: i32, cond: bool) -> &mut Point {\n    if cond {\n" in text


# A condition after a `let` the arm reads, after a statement assigning a parameter by value,
# or after one but of parameters by value nothing
# changes (defer-early-returned-references defers it as it is), a second `return`, or a
# call computing an argument: left as it is.
@pytest.mark.parametrize("body, call", [
    ("let d = p.b.x; if p.a.x > 0 { p.a.x = d; return &mut p.a; } &mut p.b",
     "{ let r = early(&mut q, 1); r.x = 5; }"),
    ("k += 1; if p.a.x > k { p.a.x = 0; return &mut p.a; } &mut p.b",
     "{ let r = early(&mut q, 1); r.x = 5; }"),
    ("print(k); if k > 0 { p.a.x = 0; return &mut p.a; } &mut p.b",
     "{ let r = early(&mut q, 1); r.x = 5; }"),
    ("if k > 0 { p.a.x = 0; return &mut p.a; } &mut p.b",
     "{ let r = early(&mut q, 1); r.x = 5; }"),
    ("if p.a.x > 0 { return &mut p.a; } if k > 0 { return &mut p.b; } &mut p.a",
     "{ let r = early(&mut q, 1); r.x = 5; }"),
    ("if p.a.x > 0 { p.a.x = 0; return &mut p.a; } &mut p.b",
     "{ let r = early(&mut q, q.b.x); r.x = 5; }"),
])
def test_a_function_whose_condition_cannot_be_computed_before_is_left_as_it_is(body, call):
    ran = run_front(FUNCTION.format(body=body, call=call), give_early_return_conditions)
    assert ran.after is ran.before


# Hand-written Lmatched: a tuple, and the function's name with `$cond` taken by another item
# (resolve-names never makes one, a dump edited by hand may).
HANDWRITTEN = """
// IL: Lmatched
fn pick$cond(n: i32) -> i32 {
    n
}

fn pick(t: &mut ((i32, i32), i32)) -> &mut (i32, i32) {
    if t.1 > 0 {
        t.1 = 0;
        return &mut t.0;
    }
    &mut t.0
}

fn main() {
    let mut t: ((i32, i32), i32) = ((1, 2), 3);
    let mut r: &mut (i32, i32) = @pick(&mut t);
    r.1 = 7;
    @print(t.0.1);
    @print(t.1);
}
"""


def test_handwritten_the_conditions_function_takes_a_name_of_its_own(run_pass, snapshot_txt):
    ran = run_pass("give-early-return-conditions", HANDWRITTEN)
    assert ran.codes == []
    assert "fn pick$cond_1(t: &mut ((i32, i32), i32)) -> bool {\n    t.1 > 0\n}\n" in ran.dump
    assert "    let cond: ~bool = @pick$cond_1(&mut t);\n" \
           "    let mut r: &mut (i32, i32) = @pick(&mut t, cond);\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n0\n"
    assert ran.dump == snapshot_txt
