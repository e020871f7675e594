"""lower-matches: each `match` on an enum is an `if` chain testing its variant, its
patterns' names bound to what the variant carries; the program prints what it printed, and
native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.lower_matches import lower_matches
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "lower_matches"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", lower_matches)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "MatchValue" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", lower_matches)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_match_of_one_case_as_a_lets_value_joins_the_block():
    ran = run_front(CASES / "one_case.vx", lower_matches)
    lets = [s.name for s in ran.after.items[-1].body.stmts if s._prod == "Let"]
    assert lets[:3] == ["w", "x", "doubled"]


# Hand-written Lpinned: `|` of variants and a literal inside a variant, and a case after one
# that takes everything, which never runs and is dropped.
ALTERNATIVES = """
    // IL: Lpinned
    enum Step {
        Stay,
        Move(i32, i32),
    }

    fn main() {
        let s: Step = Step::Move(0, 3);
        match s {
            Step::Move(0, dy) => { @print(dy) },
            Step::Stay | Step::Move(1, _) => { @print(1) },
            _ => { @print(2) },
            Step::Move(a, b) => { @print(a + b) },
        }
    }
"""


def test_handwritten_alternatives_literals_and_an_unreachable_case(run_pass):
    ran = run_pass("lower-matches", ALTERNATIVES)
    assert ran.codes == []
    assert "s is Step::Stay || s is Step::Move && s.Step::Move.0 == 1" in ran.text
    assert "a + b" not in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "3\n"


# Hand-written Lpinned: a `match` on a call's value inside an expression, which
# name-temporaries would have held in a local first.
IN_PLACE = """
    // IL: Lpinned
    fn next(k: i32) -> i32 {
        k + 1
    }

    fn main() {
        @print(1 + (match @next(1) {
            2 => {
                20
            },
            _ => {
                0
            },
        }));
    }
"""


def test_handwritten_a_match_on_a_value_computed_in_place_is_refused(run_pass):
    ran = run_pass("lower-matches", IN_PLACE)
    assert ran.codes == ["E5010"]
    assert _printed(ran.before) == "21\n"
