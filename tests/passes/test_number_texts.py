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


@pytest.mark.parametrize("case", NAMES)
def test_numbered_the_texts_print_natively(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_copy_is_an_alias_numbering_its_texts_as_the_local_it_copies():
    main = run_front(CASES / "copied.vx", number_texts).after.items[0]
    lets = {s.name: s.value for s in main.body.stmts if s._prod == "Let"}
    assert lets["kept"]._prod == "Int" and lets["again"]._prod == "Local"
    assert lets["kept"].value == 0 and lets["other"].value == 2  # "kept", "small", "other"


# A local holding a string that a closure returns: read other than by `print` or a copy;
# and so is the local it was copied from, whose copy is no number.
RETURNED = 'fn main() {\n  let s = "no";\n  let f = || s;\n  print(f());\n}\n'
COPIED = 'fn main() {\n  let s = "no";\n  let t = s;\n  let f = || t;\n  print(f());\n}\n'


@pytest.mark.parametrize("text", [RETURNED, COPIED], ids=["returned", "copied"])
def test_a_text_read_other_than_by_print_or_a_copy_stays_a_text(text, tmp_path):
    ran = run_front(text, number_texts)
    assert ran.after is ran.before
    path = tmp_path / "returned.vx"
    path.write_text(text)
    status, printed, err = run_cli(path)
    assert (status, printed) == (0, "no\n") and "warning[W5001]" in err


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
