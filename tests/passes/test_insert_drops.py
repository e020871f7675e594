"""insert-drops: each tensor a function owns is dropped where it is dead (after its last read,
on the way out of a branch, before a `return`), and one whose buffer may be handed on never."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.nanopass.verify import descendants
from nano_vx.passes.insert_drops import insert_drops
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "insert_drops"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", insert_drops)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"insert-drops: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", insert_drops)


def _dropped(case: str) -> dict:
    """Function -> the locals it drops, each as often as it is dropped."""
    after = run_front(CASES / f"{case}.vx", insert_drops).after
    return {fn.name: sorted(s.name for b in fn.blocks for s in b.stmts if s._prod == "Drop")
            for fn in after.items if fn._prod == "Fn"}


def _blocks(case: str, fn: str) -> dict:
    after = run_front(CASES / f"{case}.vx", insert_drops).after
    f = next(i for i in after.items if i._prod == "Fn" and i.name == fn)
    return {b.label: b for b in f.blocks}


def test_every_way_out_of_a_turn_drops_what_the_turn_made():
    # the end of the turn, `continue`, `break` (with the tensor made before the loop), and
    # the tensor made before the loop where the loop ends by its condition
    assert _dropped("loops")["main"] == ["before", "before", "row", "t", "t", "t", "unused"]


def test_a_buffer_handed_to_a_call_that_may_return_it_is_dropped_after_the_result():
    dropped = _dropped("moves")
    assert dropped["main"] == ["back", "dev", "host", "kept"]  # not again nor alias
    assert dropped["sum"] == dropped["same"] == []  # a parameter is the caller's


def test_a_tensor_lent_to_a_call_that_may_return_it_dies_after_the_results_last_read():
    dropped = _dropped("lent_to_calls")
    assert dropped["main"] == ["at_once", "bound", "later", "passed", "whole", "written"]
    assert dropped["grown"] == []  # made is returned, through `kept`
    turn = next(b for b in _blocks("lent_to_calls", "main").values()
                if any(s._prod == "Drop" for s in b.stmts))
    last_read = {}  # a dropped local -> the locals the statement before its drop reads
    for before, s in zip(turn.stmts, turn.stmts[1:]):
        if s._prod == "Drop":
            last_read[s.name] = last_read.get(before.name) if before._prod == "Drop" else {
                n.name for n in descendants(before) if n._prod == "Local"}
    assert {"r", "q"} <= last_read["bound"] == last_read["passed"]  # the results read
    assert "at_once" in last_read["at_once"] and "v" in last_read["whole"]


def test_a_tensor_a_row_of_which_is_lent_to_a_call_that_may_return_it_is_dropped():
    assert _dropped("lent_rows")["main"] == ["m", "n"]


def test_a_return_computes_its_value_before_dropping_what_it_reads():
    blocks = _blocks("returns", "first_positive")
    early = next(b for b in blocks.values() if b.exit._prod == "Return")
    assert [s._prod for s in early.stmts] == ["Let", "Drop"]
    assert early.exit.value.name == early.stmts[0].name
    # a function returning only buffers it made: its caller owns the result
    assert _dropped("returns")["made"] == ["scratch"] and _dropped("returns")["main"] == ["m"]


def test_a_tensor_variable_given_a_new_tensor_drops_the_one_it_held():
    # and v: name-made-tensors has named the copy made on the way, `made`, so the cell is
    # given a tensor made from `made`, not from its own (dropped after the copy reads it);
    # w, given `grown(w)`, is given `made#1`, which read its old tensor last
    assert _dropped("reassigned")["main"] == ["made", "t", "t", "u", "u", "v", "v", "w", "w"]


def test_a_local_taking_a_cells_buffer_drops_it_and_the_cell_does_not():
    dropped = _dropped("taken_from_cells")
    assert dropped["main"] == ["m", "r", "u"] and dropped["rows"] == ["m", "r"]
    turn = _blocks("taken_from_cells", "main")["bb2"]
    assert [s._prod for s in turn.stmts] == ["Let", "Let", "Assign", "Assign", "Drop"]
    assert turn.stmts[-1].name == "u"  # after its last read, not after m's


def test_a_tensor_variable_held_by_a_local_read_no_more_when_it_is_given_the_next_drops_each():
    # not n, a row of which is read after n is given a new tensor: that buffer leaks
    assert _dropped("held_cells")["main"] == ["m", "m"]
    turn = _blocks("held_cells", "main")["bb2"]
    assert [s._prod for s in turn.stmts][-2:] == ["Drop", "Assign"]  # after c's and x's reads


def test_a_drop_on_an_edge_into_a_block_with_other_ways_in_gets_a_block_of_its_own():
    blocks = _blocks("branches", "pick")
    entry = next(iter(blocks.values()))
    edge = blocks[entry.exit.orelse]
    assert [s._prod for s in edge.stmts] == ["Drop"] and edge.exit._prod == "Goto"


# Hand-written Lcells: a tensor read only by a branch's condition dies on both edges out of
# the branch (the join after has another way in, so one edge gets a block), a local bound
# twice is never owned, and a cell given only fresh tensors is owned as a local is.
READ_BY_A_BRANCH = """
    // IL: Lcells
    fn main() -> void cells c {
    bb0:
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let mut c: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3i32);
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        goto bb1;
    bb1:
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        branch t[0i32] == 1i32, bb2, bb3;
    bb2:
        @print(u[1i32]);
        goto bb3;
    bb3:
        @print(c[0i32]);
        return;
    }
"""


def test_handwritten_a_tensor_read_by_a_branch(run_pass, snapshot_txt):
    ran = run_pass("insert-drops", READ_BY_A_BRANCH)
    assert ran.codes == []
    fn = ran.tree.items[0]
    drops = {b.label: [s.name for s in b.stmts if s._prod == "Drop"] for b in fn.blocks}
    assert drops == {"bb0": [], "bb1": [], "bb2": ["t"], "bb3": ["c"], "bb4": ["t"]}
    assert fn.blocks[1].exit.orelse == "bb4" and fn.blocks[4].exit.target == "bb3"
    assert ran.dump == snapshot_txt


def test_a_tensor_bound_to_no_local_is_named_and_dropped_when_its_taker_cannot_keep_it():
    # the arguments of `sum` and the transfer borrowed (named `borrowed` already, by
    # name-borrowed-temporaries, the last after `said(acc)` is held in a local of its own),
    # the inner copy and what it copies, the one an element of which is read; not the
    # argument of `same`, nor the one a row of which is printed
    assert _dropped("temporaries")["main"] == ["borrowed", "borrowed#1", "borrowed#2",
                                               "borrowed#3", "d", "made", "made#1", "made#2",
                                               "t", "u"]


def test_a_tensor_an_element_of_which_is_borrowed_is_dropped_after_the_reference():
    body = _blocks("borrowed_elements", "main")["bb4"].stmts
    assert [s._prod for s in body[-4:]] == ["Assign", "Drop", "Drop", "Assign"]
    assert {s.name for s in body[-3:-1]} == {"m", "t"}  # after `*w` and `*r` are read


def test_a_tensor_a_row_of_which_is_borrowed_is_dropped_after_the_row_and_its_places():
    turn = next(b for b in _blocks("borrowed_rows", "main").values()
                if any(s._prod == "Drop" for s in b.stmts)).stmts
    # after `total(r)` and `*e` are read, in the turn that made t
    assert [s._prod for s in turn[-4:]] == ["Assign", "Drop", "Drop", "Assign"]
    assert {s.name for s in turn[-3:-1]} == {"other", "t"}
    assert_native_as_interpreted(CASES / "borrowed_rows.vx")


def test_a_tensor_borrowed_whole_is_dropped_after_the_last_read_of_what_holds_it():
    assert _dropped("borrowed_whole")["main"] == ["a", "a", "b", "b"]  # `continue`, the end
    holders = {"a", "b", "r", "c", "p"}
    for blk in _blocks("borrowed_whole", "main").values():
        stmts = [s._prod for s in blk.stmts]
        if "Drop" not in stmts:
            continue
        after = blk.stmts[stmts.index("Drop"):]
        assert not any(n._prod == "Local" and n.name in holders
                       for s in after if s._prod != "Drop" for n in descendants(s))
        before = [n.name for s in blk.stmts[:stmts.index("Drop")] for n in descendants(s)
                  if n._prod == "Local"]
        assert "c" in before  # the `if`'s reference, read last on both ways


def test_a_struct_field_given_a_tensor_read_nowhere_else_owns_it():
    dropped = _dropped("struct_fields")
    assert dropped["moved"] == ["h_t", "h_t"]  # the one it held, then the one it was given


def test_a_field_a_function_assigns_whole_drops_the_buffer_the_call_replaces():
    dropped = _dropped("assigned_fields")
    assert dropped["main"] == ["h_t", "h_t", "h_t"]  # before each call's result, and at the end
    assert dropped["reset"] == dropped["bump"] == []  # the field's tensor given is the caller's
