"""split-closure-aggregates: a closure bound by `let` and only called takes each struct or
tuple parameter as its scalar parts; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.scalarize_aggregates import scalarize_aggregates
from nano_vx.passes.split_closure_aggregates import split_closure_aggregates
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "split_closure_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_closure_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_closure_aggregates)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _closure_params(case: str) -> list:
    ran = run_front(CASES / f"{case}.vx", split_closure_aggregates)
    return [[p.name for p in n.params] for n in ran.nodes() if n._prod == "Closure"]


def test_each_aggregate_parameter_is_one_per_scalar_part():
    assert _closure_params("struct_and_tuple_parameters") == [["q_x", "q_y"], ["a_0", "a_1"]]
    assert _closure_params("nested_with_captures") == [
        ["s_from_x", "s_from_y", "s_to_x", "s_to_y", "s_on", "w"],
        ["pair_0_x", "pair_0_y", "pair_1"]]


def test_an_enum_parameter_is_which_variant_it_holds_and_what_each_carries():
    assert _closure_params("enum_parameters") == [
        ["s_Sq", "s_Sq_0", "s_Rect_0", "s_Rect_1"],
        ["o_Add", "o_Add_0", "o_Add_1", "o_Neg", "o_Neg_0", "k"],
        ["f_On", "p_x", "p_y"]]


def test_an_enum_parameter_carrying_aggregates_is_the_scalar_parts_of_each():
    assert _closure_params("enum_parameters_carrying_aggregates") == [
        ["s_Pt", "s_Pt_0_x", "s_Pt_0_y", "s_Line", "s_Line_0_a_x", "s_Line_0_a_y",
         "s_Line_0_b_x", "s_Line_0_b_y", "s_Line_1", "s_Pair", "s_Pair_0_0", "s_Pair_0_1", "w"]]


def test_an_enum_parameter_carrying_a_tensor_is_read_by_its_parts():
    assert _closure_params("enum_parameter_carrying_a_tensor") == [
        ["b_Empty", "b_Full", "b_Full_0", "b_Rows_0", "b_Rows_1", "k"]]
    ran = run_front(CASES / "enum_parameter_carrying_a_tensor.vx", split_closure_aggregates)
    [closure] = ran.nodes("Closure")
    assert not any(n._prod in ("VariantIs", "VariantField") for n in descendants(closure))


def test_an_enum_parameter_carrying_a_tensor_given_a_variable_takes_the_variables_parts():
    ran = run_front(CASES / "enum_parameter_carrying_a_tensor_given_a_variable.vx",
                    scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    calls = [n for n in ran.nodes("Call") if n.callee._prod == "Local"]
    # the variable's own tensor part, whatever variant it holds: no buffer made for a call
    assert [a.name for c in calls for a in c.args if a._prod == "Local"] == \
        ["b_Full_0#1", "e_Full_0"]  # b_Full_0 is the closure's parameter
    assert not any(n._prod == "TensorNew" for c in calls for n in descendants(c))


def test_an_enum_parameter_carrying_a_tensor_printed_prints_the_literal_of_its_parts():
    ran = run_front(CASES / "enum_parameter_carrying_a_tensor_used_whole.vx",
                    split_closure_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    for closure in ran.nodes("Closure"):
        assert not any(n._prod == "Let" for n in descendants(closure))
        [shown] = [n.args[0] for n in descendants(closure)
                   if n._prod == "Call" and n.callee._prod == "Global"]
        assert shown._prod == "IfExpr" and shown.cond._prod == "Local"


def test_an_enum_parameter_carrying_a_tensor_handed_on_whole_is_read_by_its_parts():
    assert _closure_params("enum_parameter_carrying_a_tensor_handed_on_whole") == [
        ["b_Empty", "b_Full_0"]]
    ran = run_front(CASES / "enum_parameter_carrying_a_tensor_handed_on_whole.vx",
                    split_closure_aggregates)
    [closure] = ran.nodes("Closure")
    assert not any(n._prod in ("VariantIs", "VariantField", "Let") for n in descendants(closure))


def test_an_enum_parameter_carrying_a_tensor_bound_whole_is_read_by_its_parts():
    assert _closure_params("enum_parameter_carrying_a_tensor_bound_whole") == [
        ["b_Empty", "b_Full_0"]]


def test_an_enum_parameter_carrying_a_tensor_bound_to_a_mut_assigned_anew_is_read_by_its_parts():
    assert _closure_params("enum_parameter_carrying_a_tensor_bound_to_a_mut") == [
        ["b_Empty", "b_Full", "b_Full_0", "b_Pair_0", "b_Pair_1"]]


def test_an_enum_parameter_carrying_a_tensor_bound_to_a_mut_assigned_in_a_loop_is_refused():
    assert_refused_then_repaired(
        CASES / "e5010_enum_parameter_carrying_a_tensor_bound_to_a_mut_assigned_in_a_loop.vx",
        scalarize_aggregates, "E5010", "a closure taking an aggregate")


def test_a_reference_parameter_is_the_parts_of_what_it_refers_to():
    assert _closure_params("enum_parameters_taken_by_reference") == [
        ["b_Empty", "b_Full_0"], ["s_Circle", "s_Circle_0", "s_Rect_0", "s_Rect_1", "k"],
        ["q_x", "q_y"]]
    ran = run_front(CASES / "enum_parameters_taken_by_reference.vx", split_closure_aggregates)
    calls = [n for n in ran.nodes("Call") if n.callee._prod == "Local"]
    assert not any(n._prod in ("Borrow", "Deref") for c in calls for n in descendants(c))
    # one of no tensor refers to the value its parts make, a local of the closure's own
    _, area, norm = ran.nodes("Closure")
    assert [(n.name, n.value._prod) for n in norm.body.stmts[:2]] == \
        [("q_value", "StructLit"), ("q", "Borrow")]
    assert [(n.name, n.value._prod) for n in area.body.stmts[:2]] == \
        [("s_value", "IfExpr"), ("s#1", "Borrow")]


def test_a_reference_to_an_enum_carrying_a_tensor_handed_on_is_refused():
    assert_refused_then_repaired(
        CASES / "e5010_enum_reference_carrying_a_tensor_handed_on.vx",
        scalarize_aggregates, "E5010", "a closure taking an aggregate")


def test_a_generic_struct_parameter_is_its_fields_its_erased_one_of_no_type():
    ran = run_front(CASES / "generic_struct_parameters.vx", split_closure_aggregates)
    [twice, *_] = [n for n in ran.nodes() if n._prod == "Closure"]
    assert [(p.name, p.type) for p in twice.params][0] == ("c_v", None)


def test_a_literal_computing_an_operator_in_a_field_gives_it_in_that_parts_place():
    ran = run_front(CASES / "generic_struct_literal_of_an_operator_given.vx",
                    split_closure_aggregates)
    [call] = [n for n in ran.nodes() if n._prod == "Call" and n.callee._prod == "Local"]
    assert [a._prod for a in call.args] == ["Binary", "Cast"]


def test_a_struct_given_a_literal_of_an_operator_on_literals_in_a_condition_is_refused():
    # a `while` condition computes it each turn: no `let` before its statement holds it
    assert_refused_then_repaired(
        CASES / "e5010_struct_literal_of_an_operator_on_literals_given_in_a_while_condition.vx",
        scalarize_aggregates, "E5010", "a closure taking an aggregate")


def test_a_closure_assigned_anew_takes_the_parts_as_the_first_did():
    assert _closure_params("closure_assigned_anew") == [["q_x", "q_y"], ["q_x#1", "q_y#1"]]


HANDWRITTEN = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn main() {
        let p: P = P { x: 1, y: 2 };
        let s: ~_ = |q: P| {
            q.x + q.y
        };
        @print(s(p));
        @print(s(P { x: 3, y: -4 }));
    }
"""


def test_handwritten_a_struct_parameter_is_its_fields(run_pass, snapshot_txt):
    ran = run_pass("split-closure-aggregates", HANDWRITTEN)
    assert ran.codes == []
    assert "s(p.x, p.y)" in ran.dump and "s(3, -4)" in ran.dump
    assert ran.dump == snapshot_txt


def test_a_literal_reading_tensor_elements_gives_each_in_its_parts_place():
    ran = run_front(CASES / "struct_literals_of_tensor_elements_given.vx",
                    split_closure_aggregates)
    calls = [n for n in ran.nodes() if n._prod == "Call" and n.callee._prod == "Local"]
    assert [[a._prod for a in c.args] for c in calls] == [["Index", "Index"],
                                                          ["Binary", "Index"]]
