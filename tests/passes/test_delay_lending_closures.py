"""delay-lending-closures: the `let` of a closure whose calls lend a `&mut &T` parameter a
reference variable bound after it goes down its block, past that variable's `let`, to the
first statement naming it, so that a copy of it per variable can capture each; native code
runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.delay_lending_closures import delay_lending_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "delay_lending_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", delay_lending_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", delay_lending_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_closure_called_before_the_reference_is_bound_stays():
    # its first call comes before `let mut s`: moved past it, that call would not see it
    ran = run_front(CASES.parent / "inline_borrowed_references" /
                    "e5010_mut_references_to_two_references_one_bound_after_the_closures_"
                    "first_call.vx", delay_lending_closures)
    assert ran.after is ran.before


# Hand-written Lassumed: `point`, lent s bound after it, goes down to its first call; `early`,
# lent v bound after it but called before that, stays; `plain`, lent only r, bound before
# it, stays.
HANDWRITTEN = """
    // IL: Lassumed
    fn main() {
        let x: i32 = 5;
        let y: i32 = 9;
        let mut r: &i32 = &x;
        let point: _ = |q: &mut &i32| {
            *q = &y;
        };
        let early: _ = |p: &mut &i32| {
            *p = &x;
        };
        let plain: _ = |o: &mut &i32| {
            *o = &y;
        };
        let show: _ = |k: i32| {
            @print(k + *r);
        };
        plain(&mut r);
        show(1);
        early(&mut r);
        let mut s: &i32 = &x;
        let mut v: &i32 = &y;
        point(&mut s);
        point(&mut r);
        early(&mut v);
        @print(*r + *s + *v);
    }
"""


def test_handwritten_only_a_closure_lent_a_later_variable_goes_down(run_pass, snapshot_txt):
    ran = run_pass("delay-lending-closures", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.index("let mut s") < ran.dump.index("let point") < \
        ran.dump.index("point(&mut s);")
    assert ran.dump.index("let early") < ran.dump.index("let mut v")
    assert ran.dump.index("let plain") < ran.dump.index("let show")
    assert _printed(ran.before) == _printed(ran.tree) == "10\n23\n"
    assert ran.dump == snapshot_txt
