"""check-returns: a function with a result whose body can reach its end without one (E3028)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_returns import check_returns
from front import assert_judged, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_returns"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
MESSAGE = "'sign' returns i32, but its body can reach its end without a value"
REFUSED = {"falls_off": ("E3028", MESSAGE)}


def _messages(text) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in run_front(text, check_returns).diagnostics.items]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_returns, REFUSED, snapshot_txt)


def test_refused_then_repaired():
    assert _messages(CASES / "falls_off.vx") == [("E3028", MESSAGE)]
    assert _messages(CASES / "falls_off_repaired.vx") == []


def test_refused_from_the_command_line(capsys):
    assert_refused_from_the_command_line(CASES / "falls_off.vx", "E3028", capsys)


def test_the_diagnostic_points_at_the_closing_brace_and_says_what_ends_a_path():
    [d] = run_front(CASES / "falls_off.vx", check_returns).diagnostics.items
    assert (d.span.line, d.span.col, d.span.end - d.span.start) == (9, 1, 1)
    assert d.data == {"function": "sign", "result": "i32"}


@pytest.mark.parametrize("body", [
    "loop { if n > 3 { break; } }",  # the `break` leaves the loop: the end is reached
    "while n > 0 { return 1; }",  # a loop on another condition may run no turn
    "if n > 0 { return 1; }",  # no `else`
    "assert(false);",  # an assertion, not a `return`
    "loop { loop { break; } break; }",  # the second `break` leaves the outer loop
])
def test_a_path_that_reaches_the_end_is_refused(body):
    text = f"fn f(n: i32) -> i32 {{ {body} }}\nfn main() {{ print(f(1)); }}"
    assert _messages(text) == [
        ("E3028", "'f' returns i32, but its body can reach its end without a value")]


@pytest.mark.parametrize("body", [
    "loop { }",
    "while true { if n > 3 { return n; } }",
    "loop { for i in 0..n { break; } }",  # that `break` leaves the `for`
    "{ return 1; }",
    "if n > 0 { return 1; } else if n < 0 { return 2; } else { return 3; }",
    "let g = |x: i32| { return x; }; return g(n);",
    "match n { 1 => { return 1; } _ => { return 2; } };",
])
def test_a_body_every_path_of_which_ends_is_admitted(body):
    assert _messages(f"fn f(n: i32) -> i32 {{ {body} }}\nfn main() {{ print(f(1)); }}") == []


def test_a_function_without_a_result_may_reach_its_end():
    assert _messages("fn f(n: i32) { if n > 0 { return; } }\nfn main() { f(1); }") == []


def test_the_branch_an_if_comptime_takes_is_the_one_judged():
    text = "fn pick<const N: i32>() -> i32 {\n" \
           "    if comptime N > 1 { return 2; } else { return 1; }\n" \
           "}\n" \
           "fn first() -> i32 { if comptime true { return 1; } }\n" \
           "fn main() { print(pick<1>() + pick<2>() + first()); }"
    assert _messages(text) == []


# Hand-written Lrouted: a match on a value still in the tree, which desugar-value-matches
# writes as an `if` chain long before this pass, one without a single case (check-match-arms
# refuses it). Every case returning ends the path; no case at all ends nothing.
VALUE_MATCHES = """
    // IL: Lrouted
    fn every_case_returns(n: i32) -> i32 {
        match n {
            1 => {
                return 10;
            },
            _ => {
                return 20;
            },
        };
    }

    fn no_case(n: i32) -> i32 {
        match n {};
    }
"""


def test_handwritten_a_value_match_ends_only_when_it_has_cases(run_pass, snapshot_txt):
    ran = run_pass("check-returns", VALUE_MATCHES)
    assert ran.codes == ["E3028"]
    assert "'no_case' returns i32" in ran.report
    assert ran.dump == snapshot_txt
