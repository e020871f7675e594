"""name-hardware-states: each hardware state a `match` is on or a call is given is computed by
a `let` of its own before its statement; the program prints what it printed, and native code
prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_hardware_states import name_hardware_states
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_hardware_states"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def _made_in_place(ran) -> list:
    """The states made other than as a `let`'s value."""
    lets = {id(n.value) for n in ran.nodes("Let")}
    return [n for n in ran.nodes("MethodCall") if n.method == "try_pin" and id(n) not in lets]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_hardware_states)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not _made_in_place(ran)
    assert all(n.scrutinee._prod == "Local" for n in ran.nodes("Match"))
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_hardware_states)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_kernel_whose_launch_is_read_keeps_its_match_as_its_value():
    ran = run_front(CASES / "spawn_result.vx", name_hardware_states)
    kernels = {f.name: f for f in ran.nodes("Fn") if "$kernel" in f.name}
    values = [kernels[n].body.value for n in sorted(kernels)]
    assert [v._prod if v is not None else None for v in values] == \
        ["Match", "Match", "Match", None]


def test_a_variable_read_before_a_state_named_is_held_in_a_local_before_it():
    text = to_text(run_front(CASES / "read_before.vx", name_hardware_states).after)
    assert "let ordered: ~_ = y;\n    let state: ~_ = @pin(&mut y);\n" \
        "    @print(@both(ordered, state));" in text
    # the outer call's argument, read first, is held first
    assert "let ordered#3: ~_ = y;\n    let ordered#2: ~_ = y;\n" in text


def test_what_a_call_computes_before_a_state_is_held_in_a_local_before_it():
    text = to_text(run_front(CASES / "after_a_call.vx", name_hardware_states).after)
    assert "let ordered: ~_ = @noisy(1);\n    let state: ~_ = y.try_pin(Topology::NPU);\n" \
        "    @print(@take(ordered, state, @noisy(2)));" in text
    assert "let ordered#2: ~_ = @noisy(3) * 10;\n    let state#1" in text


def test_a_state_made_inside_an_operation_stays_in_place():
    ran = run_front("fn report(s: HardwareState<i32, Topology::NPU>) -> i32 {\n"
                    "    match s {\n        Available(p) => { p }\n"
                    "        Saturated(v) => { v }\n    }\n}\n\n"
                    "fn main() {\n    let y = 3;\n"
                    "    print(1 + report(y.try_pin(Topology::NPU)));\n}\n", name_hardware_states)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert [n.receiver.name for n in _made_in_place(ran)] == ["y"]


# Hand-written Lconstparts: a state made in a call's argument, and a `match` on `try_pin` that is
# the value of main's body, which nothing reads: the state is named, the `match` a statement.
IN_PLACE = """
    // IL: Lconstparts
    fn report(s: HardwareState<i32, Topology::NPU>) -> i32 {
        match s {
            Available(p: Pinned<i32, Topology::NPU>) => {
                p
            }
            Saturated(v: Verified<i32>) => {
                v + 100
            }
        }
    }

    fn main() {
        let y: i32 = 3;
        @print(@report(y.try_pin(Topology::NPU)));
        match y.try_pin(Topology::NPU) {
            Available(p: Pinned<i32, Topology::NPU>) => {
                @print(p);
            }
            Saturated(v: Verified<i32>) => {
                @print(v);
            }
        }
    }
"""


def test_handwritten_states_made_in_place_are_named(run_pass, snapshot_txt):
    ran = run_pass("name-hardware-states", IN_PLACE)
    assert ran.codes == []
    assert "@print(@report(state));" in ran.dump and "match state#1 {" in ran.dump
    assert ran.tree.items[1].body.value is None
    assert ran.dump == snapshot_txt
