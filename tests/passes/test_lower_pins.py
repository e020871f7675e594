"""lower-pins: `try_pin` is a pin taken (`take_pin`), a hardware state the values it is made
of, and the `match` on it told them (lower-pin-matches writes it out); native code prints what
the interpreter prints."""

import textwrap
from pathlib import Path

import pytest

from nano_vx.nanopass import descendants
from nano_vx.dump.text import to_text
from nano_vx.passes.lower_pins import lower_pins
from front import assert_native_as_interpreted, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "lower_pins"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
# The programs of other passes' cases that pin, which native code now runs as well.
ELSEWHERE = [Path(__file__).parent / "cases" / p for p in (
    "infer_placement/try_pin.vx", "check_match_arms/nested_repaired.vx",
    "check_match_arms/unrolled_repaired.vx", "check_visibility/pinned_repaired.vx")]
# lower-state-tuples' cases, whose tuples this pass finds bound from their parts.
TUPLES = Path(__file__).parent / "cases" / "lower_state_tuples"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", lower_pins)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "Match" not in {n._prod for n in ran.nodes()}
    # A state parameter keeps its type until spread-hardware-states gives it its parts.
    params = {id(p.type) for f in ran.after.items if f._prod == "Fn" for p in f.params}
    assert all(id(n) in params for n in ran.nodes() if n._prod == "HardwareStateType")
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("path", [CASES / f"{c}.vx" for c in NAMES] + ELSEWHERE,
                         ids=lambda p: p.stem)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(path):
    assert_native_as_interpreted(path)


def test_a_let_mut_state_a_function_may_give_back_in_a_tuple_is_refused():
    # The element would name by reference the `held` of the variable, which the state
    # assigned to it later replaces.
    program = (TUPLES / "parameter_in_a_tuple_returned.vx").read_text().replace(
        "let t = y.try_pin(Topology::NPU);", "let mut t = y.try_pin(Topology::NPU);")
    ran = run_front(program, lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a copy of a hardware state bound with `let mut` (in 'main')"]


def _lowered(case: str) -> str:
    """The text of lower-pins' output for the case."""
    return to_text(run_front(CASES / f"{case}.vx", lower_pins).after)


def test_a_state_given_to_a_function_is_a_tuple_with_a_reference_read_by_its_parts():
    text = _lowered("passed")
    assert "fn report(s: HardwareState<i32, Topology::NPU>)" in text
    assert "pin_match s.0 on Topology::NPU, took s.1, held *s.2 {" in text
    assert "@report((t, t_took, &mut t_held))" in text


def test_a_state_chosen_by_an_if_holds_a_reference_to_the_chosen_states_held():
    text = _lowered("chosen")
    assert "let mut u_held: ~&mut bool = &mut u_own;" in text
    assert "u_held = &mut t_held;" in text and "took u_took, held *u_held {" in text
    # From a parameter, the reference the caller gave.
    assert "c_held = s.2;" in text
    assert run_cli(CASES / "chosen.vx") == (0, "3\n13\n309\n3\n0\n109\n", "")


def test_a_state_chosen_by_an_if_and_returned_is_refused():
    ran = run_front("fn pick(y: i32) -> HardwareState<i32, Topology::NPU> {\n"
                    "    let t = y.try_pin(Topology::NPU);\n"
                    "    let u = if y > 2 { t } else { y.try_pin(Topology::NPU) };\n"
                    "    u\n}\n\nfn main() {\n    match pick(3) {\n"
                    "        Available(p) => { print(p); }\n"
                    "        Saturated(v) => { print(0); }\n    }\n}\n", lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a hardware state chosen by an `if` returned (in 'pick')"]


def test_a_let_mut_copy_of_a_state_returned_is_refused_in_its_own_words():
    ran = run_front("fn keep(y: i32) -> HardwareState<i32, Topology::NPU> {\n"
                    "    let t = y.try_pin(Topology::NPU);\n"
                    "    let mut u = t;\n"
                    "    u\n}\n\nfn main() {\n    match keep(3) {\n"
                    "        Available(p) => { print(p); }\n"
                    "        Saturated(v) => { print(0); }\n    }\n}\n", lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a `let mut` copy of a hardware state returned (in 'keep')"]


def test_a_state_a_function_gives_back_is_another_name_of_the_callers():
    text = _lowered("returned_parameter")
    assert "fn again(s: HardwareState<i32, Topology::NPU>) {}" in text
    assert "@again((t, t_took, &mut t_held));\n    let u: i32 = t;" in text
    assert "pin_match u on Topology::NPU, took t_took, held t_held {" in text


AGAIN = ("fn again(s: HardwareState<i32, Topology::NPU>) -> HardwareState<i32, Topology::NPU> "
         "{\n    s\n}\n\n")


# A state given to a function and returned by it other than at every return, or returned on
# through a call, is refused where it is returned (forward-returned-states forwards neither).
@pytest.mark.parametrize("callee", [
    ("fn on(s: HardwareState<i32, Topology::NPU>, y: i32) -> "
     "HardwareState<i32, Topology::NPU> {\n    again(s)\n}\n\n"),
    ("fn on(s: HardwareState<i32, Topology::NPU>, y: i32) -> "
     "HardwareState<i32, Topology::NPU> {\n    if y > 2 {\n        return s;\n    }\n"
     "    y.try_pin(Topology::NPU)\n}\n\n"),
], ids=["through_a_call", "beside_another"])
def test_a_state_given_back_otherwise_is_refused(callee):
    ran = run_front(AGAIN + callee + "fn main() {\n    let y = 3;\n"
                    "    let o = on(y.try_pin(Topology::NPU), y);\n}\n", lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a hardware state given to its function returned (in 'on')"]


def test_a_let_mut_copy_of_a_state_points_to_the_held_of_the_state_it_is_assigned():
    text = _lowered("mutable_copy")
    assert "let mut u_held: ~&mut bool = &mut t_held;" in text
    assert "u_took = v_took;\n    u_held = &mut v_held;" in text
    assert "u_took = take_pin NPU of 1;\n        u_own = u_took;\n        u_held = &mut u_own;" \
        in text


def test_a_state_bound_with_let_mut_is_assigned_its_three_values():
    text = _lowered("reassigned")
    assert "let mut s: i32 = y;\n    let mut s_took: ~bool = take_pin NPU of 1;" in text
    assert "s = k;\n        s_took = take_pin NPU of 1;\n        s_held = s_took;" in text
    assert "s = s_made.0;\n    s_took = s_made.1;\n    s_held = s_made.2;" in text


# A `let mut` state's variables are its own: another name of it, or one it replaced, would
# see the state assigned after it.
@pytest.mark.parametrize("body,what", [
    ("let mut s = y.try_pin(Topology::NPU);\n    let mut u = t;\n    u = s;",
     "a copy of a hardware state bound with `let mut`"),
    ("let mut s = y.try_pin(Topology::NPU);\n    let u = s;",
     "a copy of a hardware state bound with `let mut`"),
    ("let mut s = y.try_pin(Topology::NPU);\n    s = t;",
     "a hardware state assigned other than a new one to a `let mut`"),
    ("let mut s = y.try_pin(Topology::NPU);\n    match s {\n"
     "        Available(p) => { s = y.try_pin(Topology::NPU); }\n"
     "        Saturated(v) => { print(v); }\n    }",
     "a hardware state assigned in an arm of a `match` on it"),
    ("let mut s = y.try_pin(Topology::NPU);\n    let u = if y > 2 { s } else { t };",
     "a copy of a hardware state bound with `let mut`"),
    ("let mut s = y.try_pin(Topology::NPU);\n    s = again(t);",
     "a hardware state assigned other than a new one to a `let mut`"),
])
def test_a_let_mut_state_shared_with_another_name_is_refused(body, what):
    ran = run_front(AGAIN + "fn main() {\n    let y = 3;\n    let t = y.try_pin(Topology::NPU);\n"
                    f"    {body}\n}}\n", lower_pins)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {what} (in 'main')")]


@pytest.mark.parametrize("let,index", [("let k = 1;", "k + 1"), ("let mut k = 1;", "k")])
def test_a_topology_whose_index_is_computed_in_place_or_may_change_is_refused(let, index):
    ran = run_front(f"fn main() {{\n    {let}\n    match k.try_pin(Topology::NPU[{index}]) {{\n"
                    "        Available(p) => { print(p); }\n"
                    "        Saturated(v) => { print(0); }\n    }\n}\n", lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a topology whose index is computed in place or may change "
        "(in 'main')"]


# Hand-written Lpinned reads back and runs: the pins of one topology kind are counted
# together, whatever the unit (`NPU[0]`, `NPU[1]`).
HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let a_took: bool = take_pin NPU of 1;
        let b_took: bool = take_pin NPU of 1;
        @print(a_took);
        @print(b_took);
        release_pin NPU;
        let c: i32 = pinned(7) on Topology::NPU[1];
        let c_took: bool = take_pin NPU of 1;
        @print(c_took);
        @print(c);
    }
"""


def test_handwritten_pins_are_counted_per_topology_kind(tmp_path):
    path = tmp_path / "pins.txt"
    path.write_text(textwrap.dedent(HANDWRITTEN).lstrip())
    native = run_cli(path)
    assert native == (0, "true\nfalse\ntrue\n7\n", "")
    assert native == run_cli(path, "--action", "interpret")


# Hand-written Lread: the topology's `replicas` come from its declaration (the memory
# model the run rebuilds from it), and the `match` is told the state's three values. It is a
# statement, as name-hardware-states leaves one whose value nothing reads.
DECLARED = """
    // IL: Lread
    Topology Pool { memory: Memory::CPU_DRAM, replicas: 3 }

    fn main() {
        let n: i32 = 4;
        while true {
            let s: HardwareState<i32, Topology::Pool> = n.try_pin(Topology::Pool);
            match s {
                Available(p: Pinned<i32, Topology::Pool>) => {
                    break;
                }
                Saturated(v: Verified<i32>) => {
                    @print(v);
                }
            };
        }
    }
"""


def test_handwritten_replicas_are_the_declarations(run_pass, snapshot_txt):
    ran = run_pass("lower-pins", DECLARED)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    [take] = [n for n in descendants(ran.tree) if n._prod == "TakePin"]
    assert (take.topo, take.replicas) == ("Pool", 3)
    assert "pin_match s on Topology::Pool, took s_took, held s_held {" in ran.text
    assert ran.dump == snapshot_txt


# Hand-written Lread: a state lower-state-tuples bound from an element of a tuple, and the
# parts of one read where a tuple returns them, are the locals that hold them.
ELEMENT = """
    // IL: Lread
    fn pinned(y: i32) -> (i32, (i32, bool, bool)) {
        let s: HardwareState<i32, Topology::NPU> = y.try_pin(Topology::NPU);
        (y, (state_read 0 of s, state_read 1 of s, state_read 2 of s))
    }

    fn main() {
        let pair: (i32, (i32, bool, bool)) = @pinned(3);
        let pair_1_took: bool = pair.1.1;
        let mut pair_1_held: bool = pair.1.2;
        let_element u: i32 on Topology::NPU, took pair_1_took, held pair_1_held = pair.1.0;
        match u {
            Available(p: Pinned<i32, Topology::NPU>) => {
                @print(p);
            }
            Saturated(v: Verified<i32>) => {
                @print(v + 100);
            }
        };
    }
"""


def test_handwritten_a_state_bound_from_its_parts_is_named_by_them(run_pass, snapshot_txt):
    ran = run_pass("lower-pins", ELEMENT)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "(y, (s, s_took, s_held))\n}" in ran.text
    assert "let u: i32 = pair.1.0;\n    pin_match u on Topology::NPU, took pair_1_took, " \
           "held pair_1_held {" in ran.text
    assert ran.dump == snapshot_txt
