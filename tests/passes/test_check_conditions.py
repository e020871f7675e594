"""check-conditions: a condition that is not a bool (a string among them), and an `if` or a
`match` used as a value whose arms differ in type (E3007), each refused with a message that
names the types, and the repaired program admitted."""

from pathlib import Path

import pytest

from nano_vx.passes.check_conditions import check_conditions
from front import (assert_judged, assert_native_as_interpreted,
                   assert_refused_from_the_command_line, run_cli, run_front)

CASES = Path(__file__).parent / "cases" / "check_conditions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "if_branches": ("E3007", "the branches of this `if` are {float} and {integer}: an `if` "
                             "used as a value gives one type"),
    "match_arms": ("E3007", "the arms of this `match` are i32 and {float}: a `match` used "
                            "as a value gives one type"),
    "number_match_arms": ("E3007", "the arms of this `match` are {integer} and {float}: a "
                                   "`match` used as a value gives one type"),
    "text_condition": ("E3007", "the condition of `if` is str, not a bool"),
}


def _only(text) -> tuple[str, str]:
    [d] = run_front(text, check_conditions).diagnostics.items
    return d.code, d.message


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_conditions, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert _only(CASES / f"{case}.vx") == REFUSED[case]
    assert not run_front(CASES / f"{case}_repaired.vx", check_conditions).diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("body, message, help", [
    ("let n: i32 = 3; if n { print(n); }", "the condition of `if` is i32, not a bool",
     ["compare it: `n != 0`"]),
    ("while 1 { break; }", "the condition of `while` is {integer}, not a bool",
     ["compare it: `1 != 0`"]),
    ("assert(0);", "the condition of `assert` is {integer}, not a bool", ["compare it: `0 != 0`"]),
    ("while \"x\" { break; }", "the condition of `while` is str, not a bool", []),
    ("assert(\"x\", \"a message is text\");", "the condition of `assert` is str, not a bool", []),
    ("print(if true { \"a\" } else { 1 });",
     "the branches of this `if` are str and {integer}: an `if` used as a value gives one type",
     []),
])
def test_each_condition_is_judged(body, message, help):
    [d] = run_front(f"fn main() {{ {body} }}", check_conditions).diagnostics.items
    assert (d.code, d.message, d.help) == ("E3007", message, help)


def test_a_placed_scalar_beside_its_plain_type_is_read_out_of_it():
    case = CASES / "placed_branches.vx"
    assert not run_front(case, check_conditions).diagnostics.items
    assert_native_as_interpreted(case)
    assert run_cli(case)[1] == "2.75\n"


def test_a_placed_scalar_beside_another_type_is_refused_with_a_cast_that_repairs_it():
    text = ("fn main() {\n  let p = spawn on(Topology::NPU) { 2.5 };\n  let q: i32 = 1;\n"
            "  print(if q > 0 { p } else { q });\n}\n")
    [d] = run_front(text, check_conditions).diagnostics.items
    assert (d.code, d.help) == ("E3007", ["convert the value with `as f64`"])
    repaired = text.replace("else { q }", "else { q as f64 }")
    assert not run_front(repaired, check_conditions).diagnostics.items


def test_a_branch_that_leaves_has_no_value_to_agree():
    text = "fn f(c: bool) -> i32 {\n    let x = if c { 1 } else { return 2; };\n    x\n}\n" \
           "fn main() { print(f(true)); }\n"
    assert not run_front(text, check_conditions).diagnostics.items


def test_a_contracts_condition_is_a_bool():
    text = "fn f(n: i32) -> i32 requires n { n }\nfn main() { print(f(1)); }\n"
    assert _only(text) == ("E3007", "the condition of `requires` is i32, not a bool")
    assert not run_front(text.replace("requires n", "requires n > 0"),
                         check_conditions).diagnostics.items


# Hand-written Lrouted: a literal bound where infer-placement chose the type (`~i32`) is
# whatever integer it meets, a written `i32` is one; either way a number is no condition.
INFERRED_CONDITIONS = """
    // IL: Lrouted
    fn main() {
        let n: ~i32 = 0;
        let m: i32 = 0;
        while n {
            break;
        }
        if m {
            @print(m);
        }
    }
"""


def test_handwritten_an_inferred_literal_is_no_condition(run_pass):
    ran = run_pass("check-conditions", INFERRED_CONDITIONS)
    assert [d.message for d in ran.diagnostics.items] == [
        "the condition of `while` is {integer}, not a bool",
        "the condition of `if` is i32, not a bool"]


@pytest.mark.parametrize("cases, agreed", [
    ("E::A(x) => x, _ => 1.5", False),
    ("E::A(x) => x, _ => 1", True),
    ("E::W(p) => p.x, _ => 1.5", False),
    ("E::W(p) => p.x, E::A(x) => x, E::B => 0", True),
    ("E::A(7) => 2, E::A(x) => x + 1, _ => 0", True),
    ("E::B => 1.5, other => 0.5", True),
    ("E::B => 1.5, other => other", False),
])
def test_a_name_a_pattern_binds_has_the_type_of_what_it_binds(cases, agreed):
    text = ("struct P { x: i32 }\nenum E { A(i32), B, W(P) }\n"
            f"fn main() {{\n  let e = E::A(3);\n  let v = match e {{ {cases} }};\n  print(v);\n}}\n")
    found = run_front(text, check_conditions).diagnostics.items
    assert [d.code for d in found] == ([] if agreed else ["E3007"])
