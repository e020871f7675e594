"""halt-unit-operations: an operation given values of type () is the interpreter's stop
there (E9006), after the operands it computes first; native code stops as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.halt_unit_operations import halt_unit_operations
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "halt_unit_operations"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", halt_unit_operations)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", halt_unit_operations)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _halts(case: str) -> list:
    ran = run_front(CASES / f"{case}.vx", halt_unit_operations)
    return [(n.message, n.span.line) for n in ran.nodes() if n._prod == "Halt"]


def test_each_operation_on_unit_values_computed_first_is_a_stop():
    assert _halts("left_of_or") == [("expected a bool, found ()", 4)]
    assert _halts("negated_inside_a_call") == [("cannot apply '!' to a value of type ()", 7)]
    assert _halts("a_function_value") == [("cannot apply '==' to () and ()", 4),
                                          ("cannot apply '!=' to () and ()", 7)]


def test_an_operand_that_stops_is_stopped_on_before_the_operation():
    assert _halts("operand_stops_first") == [("cannot apply '==' to () and ()", 4),
                                             ("cannot apply '==' to () and ()", 4)]
    text = to_text(run_front(CASES / "operand_stops_first.vx", halt_unit_operations).after)
    assert text.index("@print(1);") < text.index("@print(2);") < text.index("halt ") < \
        text.index("@print(3);")


HANDWRITTEN = """
    // IL: Lmatched
    fn main() {
        let c: ~i32 = 2;
        let s: ~void = @print(9);
        let b: ~bool = c > 1 && s == @print(1);
        @print(-s);
    }
"""


def test_handwritten_only_an_operation_computed_first_is_a_stop(run_pass, snapshot_txt):
    ran = run_pass("halt-unit-operations", HANDWRITTEN)
    assert ran.codes == []
    assert "s == @print(1)" in ran.text  # after `&&`'s left side: left for type-scalars
    assert ran.dump.count("halt ") == 1 and "cannot negate a value of type ()" in ran.dump
    assert ran.dump == snapshot_txt
