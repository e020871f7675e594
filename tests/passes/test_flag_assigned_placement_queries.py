"""flag-assigned-placement-queries: a `let mut` variable holding a placement query, assigned
other queries and only compared with options, is a `bool` flag per option; one compared with
another query is the `bool` two queries give; one of a closure's call of a tensor it makes
stays for the gate to refuse; the program prints what it printed, and native
code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_native_subset import check_native_subset
from nano_vx.passes.flag_assigned_placement_queries import flag_assigned_placement_queries
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "flag_assigned_placement_queries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", flag_assigned_placement_queries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", flag_assigned_placement_queries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_option_compared_has_its_flag():
    main = to_text(run_front(CASES / "compared_with_options_in_a_loop.vx",
                             flag_assigned_placement_queries).after)
    assert "let mut p:" not in main and "p = " not in main
    assert "let mut p#3: ~bool = d.topology() == Some(Topology::CPU);" in main
    assert "@print(!p#2);" in main


def test_query_variables_compared_with_each_other_are_never_equal():
    main = to_text(run_front(CASES / "query_variable_compared_with_another.vx",
                             flag_assigned_placement_queries).after)
    assert "@print(false);" in main and main.count("@print(true);") == 2
    # q, compared only with queries, has no flag; p keeps the one of its option
    assert "q" not in main.replace("equ", "") and "let mut p#1: ~bool" in main


def test_a_query_variable_compared_with_a_query_of_a_call_is_never_equal_after_the_call():
    main = to_text(run_front(CASES / "query_variable_compared_with_a_query_of_a_call.vx",
                             flag_assigned_placement_queries).after)
    # a copy is flagged as the variable it copies; the one name-temporaries reads first,
    # compared only with a query, needs none
    assert "= p#2;\n" in main and "ordered" not in main
    assert "= @made(2);\n    @print(true);" in main


def test_a_query_of_a_closure_call_compared_with_an_option_is_left_for_the_gate():
    assert_refused_then_repaired(
        CASES / "e5010_query_of_a_closure_call_returning_early_compared_with_an_option.vx",
        check_native_subset, "E5010", "the method call .topology()")


# Hand-written Lpinned: a variable assigned a query of a call's result, and one printed,
# stay; one only compared becomes its flags.
HANDWRITTEN = """
    // IL: Lpinned
    fn make() -> Tensor<f32, [2], Memory::CPU_DRAM> {
        Tensor<f32, [2]>::new()
    }

    fn main() {
        let t: Tensor<f32, [2], Memory::GPU_HBM> = Tensor<f32, [2]>::new();
        let mut p: _ = t.topology();
        p = t.topology();
        @print(p != None);
        @print(None == p);
        let mut q: _ = t.topology();
        q = make().topology();
        @print(q == None);
        let mut s: _ = t.topology();
        @print(s);
    }
"""


def test_handwritten_only_a_variable_given_queries_of_variables_and_compared_is_flagged(
        run_pass, snapshot_txt):
    ran = run_pass("flag-assigned-placement-queries", HANDWRITTEN)
    assert ran.codes == []
    assert "let mut p#1: ~bool = t.topology() == None;\n    p#1 = t.topology() == None;" in \
        ran.dump and "@print(!p#1);\n    @print(p#1);" in ran.dump
    assert "q = make().topology();" in ran.dump and "@print(s);" in ran.dump
    assert ran.dump == snapshot_txt
