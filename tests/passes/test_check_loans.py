"""check-loans: conflicting loans (E4002, E4003), a lent variable changed or borrowed mutably
under a shared loan (E4004), each loan lasting lexically. A reference read after the variable
it names has gone (E4005) is check-dangling-references', a write through a shared reference
(E4006) check-shared-writes'."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_loans import check_loans
from front import assert_refused_from_the_command_line, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "check_loans"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "mutable_while_mutable": (
        "E4002", (5, "&mut total"),
        "cannot borrow 'total' as mutable: 'total' is already borrowed (mutable) at line 4, "
        "column 17",
        "the loan `&mut total` is held by 'first' until the end of its block, at 9:1",
        "end the loan `&mut total` before this: put it and the uses of 'first' in a block "
        "`{ .. }` of their own"),
    "mutable_while_shared": (
        "E4004", (5, "&mut total"),
        "cannot borrow 'total' as mutable: 'total' is already borrowed (shared) at line 4, "
        "column 17",
        "the loan `&total` is held by 'first' until the end of its block, at 8:1",
        "end the loan `&total` before this: put it and the uses of 'first' in a block "
        "`{ .. }` of their own"),
    "shared_while_mutable": (
        "E4003", (8, "&x"),
        "cannot borrow 'x' as shared: 'x' is already borrowed (mutable) at line 8, column 9",
        "the loan `&mut x` is lent to `add(&mut x, &x)` until it returns",
        "the loan `&mut x` ends when its call returns: do this after the call"),
    "assigned_while_borrowed": (
        "E4004", (5, "count"),
        "cannot assign to 'count': 'count' is already borrowed (shared) at line 4, column 16",
        "the loan `&count` is held by 'seen' until the end of its block, at 7:1",
        "end the loan `&count` before this: put it and the uses of 'seen' in a block `{ .. }` "
        "of their own"),
    "element_assigned_while_borrowed": (
        "E4004", (6, "pair.0"),
        "cannot assign to `pair.0`: 'pair.0' is already borrowed (shared) at line 5, column 17",
        "the loan `&pair.0` is held by 'first' until the end of its block, at 8:1",
        "end the loan `&pair.0` before this: put it and the uses of 'first' in a block `{ .. }` "
        "of their own"),
    "moved_while_borrowed": (
        "E4004", (9, "t"),
        "cannot move 't' into the call of 'consume': 't' is already borrowed (shared) at line "
        "8, column 16",
        "the loan `&t` is held by 'view' until the end of its block, at 11:1",
        "end the loan `&t` before this: put it and the uses of 'view' in a block `{ .. }` of "
        "their own"),
}
PRINTS = {"mutable_while_mutable": "5\n", "mutable_while_shared": "5\n",
          "shared_while_mutable": "2\n", "assigned_while_borrowed": "1\n2\n", "moved_while_borrowed": "1.5\n1.5\n",
          "element_assigned_while_borrowed": "1\n5\n"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_loans)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-loans: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_refusal_names_the_loan_in_the_way_and_how_long_it_lasts(case):
    code, where, message, note, help_ = REFUSED[case]
    ran = run_front(CASES / f"{case}.vx", check_loans)
    [diag] = ran.diagnostics.items
    text = diag.span.source.text
    assert (diag.code, (diag.span.line, text[diag.span.start:diag.span.end])) == (code, where)
    assert diag.message == message
    assert diag.notes == ([note] if note else [])
    assert diag.help == [help_]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repaired_programs_are_admitted_and_run(case):
    code, _, message, _, _ = REFUSED[case]
    assert_refused_then_repaired(CASES / f"{case}.vx", check_loans, code, message)
    before, after = run_front(CASES / f"{case}_repaired.vx", check_loans).prints()
    assert before == after == PRINTS[case]


@pytest.mark.parametrize("case", ["mutable_while_mutable", "mutable_while_shared"])
def test_the_command_line_refuses_and_admits_the_repair(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_the_loans_that_never_conflict_are_admitted():
    ran = run_front(CASES / "admitted.vx", check_loans)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.prints() == ("7\n36\n", "7\n36\n")


def test_the_loan_in_the_way_is_drawn_as_a_secondary_label_on_its_line():
    ran = run_front(CASES / "shared_while_mutable.vx", check_loans)
    [diag] = ran.diagnostics.items
    [label] = diag.labels
    assert (label.span.line, label.span.col, label.text) == (8, 9, "'x' borrowed here (mutable)")
    assert diag.render().splitlines()[1:7] == [
        " --> shared_while_mutable.vx:8:17",
        "  |",
        "8 |     add(&mut x, &x);",
        "  |         ------  ^^",
        "  |         |",
        "  |         'x' borrowed here (mutable)",
    ]


def test_the_data_of_a_conflict_names_the_variable_and_the_loan():
    ran = run_front(CASES / "mutable_while_shared.vx", check_loans)
    assert ran.diagnostics.items[0].data == {
        "name": "total", "borrowed_at": {"line": 4, "column": 17}, "loan": "shared"}


def _codes(body: str, prelude: str = "") -> list[tuple[str, int]]:
    ran = run_front(f"{prelude}fn main() {{\n{body}\n}}\n", check_loans)
    return [(d.code, d.span.line) for d in ran.diagnostics.items]


SETS = "fn set(p: &mut i32, q: &mut i32) { *p = 1; *q = 2; }\n"
LOOK = "fn look(p: &i32) -> i32 { *p }\n"
FIRST = "fn first(t: &Tensor<i32, [2]>) -> &i32 { &t[0] }\n"
KEEP = "fn keep(t: Tensor<i32, [2]>) -> i32 { t[0] }\n"


@pytest.mark.parametrize("body,prelude,codes", [
    # Two mutable loans passed to one call: the first lasts while the call runs.
    ("let mut x = 1;\nset(&mut x, &mut x);", SETS, [("E4002", 4)]),
    # Each call's loan ends when it returns.
    ("let mut x = 1;\nlet mut y = 2;\nset(&mut x, &mut y);\nset(&mut x, &mut y);", SETS, []),
    # A loan taken in a loop body ends with each iteration.
    ("let mut x = 1;\nfor i in 0..3 {\nlet p = &mut x;\n*p += i;\n}\nx = 0;", "", []),
    # A loan taken before a loop lasts through it.
    ("let mut x = 1;\nlet p = &x;\nfor i in 0..3 {\nx = i;\n}\nprint(*p);", "", [("E4004", 5)]),
    # Given another value, a reference variable lets go of what it held.
    ("let mut x = 1;\nlet mut y = 1;\nlet mut p = &mut x;\np = &mut y;\nx = 2;\n*p = 3;", "", []),
    ("let mut x = 1;\nlet mut p = &mut x;\n*p = 2;\np = &mut x;\n*p = 3;", "", []),
    # A copy of a reference holds its loans too.
    ("let mut x = 1;\nlet p = &x;\nlet q = p;\nx = 2;\nprint(*q);", "", [("E4004", 5)]),
    # A call that returns a reference keeps its argument's loan in the result.
    ("let mut t = Tensor<i32, [2]>::fill(1);\nlet r = first(&t);\nt[0] = 2;\nprint(*r);",
     FIRST, [("E4004", 5)]),
    # A call whose result is no reference lets go of its arguments' loans.
    ("let mut x = 1;\nlet n = look(&x);\nx = n + 1;\nprint(x);", LOOK, []),
    ("let mut x = 1;\nx = look(&x) + 1;", LOOK, []),
    # An `&mut` argument stands for a `&` parameter.
    ("let mut x = 1;\nprint(look(&mut x));", LOOK, []),
    # Reads of a lent variable are not refused, even of a mutably lent one.
    ("let mut x = 1;\nlet p = &mut x;\n*p = 5;\nprint(x);", "", []),
    # An element's loan is a loan of the whole tensor.
    ("let mut t = Tensor<i32, [2]>::fill(1);\nlet e = &mut t[0];\nlet f = &t[1];\n*e = 3;",
     "", [("E4003", 4)]),
    # A transfer of a lent tensor moves it: E4004.
    ("let t = Tensor<i32, [2]>::fill(1);\nlet v = &t;\nlet d = transfer(t, Memory::GPU_HBM);",
     "", [("E4004", 4)]),
    # A loan passed to a call lasts through the rest of its arguments: `keep(t)` moves t.
    ("let t = Tensor<i32, [2]>::fill(1);\nprint(look2(&t, t));",
     "fn look2(a: &Tensor<i32, [2]>, b: Tensor<i32, [2]>) -> i32 { a[0] + b[0] }\n",
     [("E4004", 4)]),
    ("let t = Tensor<i32, [2]>::fill(1);\nprint(first2(&t) + keep(t));",
     KEEP + "fn first2(t: &Tensor<i32, [2]>) -> i32 { t[0] }\n", []),
    # A temporary is lent to nothing: `&5` conflicts with nothing.
    ("let p = &mut 5;\n*p = 6;\nprint(*p);", "", []),
])
def test_how_long_a_loan_lasts(body, prelude, codes):
    assert _codes(body, prelude) == codes


def test_a_closure_and_a_spawn_body_are_checked_where_they_are_written():
    assert _codes("let mut x = 1;\nlet p = &x;\nlet f = |k: i32| { x = k; };\nprint(*p);") \
        == [("E4004", 4)]
    assert _codes("let mut x = 1;\nlet p = &x;\nlet v = spawn on(Topology::CPU) { x = 2; 0 };\n"
                  "print(*p);") == [("E4004", 4)]


def test_an_unrolled_body_is_refused_once_for_all_its_copies():
    ran = run_front("fn main() {\nlet mut x = 1;\nlet p = &x;\n"
                    "unroll across(Topology::NPU[0..2]) { |k|\nx = k;\n};\nprint(*p);\n}\n",
                    check_loans)
    [diag] = ran.diagnostics.items
    assert diag.code == "E4004" and diag.span.line == 5


# Hand-written Lrouted: a match on a value, which desugar-value-matches writes as an `if`
# chain before this pass, whose value is a loan: `r` holds it as it would an `if`'s.
LOAN_FROM_A_VALUE_MATCH = """
    // IL: Lrouted
    fn main() {
        let n: i32 = 1;
        let mut x: i32 = 0;
        let r: &mut i32 = match n {
            1 => {
                &mut x
            },
            _ => {
                &mut x
            },
        };
        let s: &mut i32 = &mut x;
        *r = 2;
    }
"""


def test_handwritten_a_value_match_carries_its_cases_loans(run_pass, snapshot_txt):
    ran = run_pass("check-loans", LOAN_FROM_A_VALUE_MATCH)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E4002", "cannot borrow 'x' as mutable: 'x' is already borrowed (mutable) at line 7, "
                  "column 13")]
    assert ran.dump == snapshot_txt


PARTS = """struct P {{ x: i32, y: i32 }}
struct S {{ v: i32, w: i32, p: P, t: Tensor<i32, [2]> }}

fn main() {{
    let mut s = S {{ v: 1, w: 2, p: P {{ x: 3, y: 4 }}, t: Tensor<i32, [2]>::fill(5) }};
    let a = {first};
    {then};
    print(a);
}}
"""


@pytest.mark.parametrize("first, then, code", [
    ("&mut s.v", "let b = &s.w", None),
    ("&mut s.p.x", "let b = &mut s.p.y", None),
    ("&s.p", "s.v = 7", None),
    ("&mut s.t", "s.p.x = 7", None),
    ("&mut s.v", "let b = &s", "E4003"),
    ("&mut s.p", "let b = &s.p.x", "E4003"),
    ("&mut s.t", "let b = &s.t[1]", "E4003"),
    ("&s", "let b = &mut s.v", "E4004"),
    ("&mut s.v", "let b = &mut s.v", "E4002"),
    ("&s.p.x", "s.p = P { x: 0, y: 0 }", "E4004"),
    ("&s.v", "s = S { v: 0, w: 0, p: P { x: 0, y: 0 }, t: Tensor<i32, [2]>::fill(0) }",
     "E4004"),
    ("&s.t", "s.t[0] = 9", "E4004"),
])
def test_loans_of_parts_of_a_variable_conflict_only_where_the_parts_overlap(first, then, code):
    ran = run_front(PARTS.format(first=first, then=then), check_loans)
    assert [d.code for d in ran.diagnostics.items] == ([code] if code else [])


MOVES = """fn keep(t: Tensor<i32, [2]>) -> i32 {{ t[0] }}
struct S {{ t: Tensor<i32, [2]>, u: Tensor<i32, [2]>, n: i32 }}

fn main() {{
    let mut s = S {{ t: Tensor<i32, [2]>::fill(1), u: Tensor<i32, [2]>::fill(2), n: 3 }};
    let mut t = Tensor<i32, [2]>::fill(4);
    let a = {first};
    {then};
    print(a[0]);
}}
"""


@pytest.mark.parametrize("first, then, code", [
    # A part that owns data moves (into a call, a `let`, an assignment) only while no loan
    # of it lasts: the loan would read what the move gave away.
    ("&mut s.t", "print(keep(s.t))", "E4004"),
    ("&s.t", "let v = s.t", "E4004"),
    ("&t", "let v = t", "E4004"),
    ("&t", "s.u = t", "E4004"),
    ("&s.t", "let v = s", "E4004"),
    ("&s.t", "let v = s.u", None),
    ("&mut s.t", "print(keep(s.u))", None),
    ("&s.t", "let v = s.n", None),
    ("&t", "let v = (t, 1)", "E4004"),
    ("&s.t", "let v = S { t: s.u, u: s.t, n: 1 }", "E4004"),
    ("&s.t", "let v = (s.u, s.n)", None),
])
def test_a_part_moves_only_while_no_loan_of_it_lasts(first, then, code):
    ran = run_front(MOVES.format(first=first, then=then), check_loans)
    assert [d.code for d in ran.diagnostics.items] == ([code] if code else [])
