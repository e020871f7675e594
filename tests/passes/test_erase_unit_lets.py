"""erase-unit-lets: a variable of type () holds nothing, so its `let` is the computation of its
value and a `print` of it the interpreter's stop (E9006); native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.erase_unit_lets import erase_unit_lets
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_unit_lets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", erase_unit_lets)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_unit_lets)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _unit_lets(case: str) -> list:
    ran = run_front(CASES / f"{case}.vx", erase_unit_lets)
    return [n.name for n in ran.nodes() if n._prod == "Let" and n.type._prod == "Scalar"
            and n.type.name == "void"]


def test_no_variable_of_type_unit_is_left_where_each_read_is_a_print_or_a_let():
    for case in ("reassigned", "aggregate_printed", "matched", "in_a_loop"):
        assert _unit_lets(case) == [], case


def test_a_variable_given_to_a_closure_or_held_in_a_tuple_keeps_its_let():
    assert _unit_lets("read_otherwise") == ["d"]


def test_each_print_of_an_erased_variable_is_the_stop():
    halts = [n for n in run_front(CASES / "reassigned.vx", erase_unit_lets).nodes()
             if n._prod == "Halt"]
    assert [(n.code, n.message, n.span.line) for n in halts] == [
        ("E9006", "cannot print a value of type ()", 7)]


HANDWRITTEN = """
    // IL: Lmatched
    fn main() {
        let c: ~bool = true;
        let mut d: ~void = @print(1);
        let s: ~void = if c {
            @print(2)
        } else {
            d
        };
        d = s;
        d;
        @print(d);
    }
"""


def test_handwritten_an_if_of_unit_values_is_a_statement(run_pass, snapshot_txt):
    ran = run_pass("erase-unit-lets", HANDWRITTEN)
    assert ran.codes == []
    assert "void" not in ran.dump
    assert ran.dump.count("halt ") == 1
    assert ran.dump == snapshot_txt


# Hand-written Lmatched, as halt-unit-operations leaves an operand of a comparison it stops
# on: an `if` whose arm gives an erased variable, computed as a statement.
CHOSEN_OPERAND = """
    // IL: Lmatched
    fn main() {
        let c: ~i32 = 3;
        let s: ~void = @print(1);
        (if c > 5 {
            @print(3)
        } else {
            s
        });
        halt "E9006", "cannot apply '<' to () and ()";
    }
"""


def test_handwritten_an_if_statement_choosing_an_erased_variable_computes_nothing_there(
        run_pass, snapshot_txt):
    ran = run_pass("erase-unit-lets", CHOSEN_OPERAND)
    assert ran.codes == []
    assert "void" not in ran.dump and " s\n" not in ran.dump
    assert ran.dump == snapshot_txt
