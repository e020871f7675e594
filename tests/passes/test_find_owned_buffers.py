"""find-owned-buffers: the tensor locals whose buffer each function owns, left for
insert-drops; a buffer that may be handed on is nobody's."""

from pathlib import Path

import pytest

from nano_vx.passes.find_owned_buffers import find_owned_buffers
from front import run_front

CASES = Path(__file__).parent / "cases" / "find_owned_buffers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def _owned(case: str) -> dict:
    ran = run_front(CASES / f"{case}.vx", find_owned_buffers)
    assert ran.after is ran.before  # an analysis: the tree is unchanged
    assert not ran.diagnostics.items
    return ran.ctx.owned_buffers


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", find_owned_buffers)
    assert ran.ctx.describe("owned_buffers") == snapshot_txt


def test_a_buffer_read_copied_lent_or_passed_to_a_call_that_may_return_it_stays_its_locals():
    owned = _owned("kept_or_handed_on")
    # passed too, its buffer held by back (not fresh, so it owns nothing), only read; named,
    # its buffer held by alias, which is only read; `made` is the inner copy
    # name-made-tensors named
    assert owned["main"] == {"read", "copied", "copy", "lent", "made", "named", "passed"}
    assert owned["total"] == owned["same"] == frozenset()  # a parameter is the caller's


def test_a_call_result_is_owned_when_the_callee_returns_only_buffers_it_made():
    owned = _owned("made_by_calls")
    # p, handed to `either`, whose result e may be p (e, which may be the fresh one `either`
    # made, owns nothing)
    assert owned["main"] == {"m", "a", "p"}
    assert owned["made"] == {"scratch"}  # `out` is returned: the caller's


def test_a_buffer_an_element_of_which_is_borrowed_is_owned_while_the_reference_is_read():
    # passed (to a place result), returned and through too, whose reference is handed to a
    # function returning one, the result read; named, its reference bound to another name
    # only read
    assert _owned("places")["main"] == {"lent", "written", "read", "named", "passed",
                                        "returned", "through"}


def test_a_buffer_lent_to_a_call_that_may_return_it_is_nobodys_once_the_result_may_outlive_it():
    owned = _owned("lent_to_calls")
    # not turn, whose result is read after the loop; cell, whose result is bound, is: it is
    # read no more when the cell is given a new buffer
    assert owned["main"] == {"at_once", "bound", "moved", "cell"}
    assert owned["grown"] == frozenset()  # the result is returned


def test_a_tensor_borrowed_whole_is_owned_unless_the_reference_is_handed_on_or_outlives_it():
    owned = _owned("borrowed_whole")
    # passed too, lent to `pick`, which returns a reference, read; m, as `moved` returns
    # only what it made, moved to another name on the way
    assert owned["main"] == {"a", "b", "g", "m", "outer", "passed", "read"}
    assert owned["grown"] == owned["moved"] == frozenset()  # returned, through a move too


def test_a_buffer_a_row_of_which_is_borrowed_is_owned_unless_the_row_is_returned():
    # returned too, whose row is lent to a function returning a reference, what it returns
    # read; written through a row of its row, read through an element of that; named,
    # whose row's reference is bound to another name, and held, whose rows a `let mut` is
    # made to refer to
    owned = _owned("rows")
    assert owned["main"] == {"read", "written", "named", "held", "returned"}
    assert owned["made"] == frozenset()  # a row of `own` is its result


def test_a_tensor_passed_to_a_function_returning_only_what_it_made_stays_the_callers():
    owned = _owned("made_in_cells")
    assert owned["main"] == {"lent", "s"}
    # `made` is handed on, through the cell `out`, which is read only by the `return`: it
    # owns the buffer it starts from, dropped where `made` replaces it, and returns the last
    assert owned["scaled"] == {"out"}


def test_a_cell_is_owned_when_each_tensor_it_is_given_is_fresh_and_not_made_from_its_own():
    # shared is, given keep, which only an element read reads before; not keep nor given,
    # whose buffers are shared's and taker's; moved is, as name-made-tensors has named the
    # copy on the way (`made`): the cell is given a copy of `made`, not one of its own (the
    # hand-written IL below keeps a cell made from its own)
    assert _owned("cells")["main"] == {"fresh", "shared", "taker", "moved", "made"}


def test_a_local_taking_a_cells_buffer_owns_it_and_the_cell_the_others():
    owned = _owned("taken_from_cells")
    # u and r take m's buffer (m read no more before it is given a new one); w and read are
    # not taken: v is read after read's `let`, so nothing of v is owned
    assert owned["main"] == {"m", "u", "r"}
    assert owned["rows"] == {"m", "r"}
    assert owned["kept"] == frozenset()  # r is returned: the cell may not drop what it took
    assert owned["second"] == frozenset()  # a parameter's row is the caller's


def test_a_local_an_element_of_which_is_lent_before_it_is_assigned_to_a_cell_stays_its_own():
    # The reference might outlive the statement: the buffer is not known to move whole, so
    # the cell does not own it; u does, the cell holding its buffer (read as u's).
    ran = run_front("fn main() {\n  let mut cell = Tensor<i32, [2]>::fill(1);\n"
                    "  let u = Tensor<i32, [2]>::fill(2);\n  {\n    let w = &u[0];\n"
                    "    print(*w);\n  }\n  cell = u;\n  print(cell[0]);\n}\n",
                    find_owned_buffers)
    assert ran.ctx.owned_buffers["main"] == {"u"}


# Hand-written Lcells: a local bound twice is never owned, nor one an `if` value may hand
# on; a cell given only fresh tensors is, unless the new one is made from the old.
BOUND_TWICE_AND_CHOSEN = """
    // IL: Lcells
    fn main(c: bool) -> void cells fresh, moved {
    bb0:
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        let a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3i32);
        let b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4i32);
        let chosen: Tensor<i32, [2], Memory::CPU_DRAM> = if c { a } else { b };
        let mut fresh: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(5i32);
        fresh = Tensor<i32, [2]>::fill(6i32);
        let mut moved: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(7i32);
        moved = transfer[sync, GPU_HBM -> CPU_DRAM (50), cost 50](transfer[sync, CPU_DRAM -> GPU_HBM (50), cost 50](moved, Memory::GPU_HBM), Memory::CPU_DRAM);
        let k: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(8i32);
        @print(t[0i32] +[i32] chosen[1i32] +[i32] fresh[0i32] +[i32] moved[1i32] +[i32] k[0i32]);
        return;
    }
"""


def test_handwritten_a_local_bound_twice_or_chosen_by_an_if_value(run_pass, snapshot_txt):
    ran = run_pass("find-owned-buffers", BOUND_TWICE_AND_CHOSEN)
    assert ran.codes == []
    assert ran.tree is ran.before
    assert ran.ctx.owned_buffers == {"main": {"fresh", "k"}}
    assert ran.dump + ran.ctx.describe("owned_buffers") == snapshot_txt


def test_a_buffer_asked_its_extents_stays_its_locals():
    assert _owned("extents_asked")["main"] == {"t", "u", "made"}


def test_a_tensor_printed_in_an_aggregates_literal_stays_its_locals():
    assert _owned("printed_in_literals")["main"] == {"r_data", "b_Full_0", "e_Full_0"}


def test_an_enum_built_in_a_variable_and_returned_is_its_callers():
    # the result is bound by the `let` of what it returns (bind-assigned-starts), which
    # hands on out_Ok_0's last buffer: the function owns none (drop-replaced-buffers drops
    # the start the `if` replaces), and the caller owns what each call returns
    owned = _owned("enum_built_in_a_variable_returned")
    assert owned["load"] == frozenset()
    assert {"agg_Ok_0", "agg_Ok_0#3", "r_Ok_0"} <= owned["main"]


# Hand-written Lcells: an enum built in a variable and returned through a result cell
# started at a buffer of its own: out_Ok_0's buffers dropped where it is given the next, its
# last taken by a local and passed on to ret_Ok_0, which returns it.
PASSED_TO_THE_RESULT_CELL = """
    // IL: Lcells
    fn load(k: i32, ret_tag: &mut i32) -> Tensor<i32, [?]> cells out_tag, out_Ok_0, ret_Ok_0 {
    bb0:
        let mut ret_Ok_0: Tensor<i32, [?]> = Tensor<i32, [?]>::new(Tensor<i32, [1]>([0i32]));
        let mut out_tag: i32 = 0i32;
        let mut out_Ok_0: Tensor<i32, [?]> = Tensor<i32, [?]>::new(Tensor<i32, [1]>([0i32]));
        branch k > 0i32, bb1, bb2;
    bb1:
        let agg: i32 = 1i32;
        let agg#2: Tensor<i32, [?]> = Tensor<i32, [?]>::fill(Tensor<i32, [1]>([k]), 1i32);
        out_tag = agg;
        out_Ok_0 = agg#2;
        goto bb2;
    bb2:
        let agg#4: ~i32 = out_tag;
        let agg#6: Tensor<i32, [?]> = out_Ok_0;
        *ret_tag = agg#4;
        ret_Ok_0 = agg#6;
        return ret_Ok_0;
    }
"""


def test_handwritten_a_cells_buffer_passed_on_to_the_result_cell_is_owned_by_both_cells(
        run_pass):
    ran = run_pass("find-owned-buffers", PASSED_TO_THE_RESULT_CELL)
    assert ran.codes == []
    assert ran.ctx.owned_buffers == {"load": {"out_Ok_0", "ret_Ok_0"}}
