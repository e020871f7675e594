"""rebind-moved-enum-locals: a `let mut` a closure's body binds to an enum parameter it moves
whole, a variant of which carries a tensor, assigned only by statements of its own block, is
a `let` per value it is given; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.rebind_moved_enum_locals import rebind_moved_enum_locals
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "rebind_moved_enum_locals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", rebind_moved_enum_locals)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_no_closure_binds_a_parameter_carrying_a_tensor_to_a_let_mut(case):
    ran = run_front(CASES / f"{case}.vx", rebind_moved_enum_locals)
    for closure in ran.nodes("Closure"):
        params = {p.name for p in closure.params if p.type.name == "Buf"}
        assert not [n.name for n in descendants(closure.body) if n._prod == "Let"
                    and n.mutable and n.value._prod == "Local" and n.value.name in params]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", rebind_moved_enum_locals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_parameter_carrying_no_tensor_stays_a_variable():
    ran = run_front(CASES / "never_assigned.vx", rebind_moved_enum_locals)
    assert "let mut m: Num = n;" in to_text(ran.after)


def test_a_local_assigned_in_a_loop_stays_a_variable():
    ran = run_front(Path(__file__).parent / "cases" / "split_closure_aggregates" /
                    "e5010_enum_parameter_carrying_a_tensor_bound_to_a_mut_assigned_in_a_loop.vx",
                    rebind_moved_enum_locals)
    assert to_text(ran.after) == to_text(ran.before)


# Hand-written Lmatched: a closure binding its enum parameter to a `let mut`, reading it,
# assigning it a value made of its other parameter, printing that and reading it.
HANDWRITTEN = """
    // IL: Lmatched
    enum Slot {
        Full(Tensor<f32, [2]>),
        Gone,
    }

    fn first(s: Slot) -> f32 {
        if s is Slot::Gone {
            0.0
        } else {
            s.Slot::Full.0[0]
        }
    }

    fn main() {
        let swap: ~_ = |x: f32, s: Slot| {
            let mut held: Slot = s;
            let before: f32 = @first(held);
            held = Slot::Full([x, x]);
            @print(held);
            before + @first(held)
        };
        @print(swap(1.5, Slot::Full([0.25, 2.0])));
        @print(swap(2.0, Slot::Gone));
    }
"""


def test_handwritten_each_value_is_a_let_of_its_own(run_pass, snapshot_txt):
    ran = run_pass("rebind-moved-enum-locals", HANDWRITTEN)
    assert ran.codes == []
    assert "let held: Slot = s;" in ran.dump
    assert "let held#1: Slot = Slot::Full([x, x]);" in ran.dump
    assert "@print(held#1);" in ran.dump and "before + @first(held#1)" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "Slot::Full([1.5, 1.5])\n1.75\n" \
        "Slot::Full([2, 2])\n2\n"
    assert ran.dump == snapshot_txt


# A constant's value holding an `if`: its blocks are walked outside any function.
IN_A_CONSTANT = """
    // IL: Lmatched
    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const X: &i32 = if true {
        &@T[0]
    } else {
        &@T[1]
    };

    fn main() {
        @print(*@X);
    }
"""


def test_handwritten_a_constant_holding_an_if_is_left_as_it_is(run_pass):
    ran = run_pass("rebind-moved-enum-locals", IN_A_CONSTANT)
    assert ran.codes == []
    assert ran.tree is ran.before
