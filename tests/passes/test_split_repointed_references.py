"""split-repointed-references: a `let mut` reference to an aggregate holding a tensor, made to
refer elsewhere by statements of its own block, through which a tensor may be assigned whole,
is a `let` per place it is given; one re-pointed in a nested block, or whose tensors are only
read or written by their elements, stays; the program prints what it printed, and native code
prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_repointed_references import split_repointed_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_repointed_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_repointed_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_repointed_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_place_a_reference_is_given_is_a_let_of_its_own():
    main = to_text(run_front(CASES / "tensor_holder_passed_on.vx",
                             split_repointed_references).after)
    assert "let mut" not in main.split("let mut b")[1].split("let mut o1")[0]
    assert "let r#1: ~&mut Grid = &mut b;" in main and "@reset(r#1, r#1.width);" in main
    assert "let q#2: ~&mut Outer = &mut o2;" in main and "u#3.0 = " in main


def test_a_reference_re_pointed_in_a_nested_block_or_only_indexed_stays():
    ran = run_front(CASES / "kept.vx", split_repointed_references)
    assert ran.after is ran.before


# Hand-written Lmatched: r is re-pointed at its block's level and passed on, so it is split,
# the read between the two assignments reading the first; s, whose tensor is only indexed,
# stays.
HANDWRITTEN = """
    // IL: Lmatched
    struct Grid {
        cells: Tensor<i32, [2]>,
        width: i32,
    }

    fn reset(g: &mut Grid) {
        g.cells = Tensor<i32, [2]>::fill(7);
    }

    fn main() {
        let mut a: Grid = Grid { cells: Tensor<i32, [2]>::fill(1), width: 1 };
        let mut b: Grid = Grid { cells: Tensor<i32, [2]>::fill(2), width: 2 };
        let mut r: &mut Grid = &mut a;
        @reset(r);
        @print(r.width);
        r = &mut b;
        @reset(r);
        let mut s: &mut Grid = &mut a;
        s.cells[0] = 3;
        s = &mut b;
        s.cells[1] = 4;
        @print(Grid { cells: a.cells, width: a.width });
        @print(Grid { cells: b.cells, width: b.width });
    }
"""


def test_handwritten_a_reference_passed_on_is_split_and_one_only_indexed_stays(
        run_pass, snapshot_txt):
    ran = run_pass("split-repointed-references", HANDWRITTEN)
    assert ran.codes == []
    assert "let r: &mut Grid = &mut a;" in ran.dump and "let r#1: &mut Grid = &mut b;" in ran.dump
    assert "@reset(r#1);" in ran.dump and "@print(r.width);" in ran.dump
    assert "let mut s: &mut Grid = &mut a;" in ran.dump and "s = &mut b;" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == \
        "1\nGrid { cells: [3, 7], width: 1 }\nGrid { cells: [7, 4], width: 2 }\n"
    assert ran.dump == snapshot_txt
