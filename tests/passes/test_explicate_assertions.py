"""explicate-assertions: each `assert` ends its block in a branch to the rest of the block or
to a block that stops with E9002."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.explicate_assertions import explicate_assertions
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "explicate_assertions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", explicate_assertions)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"explicate-assertions: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", explicate_assertions)


def test_each_assert_is_a_branch_to_a_stop_and_every_jump_names_a_block():
    ran = run_front(CASES / "asserts.vx", explicate_assertions)
    before = sum(1 for n in ran.before.items if n._prod == "Fn" for b in n.blocks
                 for s in b.stmts if s._prod == "Assert")
    stops = list(ran.nodes("Stop"))
    assert before == len(stops) == 5 and not list(ran.nodes("Assert"))
    assert {s.code for s in stops} == {"E9002"}
    assert "assertion failed: i stays below n" in {s.message for s in stops}
    for fn in (i for i in ran.after.items if i._prod == "Fn"):
        labels = [b.label for b in fn.blocks]
        assert len(set(labels)) == len(labels)
        for b in fn.blocks:
            for f in ("target", "then", "orelse"):
                if f in b.exit._fields:
                    assert getattr(b.exit, f) in labels


def test_a_program_without_an_assert_comes_out_as_it_went_in():
    ran = run_front(CASES / "none.vx", explicate_assertions)
    assert ran.after is ran.before


# Hand-written Lblocks, labels out of order and a loop back to the block holding the assert:
# the new blocks take labels after the largest, and a jump to the block still reaches the
# code before its assert.
LOOP_BACK_TO_AN_ASSERT = """
    // IL: Lblocks
    fn main() -> void {
    bb7:
        let mut i: i32 = 0i32;
        goto bb3;
    bb3:
        i = i + 1i32;
        assert(i < 3i32, "i stays small");
        @print(i);
        branch i < 5i32, bb3, bb0;
    bb0:
        return;
    }
"""


def test_handwritten_a_loop_back_to_a_block_holding_an_assert(run_pass, snapshot_txt):
    ran = run_pass("explicate-assertions", LOOP_BACK_TO_AN_ASSERT)
    assert ran.codes == []
    assert "    branch i < 3i32, bb9, bb8;\nbb8:\n    stop E9002, \"assertion failed: i stays " \
           "small\";\nbb9:\n    @print(i);\n    branch i < 5i32, bb3, bb0;\n" in ran.text
    printed = "1\n2\nstopped: E9002: assertion failed: i stays small\n"
    assert _printed(ran.before) == _printed(ran.tree) == printed
    assert ran.dump == snapshot_txt
