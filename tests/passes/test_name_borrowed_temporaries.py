"""name-borrowed-temporaries: each temporary a `&` or a `&mut` borrows is computed by a `let` of its own
before its statement, where that keeps the order the statement ran its parts in; the program
prints what it printed, and native code prints it too. One that stays in place is refused by
the native-code gate (E5010)."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_borrowed_temporaries import name_borrowed_temporaries
from front import assert_native_as_interpreted, assert_prints_the_same, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "name_borrowed_temporaries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
PLACES = ("Local", "Deref", "Index", "FieldGet", "TupleGet")


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_borrowed_temporaries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert all(n.value._prod in PLACES for n in ran.nodes("Borrow"))
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_borrowed_temporaries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_calls_keep_their_order():
    text = to_text(run_front(CASES / "borrowed.vx", name_borrowed_temporaries).after)
    assert text.index("= @twice(x);") < text.index("= x - 1;")


def test_a_mut_temporary_is_a_let_mut_native_code_runs():
    ran = run_front(CASES / "mut_borrowed.vx", name_borrowed_temporaries)
    text = to_text(ran.after)
    assert "let mut borrowed: ~_ = x + 1;" in text and "@bump(&mut borrowed)" in text
    assert run_cli(CASES / "mut_borrowed.vx") == (0, "10\n35\n3\n", "")


def test_a_temporary_after_a_call_holds_what_runs_before_it_in_locals_in_order():
    text = to_text(run_front(CASES / "after_a_call.vx", name_borrowed_temporaries).after)
    assert "let ordered: ~_ = @twice(x);\n    let borrowed: ~_ = @twice(x + 1);" in text
    assert "@print(@add(ordered, &borrowed));" in text
    # y is read before bump changes it, and the temporary after
    assert text.index("= y;") < text.index("= @bump(&mut y);") < text.index("= y + 1;")


def test_a_temporary_in_a_short_circuit_is_named_in_the_if_it_means():
    text = to_text(run_front(CASES / "in_a_short_circuit.vx", name_borrowed_temporaries).after)
    assert "let cond: ~_ = if x > 0 {\n        let borrowed: ~_ = @twice(x);" in text
    assert "} else {\n        false\n    };\n    if cond {" in text
    # `||`: the temporary is in the `else` arm
    assert "if x < 0 {\n        true\n    } else {\n        let borrowed#" in text
    # what the left runs before its temporary is held first, in order
    assert "let ordered: ~_ = @twice(4);\n    let borrowed#5: ~_ = @twice(5);\n    " \
        "let cond#6: ~_ = if @add(ordered, &borrowed#5) > 0 {" in text


def test_a_temporary_in_an_arm_is_named_at_the_start_of_its_arms_block():
    text = to_text(run_front(CASES / "in_an_arm.vx", name_borrowed_temporaries).after)
    assert "let y: i32 = if x > 2 {\n        let borrowed: ~_ = @twice(x);" in text
    assert "} else {\n        let borrowed#1: ~_ = @twice(x + 100);" in text
    # an `else if`'s condition is named in the `else` block, before the `if` it runs first
    assert "} else {\n        let borrowed#4: ~_ = @twice(x + 1);\n        if @add(1, " \
        "&borrowed#4) > 2 {" in text


def test_a_temporary_in_a_while_condition_is_named_at_the_top_of_each_turn():
    text = to_text(run_front(CASES / "in_a_while_condition.vx", name_borrowed_temporaries).after)
    assert "while true {\n        let borrowed: ~_ = @twice(x);\n        " \
        "if !(@add(1, &borrowed) < 12) {\n            break;\n        }\n        x += 1;" in text
    # a condition whose temporary is only on the right of `&&` is the `if` it means
    assert "let cond: ~_ = if x > 100 {" in text


def test_an_element_at_a_computed_index_is_borrowed_into_a_local_where_it_ran():
    text = to_text(run_front(CASES / "after_an_element_at_a_computed_index.vx",
                             name_borrowed_temporaries).after)
    assert "let ordered: ~_ = @twice(1);\n    let ordered#1: ~_ = &t[i + 1];\n    " \
        "let borrowed: ~_ = @twice(3);\n    @print(@add(ordered, ordered#1, &borrowed));" in text
    # out of the tensor: the stop comes before the call after it prints
    assert run_cli(CASES / "after_an_element_at_a_computed_index.vx")[:2] == \
        (1, "1\n3\n11\n4\n")


def test_a_temporary_in_a_condition_a_method_call_or_beside_a_closure_after_a_call():
    text = to_text(run_front(CASES / "after_a_call_elsewhere.vx", name_borrowed_temporaries).after)
    # the closure is made in place: it reads its variables only when it is called
    assert "let ordered: ~_ = @twice(1);\n    let borrowed: ~_ = @twice(2);\n    " \
        "@print(ordered + apply(|n#1: i32| {" in text
    # an `if`'s condition, a method call's receiver, an index
    assert "let ordered#1: ~_ = @twice(3);\n    let borrowed#2: ~_ = @twice(4);\n    " \
        "@print(ordered#1 + (if @id(&borrowed#2) > 5 {" in text
    assert "let borrowed#4: ~_ = @twice(10);\n    " \
        "@print(ordered#3 + @filled(&borrowed#4).extent(0));" in text
    assert "@print(ordered#5 + t[@id(&borrowed#6) % 4]);" in text


def test_a_call_through_a_closure_only_its_functions_statements_assign_reads_it_in_place():
    text = to_text(run_front(CASES / "through_an_assigned_closure.vx",
                             name_borrowed_temporaries).after)
    assert "let ordered: ~_ = @twice(1);\n    let borrowed: ~_ = @twice(2);\n    " \
        "@print(ordered + f(@id(&borrowed)));" in text


def test_a_closure_variable_a_call_assigns_is_read_before_the_arguments_that_call():
    text = to_text(run_front(CASES / "through_a_closure_a_call_assigns.vx",
                             name_borrowed_temporaries).after)
    assert "let callee: ~_ = f;\n    let ordered: ~_ = swap(1);\n    " \
        "let borrowed: ~_ = @twice(2);\n    @print(callee(ordered + @id(&borrowed)));" in text
    assert run_cli(CASES / "through_a_closure_a_call_assigns.vx") == (0, "2\n6\n30\n", "")


# Hand-written Lconstparts: a temporary borrowed inside another borrowed one; the inner is named
# first, as it runs first.
NESTED = """
    // IL: Lconstparts
    fn sum(a: &i32, b: &i32) -> i32 {
        *a + *b
    }

    fn main() {
        let x: i32 = 3;
        @print(@sum(&(x + 1), &@sum(&x, &2)));
    }
"""


def test_handwritten_a_temporary_inside_another(run_pass, snapshot_txt):
    ran = run_pass("name-borrowed-temporaries", NESTED)
    assert ran.codes == []
    text = ran.dump
    assert text.index("= x + 1;") < text.index("= 2;") < text.index("= @sum(&x, &borrowed#1);")
    assert "@print(@sum(&borrowed, &borrowed#2));" in text
    assert ran.dump == snapshot_txt


def test_an_if_inside_an_expression_whose_arm_borrows_a_temporary_is_held_in_a_local():
    text = to_text(run_front(CASES / "arms_inside_an_expression.vx",
                             name_borrowed_temporaries).after)
    assert "let cond: ~_ = if c > 2 {\n        let borrowed: ~_ = @twice(1);\n" in text
    assert "@print(1 + cond);" in text
    # after a call: the call is held first
    assert "let ordered: ~_ = @twice(2);\n    let cond#1: ~_ = if c > 5 {" in text
    # in a loop's condition: at the top of each turn
    assert "while true {\n        let cond#3: ~_ = if i < 2 {" in text


def test_a_variable_read_before_a_temporary_whose_call_changes_it_is_held_first():
    text = to_text(run_front(CASES / "read_before_its_call.vx", name_borrowed_temporaries).after)
    assert "let ordered: ~_ = y;\n    let borrowed: ~_ = @bump(&mut y);\n    " \
        "@print(@add(ordered, &borrowed));" in text
    assert run_cli(CASES / "read_before_its_call.vx") == (0, "201\n12\n", "")


def test_a_call_borrowing_a_temporary_runs_before_the_calls_after_it():
    text = to_text(run_front(CASES / "call_before_a_call.vx", name_borrowed_temporaries).after)
    assert "let borrowed: ~_ = @twice(5);\n    let ordered: ~_ = @id(&borrowed);\n" in text
    assert run_cli(CASES / "call_before_a_call.vx")[1] == "5\n10\n6\n13\n7\n8\n16\n53\n"


def test_an_if_whose_condition_borrows_a_temporary_runs_before_the_temporaries_after_it():
    text = to_text(run_front(CASES / "if_borrowing_in_its_condition_before_a_call.vx",
                             name_borrowed_temporaries).after)
    assert text.index("let ordered#1: ~_ = if ordered > 5 {") < \
        text.index("let borrowed#2: ~_ = @bump(&mut y);")
    assert run_cli(CASES / "if_borrowing_in_its_condition_before_a_call.vx") == \
        (0, "35\n0\n", "")
