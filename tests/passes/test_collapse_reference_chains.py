"""collapse-reference-chains: a shared reference to a shared reference is the inner
reference (a closure's call of the type of the value its body ends with, a parameter of no
written type there of the type of what the call gives it); a chain through a `&mut` stays,
for type-scalars to refuse, and so does every chain of a program that dereferences what no
type there says."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.collapse_reference_chains import collapse_reference_chains
from nano_vx.passes.check_native_subset import check_native_subset
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "collapse_reference_chains"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", collapse_reference_chains)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", collapse_reference_chains)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_reference_to_a_reference_is_left():
    main = to_text(run_front(CASES / "reference_to_a_reference.vx",
                             collapse_reference_chains).after)
    assert "&&" not in main and "**" not in main
    assert "fn f(p: &i32) -> i32 {\n    *p\n}" in main
    assert "let rr: ~&i32 = r;" in main


def test_a_closure_parameter_of_no_written_type_is_of_the_type_its_calls_give_it():
    case = CASES / "closure_dereferencing_an_untyped_parameter_beside_a_chain.vx"
    main = to_text(run_front(case, collapse_reference_chains).after)
    assert "&&" not in main and "**" not in main and "let rr: ~&i32 = r;" in main
    assert "*p" in main  # a dereference of the `&i32` its only call gives it


def test_a_dereference_no_one_type_says_leaves_every_chain_for_check_native_subset_to_refuse():
    assert_refused_then_repaired(
        CASES / "e5010_closure_dereferencing_an_untyped_parameter_given_a_chain_and_called_"
                "through_a_parameter.vx", check_native_subset, "E5010",
        "a reference to a reference")


def test_a_closure_call_has_the_type_of_the_value_its_body_ends_with():
    for case in ("dereference_of_a_closure_call_beside_a_chain",
                 "closure_giving_a_reference_to_a_reference",
                 "dereference_of_a_closure_of_an_untyped_parameter_beside_a_chain",
                 "closure_of_an_untyped_parameter_given_a_chain_and_its_inner_reference"):
        main = to_text(run_front(CASES / f"{case}.vx", collapse_reference_chains).after)
        assert "&&" not in main and "**" not in main


def test_chains_read_from_parts_are_collapsed_each_where_its_type_says():
    main = to_text(run_front(CASES / "chains_read_from_parts.vx",
                             collapse_reference_chains).after)
    assert "&&" not in main and "**" not in main


HANDWRITTEN = """
    // IL: Lassumed
    fn main() {
        let mut x: i32 = 5;
        let r: &i32 = &x;
        let rr: &&i32 = &r;
        let rrr: &&&i32 = &rr;
        let inner: &i32 = *rr;
        let a: i32 = *(*(*rrr));
        @print(a);
        @print(*inner);
        let rm: &mut i32 = &mut x;
        let m: &&mut i32 = &rm;
    }
"""


def test_handwritten_a_chain_of_shared_references_is_its_innermost(run_pass, snapshot_txt):
    ran = run_pass("collapse-reference-chains", HANDWRITTEN)
    assert ran.codes == []
    assert "let rrr: &i32 = rr;" in ran.dump and "let inner: &i32 = rr;" in ran.dump
    assert "let a: i32 = *rrr;" in ran.dump and "let m: &&mut i32 = &rm;" in ran.dump
    assert ran.dump == snapshot_txt
