"""index-uninit-pointers: each read and write through a raw pointer into a tensor made by
`::uninit()` is the element of the tensor it reaches, in row-major order, so that
track-uninit-elements follows its written-flag and native code names it in a stop (E9005)
as the interpreter does; any other pointer is left as it is."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.index_uninit_pointers import index_uninit_pointers
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "index_uninit_pointers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", index_uninit_pointers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", index_uninit_pointers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _main(body: str) -> str:
    ran = run_front(f"fn main() {{\n{body}\n}}\n", index_uninit_pointers)
    return to_text(ran.after)


def test_an_element_of_a_tensor_of_three_dimensions_is_reached_by_its_strides():
    text = _main("let mut t = Tensor<i32, [2, 3, 4]>::uninit();\nlet p = t.as_mut_ptr();\n"
                 "unsafe { p[17] = 1; }\nprint(t[1][1][1]);")
    assert "t[17 as i64 / 12][17 as i64 / 4 % 3][17 as i64 % 4] = 1;" in text
    assert "as_mut_ptr" not in text


def test_a_dynamic_extent_after_the_first_is_read_and_taken_as_1_where_it_is_0():
    # were it 0, the tensor has no element: the index at it, 0, is out of it (E9003)
    text = _main("let n = 3;\nlet mut t = Tensor<i32, [2, ?]>::uninit([2, n]);\n"
                 "let p = t.as_mut_ptr();\nunsafe { p[4] = 1; }\nprint(t[1][1]);")
    extent = "(if t.extent(1) > 0 {\n            t.extent(1)\n        } else {\n            1\n        })"
    assert f"t[4 as i64 / {extent}][4 as i64 % {extent}] = 1;" in text
    assert "as_mut_ptr" not in text


def test_a_pointer_into_a_reference_parameter_given_on_is_its_tensors_elements():
    # a `&` only lends the tensor on: it stays the one the pointer points into
    text = to_text(run_front(
        "fn peek(t: &Tensor<i32, [2, 2]>) -> i32 {\n  t[0][0]\n}\n"
        "fn show(t: &Tensor<i32, [2, 2]>) {\n  let p = t.as_ptr();\n  print(peek(t));\n"
        "  print(unsafe { p[3] });\n}\n"
        "fn main() {\n  let mut t = Tensor<i32, [2, 2]>::uninit();\n  t[0][0] = 1;\n"
        "  show(&t);\n}\n", index_uninit_pointers).after)
    assert "t[3 as i64 / 2][3 as i64 % 2]" in text
    assert "as_ptr" not in text


@pytest.mark.parametrize("body", [
    # given on to a function, into a tensor made otherwise, a static 0 extent after the first,
    # read at an index computed by a call, into a tensor then moved
    "let mut t = Tensor<i32, [2]>::uninit();\nlet p = t.as_ptr();\nlet q = p;\n"
    "print(unsafe { q[0] });",
    "let mut t = Tensor<i32, [2]>::fill(1);\nlet p = t.as_ptr();\nprint(unsafe { p[0] });",
    "let mut t = Tensor<i32, [2, 0]>::uninit();\nlet p = t.as_ptr();\nprint(unsafe { p[0] });",
    "let mut t = Tensor<i32, [2, 2]>::uninit();\nlet p = t.as_ptr();\n"
    "print(unsafe { p[t.extent(0)] });",
    "let mut t = Tensor<i32, [2]>::uninit();\nlet p = t.as_ptr();\nlet u = t;\n"
    "print(unsafe { p[0] });",
])
def test_any_other_pointer_is_left_as_it_is(body):
    assert "as_ptr()" in _main(body)


def test_a_pointer_into_a_mut_parameter_given_on_where_it_is_moved_is_left_as_it_is():
    # `let r = t;` in the callee: the tensor the pointer was made from may not be t's after
    text = to_text(run_front(
        "fn keep(t: &mut Tensor<i32, [2]>) {\n  let r = t;\n  r[1] = 4;\n}\n"
        "fn g(t: &mut Tensor<i32, [2]>) {\n  let p = t.as_mut_ptr();\n  keep(t);\n"
        "  unsafe { p[0] = 1; }\n  print(t[0]);\n}\n"
        "fn main() {\n  let mut t = Tensor<i32, [2]>::uninit();\n  g(&mut t);\n}\n",
        index_uninit_pointers).after)
    assert "as_mut_ptr()" in text


# Hand-written Lcopied: a pointer into a tensor of two dimensions made by ::uninit(), written
# and read through; each is the tensor's element, and the `let` of the pointer goes.
POINTED = """
    // IL: Lcopied
    fn main() {
        let mut t: Tensor<i32, [2, 3], Memory::CPU_DRAM> = Tensor<i32, [2, 3]>::uninit();
        let q: ~*mut i32 in Memory::CPU_DRAM = t.as_mut_ptr();
        unsafe {
            q[4] = 2;
        };
        @print(unsafe {
            q[4]
        });
    }
"""


def test_handwritten_a_pointer_is_its_tensors_elements(run_pass):
    ran = run_pass("index-uninit-pointers", POINTED)
    assert ran.codes == []
    assert "t[4 as i64 / 3][4 as i64 % 3] = 2;" in ran.dump
    assert "q" not in ran.dump.replace("unsafe", "")
    assert _printed(ran.before) == _printed(ran.tree) == "2\n"
