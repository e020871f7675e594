"""explicate-calls: each call says what it calls, a function of the runtime (`print`, a math
built-in) or one of the program, marked when that one calls others (its call keeps the depth
of calls); a launch is a call on a topology; the tensor parameters no other argument of a call
shares are noalias. The program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.explicate_calls import explicate_calls
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "explicate_calls"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", explicate_calls)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not {n._prod for n in ran.nodes()} & {"Call", "Launch"}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", explicate_calls)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _calls(ran) -> dict:
    return {n.callee: n.nests for n in ran.nodes() if n._prod == "CallFn"}


def test_a_call_nests_when_its_callee_calls_and_the_runtime_is_a_builtin():
    ran = run_front(CASES / "calls.vx", explicate_calls)
    assert _calls(ran) == {"square": False, "norm": True, "fact": True}
    assert sorted(n.name for n in ran.nodes() if n._prod == "Builtin") == \
        ["exp", "log", "print", "print", "print", "print", "sqrt"]


def test_a_launch_is_a_call_on_its_topology():
    ran = run_front(CASES / "launches.vx", explicate_calls)
    launch, = (n for n in ran.nodes() if n._prod == "CallFn" and n.launch is not None)
    assert launch.callee == "main$kernel0" and launch.launch.name == "GPU"


def test_parameters_no_other_argument_shares_are_noalias():
    ran = run_front(CASES / "launches.vx", explicate_calls)
    fns = {i.name: i for i in ran.after.items if i._prod == "Fn"}
    assert [p._prod for p in fns["dot"].params] == ["NoAliasParam"] * 2
    assert [p._prod for p in fns["scale"].params] == ["Param"] * 3  # given x twice


# Hand-written Ldrops: a function whose call is the only one in a loop, and a call of it in
# a condition; `print` of a function the program names `print` is the program's.
PRINT_OF_ITS_OWN = """
    // IL: Ldrops
    fn print(x: i32) -> i32 {
    bb0:
        return x +[i32] 1i32;
    }

    fn main() -> void {
    bb0:
        branch @print(1i32) > 1i32, bb1, bb2;
    bb1:
        return;
    bb2:
        return;
    }
"""


def test_handwritten_a_function_named_print_is_the_programs(run_pass):
    ran = run_pass("explicate-calls", PRINT_OF_ITS_OWN)
    assert ran.codes == []
    assert "branch call print(1i32) > 1i32, bb1, bb2;" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == ""


def test_handwritten_a_call_of_no_function_is_refused(run_pass):
    ran = run_pass("explicate-calls", PRINT_OF_ITS_OWN.replace("branch @print(", "branch @nowhere("))
    assert ran.codes == ["E1007"]
    assert "a call of 'nowhere', which is no function" in ran.diagnostics.items[0].message
