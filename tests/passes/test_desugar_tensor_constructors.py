"""desugar-tensor-constructors: each `Tensor<..>(..)` call is the constructor or the literal
it means, with all its extents; a list of the wrong shape (E3018) and a shaped tensor from one
value (E3023) are refused; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_tensor_constructors import desugar_tensor_constructors
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "desugar_tensor_constructors"
REFUSED = {
    "scalar_init": ("E3023", "a tensor is initialised from a nested list of its elements, "
                             "not from a single value"),
    "no_shape": ("E3023", "`Tensor<T>()` gives no shape"),
    "ragged_rows": ("E3018", "the rows of this nested list differ in shape: a tensor's rows "
                             "all have the same extents"),
    "wrong_extents": ("E3018", "this list has extents [2], not [3] as the tensor's type "
                               "writes"),
    "nested_array": ("E3018", "an array literal holds scalars; a nested list initialises a "
                              "tensor"),
}
ADMITTED = sorted(p.stem for p in CASES.glob("*.vx") if p.stem not in REFUSED)


@pytest.mark.parametrize("case", ADMITTED)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_tensor_constructors)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-tensor-constructors: {case}") == snapshot_dot


@pytest.mark.parametrize("case", ADMITTED)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_tensor_constructors)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_refusal_and_its_repair(case):
    ran = run_front(CASES / f"{case}.vx", desugar_tensor_constructors)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [REFUSED[case]]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_a_list_is_a_shape_only_without_extents_and_without_a_float():
    ran = run_front(CASES / "forms.vx", desugar_tensor_constructors)
    made = {s.name: s.value for s in ran.after.items[0].body.stmts if s._prod == "Let"}
    assert made["z"]._prod == "TensorNew" and not made["z"].args      # [2, 3]: a shape
    assert [d._prod for d in made["d"].type.dims] == ["DimAny", "DimAny"]  # [n, 2]
    assert made["f"]._prod == "TensorLit"                              # [2.5, 1.0]: values
    assert made["v"]._prod == "TensorLit" and len(made["v"].elems) == 3
    assert not list(ran.nodes("TensorCall"))


def test_handwritten_two_lists(run_pass, snapshot_txt):
    # A `Tensor<..>(..)` call with two arguments: TensorCall's args are a sequence, the parser
    # reads one (E1001 at the comma). The second is refused, not dropped without a word.
    ran = run_pass("desugar-tensor-constructors", """
        // IL: Linitialised
        fn main() {
            print(Tensor<i32, [2]>([1, 2], [3, 4]));
        }
    """)
    assert ran.codes == ["E3023"]
    assert ran.dump == snapshot_txt
