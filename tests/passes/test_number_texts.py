"""number-texts: a local holding one of its function's strings, only printed, holds the
number of its string, and each print of it is an `if` chain printing the strings; the
program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.number_texts import number_texts
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "number_texts"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", number_texts)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", number_texts)


def test_numbered_the_texts_print_natively():
    assert_native_as_interpreted(CASES / "texts.vx")


def test_a_text_read_other_than_by_print_stays_a_text():
    ran = run_front(CASES / "copied.vx", number_texts)
    assert ran.after is ran.before
    status, printed, err = run_cli(CASES / "copied.vx")
    assert (status, printed) == (0, "kept\n") and "warning[W5001]" in err


# Hand-written Lsplit: a string local assigned after its `let` and printed twice.
ASSIGNED = """
    // IL: Lsplit
    fn main() {
        let mut s: ~_ = "a";
        @print(s);
        s = if 1 < 2 {
            "b"
        } else {
            "a"
        };
        @print(s);
    }
"""


def test_handwritten_a_text_assigned_after_its_let(run_pass):
    ran = run_pass("number-texts", ASSIGNED)
    assert ran.codes == []
    assert '"b"' in ran.text and "s = if 1 < 2 {" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "a\nb\n"
