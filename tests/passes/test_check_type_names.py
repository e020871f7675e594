"""check-type-names: a type name in a signature that names no type (E3029)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_type_names import check_type_names
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_type_names"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "parameter": ("E3029", "the type 'Pont' of parameter 'p' of 'norm1' names no type"),
    "field": ("E3029", "the type 'Label' of field 'tag' of struct 'Tagged' names no type"),
    "result": ("E3029", "the type 'Option' of the result of 'pair' names no type"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_type_names)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == ([REFUSED[case][0]] if case in REFUSED else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_type_names, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_type_names)


def test_a_constant_and_a_generic_struct_argument_are_judged_too():
    text = ("const LIMIT: Limit = 3;\nstruct Box<T> { v: T }\n"
            "fn open(b: Box<Thing>) -> i32 { 1 }\nfn main() { print(LIMIT); }\n")
    said = [d.message for d in run_front(text, check_type_names).diagnostics.items]
    assert said == ["the type 'Limit' of the constant 'LIMIT' names no type",
                    "the type 'Thing' of parameter 'b' of 'open' names no type"]


def test_a_let_annotation_in_a_body_is_left_to_the_checks_after_pruning():
    text = "fn main() { if comptime false { let q: Missing = 1; } print(2); }\n"
    assert not run_front(text, check_type_names).diagnostics.items


def test_str_and_an_impl_type_are_types():
    text = ("struct P { x: i32 }\nimpl P { fn make(x: i32) -> Self { P { x: x } } }\n"
            "fn greet(s: str) { print(s); }\nfn main() { greet(\"hi\"); print(P::make(1).x); }\n")
    assert not run_front(text, check_type_names).diagnostics.items


# Hand-written Lresolved: a struct whose field names a type no item declares, and a function
# whose generic parameter is the name its parameter's type gives.
UNDECLARED = """
    // IL: Lresolved
    struct Holder<T> {
        kept: T,
        lost: Missing,
    }

    fn keep<U>(x: U, h: Holder) -> U {
        x
    }

    fn main() {
        @print(1);
    }
"""


def test_handwritten_a_field_of_an_undeclared_type_beside_generic_parameters(run_pass,
                                                                             snapshot_txt):
    ran = run_pass("check-type-names", UNDECLARED)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3029", "the type 'Missing' of field 'lost' of struct 'Holder' names no type")]
    assert ran.dump == snapshot_txt
