"""drop-flagged-takers: a variable given both a tensor made for it and another local's
(flag-maybe-lent-tensors' taker) drops its own buffer where it is dead and its flag says so,
never the other's; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.backend.buffers import defines
from nano_vx.dump.text import to_text
from nano_vx.passes.drop_flagged_takers import drop_flagged_takers
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_flagged_takers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_flagged_takers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_flagged_takers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _fn(tree, name: str):
    return next(i for i in tree.items if i._prod == "Fn" and i.name == name)


def test_the_taker_is_dropped_where_its_flag_says_it_holds_its_own_buffer():
    ran = run_front(CASES / "lent_on_every_turn.vx", drop_flagged_takers)
    before, after = _fn(ran.before, "main"), _fn(ran.after, "main")
    assert "p_b" not in {s.name for b in before.blocks for s in b.stmts if s._prod == "Drop"}
    blocks = {b.label: b for b in after.blocks}
    dropping = [b for b in after.blocks if any(s._prod == "Drop" and s.name == "p_b"
                                               for s in b.stmts)]
    # one drop before `p_b = t;` (the new tensor the call did not fill), one after its last
    # read, each in a block of its own that only a branch on the flag reaches
    assert len(dropping) == 2
    flag = next(n for n in after.cells if n.startswith("p_b_owns"))
    for b in dropping:
        (way_in,) = [c for c in after.blocks if c.exit._prod == "Branch"
                     and b.label in (c.exit.then, c.exit.orelse)]
        assert way_in.exit.cond._prod == "Local" and way_in.exit.cond.name == flag
        assert way_in.exit.then == b.label
        assert blocks[b.label].stmts == (next(s for s in b.stmts if s._prod == "Drop"),)


# Hand-written Ldrops: x is given a tensor made for it, then, on one branch, t's, and read
# after; y too, but a `let` takes y's buffer; z is only ever given tensors made for it.
# Only x is flagged: dropped on the edge into bb1 (its own, replaced there) and after its
# last read, where its flag says the buffer is its own; t is not dropped through x.
HANDWRITTEN = """
    // IL: Ldrops
    fn main(k: i32) -> i32 cells x, y, z {
    bb0:
        let t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1i32);
        let mut x: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        let mut y: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        let mut z: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        z = Tensor<i32, [2]>::fill(2i32);
        branch k >[i32] 1i32, bb1, bb2;
    bb1:
        x = t;
        y = t;
        goto bb2;
    bb2:
        let s: i32 = x[0i32] +[i32] z[1i32];
        let q: Tensor<i32, [2]> = y;
        let r: i32 = q[1i32] +[i32] t[0i32];
        return s +[i32] r;
    }
"""


def test_handwritten_only_a_variable_given_its_own_and_another_buffer_is_flagged(
        run_pass, snapshot_txt):
    ran = run_pass("drop-flagged-takers", HANDWRITTEN)
    assert ran.codes == []
    main = _fn(ran.tree, "main")
    assert [n for n in main.cells if "owns" in n] == ["x_owns#0"]
    dropped = sorted(s.name for b in main.blocks for s in b.stmts if s._prod == "Drop")
    assert dropped == ["x", "x"]
    assert ran.dump == snapshot_txt


# The same x, which drop-chosen-placeholders already gives back apart from t (`drop x apart
# from t;`): which of the two buffers goes is that pass's, so x is not flagged, nor dropped
# again.
GIVEN_BACK_APART = HANDWRITTEN.replace(
    "        let q: Tensor<i32, [2]> = y;\n",
    "        drop x apart from t;\n        let q: Tensor<i32, [2]> = y;\n")


def test_handwritten_a_variable_a_drop_apart_names_is_left_to_that_drop(run_pass):
    assert "drop x apart from t;" in GIVEN_BACK_APART
    ran = run_pass("drop-flagged-takers", GIVEN_BACK_APART)
    assert ran.codes == []
    main = _fn(ran.tree, "main")
    assert [n for n in main.cells if "owns" in n] == []
    assert [s for b in main.blocks for s in b.stmts if s._prod == "Drop"] == []


# drop-replaced-buffers' drop before an assignment replacing x's own buffer is where that
# buffer ends: x is not dropped again there, only t's buffer's reads follow, and the new
# tensor the other branch gives is dropped after x's last read where the flag says so.
REPLACED = """
    // IL: Ldrops
    fn main(k: i32) -> i32 cells x {
    bb0:
        let t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1i32);
        let mut x: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        branch k >[i32] 1i32, bb1, bb2;
    bb1:
        drop x;
        x = t;
        goto bb3;
    bb2:
        drop x;
        x = Tensor<i32, [2]>::fill(2i32);
        goto bb3;
    bb3:
        let s: i32 = x[0i32] +[i32] t[1i32];
        return s;
    }
"""


def test_handwritten_a_drop_of_an_earlier_pass_ends_the_buffer(run_pass):
    ran = run_pass("drop-flagged-takers", REPLACED)
    assert ran.codes == []
    main = _fn(ran.tree, "main")
    blocks = {b.label: b for b in main.blocks}
    assert [s._prod for s in blocks["bb1"].stmts] == ["Drop", "Assign", "Assign", "Assign"]
    assert [s.value.value for s in blocks["bb1"].stmts[1::2]] == [False, False]
    drops = [b.label for b in main.blocks for s in b.stmts if s._prod == "Drop"]
    assert sorted(drops)[:2] == ["bb1", "bb2"] and len(drops) == 3
    (last,) = [b for b in main.blocks if b.label not in ("bb1", "bb2")
               and any(s._prod == "Drop" for s in b.stmts)]
    (way_in,) = [b for b in main.blocks if b.exit._prod == "Branch"
                 and last.label == b.exit.then]
    assert way_in.exit.cond.name == "x_owns#0"


# x is given its parameter's tensor, then on every turn a local's made just before in the
# same block and named nowhere else: that buffer is x's own (flag set), the parameter's is
# not; the `return` reading x computes its value into a `let` first, x dropped after it.
# y, given `early` on every turn, would hold one buffer twice: not one made for it, so not
# flagged.
MOVED_IN = """
    // IL: Ldrops
    fn run(p: Tensor<i32, [2]>, n: i32) -> i32 cells x, y, i {
    bb0:
        let mut x: Tensor<i32, [2]> = p;
        let mut y: Tensor<i32, [2]> = p;
        let mut i: i32 = 0i32;
        let early: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(3i32);
        goto bb1;
    bb1:
        branch i <[i32] n, bb2, bb3;
    bb2:
        let s: i32 = x[0i32] +[i32] y[1i32];
        let made: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(i);
        x = made;
        y = early;
        i = i +[i32] s;
        goto bb1;
    bb3:
        return x[1i32] +[i32] y[0i32];
    }
"""


def test_handwritten_a_tensor_moved_in_from_a_local_made_before_it_is_the_variables_own(
        run_pass, snapshot_txt):
    ran = run_pass("drop-flagged-takers", MOVED_IN)
    assert ran.codes == []
    run = _fn(ran.tree, "run")
    assert [n for n in run.cells if "owns" in n] == ["x_owns#0"]
    stmts = [s for b in run.blocks for s in b.stmts]
    dropped = [s.name for s in stmts if s._prod == "Drop"]
    assert dropped == ["x", "x"]
    # the flag's value right after each statement giving x a buffer
    assert [stmts[k + 1].value.value for k, s in enumerate(stmts) if "x" in defines(s)] == \
        [False, True]
    (ret,) = [b for b in run.blocks if b.exit._prod == "Return"]
    assert ret.exit.value._prod == "Local" and ret.exit.value.name.startswith("returned")
    assert ran.dump == snapshot_txt
