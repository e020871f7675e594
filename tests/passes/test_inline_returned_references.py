"""inline-returned-references: a call of a function returning a `&mut` to a struct or tuple,
choosing among places of its `&mut` parameters, is that choice where a `let` binds its
result or an assignment gives it to a local; the program prints what it printed, and native
code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.inline_returned_references import inline_returned_references
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "inline_returned_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_returned_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_returned_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_is_the_choice_and_the_function_goes():
    ran = run_front(CASES / "references_used_whole.vx", inline_returned_references)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    # `same`, its result read by parts alone, is split-returned-references' `same$y`.
    assert sorted(fns) == ["main", "same$y", "shift", "through", "twice"]
    assert "let r: &mut Point = if first {\n        &mut q.a" in fns["through"]
    # An argument computed is held in a `let`, computed once where the call computed it.
    assert "let first: bool = k > 1;" in fns["main"]


def test_a_program_whose_results_are_read_by_parts_comes_out_as_it_went_in():
    # split-returned-references made a function per part: no call is left to write out.
    ran = run_front(Path(__file__).parent / "cases" / "split_returned_references" /
                    "mut_reference_returned.vx", inline_returned_references)
    assert ran.after is ran.before


# Hand-written Lmatched: a call whose `&mut` argument is another call's result, which names
# no local's place: the choice written out would compute the call again at each place it
# names, so the call stays, and so does its function.
NOT_A_PLACE = """
    // IL: Lmatched
    struct Two {
        a: (i32, i32),
        b: (i32, i32),
    }

    fn pick(p: &mut Two, first: bool) -> &mut Two {
        if first {
            p
        } else {
            p
        }
    }

    fn either(p: &mut Two, first: bool) -> &mut (i32, i32) {
        if first {
            &mut p.a
        } else {
            &mut p.b
        }
    }

    fn main() {
        let mut q: Two = Two { a: (1, 2), b: (3, 4) };
        let r: &mut (i32, i32) = @either(@pick(&mut q, true), false);
        r.0 = 5;
        @print(q.b.0);
    }
"""


def test_handwritten_a_call_given_no_place_stays(run_pass):
    ran = run_pass("inline-returned-references", NOT_A_PLACE)
    fns = {i.name: to_text(i) for i in ran.tree.items if i._prod == "Fn"}
    assert ran.codes == [] and ran.tree is ran.before
    assert "@either(@pick(&mut q, true), false)" in fns["main"]
