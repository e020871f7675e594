"""drop-chosen-placeholders: the new tensor an arm of an `if` choosing an enum gives a part of a
variant it does not hold is dropped after the part's last read, apart from the other local's
buffer the part may hold; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.drop_chosen_placeholders import drop_chosen_placeholders
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_chosen_placeholders"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_chosen_placeholders)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_chosen_placeholders)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _made(case: str) -> dict:
    """Function -> its drops of the enum's parts, each as (production, name, kept)."""
    after = run_front(CASES / f"{case}.vx", drop_chosen_placeholders).after
    return {fn.name: [(s._prod, s.name, getattr(s, "kept", None)) for b in fn.blocks
                      for s in b.stmts if s._prod in ("Drop", "DropApart")
                      and s.name.startswith(("b_", "s_"))]
            for fn in after.items if fn._prod == "Fn"}


def test_the_part_is_dropped_apart_from_the_local_another_arm_gives_it():
    assert ("DropApart", "b_Full_0", "t") in _made("variant_or_empty")["main"]
    assert {d for d in _made("two_variants_carrying_a_tensor")["main"]
            if d[0] == "DropApart"} == {("DropApart", "s_Line_0", "t"),
                                        ("DropApart", "s_Two_0", "t")}


def test_a_part_holding_only_buffers_made_for_it_is_dropped():
    assert _made("payload_made_in_the_arm")["main"][-1] == ("Drop", "b_Full_0", None)


def test_a_part_a_turn_skips_the_read_of_is_dropped_on_its_way_too():
    for case in ("a_turn_skipping_the_read", "a_turn_skipping_the_read_of_an_outer_variable"):
        assert [d for d in _made(case)["main"] if d[0] == "DropApart"] == [
            ("DropApart", "b_Full_0", "t")] * 2


def test_a_part_matched_in_place_is_dropped_after_the_arms_local():
    after = run_front(CASES / "matched_in_place.vx", drop_chosen_placeholders).after
    main = next(i for i in after.items if i._prod == "Fn" and i.name == "main")
    arm = next(b for b in main.blocks if any(s._prod == "Let" and s.name == "u"
                                             for s in b.stmts))
    read = max(k for k, s in enumerate(arm.stmts) if _names(s, "u"))
    assert arm.stmts[read + 1]._prod == "DropApart"
    assert (arm.stmts[read + 1].name, arm.stmts[read + 1].kept) == ("b_Full_0", "t")


def test_a_part_moved_on_is_left():
    assert all(d[0] == "Drop" for d in _made("matched_in_place_moved_on")["main"])  # starts'


def _names(node, name: str) -> bool:
    return any(n._prod == "Local" and n.name == name for n in descendants(node))


# Hand-written Ldrops: the part is given t in one arm and a new tensor in the other, and
# read by one call after the join.
CHOSEN = """
    // IL: Ldrops
    fn first(b_Full_0: Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
    bb0:
        return b_Full_0[1i32];
    }

    fn main() -> void cells b_Full_0 {
    bb0:
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3i32);
        let mut b_Full_0: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::new();
        branch t[0i32] == 3i32, bb1, bb2;
    bb1:
        drop b_Full_0;
        b_Full_0 = t;
        goto bb3;
    bb2:
        let made: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::new();
        drop b_Full_0;
        b_Full_0 = made;
        goto bb3;
    bb3:
        @print(@first(b_Full_0));
        drop t;
        return;
    }
"""


def test_handwritten_a_part_given_a_local_or_a_new_tensor(run_pass, snapshot_txt):
    ran = run_pass("drop-chosen-placeholders", CHOSEN)
    assert ran.codes == []
    join = ran.tree.items[1].blocks[3]
    assert [s._prod for s in join.stmts] == ["ExprStmt", "DropApart", "Drop"]
    assert (join.stmts[1].name, join.stmts[1].kept) == ("b_Full_0", "t")
    assert to_text(ran.tree) == snapshot_txt
