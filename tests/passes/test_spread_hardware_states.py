"""spread-hardware-states: a hardware state a function takes is three parameters of its own
(its value, whether it took a pin, a reference to the caller's `held`) and its call is given
the three; a function lower-pins refused is left as it was; the program prints what it
printed, natively too."""

import textwrap
from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.spread_hardware_states import spread_hardware_states
from front import assert_native_as_interpreted, assert_prints_the_same, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "spread_hardware_states"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
# lower-pins' cases that give a state to a function.
PINS = Path(__file__).parent / "cases" / "lower_pins"
ELSEWHERE = [PINS / "passed.vx", PINS / "returned.vx"]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", spread_hardware_states)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "HardwareStateType" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("path", [CASES / f"{c}.vx" for c in NAMES] + ELSEWHERE,
                         ids=lambda p: p.stem)
def test_the_output_prints_what_the_input_printed(path):
    assert_prints_the_same(path, spread_hardware_states)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_state_given_to_a_function_is_its_value_whether_it_took_and_a_reference():
    ran = run_front(PINS / "passed.vx", spread_hardware_states)
    [report] = [n for n in ran.after.items if n._prod == "Fn" and n.name == "report"]
    assert [(p.name, p.type._prod) for p in report.params] == [
        ("s", "Scalar"), ("s_took", "Scalar"), ("s_held", "BorrowType")]
    assert "@report(t, t_took, &mut t_held)" in to_text(ran.after)
    assert not [n for n in ran.nodes("TupleGet")]


def test_a_state_handed_on_passes_the_reference_it_was_given():
    ran = run_front(CASES / "passed_on.vx", spread_hardware_states)
    assert "@inner(s, s_took, s_held);" in to_text(ran.after)


# Hand-written Lpinned: `again` reads its state other than by its parts, as lower-pins leaves
# a function it refused; `main`'s call is still given the three parts.
REFUSED = """
    // IL: Lpinned
    fn again(s: HardwareState<i32, Topology::NPU>) -> HardwareState<i32, Topology::NPU> {
        s
    }

    fn main() {
        let t: i32 = 7;
        let t_took: bool = take_pin NPU of 1;
        let mut t_held: bool = t_took;
        let u: HardwareState<i32, Topology::NPU> = @again((t, t_took, &mut t_held));
    }
"""


def test_handwritten_a_function_lower_pins_refused_is_left_as_it_was(run_pass):
    ran = run_pass("spread-hardware-states", REFUSED)
    assert "fn again(s: HardwareState<i32, Topology::NPU>)" in ran.text
    assert "@again(t, t_took, &mut t_held)" in ran.text


# Hand-written Lpinned: a state given as the tuple lower-pins writes, read through its parts;
# the callee clears the caller's `held`, so the caller's own `match` gives nothing back, and a
# name the function already has (`s_took`) makes the parameter's the next.
HANDWRITTEN = """
    // IL: Lpinned
    fn use(s: HardwareState<i32, Topology::NPU>) {
        let s_took: i32 = 5;
        if s.1 {
            @print(pinned(s.0) on Topology::NPU);
            if *s.2 {
                *s.2 = false;
                release_pin NPU;
            }
        } else {
            @print(s_took);
        }
    }

    fn main() {
        let t: i32 = 7;
        let t_took: bool = take_pin NPU of 1;
        let mut t_held: bool = t_took;
        @use((t, t_took, &mut t_held));
        @print(t_held);
        let u_took: bool = take_pin NPU of 1;
        @print(u_took);
    }
"""


def test_handwritten_a_tuple_given_is_three_arguments(run_pass, tmp_path, snapshot_txt):
    ran = run_pass("spread-hardware-states", HANDWRITTEN)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "fn use(s: i32, s_took#1: bool, s_held: &mut bool)" in ran.text
    assert "@use(t, t_took, &mut t_held);" in ran.text
    assert ran.dump == snapshot_txt
    path = tmp_path / "spread.txt"
    path.write_text(textwrap.dedent(HANDWRITTEN).lstrip())
    assert run_cli(path) == (0, "7\nfalse\ntrue\n", "")
    assert run_cli(path, "--action", "interpret") == run_cli(path)
