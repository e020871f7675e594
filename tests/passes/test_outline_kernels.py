"""outline-kernels: each `spawn on` body becomes a kernel function, launched with what it
captures; the program prints what it printed."""

import io
from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.outline_kernels import outline_kernels
from nano_vx.oracle.interpreter import run_program
from nano_vx.values.stops import RuntimeStop
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "outline_kernels"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", outline_kernels)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"outline-kernels: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", outline_kernels)


def kernels(case: str) -> dict:
    after = run_front(CASES / f"{case}.vx", outline_kernels).after
    return {item.name: item for item in after.items if "$kernel" in item.name}


def test_a_kernel_receives_what_its_body_uses_in_order_of_first_use_typed_as_declared():
    [kernel] = kernels("captures").values()
    assert [p.name for p in kernel.params] == ["out", "dev"]
    assert [p.type.place.name for p in kernel.params] == ["GPU_HBM", "GPU_HBM"]
    assert kernel.on.name == "GPU"


def test_inner_spawns_are_outlined_first_and_a_loop_counter_is_passed_untyped():
    found = kernels("nested")
    assert list(found) == ["stage$kernel0", "stage$kernel1"]
    outer = found["stage$kernel1"]
    assert [(p.name, p.type is None) for p in outer.params] == [
        ("data", False), ("i", True), ("n", False)]
    [launch] = [s.expr for s in outer.body.stmts if s._prod == "ExprStmt"
                and s.expr._prod == "Launch"]
    assert (launch.kernel, [a.name for a in launch.args]) == ("stage$kernel0", ["data", "n"])


@pytest.mark.parametrize("case, params, args", [
    ("assigned", ["n: &mut i32"], "(&mut n)"),
    ("compound_assigned", ["n: &mut i32"], "(&mut n)"),
    ("written_in_a_loop", ["sum: &mut i32", "last: &mut i32",
                           "t: Tensor<i32, [4], Memory::CPU_DRAM>"], "(&mut sum, &mut last, t)"),
    ("lent_mut", ["n: &mut i32"], "(&mut n)"),
    ("written_by_a_closure_it_calls", ["count: _", "n: &mut i32"], "(count, &mut n)"),
    ("written_through_a_pointer", ["p: *mut i32 in Memory::CPU_DRAM", "n: &mut i32"],
     "(p, &mut n)"),
])
def test_a_kernel_is_given_a_mut_of_each_launcher_variable_its_body_changes(case, params, args):
    """The spawn's body ran in the launching frame: what it assigns, lends `&mut`, or a
    closure it calls assigns, the kernel writes through a `&mut` of the launcher's; a tensor
    whose elements alone it writes, or a pointer it writes through, is given as it is (the
    launch shares the buffer)."""
    text = to_text(run_front(CASES / f"{case}.vx", outline_kernels).after)
    assert f"fn main$kernel0({', '.join(params)}) on Topology::" in text
    assert f"launch main$kernel0 on(Topology::CPU){args}" in text


def test_an_inner_kernel_is_given_the_outer_kernels_reference():
    text = to_text(run_front(CASES / "written_by_a_nested_spawn.vx", outline_kernels).after)
    assert "launch main$kernel1 on(Topology::CPU)(&mut n)" in text
    assert "launch main$kernel0 on(Topology::CPU)(n)" in text
    assert "fn main$kernel0(n: &mut i32) on Topology::CPU {\n    *n = *n * 3;" in text


def test_no_spawn_is_left():
    after = run_front(CASES / "values.vx", outline_kernels).after
    assert "spawn" not in to_text(after) and to_text(after).count("launch ") == 3


def _stop(tree) -> tuple:
    """Where and why the interpreter stops running tree: (code, place, message)."""
    with pytest.raises(RuntimeStop) as stopped:
        run_program(tree, out=io.StringIO())
    return stopped.value.code, str(stopped.value.span), stopped.value.message


@pytest.mark.parametrize("case, place", [("closure_moving_before_its_launch", ":8:28"),
                                         ("closure_moving_after_its_launch", ":8:28"),
                                         ("moved_in_the_body_read_by_a_closure", ":6:21"),
                                         ("moved_by_a_closure_of_the_body", ":6:21"),
                                         ("moved_by_an_inner_spawn", ":7:21"),
                                         ("assigned_then_moved_read_by_a_closure", ":7:21"),
                                         ("assigned_then_moved_by_an_inner_spawn", ":7:21"),
                                         ("assigned_then_moved_by_an_inner_spawn_assigning_it",
                                          ":8:21"),
                                         ("assigned_then_moved_on_one_path", ":6:21")])
def test_a_kernel_moves_the_launchers_variable(case, place):
    """A move in the kernel, or by a closure it is given, moves the launching frame's `t`, as
    the spawn's body did: the program stops where it stopped, at the closure's `transfer` or
    at a closure's read after the launch, not at the launch and not never. So does a
    `transfer(*t, ..)` of the `&mut t` a kernel is lent because its body also assigns `t`."""
    ran = run_front(CASES / f"{case}.vx", outline_kernels)
    code, at, message = _stop(ran.before)
    assert (code, at[at.index(":"):]) == ("E9004", place)
    assert _stop(ran.after) == (code, at, message)


# Hand-written Lscheduled: a function already named as main's first kernel would be, a name
# with a `$` no Vx program can write. The kernel takes the next free number, not a second
# function of that name.
KERNEL_NAME_TAKEN = """
    // IL: Lscheduled
    fn main$kernel0() {
        @print(1);
    }

    fn main() {
        let t: Tensor<i32, [2], Memory::GPU_HBM> = Tensor<i32, [2]>::fill(7);
        spawn on(Topology::GPU) {
            @print(t[0]);
        };
        @main$kernel0();
    }
"""


def test_handwritten_a_kernel_name_already_taken(run_pass, snapshot_txt):
    ran = run_pass("outline-kernels", KERNEL_NAME_TAKEN)
    assert ran.codes == []
    assert [item.name for item in ran.tree.items] == ["main$kernel0", "main", "main$kernel1"]
    assert _printed(ran.before) == _printed(ran.tree) == "7\n1\n"
    assert ran.dump == snapshot_txt


def test_a_name_a_pattern_binds_in_the_body_is_no_capture():
    assert [[p.name for p in k.params] for k in kernels("match_binding_in_the_body").values()] \
        == [["n"], ["n"], ["n"]]
