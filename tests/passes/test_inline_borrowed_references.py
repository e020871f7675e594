"""inline-borrowed-references: a local holding a borrow of a reference variable, through a
`&mut`, and only dereferenced (itself or a local it is copied into), is gone, each `*rr` the
variable; one passed on stays, for type-scalars to refuse; the program prints what it
printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_native_subset import check_native_subset
from nano_vx.passes.inline_borrowed_references import inline_borrowed_references
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "inline_borrowed_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_borrowed_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_borrowed_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_dereference_of_the_borrow_is_the_variable():
    main = to_text(run_front(CASES / "mut_reference_to_a_reference.vx",
                             inline_borrowed_references).after)
    assert "rr" not in main and "r = &y;" in main


def test_a_program_without_a_borrowed_reference_comes_out_as_it_went_in():
    ran = run_front("fn main() { let x = 5; let r = &x; let rr = &r; print(**rr); }\n",
                    inline_borrowed_references)
    assert ran.after is ran.before


def test_a_copy_of_the_borrow_only_dereferenced_is_the_variable_too():
    main = to_text(run_front(CASES / "mut_reference_to_a_reference_passed_on.vx",
                             inline_borrowed_references).after)
    assert "rr" not in main and "again" not in main and "r = &y;" in main


def test_a_copy_a_closure_captures_only_dereferenced_is_the_variable_too():
    main = to_text(run_front(CASES / "mut_reference_to_a_reference_copied_into_a_closure.vx",
                             inline_borrowed_references).after)
    assert "rr" not in main and "again" not in main and "r = &y;" in main


def test_one_a_closure_is_given_no_more_is_the_variable_too():
    main = to_text(run_front(CASES / "mut_reference_to_a_reference_given_to_a_closure.vx",
                             inline_borrowed_references).after)
    assert "rr" not in main and "point()" in main and "r = &y;" in main


def test_ones_of_two_references_given_to_a_closure_one_bound_after_its_call_are_refused():
    assert_refused_then_repaired(
        CASES / "e5010_mut_references_to_two_references_one_bound_after_the_closures_first_"
        "call.vx",
        check_native_subset, "E5010", "a reference to a reference")


# Hand-written Lassumed: a borrow passed on (through a copy) stays, one only dereferenced
# goes, in a closure too, and so does one copied into a local only dereferenced.
HANDWRITTEN = """
    // IL: Lassumed
    fn keep(p: &mut &i32) {
    }
    fn main() {
        let x: i32 = 5;
        let y: i32 = 9;
        let mut r: &i32 = &x;
        let rr: &mut &i32 = &mut r;
        *rr = &y;
        @print(*(*rr));
        let kept: &mut &i32 = &mut r;
        let f: _ = || { *(*kept) };
        let passed: &mut &i32 = &mut r;
        let again: &mut &i32 = passed;
        @keep(again);
        let copied: &mut &i32 = &mut r;
        let moved: &mut &i32 = copied;
        *moved = &x;
    }
"""


def test_handwritten_only_a_borrow_always_dereferenced_goes(run_pass, snapshot_txt):
    ran = run_pass("inline-borrowed-references", HANDWRITTEN)
    assert ran.codes == []
    assert "r = &y;" in ran.dump and "@print(*r);" in ran.dump and "let rr" not in ran.dump
    assert "let kept" not in ran.dump and "|| {\n        *r\n    }" in ran.dump
    assert "let passed" in ran.dump and "let again" in ran.dump
    assert "let copied" not in ran.dump and "let moved" not in ran.dump and "r = &x;" in ran.dump
    assert ran.dump == snapshot_txt
