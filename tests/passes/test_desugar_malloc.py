"""desugar-malloc: `let b: Tensor<f32, CPU_DRAM> = malloc(n);` is the constructor
`Tensor<f32, [?], Memory::CPU_DRAM>::uninit([n])`; the program prints what it printed."""

from pathlib import Path

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_malloc import desugar_malloc
from front import assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "desugar_malloc"


def test_output(snapshot_txt, snapshot_dot):
    ran = run_front(CASES / "old_spellings.vx", desugar_malloc)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title="desugar-malloc: old_spellings") == snapshot_dot
    [new] = ran.nodes("TensorNew")
    assert to_text(new).strip() == "Tensor<f32, [?], Memory::CPU_DRAM>::uninit([n])"


def test_the_output_prints_what_the_input_printed():
    assert_prints_the_same(CASES / "old_spellings.vx", desugar_malloc)
    assert_prints_the_same(CASES / "untyped_repaired.vx", desugar_malloc)


def test_a_malloc_without_a_written_type_is_refused_then_repaired():
    assert_refused_then_repaired(CASES / "untyped.vx", desugar_malloc, "E2001",
                                 "`malloc(n)` makes a tensor of the element type and the space")


def test_a_programs_own_malloc_is_called():
    text = ("fn malloc(n: i32) -> i32 { n }\nfn main() {\n  let b: i32 = malloc(4);\n"
            "  print(b);\n}\n")
    ran = run_front(text, desugar_malloc)
    assert not ran.diagnostics.items and ran.after is ran.before


def test_handwritten_malloc_under_a_shaped_type(run_pass):
    ran = run_pass("desugar-malloc", """
        // IL: Lonefile
        fn main() {
            let b: Tensor<i32, [?]> = malloc(2 + 1);
            print(1);
        }
    """)
    assert ran.codes == []
    assert "Tensor<i32, [?]>::uninit([2 + 1])" in ran.dump
