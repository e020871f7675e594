"""check-constants: a `const` without a value, or one that depends on itself (E3044)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_constants import check_constants
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_constants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "no_value": ("E3044", "the constant 'LANES' has no value"),
    "cycle": ("E3044", "the constant 'ROWS' depends on itself: ROWS -> COLS -> TILE -> ROWS"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_constants)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == ([REFUSED[case][0]] if case in REFUSED else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_constants, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_constants)


def test_a_cycle_is_reported_once_whichever_constant_it_starts_from():
    text = "const A: i32 = B;\nconst B: i32 = A;\nconst C: i32 = C;\n\nfn main() { }\n"
    said = [d.message for d in run_front(text, check_constants).diagnostics.items]
    assert said == ["the constant 'A' depends on itself: A -> B -> A",
                    "the constant 'C' depends on itself: C -> C"]


def test_handwritten_cycle_through_an_undeclared_name(run_pass, snapshot_txt):
    # A const naming `@Z`, which no item declares: resolve-names refuses such a name first
    # (E2001). It is not a constant, so the cycle A -> B -> C -> A is reported alone.
    ran = run_pass("check-constants", """
        // IL: Lresolved
        const A: i32 = @B;
        const B: i32 = @C * 2;
        const C: i32 = @A + @Z;
        fn main() {}
    """)
    assert ran.codes == ["E3044"]
    assert ran.dump == snapshot_txt
