"""forward-returned-states: a function that gives back the hardware state it is given returns
nothing, and each call of it is the call and then the state given; the program prints what it
printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.forward_returned_states import forward_returned_states
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "forward_returned_states"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", forward_returned_states)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", forward_returned_states)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_is_the_call_then_the_state_given():
    text = to_text(run_front(CASES / "given_back.vx", forward_returned_states).after)
    assert "fn check(s: HardwareState<i32, Topology::NPU>, n: i32) {" in text
    assert "        return;\n" in text
    assert "@check(t, 1);\n    let u: HardwareState<i32, Topology::NPU> = t;" in text
    assert "return t;" in text and "@check(t, -1);\n    t\n}" in text


def test_a_state_given_back_in_a_tuple_is_the_callers_beside_the_rest():
    text = to_text(run_front(CASES / "in_a_tuple.vx", forward_returned_states).after)
    assert "-> i32 {\n    if y > 5 {\n        return y * 2;\n    }\n    y + 1\n}" in text
    assert "let pair_rest: i32 = @paired(t, y);\n" \
           "    let pair: (HardwareState<i32, Topology::NPU>, i32) = (t, pair_rest);" in text
    # The rest a tuple, one element of it or nothing; a call dropped stays a statement.
    assert "(three_rest.0, w, three_rest.1);" in text and "(y, n)\n}" in text
    assert "fn only(s: HardwareState<i32, Topology::NPU>) {}" in text
    assert "@only(w);\n    let both: " in text and "= (w, w);" in text
    assert "@paired(w, 1);" in text


AGAIN = ("fn again(s: HardwareState<i32, Topology::NPU>) -> HardwareState<i32, Topology::NPU> "
         "{\n    s\n}\n\n")


# A function returning a state it did not get (alone or in a tuple), or whose call gives it a
# state other than by a variable or sits elsewhere than a statement, is left as it was
# (lower-pins judges it).
@pytest.mark.parametrize("text", [
    "fn pin(s: HardwareState<i32, Topology::NPU>, y: i32) -> "
    "(HardwareState<i32, Topology::NPU>, i32) {\n    if y > 0 {\n        return (s, y);\n"
    "    }\n    (y.try_pin(Topology::NPU), y)\n}\n\nfn main() {\n    let y = 3;\n"
    "    let t = y.try_pin(Topology::NPU);\n    let u = pin(t, y);\n}\n",
    "fn pin(s: HardwareState<i32, Topology::NPU>, y: i32) -> "
    "HardwareState<i32, Topology::NPU> {\n    if y > 0 {\n        return s;\n    }\n"
    "    y.try_pin(Topology::NPU)\n}\n\nfn main() {\n    let y = 3;\n"
    "    let t = y.try_pin(Topology::NPU);\n    let u = pin(t, y);\n}\n",
    AGAIN + "fn two() -> i32 {\n    print(2);\n    2\n}\n\nfn main() {\n    let y = 3;\n"
    "    let p = (again(y.try_pin(Topology::NPU)), two());\n}\n",
], ids=["not_given_in_a_tuple", "not_given", "in_a_tuple"])
def test_a_function_not_always_giving_back_its_state_is_left_as_it_was(text):
    ran = run_front(text, forward_returned_states)
    assert ran.after == ran.before


# Hand-written Lconstparts: a function giving back its state by `return`, whose call is the value
# of another function's body.
BODY = """
    // IL: Lconstparts
    fn again(s: HardwareState<i32, Topology::NPU>) -> HardwareState<i32, Topology::NPU> {
        return s;
    }

    fn made(y: i32) -> HardwareState<i32, Topology::NPU> {
        let t: HardwareState<i32, Topology::NPU> = y.try_pin(Topology::NPU);
        @print(1);
        @again(t)
    }

    fn main() {
        let t: HardwareState<i32, Topology::NPU> = @made(5);
        match t {
            Available(p: Pinned<i32, Topology::NPU>) => {
                @print(p);
            }
            Saturated(v: Verified<i32>) => {
                @print(v);
            }
        };
    }
"""


def test_handwritten_a_call_as_a_functions_value(run_pass, snapshot_txt):
    ran = run_pass("forward-returned-states", BODY)
    assert ran.codes == []
    assert "@again(t);\n    t\n}" in ran.text and "return;" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "1\n5\n"
    assert ran.dump == snapshot_txt
