"""move-printing-loop-conditions: a `while` whose condition prints a value a call computes is
a `while true` testing the condition first in its body, an `if` per operand of its `&&`s;
the program prints what it printed, natively too (number-texts binds its strings)."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.move_printing_loop_conditions import move_printing_loop_conditions
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "move_printing_loop_conditions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", move_printing_loop_conditions)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", move_printing_loop_conditions)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_loop_condition_prints_and_each_conjunct_is_tested_in_turn():
    ran = run_front(CASES / "printing_conditions.vx", move_printing_loop_conditions)
    loops = [n for n in ran.nodes() if n._prod == "While"]
    assert [w.cond._prod for w in loops] == ["Bool"] * 4
    firsts = [len([s for s in w.body.stmts if s._prod == "If" and s.orelse is not None and
                   [x._prod for x in s.orelse.stmts] == ["Break"]]) for w in loops]
    # the loop testing `j < 4 && ..` tests it in a `let` expand-lazy-conditions made
    assert sorted(firsts) == [0, 0, 1, 2]


# Hand-written Lsplit: a loop whose condition prints a number as written is left as it is;
# one printing what a call computes right of `||` is tested whole in its body.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mut i: i32 = 0;
        while @g(@print(3)) + i < 5 {
            i = i + 1;
        }
        while i < 5 || @g(@print(@f(i))) == 1 {
            i = i + 1;
        }
    }
"""


def test_handwritten_a_loop_printing_a_number_as_written_stays(run_pass, snapshot_txt):
    ran = run_pass("move-printing-loop-conditions", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("while true {") == 1 and "while @g(@print(3)) + i < 5 {" in ran.dump
    assert ran.dump == snapshot_txt
