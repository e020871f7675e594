"""drop-last-buffers: the buffers a function's tensor locals hand among themselves are dropped
before its `return`, once each; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_last_buffers import drop_last_buffers
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_last_buffers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_last_buffers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_last_buffers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _last(case: str) -> list:
    """The locals main drops just before its `return`, after the last other statement."""
    after = run_front(CASES / f"{case}.vx", drop_last_buffers).after
    main = next(i for i in after.items if i._prod == "Fn" and i.name == "main")
    end = next(b for b in main.blocks if b.exit._prod == "Return")
    last = len(end.stmts)
    while last and end.stmts[last - 1]._prod == "Drop":
        last -= 1
    return [s.name for s in end.stmts[last:]]


def test_each_buffer_handed_around_is_dropped_once_at_the_end():
    assert _last("swapped_in_a_loop") == ["p_a", "p_b"]
    assert _last("rotated_in_a_loop") == ["t_a", "t_b", "t_c"]
    assert _last("handed_on_from_a_borrow") == ["p_a", "p_b"]  # not result, p_a's


def test_a_local_that_may_hold_another_ones_buffer_is_not_dropped_beside_it():
    assert _last("chosen_by_an_if") == ["t", "u"]
    assert _last("row_bound") == []


# Hand-written Ldrops: `second` returns its second parameter; a and b swap through it, and b
# is dropped by insert-drops' edge before the end on one way (then a alone is dropped).
SWAPPED = """
    // IL: Ldrops
    fn second(x: Tensor<i32, [2], Memory::CPU_DRAM>, y: Tensor<i32, [2], Memory::CPU_DRAM>) -> Tensor<i32, [2], Memory::CPU_DRAM> {
    bb0:
        return y;
    }

    fn main() -> void cells a, b {
    bb0:
        let mut a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let mut b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        let held: Tensor<i32, [2], Memory::CPU_DRAM> = a;
        a = @second(a, b);
        b = held;
        branch a[0i32] == 2i32, bb1, bb2;
    bb1:
        drop held;
        goto bb2;
    bb2:
        @print(a[0i32]);
        return;
    }
"""


def test_handwritten_a_swap_and_a_drop_on_one_way(run_pass, snapshot_txt):
    ran = run_pass("drop-last-buffers", SWAPPED)
    assert ran.codes == []
    end = ran.tree.items[1].blocks[2]
    assert [s.name for s in end.stmts if s._prod == "Drop"] == ["a"]
    assert to_text(ran.tree) == snapshot_txt


def test_a_tensor_an_element_of_which_is_returned_by_reference_is_not_dropped():
    after = run_front(CASES / "element_reference_returned.vx", drop_last_buffers).after
    wide = next(i for i in after.items if i._prod == "Fn" and i.name == "wide")
    assert not [s for b in wide.blocks for s in b.stmts if s._prod == "Drop"]


def test_the_buffer_a_call_did_not_pick_is_dropped_apart_from_its_result():
    after = run_front(CASES / "chosen_by_an_if.vx", drop_last_buffers).after
    main = next(i for i in after.items if i._prod == "Fn" and i.name == "main")
    apart = [(s.name, s.kept) for b in main.blocks for s in b.stmts if s._prod == "DropApart"]
    assert apart == [("w", "t"), ("v", "t")]


# Hand-written Ldrops: `pick` returns one of its two parameters; `held` holds a's buffer and
# is read after the call, so only b is dropped apart from the result there.
PICKED = """
    // IL: Ldrops
    fn pick(x: Tensor<i32, [2], Memory::CPU_DRAM>, y: Tensor<i32, [2], Memory::CPU_DRAM>, k: i32) -> Tensor<i32, [2], Memory::CPU_DRAM> {
    bb0:
        branch k > 0i32, bb1, bb2;
    bb1:
        return x;
    bb2:
        return y;
    }

    fn main() -> void {
    bb0:
        let a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        let held: Tensor<i32, [2], Memory::CPU_DRAM> = a;
        let c: Tensor<i32, [2], Memory::CPU_DRAM> = @pick(a, b, 1i32);
        @print(held[0i32] +[i32] c[1i32]);
        return;
    }
"""


def test_handwritten_a_pick_beside_a_holder_read_after(run_pass, snapshot_txt):
    ran = run_pass("drop-last-buffers", PICKED)
    assert ran.codes == []
    stmts = ran.tree.items[1].blocks[0].stmts
    assert [(s.name, s.kept) for s in stmts if s._prod == "DropApart"] == [("b", "c")]
    assert [s.name for s in stmts if s._prod == "Drop"] == ["a"]
    assert to_text(ran.tree) == snapshot_txt
