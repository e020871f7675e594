"""drop-made-flagged-results: the tensor a flagging function made, copied where its flag says
so, is dropped after the copy on that branch only; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_made_flagged_results import drop_made_flagged_results
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_made_flagged_results"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_made_flagged_results)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_made_flagged_results)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _drops(tree, fn: str) -> list:
    """Each block of the function `fn` of `tree` that drops a local, with the locals."""
    f = next(i for i in tree.items if i._prod == "Fn" and i.name == fn)
    return [(b.label, [s.name for s in b.stmts if s._prod == "Drop"]) for b in f.blocks
            if any(s._prod == "Drop" for s in b.stmts)]


def test_the_made_tensor_is_dropped_after_its_copy_on_the_flags_false_branch_only():
    ran = run_front(CASES / "made_or_lent_on_alternate_turns.vx", drop_made_flagged_results)
    assert _drops(ran.before, "wrap") == []
    ((label, names),) = _drops(ran.after, "wrap")
    assert names == ["agg#1"]
    wrap = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "wrap")
    blocks = {b.label: b for b in wrap.blocks}
    # the drop's block is reached from the copy loop's test alone, not from the flag's
    # true branch, and reads nothing of the tensor after it
    entry = wrap.blocks[0]
    assert label not in (entry.exit.then, entry.exit.orelse)
    assert [b.label for b in wrap.blocks if label in _targets(b.exit)] != [entry.label]
    assert "agg#1" not in to_text(blocks[label].exit)


def _targets(exit_) -> tuple:
    return (exit_.then, exit_.orelse) if exit_._prod == "Branch" else \
        (exit_.target,) if exit_._prod == "Goto" else ()


# Hand-written Ldrops: `made` sets its flag right before returning its parameter, `early`
# before a branch after which it may return a tensor it made: only the result of `made`,
# where its flag is false and once read, is dropped; `early`'s flag does not say which.
HANDWRITTEN = """
    // IL: Ldrops
    fn made(x: Tensor<i32, [2]>, k: i32, lent: &mut bool) -> Tensor<i32, [2]> {
    bb0:
        branch k >[i32] 1i32, bb1, bb2;
    bb1:
        return Tensor<i32, [2]>::fill(k);
    bb2:
        *lent = true;
        return x;
    }

    fn early(x: Tensor<i32, [2]>, k: i32, lent: &mut bool) -> Tensor<i32, [2]> {
    bb0:
        *lent = true;
        branch k >[i32] 1i32, bb1, bb2;
    bb1:
        return Tensor<i32, [2]>::fill(k);
    bb2:
        return x;
    }

    fn main(p: Tensor<i32, [2]>, k: i32) -> i32 cells f, g {
    bb0:
        let mut f: bool = false;
        let a: Tensor<i32, [2]> = @made(p, k, &mut f);
        branch f, bb1, bb2;
    bb1:
        goto bb3;
    bb2:
        let s: i32 = a[0i32];
        goto bb6;
    bb6:
        goto bb3;
    bb3:
        let mut g: bool = false;
        let b: Tensor<i32, [2]> = @early(p, k, &mut g);
        branch g, bb4, bb5;
    bb4:
        return 0i32;
    bb5:
        let t: i32 = b[1i32];
        goto bb7;
    bb7:
        return t;
    }
"""


def test_handwritten_only_a_result_its_flag_says_was_made_is_dropped(run_pass, snapshot_txt):
    ran = run_pass("drop-made-flagged-results", HANDWRITTEN)
    assert ran.codes == []
    # a, read in bb2 alone, at the start of bb6, which only bb2 reaches (not in bb3, which
    # the true branch reaches too); b, whose flag may be set where `early` made it, nowhere
    assert _drops(ran.tree, "main") == [("bb6", ["a"])]
    assert ran.dump == snapshot_txt


def test_the_made_tensor_read_where_the_ways_join_is_dropped_on_the_way_there():
    ran = run_front(CASES / "read_where_the_ways_join.vx", drop_made_flagged_results)
    before = next(i for i in ran.before.items if i._prod == "Fn" and i.name == "main")
    main = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main")
    blocks = {b.label: b for b in main.blocks}
    drops = [d for d in _drops(ran.after, "main") if d not in _drops(ran.before, "main")]
    # a block of its own after each way's last read, only the drop, going to a block the
    # ways of both arms of the `if` join at
    assert [names for _, names in drops] == [["q"], ["q"]]
    for label, _ in drops:
        assert label not in {b.label for b in before.blocks}
        assert len(blocks[label].stmts) == 1 and blocks[label].exit._prod == "Goto"
        join = blocks[label].exit.target
        assert sum(join in _targets(b.exit) for b in before.blocks) > 1
