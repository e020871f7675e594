"""decide-vector-splats: each `splat(v)` takes the vector type of the place its value goes to
(a typed `let`, an assignment, a field, a parameter, a result, the other operand of `+ - * /`);
one with no such place is E3016."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.decide_vector_splats import decide_vector_splats
from front import assert_refused_from_the_command_line, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "decide_vector_splats"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", decide_vector_splats)
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


def test_every_splat_of_the_contexts_is_given_its_type():
    ran = run_front(CASES / "contexts.vx", decide_vector_splats)
    splats = list(ran.nodes("Splat"))
    assert len(splats) == 9
    assert all(to_text(s.type).strip() == "<4 x f32>" for s in splats)
    assert ran.prints()[1] == "<6, 6, 6, 6>\n<3, 3, 3, 3>\n<0, 0, 0, 0>\n"


def test_a_splat_beside_a_vector_moved_or_pinned_takes_its_type():
    ran = run_front(CASES / "placed.vx", decide_vector_splats)
    assert [to_text(s.type).strip() for s in ran.nodes("Splat")] == ["<4 x f32>", "<2 x f64>"]
    assert ran.prints()[1] == "<2, 4, 6, 8>\n<1, 3>\n"


def test_an_undetermined_splat_is_refused_and_a_typed_let_repairs_it(capsys):
    assert_refused_then_repaired(CASES / "undetermined.vx", decide_vector_splats, "E3016",
                                 "the vector type of this `splat` is not determined")
    assert_refused_from_the_command_line(CASES / "undetermined.vx", "E3016", capsys)


@pytest.mark.parametrize("body", [
    "let x = 2.0 * splat(1.0); print(x);",
    "print(splat(1));",
    "let v = vec<2 x i32>(1, 2); print(v[0] + splat(1));",
])
def test_a_splat_beside_no_vector_is_undetermined(body):
    [d] = run_front(f"fn main() {{ {body} }}", decide_vector_splats).diagnostics.items
    assert d.code == "E3016"


def test_a_splat_whose_type_is_written_keeps_it():
    ran = run_front("fn main() { let v = splat::<2 x f32>(1.5); print(v); }",
                    decide_vector_splats)
    assert not ran.diagnostics.items
    [splat] = ran.nodes("Splat")
    assert to_text(splat.type).strip() == "<2 x f32>"
    assert ran.prints()[1] == "<1.5, 1.5>\n"


def test_handwritten_a_splat_takes_the_type_of_the_vector_it_meets(run_pass):
    # Hand-written Lmono: one splat typed by its `let`, one by the other operand of `+`.
    ran = run_pass("decide-vector-splats", """
    // IL: Lmono
    fn main() {
        let w: <2 x i32> = splat(3);
        let u: <2 x i32> = w + splat(1);
        @print(u[0]);
    }
    """)
    assert not ran.codes
    assert "splat::<2 x i32>(3)" in ran.dump and "w + splat::<2 x i32>(1)" in ran.dump
