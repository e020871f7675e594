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
# Each refused case, and what repairs it (`{case}_repaired.vx`, the state matched in place).
REFUSED = {"e5010_state_chosen_between_two_parameters_in_a_tuple_returned_through_a_call": [
               ("chosen", "a tuple returned through a call giving back in it a state held by "
                          "reference other than the parameter its function gives back there")]}


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
def test_native_code_prints_what_the_interpreter_prints(path):
    assert_native_as_interpreted(path)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_state_used_otherwise_is_refused_and_its_function_left_as_it_was(case):
    ran = run_front(CASES / f"{case}.vx", lower_pins)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {what} (in '{fn}')")
        for fn, what in REFUSED[case]]
    refused = {fn for fn, _ in REFUSED[case]}
    assert [i for i in ran.after.items if i.name in refused] == \
        [i for i in ran.before.items if i.name in refused]

    repaired = run_front(CASES / f"{case}_repaired.vx", lower_pins)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()
    assert "TakePin" in {n._prod for n in repaired.nodes()}


def test_a_tuple_returned_holds_each_state_as_the_values_it_is_made_of():
    text = _lowered("tuple_returned")
    assert "fn pinned(y: i32) -> ((i32, bool, bool), i32) {" in text
    assert "((s, s_took, s_held), y + 1)\n}" in text and "return (y, (n, n_took, n_held));" in text
    assert "let pair: ((i32, bool, bool), i32) = @pinned(3);\n" \
           "    let pair_0_took: ~bool = pair.0.1;\n    let mut pair_0_held: ~bool = pair.0.2;" \
        in text
    # Each `let` of the state is another name of it, sharing its pin.
    assert "let u: i32 = pair.0.0;\n    pin_match u on Topology::NPU, took pair_0_took, " \
           "held pair_0_held {" in text
    assert "let agg: ~_ = @pinned(6);" in text and "@print(agg.1);" in text
    assert "@pinned(7);" in text


@pytest.mark.parametrize("body,what", [
    ("let pair = pinned(3);\n    let again = pair;",
     "a tuple holding a hardware state used other than by its elements"),
    ("let pair = pinned(3);\n    print(pair.0 == pair.0);",
     "a hardware state read from a tuple other than by a `let`"),
    # name-temporaries binds the tuple the call returns before the statement.
    ("print(pinned(3).0 == pinned(3).0);",
     "a hardware state read from a tuple other than by a `let`"),
    ("let again = (pinned(3), 1);",
     "a tuple holding a hardware state used other than by its elements"),
])
def test_a_tuple_returned_used_otherwise_is_refused(body, what):
    ran = run_front("fn pinned(y: i32) -> (HardwareState<i32, Topology::NPU>, i32) {\n"
                    "    let s = y.try_pin(Topology::NPU);\n    (s, y)\n}\n\n"
                    f"fn main() {{\n    {body}\n}}\n", lower_pins)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {what} (in 'main')")]


def test_a_refused_program_runs_in_the_interpreter_as_written():
    native = run_cli(CASES / "e5010_state_chosen_between_two_parameters_in_a_tuple_returned_"
                             "through_a_call.vx")
    assert native[:2] == (0, "3\n1003\n") and "W5001" in native[2]


def test_a_state_parameter_returned_in_a_tuple_at_some_returns_says_which_it_is():
    text = _lowered("parameter_in_a_tuple_returned")
    assert "-> ((i32, bool, bool, bool), i32) {" in text
    assert "return ((n, n_took, n_held, false), y);" in text
    assert "((s.0, s.1, false, true), y + 1)\n}" in text
    # The caller's name of it holds a reference to its own `held`, or to the variable's.
    assert "let mut pair_0_held_ref: ~&mut bool = &mut pair_0_held;\n" \
           "    if pair.0.3 {\n        pair_0_held_ref = &mut t_held;\n    }" in text


def test_a_tuple_returned_through_a_call_carries_the_callees_flag():
    text = _lowered("parameter_in_a_tuple_returned_through_a_call")
    # The callee's flag says whether its element is the state the call gives it, which is
    # the function's parameter there.
    assert "fn third(s: HardwareState<i32, Topology::NPU>, y: i32) -> ((i32, bool, bool, " \
           "bool), i32) {\n    @again(y + 1, (s.0, s.1, s.2))\n}" in text


def test_a_tuple_returned_through_a_call_not_giving_on_the_callees_flag_resolves_it():
    # Given a state of the function's own, the element holds its `held` where the flag says
    # the element is it; an element the callee does not flag is never the parameter there.
    made = _lowered("own_state_in_a_tuple_returned_through_a_call")
    resolved = _lowered("flag_resolved_through_a_call")
    assert "fn made(y: i32) -> ((i32, bool, bool), i32) {" in made
    assert "let mut paired_returned_0_held: ~bool = paired_returned.0.2;\n" \
           "        if paired_returned.0.3 {\n            paired_returned_0_held = t_held;\n" \
           "        }\n        return ((paired_returned.0.0, paired_returned.0.1, " \
           "paired_returned_0_held), paired_returned.1);" in made
    assert "return ((own_returned.0.0, own_returned.0.1, own_returned.0.2, false), " \
           "own_returned.1);" in resolved


def test_a_state_chosen_beside_the_parameter_says_whether_it_is_it():
    # Its own flag, set beside each `held` it is given, says whether the `if` chose the
    # parameter: the element is the parameter where the callee's flag and its own both say so.
    text = _lowered("state_chosen_beside_a_parameter_in_a_tuple_returned_through_a_call")
    assert "let mut u_given: ~bool = false;\n    if u_which {\n        u_held = s.2;\n" \
           "        u_given = true;\n    }" in text
    assert "let mut paired_returned_0_given: ~bool = false;\n    if paired_returned.0.3 {\n" \
           "        paired_returned_0_held = *u_held;\n" \
           "        paired_returned_0_given = u_given;\n    }\n    ((paired_returned.0.0, " \
           "paired_returned.0.1, paired_returned_0_held, paired_returned_0_given), " \
           "paired_returned.1)\n}" in text
    # Returned in a tuple literal, it is its three values and its flag.
    literal = _lowered("state_chosen_beside_a_parameter_in_a_tuple_returned")
    assert "(y, (u, u_took, *u_held, u_given))\n}" in literal
    # A `let mut` one assigned a state of its own is no longer the parameter.
    assigned = _lowered("let_mut_state_chosen_beside_a_parameter_in_a_tuple_returned_"
                        "through_a_call")
    assert "u_held = &mut u_own;\n        u_given = false;" in assigned


def test_a_tuple_returned_through_a_call_given_a_parameter_not_given_back_there_is_refused():
    ran = run_front("fn paired(s: HardwareState<i32, Topology::NPU>, y: i32) -> "
                    "(HardwareState<i32, Topology::NPU>, i32) {\n"
                    "    if y > 5 {\n        let n = y.try_pin(Topology::NPU);\n"
                    "        return (n, y);\n    }\n    (s, y + 1)\n}\n\n"
                    "fn two(a: HardwareState<i32, Topology::NPU>, "
                    "b: HardwareState<i32, Topology::NPU>, y: i32) -> "
                    "(HardwareState<i32, Topology::NPU>, i32) {\n"
                    "    if y > 3 {\n        return paired(a, y);\n    }\n    paired(b, y)\n}\n\n"
                    "fn main() {\n    let a = 1.try_pin(Topology::NPU);\n"
                    "    let b = 2.try_pin(Topology::NPU);\n"
                    "    let pair = two(a, b, 3);\n    print(pair.1);\n}\n", lower_pins)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a tuple returned through a call giving back in it a state "
        "held by reference other than the parameter its function gives back there (in 'two')"]


def test_a_let_mut_state_a_function_may_give_back_in_a_tuple_is_refused():
    # The element would name by reference the `held` of the variable, which the state
    # assigned to it later replaces.
    program = (CASES / "parameter_in_a_tuple_returned.vx").read_text().replace(
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


# Hand-written Lheld: the topology's `replicas` come from its declaration (the memory
# model the run rebuilds from it), and the `match` is told the state's three values. It is a
# statement, as name-hardware-states leaves one whose value nothing reads.
DECLARED = """
    // IL: Lheld
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


# Hand-written Lheld: a call of a function returning a tuple that holds a state, used whole
# where no `let` binds it (name-temporaries would have bound it), is refused.
WHOLE = """
    // IL: Lheld
    fn pinned(y: i32) -> (HardwareState<i32, Topology::NPU>, i32) {
        let s: HardwareState<i32, Topology::NPU> = y.try_pin(Topology::NPU);
        (s, y)
    }

    fn main() {
        @print(@pinned(3).1);
    }
"""


def test_handwritten_a_tuple_a_call_returns_used_whole_is_refused(run_pass):
    ran = run_pass("lower-pins", WHOLE)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a tuple holding a hardware state a call returns used "
        "other than bound by a `let` or read by its elements (in 'main')"]
