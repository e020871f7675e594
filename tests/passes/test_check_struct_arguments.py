"""check-struct-arguments: a struct's const argument not known while compiling is E3047, and so
is another number of arguments than its parameters; a type argument naming no type is E3029."""

from pathlib import Path

import pytest

from nano_vx.passes.check_struct_arguments import check_struct_arguments
from front import (assert_judged, assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired)

CASES = Path(__file__).parent / "cases" / "check_struct_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "run_time_local": ("E3047", "'N' of 'Row' is a const i32, but 'n' is not known while "
                                "compiling: it is a run-time value"),
    "run_time_literal": ("E3047", "'N' of 'Row' is a const i32, but 'n' is not known while "
                                  "compiling"),
    "wrong_number_of_type_arguments": ("E3047", "'Cell' takes 1 generic argument, but this "
                                                "gives it 2"),
    "unknown_type_argument": ("E3029", "the type 'Pont' given to 'Cell' names no type"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_struct_arguments, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_argument_is_refused_and_the_repair_admitted(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_struct_arguments, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", ["known", *(f"{c}_repaired" for c in sorted(REFUSED))])
def test_the_admitted_run_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_struct_arguments)


def test_handwritten_a_field_type_names_its_own_struct_parameter(run_pass):
    ran = run_pass("check-struct-arguments", """
        // IL: Lresolved
        struct Row<const N: i32> {
            data: Tensor<f32, [N]>,
        }

        struct Grid<const N: i32> {
            rows: Row<N>,
            last: Row<M>,
        }

        fn main() {}
    """)
    assert ran.codes == ["E3047"]


def test_handwritten_a_name_inside_a_struct_argument_is_refused_once(run_pass):
    ran = run_pass("check-struct-arguments", """
        // IL: Lresolved
        struct Cell<T> {
            v: T,
        }

        fn main() {
            let c: Cell<Cell<Nope>> = Cell { v: Cell { v: 1 } };
        }
    """)
    assert ran.codes == ["E3029"]
