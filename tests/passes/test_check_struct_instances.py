"""check-struct-instances: a value of another instance of a generic struct than the one asked
for (`Cell { v: true }` as a `Cell<i32>`, a `Cell<f64>` passed as a `Cell<i32>`) is refused
before erase-struct-arguments drops the arguments that tell them apart."""

from pathlib import Path

import pytest

from nano_vx.passes.check_struct_instances import check_struct_instances
from front import (_repaired, assert_judged, assert_native_as_interpreted,
                   assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_struct_instances"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "e3001_let_of_another_instance": (
        "E3001", "'b' is declared Cell<i32>, but its value is Cell<{float}>"),
    "e3001_closure_result_of_another_instance": (
        "E3001", "'c' is declared Cell<i32>, but its value is Cell<f64>"),
    "e3002_result_of_another_instance": (
        "E3002", "'widen' returns Cell<i64>, but this value is Cell<i32>"),
    "e3003_argument_of_another_instance": (
        "E3003", "argument 1 of 'total' is Cell<f64>, but its parameter 'c' is Cell<i32>"),
    "e3003_closure_argument_of_another_instance": (
        "E3003", "argument 1 of 'total' is Cell<f64>, but its parameter 'c' is Cell<i32>"),
    "e3003_mut_reference_to_another_instance": (
        "E3003", "argument 1 of 'bump' is &mut Cell<f64>, but its parameter 'c' is &mut "
                 "Cell<i32>"),
    "e3007_arms_of_other_instances": (
        "E3007", "the arms of this `if` are Cell<i32> and Cell<bool>"),
    "e3012_field_of_another_type": (
        "E3012", "field 'v' of 'Cell<i32>' is i32, but this value is bool"),
    "e3012_tensor_of_other_extents": (
        "E3012", "field 'data' of 'Row<4>' is Tensor<f32, [4]>, but this value is "
                 "Tensor<f32, [3]>"),
    "e3012_generic_holding_ever_deeper_aggregates": (
        "E3012", "field 'v' of 'Cell<i32>' is i32, but this value is Cell<i32>"),
}
# Programs that once lived as admitted cases of later passes, each refused where it gives a
# `Cell<i32>` another field: the codes they report, and the first message.
REFUSED_SEVERAL = {
    "e3012_forms_handed_around_a_cycle": (
        {"E3012"}, "field 'v' of 'Cell<i32>' is i32, but this value is Point"),
    "e3012_forms_read_printed_and_returned": (
        {"E3012", "E3003"}, "field 'v' of 'Cell<i32>' is i32, but this value is Point"),
    "e3012_generic_holding_aggregate": (
        {"E3012"}, "field 'v' of 'Cell<i32>' is i32, but this value is Point"),
    "e3012_generic_holding_aggregate_handed_between_functions": (
        {"E3012"}, "field 'v' of 'Cell<i32>' is i32, but this value is Point"),
    "e3012_original_left_uncalled": (
        {"E3012"}, "field 'v' of 'Cell<i32>' is i32, but this value is Cell<i32>"),
    "e3012_scalar_types": (
        {"E3012"}, "field 'v' of 'Cell<i32>' is i32, but this value is {float}"),
}
ADMITTED = [n for n in NAMES if n not in REFUSED and n not in REFUSED_SEVERAL]
# A closure taking or returning a generic struct runs in the interpreter
# (tests/test_native.py's NOT_LOWERED).
INTERPRETED = {"e3001_closure_result_of_another_instance_repaired",
               "e3003_closure_argument_of_another_instance_repaired"}


@pytest.mark.parametrize("case", [n for n in NAMES if n not in REFUSED_SEVERAL])
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_struct_instances, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_value_is_refused_and_the_repair_admitted(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_struct_instances, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED_SEVERAL))
def test_each_program_once_admitted_is_refused_and_the_repair_admitted(case, snapshot_txt):
    codes, first = REFUSED_SEVERAL[case]
    ran = run_front(CASES / f"{case}.vx", check_struct_instances)
    assert ran.after is ran.before
    assert set(ran.diagnostics.codes()) == codes
    assert first in ran.diagnostics.items[0].message
    assert ran.diagnostics.render() == snapshot_txt
    repaired = run_front(_repaired(CASES / f"{case}.vx"), check_struct_instances)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", ADMITTED)
def test_the_admitted_run_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_struct_instances)


@pytest.mark.parametrize("case", [n for n in ADMITTED if n not in INTERPRETED])
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("program, code, says", [
    # An integer literal fits any integer type, never a float.
    ("let c: Cell<f64> = Cell { v: 2, n: 1 };", "E3012",
     "field 'v' of 'Cell<f64>' is f64, but this value is {integer}"),
    ("let c = Cell::<i32> { v: 2.5, n: 1 };", "E3012",
     "field 'v' of 'Cell<i32>' is i32, but this value is {float}"),
    ("let x: i64 = 3; let c: Cell<i32> = Cell { v: x * 2, n: 1 };", "E3012",
     "field 'v' of 'Cell<i32>' is i32, but this value is i64"),
    ("let mut a: Cell<i32> = Cell { v: 1, n: 2 }; let b: Cell<i64> = Cell { v: 1, n: 2 }; "
     "a = b;", "E3001", "`a` is Cell<i32>, but the value assigned to it is Cell<i64>"),
    ("let mut a: Cell<i32> = Cell { v: 1, n: 2 }; a.v = true;", "E3001",
     "`a.v` is i32, but the value assigned to it is bool"),
    # A generic function's parameter, where the call writes its arguments.
    ("let x: Cell<f64> = Cell { v: 1.5, n: 2 }; print(first<i32>(x));", "E3003",
     "argument 1 of 'first' is Cell<f64>, but its parameter 'c' is Cell<i32>"),
    ("let x: Cell<bool> = first<i32>(Cell { v: 1, n: 2 });", "E3001",
     "'x' is declared Cell<bool>, but its value is Cell<i32>"),
    # The literal in the field is built as the field's type: its own field is refused.
    ("let h = Holder { c: Cell { v: 1.5, n: 1 } };", "E3012",
     "field 'v' of 'Cell<i32>' is i32, but this value is {float}"),
    ("let f: Cell<f64> = Cell { v: 1.5, n: 1 }; let h = Holder { c: f };", "E3012",
     "field 'c' of 'Holder' is Cell<i32>, but this value is Cell<f64>"),
    # Through a reference, and a field read through one.
    ("let a: Cell<f64> = Cell { v: 1.5, n: 2 }; let r: &Cell<i32> = &a;", "E3001",
     "'r' is declared &Cell<i32>, but its value is &Cell<f64>"),
    ("let mut a: Cell<i32> = Cell { v: 1, n: 2 }; let r = &mut a; r.v = 2.5;", "E3001",
     "`r.v` is i32, but the value assigned to it is {float}"),
    ("let a: Cell<i32> = Cell { v: 1, n: 2 }; let r = &a; let b: Cell<bool> = *r;", "E3001",
     "'b' is declared Cell<bool>, but its value is Cell<i32>"),
    ("let a: Cell<i32> = Cell { v: 1, n: 2 }; let w = Wrap::Of(a);", "E3012",
     "value 1 of 'Wrap::Of' is Cell<u8>, but this value is Cell<i32>"),
    ("let a: Cell<i32> = Cell { v: 1, n: 2 }; let b = match a.n { 2 => a, _ => Cell { v: "
     "true, n: 0 } };", "E3007", "the arms of this `match` are Cell<i32> and Cell<bool>"),
])
def test_variations_are_refused(program, code, says):
    source = ("struct Cell<T> { v: T, n: i32 }\nstruct Holder { c: Cell<i32> }\n"
              "enum Wrap { Of(Cell<u8>), Not }\n"
              "fn first<T>(c: Cell<T>) -> Cell<T> { c }\n" f"fn main() {{ {program} }}\n")
    ran = run_front(source, check_struct_instances)
    [diag] = ran.diagnostics.items
    assert diag.code == code and says in diag.message


def test_handwritten_a_generic_functions_cell_and_an_unwritten_one_are_not_judged(run_pass):
    ran = run_pass("check-struct-instances", """
        // IL: Lresolved
        struct Cell<T> {
            v: T,
        }

        fn keep<T>(c: Cell<T>) -> Cell<T> {
            c
        }

        fn any(c: Cell) -> Cell<i32> {
            c
        }

        fn main() {
            let a: Cell<f64> = Cell { v: 0.5 };
            let b: Cell<f64> = @keep<f64>(a);
            let c: Cell<i32> = @any(Cell { v: true });
            let d: Cell<i32> = @any(b);
        }
    """)
    assert ran.codes == []


def test_a_return_in_a_spawn_gives_the_blocks_value_not_the_functions_result():
    source = ("struct Cell<T> { v: T }\nfn f() -> Cell<f32> {\n"
              "  let r = spawn on(Topology::CPU) {\n"
              "    let c: Cell<i32> = Cell { v: 5 };\n"
              "    if c.v > 2 { return c; }\n    if c.v > 1 { return Cell { v: 4 }; }\n"
              "    Cell { v: 6 }\n  };\n  print(r.v);\n  Cell { v: 1.5 }\n}\n"
              "fn main() { print(f().v); }\n")
    ran = run_front(source, check_struct_instances)
    assert not ran.diagnostics.items, ran.diagnostics.render()
