"""check-method-calls: a method call that is not one of Vx's built-in methods (E2001), with
the call to write instead, and a built-in method given other than its arguments (E3010)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_method_calls import check_method_calls
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_method_calls"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "unknown_method": (
        "E2001", "no method named 'frob' on a value of type `{integer}`: Vx has no methods but its "
        "built-in ones",
        "the built-in methods are `.to_device()`, `.to_device_relaxed()`, `.to_gpu()`, "
        "`.to_gpu_relaxed()`, `.topology()`, `.try_pin(Topology::X)`, `.extent(i)`"),
    "impl_function": (
        "E2001", "no method named 'dot' on a value of type `Vec2`: Vx has no methods but its built-in "
        "ones", "call the impl's function through its type: `Vec2::dot(&a, &b)`"),
    "builtin_function": (
        "E2001", "no method named 'abs' on a value of type `f32`: Vx has no methods but its built-in "
        "ones", "`abs` is a built-in function: `abs(x)`"),
    "built_in_arguments": (
        "E3010", "the method 'to_device' takes 0 arguments, but this call passes 1",
        "write `.to_device()`"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_method_calls)
    assert ran.after is ran.before
    expected = {REFUSED[case][0]} if case in REFUSED else set()
    assert set(ran.diagnostics.codes()) == expected
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_call_is_refused_with_its_repair_and_the_repair_admitted(case):
    code, message, help = REFUSED[case]
    ran = run_front(CASES / f"{case}.vx", check_method_calls)
    assert [(d.code, d.message, d.help) for d in ran.diagnostics.items] == \
        [(code, message, [help])]
    repaired = run_front(CASES / f"{case}_repaired.vx", check_method_calls)
    assert not repaired.diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_method_calls)


# Hand-written Lresolved: a local named alike in two functions (resolve-names makes names
# unique within a function only), and a receiver that takes `&mut`: each receiver's type is
# its own function's, and the help lends it as the impl's first parameter takes it.
SAME_NAME_IN_TWO_FUNCTIONS = """
    // IL: Lresolved
    struct Acc {
        n: i32,
    }

    fn Acc::bump(a: &mut Acc, by: i32) {
        a.n = a.n + by;
    }

    fn helper(a: &Acc) -> i32 {
        a.n
    }

    fn main() {
        let mut a: Acc = Acc { n: 1 };
        a.bump(2);
        @print(@helper(&a));
    }
"""


def test_handwritten_each_receiver_is_typed_in_its_own_function(run_pass, snapshot_txt):
    ran = run_pass("check-method-calls", SAME_NAME_IN_TWO_FUNCTIONS)
    assert ran.codes == ["E2001"]
    d = ran.diagnostics.items[0]
    assert d.message.startswith("no method named 'bump' on a value of type `Acc`:")
    assert d.help == ["call the impl's function through its type: `Acc::bump(&mut a, 2)`"]
    assert ran.dump == snapshot_txt


# Hand-written Lresolved: two types with a function `get`, and a receiver whose type no
# annotation or literal tells (a call's result): the help gives the call through each type,
# the receiver passed as each first parameter takes it.
TWO_TYPES_ONE_NAME = """
    // IL: Lresolved
    struct A {
        x: i32,
    }

    struct B {
        x: i32,
    }

    fn A::get(a: &A) -> i32 {
        a.x
    }

    fn B::get(b: B) -> i32 {
        b.x
    }

    fn make() -> A {
        A { x: 1 }
    }

    fn main() {
        @print(@make().get());
    }
"""


def test_handwritten_a_receiver_of_unknown_type_is_offered_each_types_function(
        run_pass, snapshot_txt):
    ran = run_pass("check-method-calls", TWO_TYPES_ONE_NAME)
    assert ran.codes == ["E2001"]
    d = ran.diagnostics.items[0]
    assert d.message == "no method named 'get' on this value: Vx has no methods but its " \
                        "built-in ones"
    assert d.help == ["call the impl's function through its type: `A::get(&@make())` or "
                      "`B::get(@make())`"]
    assert ran.dump == snapshot_txt
