"""choose-memory-cells: each function names the locals it assigns after their `let` or
borrows, which select-instructions keeps in cells."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.choose_memory_cells import choose_memory_cells
from front import assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "choose_memory_cells"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", choose_memory_cells)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"choose-memory-cells: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", choose_memory_cells)


def _cells(case: str) -> dict:
    after = run_front(CASES / f"{case}.vx", choose_memory_cells).after
    return {i.name: i.cells for i in after.items if i._prod == "Fn"}


def test_the_assigned_and_the_borrowed_in_the_order_first_met():
    assert _cells("cells") == {"bump": (), "count_down": ("m",), "main": ("x", "t", "k")}


def test_a_function_that_changes_nothing_has_no_cells():
    assert set(_cells("no_cells").values()) == {()}


# Hand-written Lstops: a parameter assigned (the front end refuses it in a program) and a
# local borrowed through `&*`: the parameter is a cell, the borrow of a dereference names
# no local.
A_PARAMETER_ASSIGNED = """
    // IL: Lstops
    fn next(n: i32, p: &i32) -> i32 {
    bb0:
        n = n +[i32] *p;
        let q: ~&i32 = &(*p);
        return n +[i32] *q;
    }
"""


def test_handwritten_a_parameter_assigned(run_pass, snapshot_txt):
    ran = run_pass("choose-memory-cells", A_PARAMETER_ASSIGNED)
    assert ran.codes == []
    assert ran.text.splitlines()[1] == "fn next(n: i32, p: &i32) -> i32 cells n {"
    assert ran.dump == snapshot_txt
