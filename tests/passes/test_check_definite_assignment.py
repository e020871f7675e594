"""check-definite-assignment: a variable declared without a value (`let x: T;`) read before
every path has assigned it is E4010."""

from pathlib import Path

import pytest

from nano_vx.passes.check_definite_assignment import check_definite_assignment
from front import (assert_judged, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_definite_assignment"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "if_without_else": ("E4010", "'x' is possibly uninitialised here: it is declared without a "
                                 "value at line 3, column 5"),
    "while_may_not_run": ("E4010", "'last' is possibly uninitialised here"),
    "match_case": ("E4010", "'name' is possibly uninitialised here"),
    "compound_read": ("E4010", "'total' is possibly uninitialised here"),
    "closure_read": ("E4010", "'k' is possibly uninitialised here"),
    "element_before_whole": ("E4010", "'pair' is possibly uninitialised here"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_definite_assignment, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_read_is_refused_and_the_repair_admitted(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_definite_assignment, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_the_message_names_the_declaration_and_is_said_once_per_variable():
    text = "fn main() {\n    let x: i32;\n    print(x);\n    print(x + 1);\n}\n"
    [diag] = run_front(text, check_definite_assignment).diagnostics.items
    assert diag.data == {"name": "x", "declared_at": {"line": 2, "column": 5}}
    assert (diag.span.line, diag.span.source.line_col(diag.span.start)[1]) == (3, 11)


def test_a_read_after_every_path_left_is_not_refused():
    text = "fn f(c: bool) -> i32 {\n    let x: i32;\n    if c { return 1; } else { return 2; }\n" \
           "    x\n}\nfn main() { print(f(true)); }\n"
    assert not run_front(text, check_definite_assignment).diagnostics.items


def test_a_let_shadows_a_declaration_only_in_its_block():
    inner = "fn main() {\n    let x: i32;\n    { let x = 1; print(x); }\n    print(x);\n}\n"
    [diag] = run_front(inner, check_definite_assignment).diagnostics.items
    assert diag.span.line == 4
    outer = "fn main() {\n    let x: i32;\n    let x = 1;\n    print(x);\n}\n"
    assert not run_front(outer, check_definite_assignment).diagnostics.items


def test_a_function_written_inside_another_sees_none_of_its_locals():
    text = "fn main() {\n    let x: i32;\n    fn g(x: i32) -> i32 { x }\n    x = g(2);\n" \
           "    print(x);\n}\n"
    assert not run_front(text, check_definite_assignment).diagnostics.items


def test_handwritten_a_read_after_a_loop_that_always_assigns(run_pass):
    # A `loop` (Lonefile still has it) runs its body at least once: what it assigns before
    # its `break` counts after it.
    ran = run_pass("check-definite-assignment", """
        // IL: Lonefile
        fn main() {
            let x: i32;
            loop {
                x = 4;
                break;
            }
            let y: i32;
            loop {
                if x > 3 {
                    break;
                }
                y = 1;
            }
            print(x + y);
        }
    """)
    assert ran.codes == ["E4010"]
