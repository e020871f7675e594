"""number-texts: every string the program holds is the number of its text, numbered once for
the whole program, and each print of one a choice among the texts it may hold (a string a
call computes read from the variable bind-printed-strings bound it to); the program prints
what it printed, natively too. One it cannot number so is left as it was, and the gate
refuses its strings in their own words (tests/passes/test_bind_printed_strings.py)."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.number_texts import number_texts
from nano_vx.scalars import infer_program
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "number_texts"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
LOWERED = [name for name in NAMES if not name.startswith("e5010_")]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", number_texts)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", number_texts)


@pytest.mark.parametrize("case", LOWERED)
def test_numbered_the_texts_print_natively(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", LOWERED)
def test_the_gate_meets_no_string_but_as_written_in_a_print(case):
    ran = run_front(CASES / f"{case}.vx", number_texts)
    assert infer_program(ran.after).refused == {}
    decls = [n for n in ran.after.items if n._prod in ("StructDecl", "EnumDecl")]
    assert sum(n._prod == "NamedType" and n.name == "str" for n in ran.nodes()) == \
        sum(n._prod == "NamedType" and n.name == "str" for d in decls for n in descendants(d))


def test_the_texts_are_numbered_once_for_the_program():
    main = next(i for i in run_front(CASES / "parameters_and_results.vx",
                                     number_texts).after.items if i.name == "main")
    lets = {s.name: s.value for s in main.body.stmts if s._prod == "Let"}
    # "big", "small", "x": in the order they are first written, pick's before main's
    assert lets["name"]._prod == "Int" and lets["name"].value == 2


def test_a_print_chooses_among_the_texts_its_string_may_hold():
    text = to_text(run_front(CASES / "texts.vx", number_texts).after)
    # parity holds "even" or "odd", not the texts of size or last
    assert '@print(if parity == 0 {\n        "even"\n    } else {\n        "odd"\n    });' \
        in text
    text = to_text(run_front(CASES / "parameters_and_results.vx", number_texts).after)
    # pick's result meets name in chosen: one place, whose texts are "big", "small", "x"
    assert 'let text: ~_ = @pick(true);\n    @print(if text == 0 {' in text


def test_a_variant_not_taken_holds_an_empty_string_no_read_sees():
    text = to_text(run_front(CASES / "aggregates.vx", number_texts).after)
    assert "@say(0, " in text and '""' in text


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
    assert "s = if 1 < 2 {\n        1\n    } else {\n        0\n    };" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "a\nb\n"
