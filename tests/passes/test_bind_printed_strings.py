"""bind-printed-strings: each string a call computes that a `print` a statement computes is
given is bound to a `let` before the statement, after what is computed before it, so that
each computes once, in its order; the program prints what it printed, natively too. One
whose strings number-texts would leave is left as it was."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_printed_strings import bind_printed_strings
from nano_vx.passes.number_texts import number_texts
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "bind_printed_strings"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
LOWERED = [name for name in NAMES if not name.startswith("e5010_")]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_printed_strings)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_printed_strings)


@pytest.mark.parametrize("case", LOWERED)
def test_bound_the_strings_print_natively(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _text(case: str) -> str:
    return to_text(run_front(CASES / f"{case}.vx", bind_printed_strings).after)


def test_a_print_a_let_binds_has_its_string_bound_before_the_let():
    text = _text("printed_as_a_let_value")
    # erase-unit-lets made `let done = print(..)` the print alone
    assert "let text: ~_ = @pick(true);\n    @print(text);" in text
    assert "let text: ~_ = @pick(c);\n        return @print(text);" in text


def test_prints_that_are_arguments_have_what_comes_before_them_bound_first():
    text = _text("printed_as_an_argument")
    # h(tick(1), print(pick(0)), tick(2), print(pick(2))): each in order, the first print too
    assert "let arg: ~_ = @tick(1);\n    let text#1: ~_ = @pick(0);\n" \
        "    let arg#2: ~_ = @print(text#1);\n    let arg#3: ~_ = @tick(2);\n" \
        "    let text#4: ~_ = @pick(2);\n    @print(h(arg, arg#2, arg#3, @print(text#4)));" \
        in text
    # an `if`'s condition: its print's string is bound before the `if`
    assert "let text#5: ~_ = @pick(1);\n    if g(@print(text#5)) + @tick(3) == 4 {" in text
    # a loop's condition, tested first in its body: bound before that test, on each turn
    assert "while true {\n        let arg: ~_ = i;\n        let text: ~_ = @pick(i);\n" \
        "        if arg + g(@print(text)) < 3 {" in _text("printed_in_a_loops_condition")


def test_a_print_an_assignment_computes_has_its_string_bound_before_the_assignment():
    text = _text("printed_in_an_assignment")
    assert "let arg: ~_ = k;\n        let text: ~_ = @pick(i);\n" \
        "        k = arg + @seen(@print(text));" in text
    assert "let text#1: ~_ = @pick(k);\n        k += @seen(@print(text#1));" in text


def test_a_print_an_assignment_to_an_element_computes_is_bound_after_the_element():
    text = _text("printed_in_an_assignment_to_an_element")
    assert "let place: ~_ = &mut t[i];\n        let text: ~_ = @pick(i);\n" \
        "        *place = @seen(@print(text));" in text
    # the element is located, its indices computed and checked, before the string
    assert "let place#3: ~_ = &mut u[@at(1)][@at(3)];\n    let text#4: ~_ = @pick(2);\n" \
        "    *place#3 = @seen(@print(text#4)) as i64;" in text
    # a cast computes its value whenever it is computed
    assert "*place#1 += @seen(@print(text#2)) as i64;" in text


def test_an_element_at_literal_indices_the_value_reads_is_assigned_as_written():
    text = _text("printed_in_an_assignment_to_an_element_its_value_reads")
    # locating t[1] cannot stop, so no loan of t goes before the value's read of it
    assert "let arg: ~_ = t[0];\n    let text: ~_ = @pick(0);\n" \
        "    t[1] = arg + @seen(@print(text));" in text
    assert "place" not in text


def test_an_element_at_a_variable_index_the_value_reads_is_read_first_then_assigned():
    text = _text("printed_in_an_assignment_to_an_element_its_value_reads_at_a_variable_index")
    # reading t[i] checks i where the interpreter locates the element, and lends nothing
    assert "let checked: ~_ = t[i];\n    let arg: ~_ = t[0];\n    let text: ~_ = @pick(0);\n" \
        "    t[i] = arg + @seen(@print(text));" in text
    assert "place" not in text


def test_a_string_printed_where_no_let_goes_leaves_the_strings_for_the_gate():
    case = CASES / "e5010_printed_in_an_assignment_to_an_element_its_value_reads_at_a_" \
        "computed_index.vx"
    ran = run_front(case, bind_printed_strings)
    assert ran.after is ran.before
    ran = run_front(case, number_texts)
    assert ran.after is ran.before
    status, printed, err = run_cli(case)
    assert (status, printed) == (0, "0\nzero\n[4, 0, 5]\n")
    assert "a function returning a string (in 'pick')" in err
    assert "a string printed other than as written (in 'main')" in err


# Hand-written Lsplit: strings a call computes printed as an element of a tuple literal and
# as the arm of an `if` choosing an enum's variant (name-temporaries leaves no such call
# there in a program), and a string a variable holds, printed as it is.
PARTS = """
    // IL: Lsplit
    enum E {
        A(str),
        B(i32),
    }

    fn pick(c: bool) -> str {
        if c {
            "yes"
        } else {
            "no"
        }
    }

    fn tick(n: i32) -> i32 {
        @print(n);
        n
    }

    fn main() {
        let s: ~_ = @pick(false);
        @print(s);
        @print((@tick(1), @pick(true)));
        @print(if 1 < 2 {
            E::A(@pick(false))
        } else {
            E::B(3)
        });
    }
"""


def test_handwritten_strings_in_aggregates_and_a_variable(run_pass, snapshot_txt):
    ran = run_pass("bind-printed-strings", PARTS)
    assert ran.codes == []
    assert "let s: ~_ = @pick(false);\n    @print(s);" in ran.dump
    assert "let text: ~_ = @pick(true);\n    @print((@tick(1), text));" in ran.dump
    assert "let text#1: ~_ = @pick(false);\n    @print(if 1 < 2 {\n        E::A(text#1)" \
        in ran.dump
    printed = "no\n1\n(1, yes)\nE::A(no)\n"
    assert _printed(ran.before) == _printed(ran.tree) == printed
    assert ran.dump == snapshot_txt
