"""name-row-temporaries: a tensor no variable names, a row of which a statement takes first of
all it computes, is bound to a local before the statement; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_row_temporaries import name_row_temporaries
from front import assert_native_as_interpreted, assert_prints_the_same, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "name_row_temporaries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
REFUSED = CASES / "e5010_row_of_a_temporary_after_a_variable_a_call_may_change.vx"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_row_temporaries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_row_temporaries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_tensor_a_row_of_which_is_taken_is_named_and_no_other():
    ran = run_front(CASES / "rows_of_temporaries.vx", name_row_temporaries)
    named = [s for s in ran.nodes() if s._prod == "Let" and s.name.startswith("made#")]
    assert len(named) == 10
    assert not [n for n in ran.nodes() if n._prod == "Index" and n.base._prod == "Call"]
    for case in (CASES / "kept_in_order.vx", REFUSED):
        kept = run_front(case, name_row_temporaries)
        assert kept.after == kept.before


def test_a_row_after_a_variable_a_call_may_change_runs_in_the_interpreter_saying_why():
    status, printed, err = run_cli(REFUSED)
    assert "does not lower a row of a tensor no variable names used other than printed" in \
        " ".join(err.split())
    assert (status, printed) == run_cli(REFUSED, "--action", "interpret")[:2]
    assert_native_as_interpreted(REFUSED.with_name(REFUSED.stem + "_repaired.vx"))


# Hand-written Lsplit: the row of a constructor after a variable a closure assigns stays (the
# call may change it); one after a literal and a variable nothing changes is named, in the
# arm of the `if` value it is in, and in a `return`.
HANDWRITTEN = """
    // IL: Lsplit
    fn total(a: i32, r: &Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
        a + r[0]
    }

    fn main() -> i32 {
        let mut n: i32 = 1;
        let k: i32 = 2;
        let bump: ~_ = || {
            n = n + 1;
        };
        @print(@total(n, &Tensor<i32, [2, 2]>::fill(3)[1]));
        let c: bool = k > 1;
        let v: i32 = if c {
            @total(k, &Tensor<i32, [2, 2]>::fill(4)[0])
        } else {
            0
        };
        return @total(7, &Tensor<i32, [2, 2]>::fill(5)[1]);
    }
"""


def test_handwritten_a_variable_a_call_may_change_keeps_the_tensor_in_place(run_pass,
                                                                           snapshot_txt):
    ran = run_pass("name-row-temporaries", HANDWRITTEN)
    assert ran.codes == []
    assert "&Tensor<i32, [2, 2]>::fill(3)[1]" in ran.dump
    assert ran.dump.count("let made") == 2
    assert ran.dump == snapshot_txt
