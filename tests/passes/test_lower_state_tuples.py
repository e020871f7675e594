"""lower-state-tuples: a tuple holding hardware states a function returns holds each state's
three values (and, for an element that may be a state parameter given, whether it is each),
and
the caller's `let` of it binds each state from its parts; what lower-pins then makes of them
runs natively as the interpreter runs the program."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.lower_state_tuples import lower_state_tuples
from front import assert_native_as_interpreted, assert_prints_the_same, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "lower_state_tuples"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
# Each refused case, and what repairs it (`{case}_repaired.vx`).
REFUSED = {("e5010_state_read_from_a_tuple_chosen_beside_a_parameter_in_a_tuple_returned_"
            "through_a_call"): [
               ("chosen", "a tuple returned through a call giving back in it a state held by "
                          "reference other than the parameter its function gives back there")]}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", lower_state_tuples)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    # No function returns a tuple holding a state any more, nor does a `let` bind one.
    types = [f.ret for f in ran.after.items if f._prod == "Fn"] + \
        [n.type for n in ran.nodes() if n._prod == "Let"]
    assert not any(t is not None and t._prod == "TupleType" and "HardwareStateType" in
                   {e._prod for e in t.elems} for t in types)
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", lower_state_tuples)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_tuple_used_otherwise_is_refused_and_its_function_left_as_it_was(case):
    ran = run_front(CASES / f"{case}.vx", lower_state_tuples)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {what} (in '{fn}')")
        for fn, what in REFUSED[case]]
    refused = {fn for fn, _ in REFUSED[case]}
    assert [i for i in ran.after.items if i.name in refused] == \
        [i for i in ran.before.items if i.name in refused]

    repaired = run_front(CASES / f"{case}_repaired.vx", lower_state_tuples)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()


def test_a_refused_program_runs_in_the_interpreter_as_written():
    native = run_cli(CASES / "e5010_state_read_from_a_tuple_chosen_beside_a_parameter_in_a_"
                             "tuple_returned_through_a_call.vx")
    assert native[:2] == (0, "3\n1003\n") and "W5001" in native[2]


def _lowered(case: str) -> str:
    """The text of lower-state-tuples' output for the case."""
    return to_text(run_front(CASES / f"{case}.vx", lower_state_tuples).after)


def test_a_tuple_returned_holds_each_state_as_the_values_it_is_made_of():
    text = _lowered("tuple_returned")
    assert "fn pinned(y: i32) -> ((i32, bool, bool), i32) {" in text
    assert "((state_read 0 of s, state_read 1 of s, state_read 2 of s), y + 1)\n}" in text
    assert "let pair: ((i32, bool, bool), i32) = @pinned(3);\n" \
           "    let pair_0_took: ~bool = pair.0.1;\n    let mut pair_0_held: ~bool = pair.0.2;" \
        in text
    # Each `let` of the state binds it from those parts: another name of it, sharing its pin.
    assert "let_element s: i32 on Topology::NPU, took pair_0_took, held pair_0_held = " \
           "pair.0.0;" in text
    assert "let_element u: i32 on Topology::NPU, took pair_0_took, held pair_0_held = " \
           "pair.0.0;" in text
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
                    f"fn main() {{\n    {body}\n}}\n", lower_state_tuples)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {what} (in 'main')")]


def test_a_state_parameter_returned_in_a_tuple_at_some_returns_says_which_it_is():
    text = _lowered("parameter_in_a_tuple_returned")
    assert "-> ((i32, bool, bool, bool), i32) {" in text
    assert "return ((state_read 0 of n, state_read 1 of n, state_read 2 of n, false), y);" \
        in text
    assert "((state_read 0 of s, state_read 1 of s, false, true), y + 1)\n}" in text
    # The caller's name of it holds a reference to its own `held`, or to the variable's.
    assert "let mut pair_0_held_ref: ~&mut bool = &mut pair_0_held;\n" \
           "    if pair.0.3 {\n        pair_0_held_ref = state_part 2 of t;\n    }" in text
    assert "let_element u: i32 on Topology::NPU, took pair_0_took, held *pair_0_held_ref = " \
           "pair.0.0;" in _lowered("given_back_at_some_returns")


def test_a_tuple_returned_through_a_call_carries_the_callees_flag():
    text = _lowered("parameter_in_a_tuple_returned_through_a_call")
    # The callee's flag says whether its element is the state the call gives it, which is
    # the function's parameter there.
    assert "fn third(s: HardwareState<i32, Topology::NPU>, y: i32) -> ((i32, bool, bool, " \
           "bool), i32) {\n    @again(y + 1, s)\n}" in text


def test_a_tuple_returned_through_a_call_not_giving_on_the_callees_flag_resolves_it():
    # Given a state of the function's own, the element holds its `held` where the flag says
    # the element is it; an element the callee does not flag is never the parameter there.
    made = _lowered("own_state_in_a_tuple_returned_through_a_call")
    resolved = _lowered("flag_resolved_through_a_call")
    assert "fn made(y: i32) -> ((i32, bool, bool), i32) {" in made
    assert "let mut paired_returned_0_held: ~bool = paired_returned.0.2;\n" \
           "        if paired_returned.0.3 {\n            paired_returned_0_held = " \
           "state_read 2 of t;\n        }\n        return ((paired_returned.0.0, " \
           "paired_returned.0.1, paired_returned_0_held), paired_returned.1);" in made
    assert "return ((own_returned.0.0, own_returned.0.1, own_returned.0.2, false), " \
           "own_returned.1);" in resolved


def test_a_state_chosen_beside_the_parameter_says_whether_it_is_it():
    # Its own flag, set beside each `held` it is given, says whether the `if` chose the
    # parameter: the element is the parameter where the callee's flag and its own both say so.
    text = _lowered("state_chosen_beside_a_parameter_in_a_tuple_returned_through_a_call")
    assert "let mut u_given: ~bool = false;\n    if u_which {\n        u_held = " \
           "state_part 2 of s;\n        u_given = true;\n    }" in text
    assert "let mut paired_returned_0_given: ~bool = false;\n    if paired_returned.0.3 {\n" \
           "        paired_returned_0_held = state_read 2 of u;\n" \
           "        paired_returned_0_given = u_given;\n    }\n    ((paired_returned.0.0, " \
           "paired_returned.0.1, paired_returned_0_held, paired_returned_0_given), " \
           "paired_returned.1)\n}" in text
    # Returned in a tuple literal, it is its three values and its flag.
    literal = _lowered("state_chosen_beside_a_parameter_in_a_tuple_returned")
    assert "(y, (state_read 0 of u, state_read 1 of u, state_read 2 of u, u_given))\n}" \
        in literal
    # A `let mut` one assigned a state of its own is no longer the parameter.
    assigned = _lowered("let_mut_state_chosen_beside_a_parameter_in_a_tuple_returned_"
                        "through_a_call")
    assert "u_held = &mut u_own;\n        u_given = false;" in assigned


def test_a_state_chosen_between_two_parameters_has_a_flag_per_parameter():
    text = _lowered("state_chosen_between_two_parameters_in_a_tuple_returned_through_a_call")
    assert "fn chosen(a: HardwareState<i32, Topology::NPU>, b: HardwareState<i32, " \
        "Topology::NPU>, y: i32) -> ((i32, bool, bool, bool, bool), i32) {" in text
    assert "        u_held = state_part 2 of b;\n        u_given = false;\n" \
        "        u_given#1 = true;\n" in text
    assert "        paired_returned_0_given = u_given;\n" \
        "        paired_returned_0_given#2 = u_given#1;\n" in text
    # the caller's `let` shares the `held` of the variable it gave for each parameter
    assert "    if pair.0.3 {\n        pair_0_held_ref = state_part 2 of t;\n    }\n" \
        "    if pair.0.4 {\n        pair_0_held_ref = state_part 2 of k;\n    }\n" in text


def test_a_tuple_returned_through_calls_giving_two_parameters_flags_each():
    text = _lowered("parameters_in_a_tuple_returned_through_calls_at_two_returns")
    assert "fn two(a: HardwareState<i32, Topology::NPU>, b: HardwareState<i32, " \
        "Topology::NPU>, y: i32) -> ((i32, bool, bool, bool, bool), i32) {" in text
    # at the return calling `paired(b, y)` the element is `b` where `paired`'s flag says so
    assert "    if paired_returned#2.0.3 {\n        paired_returned_0_given#4 = false;\n" \
        "        paired_returned_0_given#5 = true;\n    }\n" in text


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
    ran = run_pass("lower-state-tuples", WHOLE)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a tuple holding a hardware state a call returns used "
        "other than bound by a `let` or read by its elements (in 'main')"]


# Hand-written Lheld: a state a `let mut` binds, returned in a tuple and assigned after, is
# read where the `return` stands; the caller binds it from the parts the tuple holds, which
# nothing reads here.
REASSIGNED = """
    // IL: Lheld
    fn pinned(y: i32) -> (i32, HardwareState<i32, Topology::NPU>) {
        let mut s: HardwareState<i32, Topology::NPU> = y.try_pin(Topology::NPU);
        if y > 2 {
            return (y, s);
        }
        s = (y + 1).try_pin(Topology::NPU);
        (0, s)
    }

    fn main() {
        let pair: (i32, HardwareState<i32, Topology::NPU>) = @pinned(3);
        let u: HardwareState<i32, Topology::NPU> = pair.1;
        @print(pair.0);
    }
"""


def test_handwritten_a_let_mut_state_returned_is_read_where_it_stands(run_pass, snapshot_txt):
    ran = run_pass("lower-state-tuples", REASSIGNED)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "return (y, (state_read 0 of s, state_read 1 of s, state_read 2 of s));" in ran.text
    assert "let_element u: i32 on Topology::NPU, took pair_1_took, held pair_1_held = " \
           "pair.1.0;" in ran.text
    assert ran.dump == snapshot_txt
