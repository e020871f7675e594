"""dispatch-closures: a closure value is the number of its function, and a call through it a
call of the dispatcher of its signature, which calls the function that number names; the
program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.dispatch_closures import dispatch_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

# lift-closures' cases: the closures and closure values dispatch-closures reads are its output.
CASES = Path(__file__).parent / "cases" / "lift_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", dispatch_closures)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", dispatch_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_closure_value_is_its_number_and_a_call_through_it_dispatches():
    after = run_front(CASES / "values.vx", dispatch_closures).after
    fns = {i.name: i for i in after.items if i._prod == "Fn"}
    main_text = to_text(fns["main"])
    # add and mul are the functions 1 and 2 of their signature; g holds either.
    assert "let add: ~i32 = 1i32;" in main_text and "let mul: ~i32 = 2i32;" in main_text
    assert "@main$call0(g, 1i32, k)" in main_text
    assert [p.name for p in fns["main$call0"].params] == ["closure", "arg0", "arg1"]
    dispatch = to_text(fns["main$call0"])
    assert "closure == 1i32" in dispatch and "return @main$closure1(arg0, arg1);" in dispatch


# Hand-written Lfunctions (lift-closures' output of its hand-written case): the dispatcher's
# name is taken, so it takes the next number; each function of the signature is called with
# what every one of them takes.
TAKEN = """
    // IL: Lfunctions
    fn main$call0() -> void {}

    fn main() -> void {
        let c: bool = true;
        let f: fn(i32, i32) -> i32 = if c {
            @main$closure0
        } else {
            @main$closure1
        };
        @print(f(2i32, 0i32));
        let k: i32 = 10i32;
        let g: fn(i32, i32) -> i32 = @main$closure2;
        let h: fn(i32, i32) -> i32 = g;
        @print(f(3i32, k));
        @print(h(4i32, k));
    }

    fn main$closure0(x: i32, k: i32) -> i32 {
        x
    }

    fn main$closure1(y: i32, k: i32) -> i32 {
        -[i32]y
    }

    fn main$closure2(z: i32, k: i32) -> i32 {
        z +[i32] k
    }
"""


def test_handwritten_a_dispatcher_name_already_taken(run_pass, snapshot_txt):
    ran = run_pass("dispatch-closures", TAKEN)
    assert ran.codes == []
    assert [item.name for item in ran.tree.items] == [
        "main$call0", "main", "main$call1", "main$closure0", "main$closure1", "main$closure2"]
    assert _printed(ran.before) == _printed(ran.tree) == "2\n3\n14\n"
    assert "@main$call1(f, 2i32, 0i32)" in ran.dump and "@main$call1(h, 4i32, k)" in ran.dump
    assert ran.dump == snapshot_txt
