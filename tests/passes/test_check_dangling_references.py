"""check-dangling-references: a reference read after the variable it names has gone (E4005),
after the variable's block or on a loop's next turn, held by a variable, a struct's field or a
tuple's element of an outer block."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_dangling_references import check_dangling_references
from front import assert_refused_from_the_command_line, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "check_dangling_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "read_after_its_block": (
        "E4005", (11, "r"),
        "'a' does not live long enough: its block ends at 10:5, and 'r' still holds `&a` when "
        "it is read, at 11:11",
        "declare 'a' in the block of 'r' (or an outer one), or give 'r' a new value before the "
        "end of the block of 'a'"),
    "read_on_the_next_turn": (
        "E4005", (8, "r"),
        "'a' does not live long enough: its block ends at 12:5, and 'r' still holds `&a` when "
        "the next turn reads it, at 8:15",
        "declare 'a' in the block of 'r' (or an outer one), or give 'r' a new value before the "
        "end of the block of 'a'"),
    "field_read_on_the_next_turn": (
        "E4005", (15, "h"),
        "'a' does not live long enough: its block ends at 18:5, and 'h' still holds `&mut a` "
        "when the next turn reads it, at 15:15",
        "declare 'a' in the block of 'h' (or an outer one), or give 'h' a new value before the "
        "end of the block of 'a'"),
    "tuple_read_after_its_block": (
        "E4005", (10, "p"),
        "'a' does not live long enough: its block ends at 9:5, and 'p' still holds `&a` when "
        "it is read, at 10:11",
        "declare 'a' in the block of 'p' (or an outer one), or give 'p' a new value before the "
        "end of the block of 'a'"),
}
PRINTS = {"read_after_its_block": "1.5\n1.5\n", "read_on_the_next_turn": "1\n2\n3\n0\n",
          "field_read_on_the_next_turn": "0\n1\n2\n", "tuple_read_after_its_block": "1\n3\n"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_dangling_references)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-dangling-references: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_refusal_names_the_variable_gone_its_holder_and_the_read(case):
    code, where, message, help_ = REFUSED[case]
    ran = run_front(CASES / f"{case}.vx", check_dangling_references)
    [diag] = ran.diagnostics.items
    text = diag.span.source.text
    assert (diag.code, (diag.span.line, text[diag.span.start:diag.span.end])) == (code, where)
    assert (diag.message, diag.notes, diag.help) == (message, [], [help_])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repaired_programs_are_admitted_and_run(case):
    code, _, message, _ = REFUSED[case]
    assert_refused_then_repaired(CASES / f"{case}.vx", check_dangling_references, code, message)
    before, after = run_front(CASES / f"{case}_repaired.vx", check_dangling_references).prints()
    assert before == after == PRINTS[case]


def test_the_command_line_refuses_and_admits_the_repair(capsys):
    assert_refused_from_the_command_line(CASES / "read_on_the_next_turn.vx", "E4005", capsys)


def test_the_data_of_a_dangling_read_names_the_variable_its_holder_and_its_end():
    ran = run_front(CASES / "read_on_the_next_turn.vx", check_dangling_references)
    [diag] = ran.diagnostics.items
    assert diag.data == {"name": "a", "holder": "r", "ends": {"line": 12, "column": 5}}
    [label] = diag.labels
    assert (label.span.line, label.span.col, label.text) == (10, 13, "'a' borrowed here")


def _codes(body: str, prelude: str = "") -> list[tuple[str, int]]:
    ran = run_front(f"{prelude}fn main() {{\n{body}\n}}\n", check_dangling_references)
    return [(d.code, d.span.line) for d in ran.diagnostics.items]


FIRST = "fn first(t: &Tensor<i32, [2]>) -> &i32 { &t[0] }\n"
HOLDER = "struct Holder {\n    t: &i32,\n    n: i32,\n}\n"


@pytest.mark.parametrize("body,prelude,codes", [
    # A branch that re-points the reference does not end what the other left dangling.
    ("let x = 1;\nlet y = 2;\nlet mut r = &x;\nif x > 0 {\nlet a = 3;\nr = &a;\n} else {\n"
     "r = &y;\n}\nprint(*r);", "", [("E4005", 11)]),
    # A reborrow through a reference names what the reference names.
    ("let x = 1;\nlet mut r = &x;\n{\nlet a = 2;\nlet p = &a;\nr = &*p;\n}\nprint(*r);", "",
     [("E4005", 9)]),
    ("let x = 1;\nlet mut r = &x;\nlet a = 2;\n{\nlet p = &a;\nr = &*p;\n}\nprint(*r);", "", []),
    ("let t = Tensor<i32, [2]>::fill(1);\nlet mut r = &t[0];\n{\n"
     "let u = Tensor<i32, [2]>::fill(2);\nlet p = &u;\nr = &p[1];\n}\nprint(*r);", "",
     [("E4005", 9)]),
    ("print(look(&Tensor<i32, [2]>::fill(3)));",
     "fn look(t: &Tensor<i32, [2]>) -> i32 {\nlet mut r = &t[0];\n{\nlet p = t;\nr = &p[1];\n}\n"
     "{\nlet q = &*t;\nr = &q[0];\n}\n*r\n}\n", []),
    # A copy of a holder's reference field holds what the holder holds; a number field not.
    ("let x = 1;\nlet mut r = &x;\n{\nlet a = 2;\nlet h = Holder { t: &a, n: 3 };\nr = h.t;\n}\n"
     "print(*r);", HOLDER, [("E4005", 13)]),
    ("let mut n = 0;\n{\nlet a = 2;\nlet h = Holder { t: &a, n: 3 };\nn = h.n;\n}\nprint(n);",
     HOLDER, []),
    # A struct in a struct holds what its fields hold; a reference to a holder reaches it.
    ("let x = 1;\nlet mut o = (Holder { t: &x, n: 0 }, 1);\n{\nlet a = 2;\no.0.t = &a;\n}\n"
     "let h = o.0;\nprint(*h.t);", HOLDER, [("E4005", 12)]),
    ("let x = 1;\nlet mut h = Holder { t: &x, n: 0 };\nlet mut r = &x;\n{\nlet a = 2;\n"
     "h.t = &a;\nr = get(&h);\n}\nprint(*r);",
     HOLDER + "fn get(h: &Holder) -> &i32 {\nh.t\n}\n", [("E4005", 17)]),
    # A call returning a reference holds its argument's loan.
    ("let t = Tensor<i32, [2]>::fill(1);\nlet mut r = first(&t);\n{\n"
     "let u = Tensor<i32, [2]>::fill(2);\nr = first(&u);\n}\nprint(*r);", FIRST, [("E4005", 9)]),
    # A write through it is a read of the reference.
    ("let mut x = 1;\nlet mut r = &mut x;\n{\nlet mut a = 2;\nr = &mut a;\n}\n*r = 3;", "",
     [("E4005", 8)]),
    # A `continue` carries what it leaves dangling to the next turn, a `break` past the loop.
    ("let x = 1;\nlet mut r = &x;\nlet mut i = 0;\nwhile i < 3 {\nprint(*r);\ni += 1;\n{\n"
     "let a = i;\nr = &a;\nif i > 1 {\ncontinue;\n}\n}\nr = &x;\n}", "", [("E4005", 6)]),
    ("let x = 1;\nlet mut r = &x;\nlet mut i = 0;\nwhile i < 3 {\ni += 1;\nlet a = i;\n"
     "r = &a;\nif i > 1 {\nbreak;\n}\nr = &x;\n}\nprint(*r);", "", [("E4005", 14)]),
    # The next turn of an inner loop reads it, though the outer loop's turn re-points it.
    ("let x = 1;\nlet mut r = &x;\nfor i in 0..2 {\nr = &x;\nfor j in 0..2 {\nprint(*r);\n"
     "let a = j;\nr = &a;\n}\n}", "", [("E4005", 7)]),
    # Re-pointed before every read, on every way there.
    ("let x = 1;\nlet mut r = &x;\nfor i in 0..3 {\nif i > 1 {\nr = &x;\n} else {\nr = &x;\n}\n"
     "print(*r);\nlet a = i;\nr = &a;\nprint(*r);\n}", "", []),
    ("let x = 1;\nlet mut r = &x;\nfor i in 0..3 {\nprint(*r);\n{\nlet a = i;\nr = &a;\n"
     "print(*r);\n}\nr = &x;\n}\nprint(*r);", "", []),
    ("let x = 1;\nlet mut r = &x;\nfor i in 0..3 {\nlet a = i;\nr = &a;\nprint(*r);\n}\nr = &x;\n"
     "print(*r);", "", []),
    # A reference to a variable of its own block or an outer one.
    ("let x = 1;\nlet a = 2;\nlet mut r = &x;\n{\nr = &a;\n}\nprint(*r);", "", []),
    # A way that returns leaves nothing dangling after the `if`.
    ("let x = 1;\nlet mut r = &x;\nif x > 0 {\nlet a = 2;\nr = &a;\nprint(*r);\nreturn;\n}\n"
     "print(*r);", "", []),
])
def test_how_long_a_reference_may_be_read(body, prelude, codes):
    assert _codes(body, prelude) == codes


# Hand-written Lrouted: a match on a value, which desugar-value-matches writes as an `if`
# chain before this pass, whose value is a loan of a variable of an inner block: `r`, of the
# outer block, holds it when the block ends, and reading `r` after is E4005.
DANGLING_FROM_A_VALUE_MATCH = """
    // IL: Lrouted
    fn main() {
        let n: i32 = 1;
        let x: i32 = 0;
        let mut r: &i32 = &x;
        {
            let a: i32 = 2;
            r = match n {
                1 => {
                    &a
                },
                _ => {
                    &x
                },
            };
        }
        print(*r);
    }
"""


def test_handwritten_a_value_match_carries_a_loan_that_dangles(run_pass, snapshot_txt):
    ran = run_pass("check-dangling-references", DANGLING_FROM_A_VALUE_MATCH)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E4005", "'a' does not live long enough: its block ends at 16:5, and 'r' still holds "
                  "`&a` when it is read, at 17:12")]
    assert ran.dump == snapshot_txt
