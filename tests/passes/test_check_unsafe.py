"""check-unsafe: a read or write through a raw pointer outside `unsafe` is E5002, a call of an
`unsafe fn` outside it E5001; inside `unsafe` (an expression) or an `unsafe fn`, both run."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_unsafe import check_unsafe
from front import assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "check_unsafe"
REFUSED = [
    ("read_outside", "E5002", "a read through the raw pointer `p` outside `unsafe`"),
    ("write_outside", "E5002", "a write through the raw pointer `p` outside `unsafe`"),
    ("unsafe_call", "E5001", "'first' is an `unsafe fn`, called here outside `unsafe`"),
]


def test_output(snapshot_txt, snapshot_dot):
    ran = run_front(CASES / "pointers.vx", check_unsafe)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title="check-unsafe: pointers") == snapshot_dot


@pytest.mark.parametrize("case", ["pointers"] + [f"{c}_repaired" for c, _, _ in REFUSED])
def test_the_admitted_programs_run(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_unsafe)


def test_pointers_read_and_write_the_tensor_they_point_into():
    before, after = run_front(CASES / "pointers.vx", check_unsafe).prints()
    assert after == "3\n10\n10\n[3, 1.5, 1.5, 4]\n"


@pytest.mark.parametrize("case, code, says", REFUSED)
def test_refused_then_repaired(case, code, says):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_unsafe, code, says)


def test_an_unsafe_fns_body_is_unsafe_and_its_calls_need_unsafe():
    text = ("unsafe fn get(p: *const i32) -> i32 {\n  let q = p;\n  *q + p[0]\n}\n"
            "fn main() {\n  let t = Tensor<i32, [2]>::fill(3);\n"
            "  print(unsafe { get(t.as_ptr()) });\n}\n")
    assert not run_front(text, check_unsafe).diagnostics.items
    outside = text.replace("print(unsafe { get(t.as_ptr()) });", "print(get(t.as_ptr()));")
    assert run_front(outside, check_unsafe).diagnostics.codes() == ["E5001"]


def test_a_pointer_made_where_it_is_read_through_is_judged_too():
    text = ("fn main() {\n  let t = Tensor<i32, [2]>::fill(3);\n  print(t.as_ptr()[1]);\n}\n")
    assert run_front(text, check_unsafe).diagnostics.codes() == ["E5002"]
    repaired = text.replace("print(t.as_ptr()[1]);", "print(unsafe { t.as_ptr()[1] });")
    assert not run_front(repaired, check_unsafe).diagnostics.items


def test_handwritten_a_write_outside_unsafe_is_refused_and_a_read_inside_is_not(run_pass):
    ran = run_pass("check-unsafe", """
        // IL: Lrouted
        fn main() {
            let mut t#1: Tensor<f32, [2], Memory::CPU_DRAM> = Tensor<f32, [2]>::fill(0.0);
            let p#1: *mut f32 in Memory::CPU_DRAM = t#1.as_mut_ptr();
            *p#1 = 1.0;
            let x#1: f32 = unsafe {
                p#1[1]
            };
            @print(x#1);
        }
    """)
    assert ran.codes == ["E5002"]
