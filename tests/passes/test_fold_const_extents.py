"""fold-const-extents: an extent naming an integer const is its number, so a tensor's size is
known to the capacity checks and to native code; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.fold_const_extents import fold_const_extents
from front import assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "fold_const_extents"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", fold_const_extents)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"fold-const-extents: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", fold_const_extents)


def test_extents_fold_through_consts_and_their_arithmetic():
    ran = run_front(CASES / "extents.vx", fold_const_extents)
    dims = {tuple(d.value for d in n.dims) for n in ran.nodes("TensorType")}
    assert dims == {(4,), (8, 5), (3,)}
    assert not list(ran.nodes("DimName")) and not list(ran.nodes("DimBinary"))


def test_a_local_of_the_same_name_is_not_the_const():
    ran = run_front("const n: i32 = 4;\nfn main() { let n = 2; let t = Tensor<i32, [n]>::new(); "
                    "print(t); }\n", fold_const_extents)
    assert [d.name for d in ran.nodes("DimName")] == ["n"]


def test_a_const_that_does_not_fold_to_a_positive_integer_stays_a_name():
    text = ("const Z: i32 = 1 - 1;\nconst F: f32 = 2.0;\nconst D: i32 = 4 / 0;\n"
            "fn main() { print(Z); }\n")
    ran = run_front(text, fold_const_extents)
    assert ran.after is ran.before or to_text(ran.after) == to_text(ran.before)
