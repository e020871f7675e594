"""halt-closure-prints: a `print` of a closure, or of two compared, is the interpreter's stop
there (E9006); native code stops with its message as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_native_subset import check_native_subset
from nano_vx.passes.halt_closure_prints import halt_closure_prints
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_cli, run_front)

CASES = Path(__file__).parent / "cases" / "halt_closure_prints"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", halt_closure_prints)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", halt_closure_prints)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_closure_printed_or_compared_is_a_stop_and_a_number_printed_is_not():
    halts = [n for n in run_front(CASES / "printed.vx", halt_closure_prints).nodes()
             if n._prod == "Halt"]
    assert [(n.code, n.message) for n in halts] == [
        ("E9006", "cannot print a value of type closure"),
        ("E9006", "cannot apply '==' to closure and closure"),
        ("E9006", "cannot apply '!=' to closure and closure"),
        ("E9006", "cannot print a value of type closure")]


def test_a_closure_chosen_or_returned_by_a_maker_is_held_by_its_variable():
    halts = [n for n in run_front(CASES / "chosen.vx", halt_closure_prints).nodes()
             if n._prod == "Halt"]
    assert [(n.code, n.message, n.span.line) for n in halts] == [
        ("E9006", "cannot print a value of type closure", 19),
        ("E9006", "cannot print a value of type closure", 23)]


def test_a_comparison_a_statement_computes_first_is_the_stop_and_false_after_it():
    text = to_text(run_front(CASES / "compared.vx", halt_closure_prints).after)
    assert "halt \"E9006\", \"cannot apply '==' to closure and closure\";\n" \
        "        let same: ~bool = false;" in text
    assert "halt \"E9006\", \"cannot apply '!=' to closure and closure\";\n" \
        "        if false && k > 0 {" in text
    assert "halt \"E9006\", \"cannot apply '!=' to closure and closure\";\n" \
        "    while false {" in text


def test_a_closure_an_if_chooses_in_the_print_is_bound_first_then_the_stop():
    text = to_text(run_front(CASES / "chosen_in_the_print.vx", halt_closure_prints).after)
    assert "    let printed#1: ~_ = if k > 1 {\n        f\n    } else {\n        g\n    };\n" \
        "    halt \"E9006\", \"cannot print a value of type closure\";\n}" in text
    assert "        let printed: ~_ = if k > 4 {" in text


def test_a_closure_parameter_printed_is_a_stop_after_the_print_before_it():
    text = to_text(run_front(CASES / "closure_parameter_printed.vx", halt_closure_prints).after)
    assert "@print(y);\n        halt \"E9006\", \"cannot print a value of type closure\";\n" \
        "        h(y)" in text
    assert run_cli(CASES / "closure_parameter_printed.vx")[:2] == (1, "1\n")


def test_a_parameter_of_an_assigned_made_or_passed_closure_printed_is_a_stop():
    for case in ("assigned_closure_parameter_printed", "made_closure_parameter_printed",
                 "closure_argument_parameter_printed"):
        text = to_text(run_front(CASES / f"{case}.vx", halt_closure_prints).after)
        assert "halt \"E9006\", \"cannot print a value of type closure\";\n" in text
        assert "@print(h)" not in text


def test_a_parameter_given_a_closure_a_tuple_holds_printed_is_a_stop():
    text = to_text(run_front(CASES / "parameter_given_a_tuples_closure_printed.vx",
                             halt_closure_prints).after)
    assert "@print(y);\n        halt \"E9006\", \"cannot print a value of type closure\";" in text


def test_a_function_printed_or_compared_is_a_stop_naming_a_function():
    halts = [(n.message, n.span.line) for n in
             run_front(CASES / "function_printed.vx", halt_closure_prints).nodes()
             if n._prod == "Halt"]
    assert halts == [("cannot print a value of type function", line) for line in (12, 15, 21, 26)]
    compared = [n.message for n in
                run_front(CASES / "function_or_closure_compared.vx", halt_closure_prints).nodes()
                if n._prod == "Halt"]
    assert "cannot apply '!=' to function and function" in compared
    assert {"cannot apply '==' to function and function",
            "cannot apply '==' to closure and function"} <= set(compared)


def test_a_function_chosen_with_a_closure_is_flagged_and_the_stop_names_what_it_holds():
    text = to_text(run_front(CASES / "function_chosen_with_a_closure_printed.vx",
                             halt_closure_prints).after)
    assert "let mut f_is_function: ~bool = false;\n        let f: ~_ = if i % 2 == 0 {\n" \
        "            f_is_function = true;\n            @add\n" in text
    assert "if f_is_function {\n                halt \"E9006\", \"cannot print a value of type " \
        "function\";\n            } else {\n                halt \"E9006\", \"cannot print a value " \
        "of type closure\";" in text
    # g, an `if` assigning it followed by the rest, is one kind in each arm's copy
    assert "halt \"E9006\", \"cannot print a value of type closure\";\n" \
        "            }\n        };\n        show(2);" in text
    assert "halt \"E9006\", \"cannot print a value of type function\";\n" \
        "            }\n        };\n        show#2(2);" in text
    assert run_cli(CASES / "function_chosen_with_a_closure_printed.vx")[:2] == (
        1, "3\n-2\n5\n9\n7\n147\n")


def test_a_function_assigned_a_closure_in_a_loop_is_flagged_where_it_is_assigned():
    case = CASES / "function_assigned_a_closure_in_a_loop_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert "let mut g_is_function: ~bool = true;\n    let mut g: ~_ = @sub;" in text
    assert "g_is_function = false;\n            g = |a: i32" in text
    assert "let mut h_is_function: ~bool = g_is_function;" in text
    assert run_cli(case)[:2] == (1, "-3\n-2\n7\n147\n")


def test_a_parameter_given_a_function_and_a_closure_in_copies_of_its_closure_is_stopped():
    # copy-closures-per-argument-kind gave the closure a copy per kind: each print is a stop.
    case = CASES / "parameter_given_a_function_and_a_closure_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert text.count("cannot print a value of type closure") == 1
    assert text.count("cannot print a value of type function") == 1
    assert "show_function(@add, 1);" in text
    native = run_cli(case)
    assert "W5001" not in native[2] and "cannot print a value of type closure" in native[2]


def test_a_parameter_given_another_parameter_every_call_gives_a_function_stops_natively():
    case = CASES / "parameter_given_a_parameter_and_a_closure_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert text.count("cannot print a value of type closure") == 1
    assert text.count("cannot print a value of type function") == 1
    native = run_cli(case)
    assert "W5001" not in native[2] and "cannot print a value of type closure" in native[2]
    assert native == run_cli(case, "--action", "interpret")


def test_a_parameter_given_a_parameter_given_both_kinds_printed_stops_natively():
    # the closure handing its parameter on is copied per kind, then the one it hands it to
    # per kind those copies give
    case = CASES / "parameter_given_a_parameter_given_both_kinds_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert "show_closure(g#1, y#2)" in text
    native = run_cli(case)
    assert "W5001" not in native[2] and "cannot print a value of type function" in native[2]
    assert native == run_cli(case, "--action", "interpret")


def test_a_parameter_given_a_variable_assigned_both_kinds_printed_stops_natively():
    # each assignment of the variable is a `let` of a variable of its own
    case = CASES / "parameter_given_a_variable_assigned_both_kinds_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert "show_closure(g#1, 2)" in text
    native = run_cli(case)
    assert "W5001" not in native[2] and "cannot print a value of type closure" in native[2]
    assert native == run_cli(case, "--action", "interpret")


def test_a_parameter_given_a_variable_an_if_assigns_both_kinds_printed_stops_natively():
    # the call after the `if` is copied into each arm, where the assignment is a `let`
    case = CASES / "parameter_given_a_variable_an_if_assigns_both_kinds_printed.vx"
    text = to_text(run_front(case, halt_closure_prints).after)
    assert "show_closure(g#1, 2)" in text
    native = run_cli(case)
    assert "W5001" not in native[2] and "cannot print a value of type closure" in native[2]
    assert native == run_cli(case, "--action", "interpret")


def test_a_parameter_given_a_variable_an_if_in_a_loop_assigns_both_kinds_stays_refused():
    case = CASES / "e5010_parameter_given_a_variable_an_if_in_a_loop_assigns_both_kinds_printed.vx"
    assert_refused_then_repaired(case, check_native_subset, "E5010", "printing a closure")
    native = run_cli(case)
    assert "W5001" in native[2] and "cannot print a value of type closure" in native[2]
    assert native[:2] == run_cli(case, "--action", "interpret")[:2]
    assert_native_as_interpreted(CASES / "e5010_parameter_given_a_variable_an_if_in_a_loop_"
                                 "assigns_both_kinds_printed_repaired.vx")


HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let n: ~i32 = 1;
        let f: ~_ = |x: i32| {
            x + n
        };
        let g: ~_ = f;
        @print(n);
        @print(g == f);
        @print(f);
    }
"""


def test_handwritten_a_number_printed_prints_and_closures_stop(run_pass, snapshot_txt):
    ran = run_pass("halt-closure-prints", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(n);" in ran.dump
    assert 'halt "E9006", "cannot apply \'==\' to closure and closure";' in ran.dump
    assert ran.dump.count("halt ") == 2
    assert ran.dump == snapshot_txt
