"""drop-replaced-buffers: a buffer of its own that a tensor variable insert-drops does not drop
holds, only its elements used, is dropped just before an assignment replaces it; native code
runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_replaced_buffers import drop_replaced_buffers
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_replaced_buffers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_replaced_buffers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_replaced_buffers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _drops(tree, fn: str) -> list:
    """The locals the function `fn` of `tree` drops, in order."""
    f = next(i for i in tree.items if i._prod == "Fn" and i.name == fn)
    return [s.name for b in f.blocks for s in b.stmts if s._prod == "Drop"]


def test_each_arm_of_an_enum_an_if_chooses_drops_the_starts_it_replaces():
    # one drop per part per arm: three arms, three tensor parts
    ran = run_front(CASES / "enum_chosen_by_an_if.vx", drop_replaced_buffers)
    added = [name for name in _drops(ran.after, "main") if name.startswith("b_")]
    assert sorted(added) == sorted(["b_Full_0", "b_Two_0", "b_Two_1"] * 3)
    assert not any(name.startswith("b_") for name in _drops(ran.before, "main"))


def test_a_field_assigned_whole_again_drops_the_tensor_it_replaces():
    # the first and second tensors, and each turn's of the loop but the last; never the
    # caller's, which cells#1 starts at
    ran = run_front(CASES / "field_assigned_twice.vx", drop_replaced_buffers)
    assert _drops(ran.after, "twice") == ["cells#1", "cells#1"]
    assert ran.ctx.owned_buffers["twice"] == frozenset()


def test_a_result_started_at_a_new_tensor_is_dropped_on_each_way_out():
    ran = run_front(CASES / "result_returned_from_several_ways.vx", drop_replaced_buffers)
    assert _drops(ran.after, "pick") == ["ret_t"] * 3


# Hand-written Ldrops: a variable given tensors of its own and, once, a parameter's (so
# insert-drops owns none of its buffers): each buffer of its own replaced goes, but one lent
# to a call, one a local takes, and the parameter's.
HANDWRITTEN = """
    // IL: Ldrops
    fn total(t: Tensor<i32, [2]>) -> i32 {
    bb0:
        return t[0i32] +[i32] t[1i32];
    }

    fn main(c: bool, p: Tensor<i32, [2]>) -> i32 cells x {
    bb0:
        let mut x: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        x[0i32] = 1i32;
        let k: i32 = x[0i32] +[i32] x.extent[i32](0);
        x = Tensor<i32, [2]>::fill(k);
        let s: i32 = @total(x);
        x = Tensor<i32, [2]>::fill(2i32);
        let u: Tensor<i32, [2]> = x;
        x = p;
        branch c, bb1, bb2;
    bb1:
        x = Tensor<i32, [2]>::fill(3i32);
        goto bb2;
    bb2:
        x = Tensor<i32, [2]>::fill(4i32);
        return x[0i32] +[i32] s +[i32] u[1i32];
    }
"""


def test_handwritten_only_a_buffer_of_its_own_used_by_its_elements_is_dropped(
        run_pass, snapshot_txt):
    ran = run_pass("drop-replaced-buffers", HANDWRITTEN)
    assert ran.codes == []
    main = next(i for i in ran.tree.items if i._prod == "Fn" and i.name == "main")
    before = {b.label: [s._prod == "Drop" for s in b.stmts] for b in main.blocks}
    # the start, written and read by elements, before `x = fill(k)`; none before the
    # assignment after the call, after the `let` taking x, after the parameter, nor in bb2,
    # which a way without bb1 reaches holding p
    assert _drops(ran.tree, "main") == ["x"]
    assert before["bb0"].index(True) == 3
    assert ran.dump == snapshot_txt
