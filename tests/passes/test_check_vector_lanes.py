"""check-vector-lanes: a literal lane index out of range and a lane written (E3015), a lane given
a value of another type (E3003), each refused, and the repaired program admitted; a lane index
known only when the program runs is checked then (E9003)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_vector_lanes import check_vector_lanes
from front import (assert_judged, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_vector_lanes"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "lane_out_of_range": ("E3015", "lane 4 of <4 x i32>: its lanes are 0 to 3"),
    "lane_written": ("E3015", "a lane of <2 x f64> is written: a vector's lanes are read, "
                              "not written"),
    "lane_type": ("E3003", "lane 1 of `vec<2 x i32>(..)` is i64, but the vector's lanes are "
                           "i32"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_vector_lanes, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_vector_lanes, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_a_lane_index_known_at_run_time_stops_the_program_past_the_lanes():
    ran = run_front(CASES / "lane_at_run_time.vx", check_vector_lanes)
    assert not ran.diagnostics.items
    assert ran.prints()[1] == "3\n4\nstopped: E9003: lane 4 of a vector of 4 lanes\n"


@pytest.mark.parametrize("body, message", [
    ("let v = vec<2 x i32>(1, 2); print(v[-1]);", "lane -1 of <2 x i32>: its lanes are 0 to 1"),
    ("let v: <4 x f32> = splat(1); print(v);",
     "the value of `splat::<4 x f32>(..)` is {integer}, but the vector's lanes are f32"),
    ("let v = vec<2 x u8>(1, 2.5); print(v);",
     "lane 1 of `vec<2 x u8>(..)` is {float}, but the vector's lanes are u8"),
])
def test_each_lane_is_judged(body, message):
    [d] = run_front(f"fn main() {{ {body} }}", check_vector_lanes).diagnostics.items
    assert d.message == message


@pytest.mark.parametrize("index, found", [("1.5", "{float}"), ("true", "bool"), ("v", "<2 x i32>")])
def test_a_lane_index_that_is_no_integer_is_refused(index, found):
    text = f"fn main() {{ let v = vec<2 x i32>(1, 2); print(v[{index}]); }}"
    [d] = run_front(text, check_vector_lanes).diagnostics.items
    assert (d.code, d.message) == (
        "E3015", f"a lane of <2 x i32> is read at {found}: a lane index is an integer")


def test_handwritten_a_constant_lane_past_the_last_is_refused(run_pass):
    ran = run_pass("check-vector-lanes", """
    // IL: Lrouted
    fn main() {
        let v: <2 x i32> = vec<2 x i32>(10, 20);
        @print(v[2]);
    }
    """)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3015", "lane 2 of <2 x i32>: its lanes are 0 to 1")]
