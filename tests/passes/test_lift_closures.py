"""lift-closures: a closure becomes a function of the program, its captures extra parameters
passed at each call; a closure value names its function, and a call through it passes what
every closure of its signature reads (dispatch-closures then numbers them)."""

import io
import re
from pathlib import Path

import pytest

from nano_vx.cli import main

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.lift_closures import lift_closures
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "lift_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", lift_closures)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"lift-closures: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", lift_closures)


def test_captures_follow_the_parameters_and_a_closure_calling_one_passes_its_captures_on():
    after = run_front(CASES / "captures.vx", lift_closures).after
    fns = {i.name: i for i in after.items if i._prod == "Fn"}
    assert list(fns) == ["main", "main$closure0", "main$closure1"]
    assert [p.name for p in fns["main$closure0"].params] == ["n", "scale", "bias"]
    assert [p.name for p in fns["main$closure1"].params] == ["n#1", "scale", "bias"]
    assert "closure" not in to_text(fns["main"]).replace("main$closure", "")


def test_a_tensor_a_call_passes_before_it_is_bound_is_a_new_one_of_its_extents():
    main = _fns("tensor_not_yet_bound")["main"]
    assert "@print(g(1i32, Tensor<i32, [2], Memory::CPU_DRAM>::new()));" in to_text(main)


def _fns(case):
    after = run_front(CASES / f"{case}.vx", lift_closures).after
    return {i.name: i for i in after.items if i._prod == "Fn"}


def test_a_closure_value_names_its_function_and_a_call_through_it_passes_every_capture():
    fns = _fns("values")
    main_text = to_text(fns["main"])
    # add and mul are main's first two closures; g holds either, and a call through it passes
    # what both read.
    assert "let add: ~fn(i32, i32) -> i32 = @main$closure0;" in main_text
    assert "let mul: ~fn(i32, i32) -> i32 = @main$closure1;" in main_text
    assert "@print(g(1i32, k));" in main_text
    assert not any(name.startswith("main$call") for name in fns)
    # apply's parameter f reads k when it is called: apply is passed k.
    assert [p.name for p in fns["main$closure2"].params] == ["f", "x#2", "k"]


def test_a_variable_a_closure_assigns_or_lends_is_passed_by_reference():
    fns = _fns("assigning")
    assert to_text(fns["main$closure0"].params[1]).strip() == "total: &mut i32"
    assert "*total = *total +[i32] k;" in to_text(fns["main$closure0"])
    assert "let p: ~&mut i32 = total;" in to_text(fns["main$closure1"])
    assert "@main$closure0(4i32, &mut total);" in to_text(fns["main"])


def _run(path, *args):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(path), *args], stdout=out, stderr=err)
    return status, out.getvalue(), re.findall(r"\[([EW]\d{4})\]", err.getvalue())


def test_a_closure_passed_to_a_higher_order_closure_and_called_in_a_loop_runs_natively():
    native = _run(CASES / "values.vx")
    assert native == _run(CASES / "values.vx", "--action", "interpret")
    assert native == (0, "55\n21\n4\n3\n6\n5\n", [])  # no W5001: native code ran it


# Hand-written Lscalars: a function already named as main's first closure would be, a name
# with a `$` no Vx program can write. The closure takes the next free number, not a second
# function of that name.
LIFTED_NAME_TAKEN = """
    // IL: Lscalars
    fn main$closure0(x: i32) -> i32 {
        x *[i32] 100i32
    }

    fn main() -> void {
        let k: i32 = 1i32;
        let f: _ = |x: i32| -> i32 {
            x +[i32] k
        };
        @print(f(2i32));
        @print(@main$closure0(2i32));
    }
"""


def test_handwritten_a_lifted_name_already_taken(run_pass, snapshot_txt):
    ran = run_pass("lift-closures", LIFTED_NAME_TAKEN)
    assert ran.codes == []
    assert [item.name for item in ran.tree.items] == ["main$closure0", "main", "main$closure1"]
    assert _printed(ran.before) == _printed(ran.tree) == "3\n200\n"
    assert ran.dump == snapshot_txt


# Hand-written Lscalars: closure values of one signature, one of which reads a variable bound
# after the first call through the value (passed as a zero there: no closure reading it has
# been made yet); dispatch-closures' tests read the output, whose `main$call0` is taken.
DISPATCHER_NAME_TAKEN = """
    // IL: Lscalars
    fn main$call0() -> void {
    }

    fn main() -> void {
        let c: bool = true;
        let f: fn(i32) -> i32 = if c {
            |x: i32| -> i32 {
                x
            }
        } else {
            |y: i32| -> i32 {
                -[i32]y
            }
        };
        @print(f(2i32));
        let k: i32 = 10i32;
        let g: fn(i32) -> i32 = |z: i32| -> i32 {
            z +[i32] k
        };
        let h: fn(i32) -> i32 = g;
        @print(f(3i32));
        @print(h(4i32));
    }
"""


def test_handwritten_values_pass_what_their_signature_reads(run_pass, snapshot_txt):
    ran = run_pass("lift-closures", DISPATCHER_NAME_TAKEN)
    assert ran.codes == []
    assert [item.name for item in ran.tree.items] == [
        "main$call0", "main", "main$closure0", "main$closure1", "main$closure2"]
    assert _printed(ran.before) == _printed(ran.tree) == "2\n3\n14\n"
    assert "@print(f(2i32, 0i32))" in ran.dump and "@print(f(3i32, k))" in ran.dump
    assert ran.dump == snapshot_txt
