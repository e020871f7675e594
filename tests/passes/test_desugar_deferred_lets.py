"""desugar-deferred-lets: `let x: T;` is `let mut x: T = v;`, v a value no read sees (E4011
for a type with none to write)."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_deferred_lets import desugar_deferred_lets
from front import _printed, assert_refused_from_the_command_line, assert_refused_then_repaired, \
    run_front

CASES = Path(__file__).parent / "cases" / "desugar_deferred_lets"
ADMITTED = {
    "deferred": "-1\n5\n0\n5\n15\n[0.5, 0.5, 0.5]\n4\n",
    "kinds": "1\nShape::Dot\ntrue\n0.5\n",
}


@pytest.mark.parametrize("case", sorted(ADMITTED))
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_deferred_lets)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("Declare"))
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-deferred-lets: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(ADMITTED))
def test_the_output_prints_what_the_program_means(case):
    # The input holds `let x: T;`, which the interpreter (the ILs after this pass) does not
    # read: the program's output is written down instead.
    assert _printed(run_front(CASES / f"{case}.vx", desugar_deferred_lets).after) == \
        ADMITTED[case]


def test_each_place_holder_is_a_zero_of_its_type():
    ran = run_front(CASES / "kinds.vx", desugar_deferred_lets)
    lets = {s.name: s.value for s in ran.nodes("Let")}
    assert [lets[n]._prod for n in ("p", "s", "flag", "half")] == \
        ["StructLit", "PathCall", "Bool", "Float"]
    assert all(s.mutable for s in ran.nodes("Let"))


def test_a_type_parameter_has_no_value_to_write():
    assert_refused_then_repaired(CASES / "type_parameter.vx", desugar_deferred_lets, "E4011",
                                 "'x' is declared without a value, but nano-vx writes no value")


def test_refused_from_the_command_line(capsys):
    assert_refused_from_the_command_line(CASES / "type_parameter.vx", "E4011", capsys)


@pytest.mark.parametrize("decl", ["let r: &i32;", "let v: void;", "let t: Tensor<f32, [?]>;"])
def test_each_type_without_a_value_is_refused(decl):
    ran = run_front(f"fn main() {{ {decl} }}\n", desugar_deferred_lets)
    assert ran.diagnostics.codes() == ["E4011"]


def test_handwritten_a_declaration_in_a_nested_block(run_pass):
    ran = run_pass("desugar-deferred-lets", """
        // IL: Lonefile
        fn main() {
            {
                let pair: (bool, f64);
                pair = (true, 2.5);
                print(pair.1);
            }
        }
    """)
    assert ran.codes == []
    assert "let mut pair: (bool, f64) = (false, 0.0);" in ran.dump
