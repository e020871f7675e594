"""instantiate-aggregate-forms: a function whose calls put aggregates of different forms in a
generic struct's erased field has a copy per form, each call calling the copy of its form
(a recursive call handing the parameter on, the copy it is in); the program prints what it
printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.instantiate_aggregate_forms import instantiate_aggregate_forms
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "instantiate_aggregate_forms"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", instantiate_aggregate_forms)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", instantiate_aggregate_forms)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_whose_calls_agree_comes_out_as_it_went_in():
    ran = run_front("struct P { x: i32 }\nstruct C<T> { v: T }\nfn f(c: C) -> i32 { 1 }\n"
                    "fn main() { print(f(C { v: P { x: 1 } })); print(f(C { v: P { x: 2 } }));"
                    " }\n", instantiate_aggregate_forms)
    assert ran.after is ran.before


def test_a_function_copied_that_no_call_calls_any_more_is_dropped():
    source = (CASES / "original_left_uncalled.vx").read_text()
    ran = run_front(source.replace("fn main", "fn spare(k: i32) -> i32 { k }\nfn main"),
                    instantiate_aggregate_forms)
    fns = [i.name for i in ran.after.items if i._prod == "Fn"]
    # `spare`, which nothing called before either, stays: it takes no erased field.
    assert fns == ["show$2", "show$3", "wrap", "wrap$2", "spare", "main"]


def test_a_function_no_call_reaches_taking_an_erased_field_is_dropped():
    ran = run_front(CASES / "uncalled_generic_parameters.vx", instantiate_aggregate_forms)
    fns = [i.name for i in ran.after.items if i._prod == "Fn"]
    # `outer` passes its cell on to `inner`, which nothing else calls; `kept` takes an
    # instance, whose field is typed, and `used` is called.
    assert fns == ["kept", "used", "main"]


def test_each_form_calls_a_copy_of_its_own():
    ran = run_front(CASES / "forms_read_printed_and_returned.vx", instantiate_aggregate_forms)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    # In the order the calls come: `twice`'s tuple of two keeps the name, then a Point, a
    # tuple of three and a scalar.
    assert [n for n in fns if n.startswith("show")] == ["show", "show$2", "show$3", "show$4"]
    main = fns["main"]
    assert "@show$2(Cell$Point { v: Point { x: 1, y: 2 }, n: 3 })" in main and "@show$2(p)" in main
    assert "@show$3(Cell { v: (1, 2.5, true), n: 4 })" in main
    assert "@show$4(Cell { v: 7, n: 5 })" in main
    assert "@show(c) + @show$2(d)" in fns["twice"]
    # The recursive call of each copy of `down` calls that copy.
    assert "@down$2(c, k - 1)" in fns["down$2"] and "@down(c, k - 1)" in fns["down"]


# Hand-written Lmatched: a function whose calls give its erased field a Point and a tuple,
# one of them inside the other copy's call of a second function that hands its cell on:
# the second function is copied the round after, once its caller's copy says its form.
HANDED_ON = """
    // IL: Lmatched
    struct Point {
        x: i32,
        y: i32,
    }

    struct Cell {
        v: _,
    }

    fn inner(c: Cell) -> i32 {
        @print(c.v.0);
        1
    }

    fn outer(c: Cell) -> i32 {
        @inner(c) + 1
    }

    fn main() {
        @print(@outer(Cell { v: (7, 8) }));
        @print(@outer(Cell { v: (9, 10, 11) }));
    }
"""


def test_handwritten_a_form_handed_on_copies_the_function_given_it(run_pass):
    ran = run_pass("instantiate-aggregate-forms", HANDED_ON)
    assert ran.codes == []
    fns = {i.name: to_text(i) for i in ran.tree.items if i._prod == "Fn"}
    assert sorted(fns) == ["inner", "inner$2", "main", "outer", "outer$2"]
    assert "@inner(c)" in fns["outer"] and "@inner$2(c)" in fns["outer$2"]
    assert _printed(ran.before) == _printed(ran.tree) == "7\n2\n9\n2\n"
