"""check-extent-names: a tensor extent naming a variable, a parameter or a `const` whose type
is not an integer (E3026), which the interpreter would stop on (E9006) when the constructor
ran; integer names of every width, and loop variables, pass."""

from pathlib import Path

import pytest

from nano_vx.passes.check_extent_names import check_extent_names
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_extent_names"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "bool_extent": ("E3026", "the extent `b` names the variable 'b', of type bool"),
    "float_const_extent": ("E3026", "the extent `B` names the constant 'B', of type f32"),
    "float_parameter_extent": ("E3026", "the extent `x` names the parameter 'x', of type f32"),
    "reference_extent": ("E3026", "the extent `r` names the parameter 'r', of type &i32"),
    "shadowed_bool_extent": ("E3026", "the extent `n` names the variable 'n', of type bool"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_extent_names)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == ([REFUSED[case][0]] if case in REFUSED else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_extent_names, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_extent_names)


@pytest.mark.parametrize("case", ["integer_extents", "struct_parameter_named_like_a_float_const"])
def test_admitted_programs_run_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_extent_names)



def test_an_extent_names_the_binding_as_written_and_a_later_one_of_another_type_is_not_it():
    text = ("fn main() {\n  let n = 2;\n  print(Tensor<i32, [n]>::fill(1));\n"
            "  if true { let n = 1.5; print(n); }\n}\n")
    assert not run_front(text, check_extent_names).diagnostics.items


# Hand-written Ltyped: an extent naming a tuple, written twice. Each extent written is judged
# where it stands, the `let`'s type as much as the constructor's (from source, infer-placement
# gives the `let` the constructor's type, one extent and one error).
TUPLE_EXTENT = """
    // IL: Ltyped
    fn main() {
        let p: (i32, i32) = (1, 2);
        let t: Tensor<i32, [p], Memory::CPU_DRAM> = Tensor<i32, [p]>::fill(1);
        @print(t);
    }
"""


def test_handwritten_an_extent_naming_a_tuple(run_pass, snapshot_txt):
    ran = run_pass("check-extent-names", TUPLE_EXTENT)
    assert ran.codes == ["E3026", "E3026"]
    assert ran.diagnostics.items[0].help == [
        "name an integer variable or constant, or write the number"]
    assert ran.dump == snapshot_txt
