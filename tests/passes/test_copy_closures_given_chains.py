"""copy-closures-given-chains: a closure given a chain of references at one call and a value
of another type at another calls a copy per type, so that collapse-reference-chains finds
each parameter of no written type of one type; native code runs each case as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_closures_given_chains import copy_closures_given_chains
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_closures_given_chains"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_given_chains)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_given_chains)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_one_copy_per_type_given_each_call_calling_its_own():
    ran = run_front(CASES / "closure_given_chains_of_several_lengths.vx",
                    copy_closures_given_chains)
    assert [n.name for n in ran.nodes("Let") if n.value._prod == "Closure"] == \
        ["deref", "deref#1", "deref#2"]
    assert [c.callee.name for c in ran.nodes("Call") if c.callee._prod == "Local"] == \
        ["deref", "deref#1", "deref#2", "deref"]


# no chain; a closure called through a parameter (f) that holds it: its type is unsaid
def test_closures_given_no_chain_or_a_type_unsaid_are_left_as_they_are():
    for program in ("fn main() {\n    let x = 1;\n    let y: i64 = 2;\n"
                    "    let f = |p| *p;\n    print(f(&x));\n    print(f(&y));\n}\n",
                    "fn main() {\n    let x = 5;\n    let r = &x;\n    let rr = &r;\n"
                    "    let y: i64 = 7;\n    let s = &y;\n"
                    "    let deref = |p| *p;\n    let twice = |f, q| f(q) * 2;\n"
                    "    print(twice(deref, r));\n    print(twice(deref, s));\n"
                    "    print(*deref(rr));\n}\n"):
        ran = run_front(program, copy_closures_given_chains)
        assert ran.after is ran.before


def test_a_parameter_handed_on_given_two_types_is_copied_until_each_has_one():
    ran = run_front(CASES / "parameter_handed_on_through_two_closures_given_two_types.vx",
                    copy_closures_given_chains)
    closures = [n.name for n in ran.nodes("Let") if n.value._prod == "Closure"]
    assert closures == ["deref", "deref#1", "deref#2", "twice", "twice#1", "thrice",
                        "thrice#1"]


HANDWRITTEN = """
    // IL: Lassumed
    fn main() {
        let x: i32 = 5;
        let r: &i32 = &x;
        let rr: &&i32 = &r;
        let deref: ~_ = |p| {
            *p
        };
        @print(deref(r));
        @print(*deref(rr));
        @print(deref(r));
    }
"""


def test_handwritten_the_call_given_the_chain_calls_a_copy(run_pass, snapshot_txt):
    ran = run_pass("copy-closures-given-chains", HANDWRITTEN)
    assert ran.codes == []
    assert "let deref#1: ~_ = |p#1|" in ran.dump and "*deref#1(rr)" in ran.dump
    assert ran.dump.count("deref(r)") == 2
    assert ran.dump == snapshot_txt
