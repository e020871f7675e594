"""check-aggregate-function-values: a function taking or returning a struct, tuple or enum
named other than as a callee is refused with E5010 (the default action then runs the program
in the interpreter, with W5001); the tree is unchanged."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_aggregate_function_values import check_aggregate_function_values
from front import assert_refused_then_repaired, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "check_aggregate_function_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
REFUSED = sorted(p.stem for p in CASES.glob("e5010_*.vx") if not p.stem.endswith("_repaired"))
WHAT = "a function taking or returning an aggregate used as a value"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_aggregate_function_values)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.after is ran.before
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", REFUSED)
def test_a_function_of_aggregates_used_as_a_value_is_refused_then_repaired(case, snapshot_txt):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_aggregate_function_values,
                                 "E5010", WHAT)
    [diag] = run_front(CASES / f"{case}.vx", check_aggregate_function_values).diagnostics.items
    assert f"{diag.span.source.line_col(diag.span.start)}: {diag.message}" == snapshot_txt
    # the default action runs it in the interpreter, after W5001
    status, printed, err = run_cli(CASES / f"{case}.vx")
    assert (status, printed) == run_cli(CASES / f"{case}.vx", "--action", "interpret")[:2]
    assert "warning[W5001]" in err


# Hand-written Lmatched: the same function called by name and bound whole, in one function,
# after another function that only calls it: the call is lowered, the value is refused, and
# the refusal names the function holding the value.
CALLED_AND_BOUND = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn mk(a: i32) -> P {
        P { x: a, y: a }
    }

    fn calls() -> i32 {
        let q: P = @mk(2);
        q.y
    }

    fn main() {
        let p: P = @mk(1);
        let g: ~_ = @mk;
        @print(p.x + @calls());
    }
"""


def test_handwritten_a_function_called_and_bound_is_refused_where_it_is_bound(run_pass):
    ran = run_pass("check-aggregate-function-values", CALLED_AND_BOUND)
    assert ran.codes == ["E5010"]
    [diag] = ran.diagnostics.items
    assert WHAT in diag.message and "(in 'main')" in diag.message
    assert ran.tree is ran.before
