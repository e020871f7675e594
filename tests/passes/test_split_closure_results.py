"""split-closure-results: a closure bound by `let` and only called, whose value is a struct or
a tuple, writes its result's scalar parts through `&mut` parameters its calls give it;
native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.scalarize_aggregates import scalarize_aggregates
from nano_vx.passes.split_closure_results import split_closure_results
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "split_closure_results"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_closure_results)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_closure_results)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _valued_closures(case: str) -> int:
    ran = run_front(CASES / f"{case}.vx", split_closure_results)
    return sum(1 for n in ran.nodes() if n._prod == "Closure" and n.body.value is not None)


def test_no_closure_is_left_with_an_aggregate_value():
    assert _valued_closures("called_in_a_block") == 0
    assert _valued_closures("struct_and_tuple_results") == 0
    assert _valued_closures("closure_choosing_its_result") == 0
    assert _valued_closures("closure_assigned_anew") == 0
    assert _valued_closures("enum_result_chosen_by_a_match") == 0


def test_a_generic_struct_result_writes_its_erased_field_as_its_value_types_it():
    ran = run_front(CASES / "generic_struct_results.vx", split_closure_results)
    [make, *_] = [n for n in ran.nodes() if n._prod == "Closure"]
    assert [to_text(p.type).strip() for p in make.params] == ["f64", "&mut f64", "&mut i32"]


def test_a_generic_struct_results_erased_field_of_one_literal_is_bound_at_the_call():
    text = to_text(run_front(CASES / "generic_struct_results_of_literals.vx",
                             split_closure_results).after)
    # no `&mut` for the literal's part: the call's `let` of no written type binds it
    assert "|n: i32, out_n: &mut i32| {\n        let out: Cell = Cell { v: 2.5, n: n };\n" \
        "        *out_n = out.n;\n    };" in text
    assert "let c_v: ~_ = 2.5;\n    let mut c_n: i32 = 0;\n    lit(3, &mut c_n);\n" \
        "    let c: Cell = Cell { v: c_v, n: c_n };" in text
    assert "let result_v: ~_ = -1.5;" in text  # an assignment's too, one literal in both arms


def test_a_generic_struct_result_of_two_literals_is_left_whole_then_refused():
    assert_refused_then_repaired(CASES / "e5010_generic_struct_results_of_two_literals.vx",
                                 scalarize_aggregates, "E5010", "an aggregate as the value")


def test_an_enum_result_carrying_a_tensor_is_left_whole_then_refused():
    assert_refused_then_repaired(CASES / "e5010_enum_carrying_a_tensor_chosen_by_a_match.vx",
                                 scalarize_aggregates, "E5010", "an aggregate as the value")


HANDWRITTEN = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn main() {
        let mk: ~_ = |a: i32| {
            P { x: a, y: 2 }
        };
        let v: ~_ = mk(5);
        @print(v.x + v.y);
        let w: ~_ = mk(1);
        @print(w);
    }
"""


def test_handwritten_a_struct_result_is_written_through_its_fields(run_pass, snapshot_txt):
    ran = run_pass("split-closure-results", HANDWRITTEN)
    assert ran.codes == []
    assert "mk(5, &mut v_x, &mut v_y);" in ran.dump
    assert "let w: P = P { x: w_x, y: w_y };" in ran.dump
    assert ran.dump == snapshot_txt
