"""copy-into-assigned-uninit-tensors: an assignment of a whole tensor made otherwise to a
local holding one made by `::uninit()`, whose buffer no other name holds, is the copy of its
elements into that buffer. The program prints what it printed (and stops where it stopped),
and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_into_assigned_uninit_tensors import copy_into_assigned_uninit_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_into_assigned_uninit_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_into_assigned_uninit_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_into_assigned_uninit_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_copy_is_made_where_the_assignment_was():
    text = to_text(run_front(CASES / "on_a_path.vx", copy_into_assigned_uninit_tensors).after)
    assert "if a[0] < 5 {\n        let assigned: Tensor<i32, [3], Memory::CPU_DRAM> = " \
        "Tensor<i32, [3]>::fill(7);\n        for copied in 0..3 {\n" \
        "            a[copied] = assigned[copied];\n        }\n    }" in text


# Hand-written Lallset: a tensor made by `::uninit()` assigned a filled one, copied; one
# whose buffer a `let` gives another name, one assigned a tensor made by `::uninit()`, and
# one a closure names, which stay assigned.
KINDS = """
    // IL: Lallset
    fn main() {
        let mut a: Tensor<i32, [2]> = Tensor<i32, [2]>::uninit();
        a = Tensor<i32, [2]>::fill(1);
        @print(a[1]);
        let mut b: Tensor<i32, [2]> = Tensor<i32, [2]>::uninit();
        b[0] = 2;
        let u: Tensor<i32, [2]> = b;
        b = Tensor<i32, [2]>::fill(3);
        @print(u[0] + b[0]);
        let mut c: Tensor<i32, [2]> = Tensor<i32, [2]>::uninit();
        c = Tensor<i32, [2]>::uninit();
        c[0] = 4;
        @print(c[0]);
        let mut d: Tensor<i32, [2]> = Tensor<i32, [2]>::uninit();
        let f: ~_ = || {
            @print(d[0])
        };
        d = Tensor<i32, [2]>::fill(5);
        f();
    }
"""


def test_handwritten_an_assignment_is_a_copy_only_where_nothing_else_holds_the_buffer(
        run_pass):
    ran = run_pass("copy-into-assigned-uninit-tensors", KINDS)
    assert ran.codes == []
    assert "    a = " not in ran.dump
    assert "a[copied] = assigned[copied];" in ran.dump
    assert "b = Tensor<i32, [2]>::fill(3);" in ran.dump
    assert "c = Tensor<i32, [2]>::uninit();" in ran.dump
    assert "d = Tensor<i32, [2]>::fill(5);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "1\n5\n4\n5\n"
