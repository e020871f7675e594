"""start-chosen-references: a `let` of a reference an `if` chooses is a `let mut` of a
reference to a zero of its own, which the `if` then assigns, so that explicate-control
starts it there and each arm makes only the reference it chose; the program prints what it
printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.start_chosen_references import start_chosen_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "start_chosen_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", start_chosen_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", start_chosen_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_reference_starts_at_a_zero_of_its_own_and_the_if_assigns_it():
    text = to_text(run_front(CASES / "chosen.vx", start_chosen_references).after)
    assert "    let q#2: ~f32 = 0.0f32;\n    let mut q: ~&f32 = &q#2;\n" \
           "    q = if c {\n        &t[1i32]\n    } else {\n        &x\n    };\n" in text
    assert "        let mut r#1: ~i32 = 0i32;\n        let mut r: ~&mut i32 = &mut r#1;\n" \
        in text


def test_a_function_without_one_is_left_as_it_is():
    ran = run_front("fn main() {\n  let mut a = 1;\n  let c = a < 2;\n"
                    "  let k = if c { 1 } else { 2 };\n  let r = &mut a;\n  *r = k;\n"
                    "  print(a);\n}\n", start_chosen_references)
    assert ran.after is ran.before


# Hand-written Lscalars: a name the program already has is not taken for the zero, and a
# vector's zero is a splat.
TAKEN = """
// IL: Lscalars
fn main() -> void {
    let mut r#1: i32 = 3i32;
    let mut u: <2 x f32> = splat::<2 x f32>(1.0f32);
    let mut w: <2 x f32> = splat::<2 x f32>(2.0f32);
    let c: bool = r#1 > 1i32;
    let r: &mut i32 = if c {
        &mut r#1
    } else {
        &mut r#1
    };
    *r = 4i32;
    let v: &<2 x f32> = if c {
        &u
    } else {
        &w
    };
    @print(r#1);
    @print(*v);
}
"""


def test_handwritten_the_zero_takes_a_name_of_its_own(run_pass, snapshot_txt):
    ran = run_pass("start-chosen-references", TAKEN)
    assert ran.codes == []
    assert "let mut r#2: i32 = 0i32;\n    let mut r: &mut i32 = &mut r#2;\n" \
           in ran.dump
    assert "let v#1: <2 x f32> = splat::<2 x f32>(0.0f32);\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "4\n<1, 1>\n"
    assert ran.dump == snapshot_txt


def test_a_reference_to_a_narrow_element_starts_at_the_first_element_an_arm_names():
    # A byte of f8e4m3 no variable holds; a bf16 is a scalar type of its own, with a zero.
    text = to_text(run_front(CASES / "narrow_elements.vx", start_chosen_references).after)
    assert "        let mut r: ~&mut f8e4m3 = &mut m[0i32][0i32];\n        r = if c {\n" in text
    assert "        let mut w: ~&f8e4m3 = &t[0i32];\n" in text
    assert "    let mut r#1: ~bf16 = 0.0bf16;\n    let mut r: ~&mut bf16 = &mut r#1;\n" in text


def test_a_reference_to_a_narrow_element_of_no_tensor_of_static_extents_starts_at_its_own():
    text = to_text(run_front(CASES / "reference_to_narrow_elements_of_a_dynamic_extent.vx",
                             start_chosen_references).after)
    assert "let mut r#1: Tensor<f8e4m3, [1], Memory::CPU_DRAM> = " \
        "Tensor<f8e4m3, [1]>::new();\n        let mut r: ~&mut f8e4m3 = &mut r#1[0i32];" in text
