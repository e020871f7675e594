"""lend-uninit-pointers: a call given a raw pointer into a tensor made by `::uninit()` calls a
copy of its function given the tensor, which makes the pointer from it, so that
index-uninit-pointers reaches the tensor's elements there and track-uninit-elements hands the
copy the tensor's written-flags: native code stops with E9005 where the interpreter does,
naming the element's indices in the tensor; any other pointer is given as it is."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.lend_uninit_pointers import lend_uninit_pointers
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "lend_uninit_pointers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", lend_uninit_pointers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", lend_uninit_pointers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _program(items: str, body: str) -> str:
    return to_text(run_front(f"{items}fn main() {{\n{body}\n}}\n", lend_uninit_pointers).after)


GET = "fn get(p: *const i32, k: i32) -> i32 {\n  unsafe { p[k] }\n}\n"


def test_a_pointer_given_by_its_let_is_the_tensor_lent_and_the_let_goes():
    text = _program(GET, "let mut t = Tensor<i32, [2, 2]>::uninit();\nt[0][0] = 1;\n"
                         "let p = t.as_ptr();\nprint(get(p, 0));")
    assert "@print(@get$lent(&t, 0));" in text
    assert "let p" not in text.split("fn get$lent")[0]
    assert "fn get(" not in text  # called no more
    assert "fn get$lent(p_tensor: &Tensor<i32, [2, 2]>, k: i32) -> i32 {\n" \
           "    written copy (p_tensor);\n    let p: *const i32 in Memory::CPU_DRAM = " \
           "p_tensor.as_ptr();" in text


@pytest.mark.parametrize("body", [
    # into a tensor made otherwise; by a pointer's `let` into a tensor then moved
    "let t = Tensor<i32, [2]>::fill(1);\nprint(get(t.as_ptr(), 0));",
    "let mut t = Tensor<i32, [2]>::uninit();\nt[0] = 1;\nlet p = t.as_ptr();\n"
    "let u = t;\nprint(get(p, 0));",
])
def test_any_other_pointer_is_given_as_it_is(body):
    assert "$lent" not in _program(GET, body)


# Hand-written Lcopied: a copy copy-tracked-functions made, given a tensor made by ::uninit(),
# gives a pointer into it to a function: that call is of a copy given the parameter itself
# (a reference already), its mark naming it; the original function, called no more, goes.
GIVEN_ON = """
    // IL: Lcopied
    fn put(p: *mut i32, v: i32) {
        unsafe {
            *p = v;
        };
    }
    fn main() {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        @put$written(&mut t);
        @print(t[0]);
    }
    fn put$written(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) {
        written copy (t);
        @put(t.as_mut_ptr(), 6);
    }
"""


def test_handwritten_a_copy_gives_a_pointer_into_its_tensor_to_a_copy_of_its_own(run_pass):
    ran = run_pass("lend-uninit-pointers", GIVEN_ON)
    assert ran.codes == []
    assert "    written copy (t);\n    @put$lent(t, 6);" in ran.dump
    assert "fn put$lent(p_tensor: &mut Tensor<i32, [2], Memory::CPU_DRAM>, v: i32) {\n" \
           "    written copy (p_tensor);\n" in ran.dump
    assert "fn put(" not in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "6\n"
