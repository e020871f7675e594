"""check-shared-writes: a write through a shared reference or a `*const` pointer (E4006), in
each spelling, or a `&mut` taken through one; writes through `&mut` and `*mut` are
admitted."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_shared_writes import check_shared_writes
from front import assert_refused_from_the_command_line, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "check_shared_writes"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
MESSAGE = ("cannot assign to `t[0]`: `t` is a shared reference (`&Tensor<f32, [4], "
           "Memory::CPU_DRAM>`), and writing needs `&mut`")


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_shared_writes)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-shared-writes: {case}") == snapshot_dot


def test_the_refusal_names_the_reference_and_the_type_a_write_needs():
    ran = run_front(CASES / "write_through_shared.vx", check_shared_writes)
    [diag] = ran.diagnostics.items
    text = diag.span.source.text
    assert (diag.code, (diag.span.line, text[diag.span.start:diag.span.end])) == \
        ("E4006", (3, "t[0]"))
    assert diag.message == MESSAGE
    assert diag.notes == []
    assert diag.help == ["take a mutable reference where `t` is made (`&mut ..`, of type "
                         "`&mut Tensor<f32, [4], Memory::CPU_DRAM>`)"]
    assert diag.data == {"reference": "t"}


def test_the_repaired_program_is_admitted_and_runs():
    assert_refused_then_repaired(CASES / "write_through_shared.vx", check_shared_writes,
                                 "E4006", MESSAGE)
    before, after = run_front(CASES / "write_through_shared_repaired.vx",
                              check_shared_writes).prints()
    assert before == after == "0\n"


def test_an_element_of_a_tuple_written_through_a_shared_reference_is_refused_as_a_field_is():
    message = ("cannot assign to `r.0`: `r` is a shared reference (`&(i32, i32)`), and writing "
               "needs `&mut`")
    assert_refused_then_repaired(CASES / "element_through_shared.vx", check_shared_writes,
                                 "E4006", message)
    before, after = run_front(CASES / "element_through_shared_repaired.vx",
                              check_shared_writes).prints()
    assert before == after == "0\n7\n"


def test_a_write_through_a_const_pointer_is_refused_at_each_place_it_writes():
    ran = run_front(CASES / "write_through_const_pointer.vx", check_shared_writes)
    said = [(d.code, d.span.line, d.message, d.help) for d in ran.diagnostics.items]
    pointer = "`p` is a `*const` pointer (`*const f32 in Memory::CPU_DRAM`)"
    help_ = ["take a `*mut` pointer where `p` is made (`.as_mut_ptr()`, of type `*mut f32`)"]
    assert said == [
        ("E4006", 4, f"cannot assign to `*p`: {pointer}, and writing needs `*mut`", help_),
        ("E4006", 10, f"cannot assign to `p[1]`: {pointer}, and writing needs `*mut`", help_)]
    before, after = run_front(CASES / "write_through_const_pointer_repaired.vx",
                              check_shared_writes).prints()
    assert before == after == "0.5\n2.5\n"


def test_the_command_line_refuses_and_admits_the_repair(capsys):
    assert_refused_from_the_command_line(CASES / "write_through_shared.vx", "E4006", capsys)


def test_the_writes_through_mutable_references_are_admitted():
    ran = run_front(CASES / "admitted.vx", check_shared_writes)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert ran.prints() == ("10\n", "10\n")


def _codes(body: str, prelude: str = "") -> list[tuple[str, int]]:
    ran = run_front(f"{prelude}fn main() {{\n{body}\n}}\n", check_shared_writes)
    return [(d.code, d.span.line) for d in ran.diagnostics.items]


@pytest.mark.parametrize("body,codes", [
    # Writing through a shared reference in any spelling, or borrowing mutably through one.
    ("let x = 1;\nlet p = &x;\n*p = 2;", [("E4006", 4)]),
    ("let x = 1;\nlet p = &x;\n*p += 2;", [("E4006", 4)]),
    ("let t = Tensor<i32, [2]>::fill(1);\nlet p = &t;\n(*p)[0] = 2;", [("E4006", 4)]),
    ("let x = 1;\nlet p = &x;\nlet q = &mut *p;", [("E4006", 4)]),
    ("let mut x = 1;\nlet p = &mut x;\nlet q = &p;\n**q = 2;", [("E4006", 5)]),
    ("let mut x = 1;\nlet p = &mut x;\nlet q = &mut p;\n**q = 2;", []),
    # A closure's parameter is typed as written.
    ("let f = |p: &i32| { *p = 2; };", [("E4006", 2)]),
    # Writing a variable of one's own is no write through a reference.
    ("let mut x = 1;\nlet p = &x;\nx = 2;", []),
    # An element is written through the reference as a field is, at any depth.
    ("let t = (1, (2, 3));\nlet p = &t;\np.1.0 = 2;", [("E4006", 4)]),
    ("let t = (1, (2, 3));\nlet p = &t;\n(*p).0 += 2;", [("E4006", 4)]),
    ("let mut t = (1, (2, 3));\nlet p = &mut t;\np.1.0 = 2;", []),
])
def test_a_write_needs_a_mutable_reference_on_its_way(body, codes):
    assert _codes(body) == codes


def test_a_result_that_is_a_shared_reference_is_not_written_through():
    prelude = "fn first(t: &Tensor<i32, [2]>) -> &i32 { &t[0] }\n"
    assert _codes("let t = Tensor<i32, [2]>::fill(1);\n*first(&t) = 2;", prelude) == \
        [("E4006", 4)]


def test_an_unrolled_body_is_refused_once_for_all_its_copies():
    ran = run_front("fn main() {\nlet x = 1;\nlet p = &x;\n"
                    "unroll across(Topology::NPU[0..2]) { |k|\n*p = k;\n};\n}\n",
                    check_shared_writes)
    [diag] = ran.diagnostics.items
    assert diag.code == "E4006" and diag.span.line == 5
    assert diag.notes == []


# Hand-written Lrouted, as infer-placement leaves it: each `let` with its type, which is all
# this check reads. `*(*q)` with `q: &&mut i32` is behind the `&`; `*(*r)` with `r: &mut &mut
# i32` has `&mut` all the way.
BEHIND_A_SHARED_REFERENCE = """
    // IL: Lrouted
    fn main() {
        let mut x: i32 = 0;
        let mut p: &mut i32 = &mut x;
        let q: &&mut i32 = &p;
        *(*q) = 2;
        let r: &mut &mut i32 = &mut p;
        *(*r) = 3;
    }
"""


def test_handwritten_a_write_behind_a_shared_reference_is_refused(run_pass, snapshot_txt):
    ran = run_pass("check-shared-writes", BEHIND_A_SHARED_REFERENCE)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E4006", "cannot assign to `*(*q)`: `q` is a shared reference (`&&mut i32`), and "
                  "writing needs `&mut`")]
    assert ran.dump == snapshot_txt
