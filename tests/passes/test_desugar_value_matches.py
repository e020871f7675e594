"""desugar-value-matches: a `match` on a number or a bool, where its value goes straight to a
place, is a variable and an `if` chain; a `match` on an enum stays; the program prints what
it printed."""

import textwrap
from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.resume.read import read_dump
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_value_matches import desugar_value_matches
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "desugar_value_matches"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_value_matches)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-value-matches: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_value_matches)


def test_only_a_match_on_an_enum_stays_one():
    numbers = run_front(CASES / "numbers_and_bools.vx", desugar_value_matches)
    # `match b { x => { let y = x + 1; y * 2 } }`: the one case joins the block.
    assert not list(numbers.nodes("MatchValue"))
    main = next(i for i in numbers.after.items if i.name == "main")
    assert [s.name for s in main.body.stmts if s._prod == "Let"][-4:] == \
        ["match#4", "x", "y", "k"]
    enum = run_front(CASES / "enum_stays.vx", desugar_value_matches)
    assert len(list(enum.nodes("MatchValue"))) == 1 and not list(enum.nodes("IfExpr"))


def test_the_scrutinee_is_evaluated_once():
    text = ("fn next(c: i32) -> i32 {\n  print(c);\n  c + 1\n}\n\n"
            "fn main() {\n  let r = match next(1) { 0 => 10, 1 => 20, _ => 30 };\n"
            "  print(r);\n}\n")
    ran = run_front(text, desugar_value_matches)
    assert ran.prints() == ("1\n30\n", "1\n30\n")


# Hand-written Ltyped: a local already named `match#1`, the name this pass gives a scrutinee;
# no program binds one (`match` is a keyword, and resolve-names never makes it). The pass
# took the name again, shadowing the local, and the program printed 4 instead of 7; it now
# takes the next free name.
NAME_TAKEN = """
    // IL: Ltyped
    fn main() {
        let match#1: i32 = 5;
        let r: i32 = match 2 {
            0 => {
                1
            },
            n => {
                match#1 + n
            },
        };
        @print(r);
    }
"""


def test_handwritten_the_scrutinee_takes_a_name_not_bound_yet(run_pass, snapshot_txt):
    ran = run_pass("desugar-value-matches", NAME_TAKEN)
    assert ran.codes == []
    assert [s.name for s in ran.tree.items[0].body.stmts[:3]] == ["match#1", "match#2", "r"]
    assert ran.dump == snapshot_txt
    assert _printed(ran.tree) == _printed(read_dump(textwrap.dedent(NAME_TAKEN).lstrip())[1]) \
        == "7\n"
