"""compute-wide-extents: the extent erase-variable-extents left because its arithmetic might
leave i64 is computed in i128, checked as the interpreter checks it, and given as a u64."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.compute_wide_extents import compute_wide_extents
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "compute_wide_extents"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", compute_wide_extents)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"compute-wide-extents: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", compute_wide_extents)


@pytest.mark.parametrize("case", [n for n in NAMES if not n.startswith("e5010_")])
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case, what", [
    ("e5010_extent_that_might_leave_i128",
     "extent arithmetic that might leave i64 (`[j * j + 1, 2]`)")])
def test_what_native_code_does_not_make_is_named_by_w5001(case, what):
    status, printed, err = run_cli(CASES / f"{case}.vx")
    assert "warning[W5001]" in err and what in err
    assert (status, printed) == run_cli(CASES / f"{case}.vx", "--action", "interpret")[:2]


def _fns(case: str) -> dict[str, str]:
    ran = run_front(CASES / f"{case}.vx", compute_wide_extents)
    return {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}


def test_arithmetic_that_might_leave_i64_is_computed_in_i128_and_checked_first():
    fns = _fns("loop_variable_of_i64_below_a_parameter")
    wide = "2 as i64 as i128 * j as i128 + 6 as i64 as i128"
    assert f"Tensor<i32, [?]>::new([(if {wide} < 0 as i64 as i128 {{\n" \
        f"            halt_with(\"E9006\", \"a tensor extent must not be negative, found " \
        f"{{a}}\", {wide})\n" \
        f"        }} else if {wide} > 18446744073709551615 as u64 as i128 {{\n" \
        f"            halt_with(\"E9006\", \"a tensor of {{a}} elements is too large to " \
        f"address\", {wide})\n" in fns["show"]
    # beside a number, the count shown is the product
    assert "address\", (j as i128 - 9223372036854775807 as i64 as i128) * 3 as i64 as i128)" \
        in fns["rows"]
    assert "Tensor<i32, [j * j + 1, 2]>::new()" in _fns("e5010_extent_that_might_leave_i128")["show"]


def test_only_the_extent_erase_variable_extents_left_changes():
    ran = run_front(CASES / "e5010_extent_that_might_leave_i128_repaired.vx",
                    compute_wide_extents)
    assert ran.after is ran.before  # `k * k + 1` of an i32 k: i64 holds it, erased already


# Hand-written Lsplit: an extent of a parameter beside a number that might leave i64 (it
# stops, negative, then too large), one that divides and one beside an argument that is
# computed, which both stay as written, and a `?` constructor, whose list gives its extents.
WIDE = """
    // IL: Lsplit
    fn rows(j: i64) {
        let t: Tensor<u8, [?, 2]> = Tensor<u8, [j * 2 + 1, 2]>::fill(1);
        @print(t.extent(0));
    }
    fn left(j: i64, v: u8) -> u8 {
        let a: Tensor<u8, [?]> = Tensor<u8, [j * 2 / 3]>::fill(1);
        let b: Tensor<u8, [?]> = Tensor<u8, [j * 2 + 1]>::fill(v + 1);
        let c: Tensor<u8, [?]> = Tensor<u8, [?]>::fill([3], 1);
        return a[0] + b[0] + c[0];
    }
    fn main() {
        rows(2);
        rows(-5);
    }
"""


def test_handwritten_an_extent_of_a_parameter_and_those_left_as_written(run_pass,
                                                                      snapshot_txt):
    ran = run_pass("compute-wide-extents", WIDE)
    assert ran.codes == []
    assert "Tensor<u8, [?, 2]>::fill([(if j as i128 * 2 as i64 as i128 + 1 as i64 as i128" \
        in ran.dump
    assert "Tensor<u8, [j * 2 / 3]>::fill(1)" in ran.dump
    assert "Tensor<u8, [j * 2 + 1]>::fill(v + 1)" in ran.dump
    assert "Tensor<u8, [?]>::fill([3], 1)" in ran.dump
    printed = "5\nstopped: E9006: a tensor extent must not be negative, found -9\n"
    assert _printed(ran.before) == _printed(ran.tree) == printed
    assert ran.dump == snapshot_txt
