"""halt-state-prints: a `print` of a hardware state, or of a tuple holding one, is the
interpreter's stop there (E9006); native code stops with its message as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.halt_state_prints import halt_state_prints
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "halt_state_prints"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
STOP = ("E9006", "cannot print a value of type HardwareState")


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", halt_state_prints)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", halt_state_prints)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_state_printed_is_the_stop_the_interpreter_makes_there():
    halts = [n for n in run_front(CASES / "printed.vx", halt_state_prints).nodes()
             if n._prod == "Halt"]
    assert [(n.code, n.message) for n in halts] == [STOP] * 3


# Hand-written Lheld: a state, a state read from a tuple a call returned, that tuple, and a
# tuple literal holding a state are each the stop; a number, and `try_pin` of a sum (which
# may stop first, on an overflow), are printed as they are.
HANDWRITTEN = """
    // IL: Lheld
    fn pinned(y: i32) -> (HardwareState<i32, Topology::NPU>, i32) {
        let s: HardwareState<i32, Topology::NPU> = y.try_pin(Topology::NPU);
        (s, y)
    }

    fn main() {
        let pair: (HardwareState<i32, Topology::NPU>, i32) = @pinned(3);
        let u: HardwareState<i32, Topology::NPU> = pair.0;
        @print(pair.1);
        @print(u);
        @print(pair);
        @print((u, 1));
        @print((pair.1 + 1).try_pin(Topology::NPU));
    }
"""


def test_handwritten_states_and_tuples_holding_them_printed_stop(run_pass, snapshot_txt):
    ran = run_pass("halt-state-prints", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(pair.1);" in ran.dump and "@print((pair.1 + 1).try_pin(" in ran.dump
    assert ran.dump.count('halt "E9006"') == 3
    assert ran.dump == snapshot_txt
