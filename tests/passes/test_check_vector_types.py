"""check-vector-types: a vector type whose lane count is not a positive literal or whose lanes
are not scalars (E3014), and `vec<N x T>(..)` given other than N values (E3010), each refused
with a message that names the type, and the repaired program admitted."""

from pathlib import Path

import pytest

from nano_vx.passes.check_vector_types import check_vector_types
from nano_vx.passes.decide_vector_splats import decide_vector_splats
from front import (assert_judged, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_vector_types"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "lanes_not_literal": ("E3014", "the lane count of `<LANES x f32>` is 'LANES', a name: it is "
                                   "an integer literal from 1 to 4096"),
    "lanes_not_scalar": ("E3014", "the lanes of `<2 x <2 x i32>>` are vectors: a vector's lanes "
                                  "are of a scalar type"),
    "wrong_value_count": ("E3010", "`vec<4 x f32>` takes 4 values, one per lane, but is given 2"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_vector_types, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_vector_types, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_vectors_as_locals_and_fields_run_lane_by_lane():
    # Once decide-vector-splats has given each splat its lanes, the interpreter runs them.
    _, printed = run_front(CASES / "vectors.vx", decide_vector_splats).prints()
    assert printed == "<2, -1, 0.5, 0>\n-1\n108\n<3, -3, 4>\n<4, 4>\n0\n"


@pytest.mark.parametrize("vector, says", [
    ("<0 x f32>", "the lane count of `<0 x f32>` is 0"),
    ("<4097 x f32>", "the lane count of `<4097 x f32>` is 4097"),
    ("<2 * 2 x f32>", "the lane count of `<2 * 2 x f32>` is arithmetic"),
    ("<? x f32>", "the lane count of `<? x f32>` is `?`, known only when the program runs"),
    ("<4 x Tensor<f32, [2]>>", "the lanes of `<4 x Tensor<f32, [2]>>` are tensors"),
    ("<4 x Point>", "the lanes of `<4 x Point>` are 'Point', no scalar type"),
    ("<4 x (i32, i32)>", "the lanes of `<4 x (i32, i32)>` are tuples"),
])
def test_each_malformed_vector_type_is_refused(vector, says):
    text = f"struct Point {{ x: i32 }}\nfn take(v: {vector}) {{ }}\nfn main() {{ }}\n"
    [d] = run_front(text, check_vector_types).diagnostics.items
    assert d.code == "E3014" and d.message.startswith(says)


def test_vec_and_splat_stay_names_where_no_vector_follows():
    text = ("fn splat(x: i32) -> i32 { x }\nfn main() { let vec = 3; print(vec < 4); "
            "let splat = 2; print(splat); }\n")
    ran = run_front(text, check_vector_types)
    assert not ran.diagnostics.items
    assert ran.prints()[1] == "true\n2\n"


def test_handwritten_a_vector_edited_to_no_lanes_is_refused_where_each_type_is_written(run_pass):
    # Hand-written Lresolved, as a dump edited by hand may be: the parser reads `<0 x i32>` too.
    ran = run_pass("check-vector-types", """
    // IL: Lresolved
    fn main() {
        let v: <0 x i32> = vec<0 x i32>();
        @print(1);
    }
    """)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3014", "the lane count of `<0 x i32>` is 0: it is an integer literal from 1 to 4096")
    ] * 2
