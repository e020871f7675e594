"""name-temporaries: each struct, tuple or enum a call or an `if` makes inside an
expression, each `match` inside one and each value a `match` is on, is computed by a `let`
of its own before the statement, calls in the order they ran; the program prints what it printed, and native code prints it too."""

import re
from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_temporaries import name_temporaries
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "name_temporaries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_temporaries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_temporaries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_fields_written_out_of_order_run_their_calls_as_written():
    ran = run_front(CASES / "temporaries.vx", name_temporaries)
    text = to_text(ran.after)
    assert text.index("@noisy(1)") < text.index("@noisy(2)") < text.index("let q")


def test_a_match_on_a_computed_value_reads_a_local_and_a_nested_one_is_a_lets_value():
    ran = run_front(CASES / "match_scrutinees.vx", name_temporaries)
    text = to_text(ran.after)
    assert "let agg: ~_ = @read(0);\n    let n: i32 = match agg {" in text
    assert "let agg#2: ~_ = match agg#1 {" in text  # inside `1 + ..`
    assert "let agg#3: ~_ = @twice(1);\n    let agg#4: ~_ = @read(2);\n" in text


def test_a_call_before_the_aggregate_in_its_statement_holds_every_call_in_order():
    ran = run_front(CASES / "call_before.vx", name_temporaries)
    assert "let agg: ~_ = @id(1);\n    let agg#1: ~_ = @make(2);\n" in to_text(ran.after)


def test_what_runs_before_a_held_call_is_held_first_in_the_order_it_runs():
    text = to_text(run_front(CASES / "reads_before_a_call.vx", name_temporaries).after)
    assert "let ordered: ~_ = y;\n    let agg: ~_ = @g(&mut y);\n    let agg#1: ~_ = @make();" \
        in text
    assert "@f(ordered, agg, agg#1.x)" in text
    # y * 3 runs before f's arguments, which run before g
    assert text.index("= y * 3;") < text.index("= @g(&mut y);", text.index("= y * 3;"))
    # an element assigned is located (its index read and checked) before the value given it
    # is computed, and a tensor indexed is not copied
    assert re.search(r"let (ordered#\d+): ~_ = &mut t\[i\];\n    let (agg#\d+): ~_ = "
                     r"@h\(&mut i\);\n    \*\1 = \2\.x;", text)
    assert re.search(r"\+ t\[agg#\d+\]", text) and "= t;" not in text


# Hand-written Lconstparts: a tuple a call makes in a loop's condition, computed in its body (as
# expand-lazy-conditions writes it), once per turn; and one left in the condition, which this
# pass cannot compute before its statement without running it once only.
IN_THE_BODY = """
    // IL: Lconstparts
    fn pair(v: i32) -> (i32, i32) {
        (v, v + 1)
    }

    fn main() {
        let mut k: i32 = 0;
        while true {
            let cond: ~_ = @pair(k).1 < 3;
            if !cond {
                break;
            }
            k = k + 1;
        }
        @print(k);
    }
"""


def test_handwritten_an_aggregate_in_a_loop_condition_is_computed_in_the_body(run_pass):
    ran = run_pass("name-temporaries", IN_THE_BODY)
    assert ran.codes == []
    assert "while true {\n        let agg: ~_ = @pair(k);\n        let cond: ~_ = agg.1 < 3;" \
        in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n"


def test_handwritten_an_aggregate_left_in_a_loop_condition_is_refused(run_pass):
    ran = run_pass("name-temporaries", IN_THE_BODY.replace(
        "while true {\n            let cond: ~_ = @pair(k).1 < 3;\n            if !cond {\n"
        "                break;\n            }\n", "while @pair(k).1 < 3 {\n"))
    assert ran.codes == ["E5010"]


# Hand-written Lconstparts: a short circuit whose right computes a tuple a call makes, left as
# written (expand-lazy-conditions would have written it as the `if` it means); and one whose
# right runs a call in place before such a tuple. Neither right may be named before its
# statement, as it may not run.
SHORT_CIRCUIT = """
    // IL: Lconstparts
    fn pair(v: i32) -> (i32, i32) {
        (v, v + 1)
    }

    fn id(v: i32) -> i32 {
        v
    }

    fn main() {
        let k: i32 = 1;
        @print(k > 0 && RIGHT < 3);
    }
"""


@pytest.mark.parametrize("right", ["@pair(k).1", "@id(k) + @pair(k).1"])
def test_handwritten_an_aggregate_on_the_right_of_a_short_circuit_is_refused(run_pass, right):
    ran = run_pass("name-temporaries", SHORT_CIRCUIT.replace("RIGHT", right))
    assert ran.codes == ["E5010"]


def test_a_transfer_or_a_launch_before_the_aggregate_is_held_with_the_calls_in_order():
    text = to_text(run_front(CASES / "after_a_transfer_or_a_launch.vx", name_temporaries).after)
    assert "let agg: ~_ = transfer[" in text and \
        "let ordered: ~_ = agg[1];\n    let agg#1: ~_ = @make(2);" in text
    assert "let agg#5: ~_ = @make(5);\n    let agg#6: ~_ = launch main$kernel1 " \
        "on(Topology::NPU)();\n    let agg#7: ~_ = @make(7);" in text
    # an extent read is no call: it is read before the call held after it
    assert "let ordered#9: ~_ = t.extent(0) as i32;\n    let agg#8: ~_ = @make(8);" in text


def test_an_assignment_through_a_reference_computes_the_reference_first():
    text = to_text(run_front(CASES / "assigned_through_a_call.vx", name_temporaries).after)
    assert "let agg#1: ~_ = @pick(&mut y, 4);\n    let agg#2: ~_ = @make(5);\n    " \
        "let agg#3: ~_ = @pick(&mut y, 6);\n    *agg#1 = agg#2.x + *agg#3;" in text



def test_an_if_with_statements_in_its_arms_inside_an_expression_is_held_in_a_local():
    text = to_text(run_front(CASES / "if_with_statements.vx", name_temporaries).after)
    assert "let agg#1: ~_ = @bump(&mut y);\n    let cond: ~_ = if y > 5 {\n        " \
        "let agg#2: ~_ = @make(&mut y);\n        agg#2.x\n    } else {\n        2\n    };\n" \
        "    @print(agg#1 * cond);" in text


def test_a_constant_whose_value_needs_a_local_is_held_in_its_function():
    # outline-constant-values made the value the `let` of a function, where a local can go
    text = to_text(run_front(CASES / "constant_reading_a_field_of_a_call.vx",
                             name_temporaries).after)
    assert "const X: i32 = const_part 0 of X by X$fill;" in text
    assert "let agg: ~_ = @make();\n    let value: i32 = agg.x + 1;" in text


def test_a_tensor_constant_whose_value_needs_a_local_is_held_in_its_function():
    # outline-constant-values made the value the `let` of a function returning the tensor
    text = to_text(run_front(CASES / "tensor_constant_reading_a_field_of_a_call.vx",
                             name_temporaries).after)
    assert "const C: Tensor<i32, [2], Memory::CPU_DRAM> = const_part 0 of C by C$fill;" in text
    assert "let agg: ~_ = @make();\n    let value: Tensor<i32, [2], Memory::CPU_DRAM> = " \
        "agg.t;\n    value\n}" in text


def test_a_reference_constant_binding_a_variable_is_refused_as_it_was():
    # dereference-constants leaves a reference to an element of a tensor constant; no
    # function computes a reference constant's value, and the passes after hold a function's
    # locals, not a constant's
    case = CASES / "e5010_reference_constant_naming_an_element_at_an_index_a_variable_holds.vx"
    assert_refused_then_repaired(case, name_temporaries, "E5010",
                                 "a constant whose value binds a variable")
    ran = run_front(case, name_temporaries)
    [before] = [i for i in ran.before.items if i._prod == "ConstItem" and i.name == "R"]
    [after] = [i for i in ran.after.items if i._prod == "ConstItem" and i.name == "R"]
    assert after is before


def test_a_reference_constant_a_function_hands_on_is_held_in_its_function():
    # dereference-constants made it hold the number, outline-constant-values the value a
    # function's `let`
    text = to_text(run_front(CASES / "reference_constant_a_call_returns.vx",
                             name_temporaries).after)
    assert "const R: i32 = const_part 0 of R by R$fill;" in text


def test_a_reference_constant_reading_one_naming_an_element_binds_no_variable():
    # a write through a copy of the tensor shows through both references, so
    # dereference-constants leaves them; the passes after it left no `let` in the value
    text = to_text(run_front(CASES / "reference_constant_reading_one_naming_an_element.vx",
                             name_temporaries).after)
    assert "const X: &i32 = if true {\n    @E\n} else {\n    &@X_literal[0]\n};" in text


def test_a_tensor_a_query_is_of_is_held_in_a_local_of_its_function_result_type():
    text = to_text(run_front(CASES / "queries_of_calls.vx", name_temporaries).after)
    assert "let queried#5: Tensor<f32, [4], Memory::CPU_DRAM> = @made(5);\n" \
        "    @print(None != queried#5.topology());" in text
    assert text.index("@g()") < text.index("@made(1)")


def test_fields_of_a_reordered_literal_that_may_stop_are_held_in_the_order_written():
    text = to_text(run_front(CASES / "struct_literal_computing_fields_out_of_order.vx",
                             name_temporaries).after)
    assert "let agg: ~_ = 1 % z;\n    let agg#1: ~_ = 10 / z;\n" \
        "    let first: Two = Two { b: agg, a: agg#1 };" in text
    assert "let agg#4: ~_ = 1 % zero;\n    let agg#5: ~_ = 10 / zero;\n" \
        "    @print(sum(Two { b: agg#4, a: agg#5 }));" in text
