"""settle-written-tensors: a tensor made by `::uninit()` that is written whole before anything
reads it, or never read, is made by `::new()` (no read can tell them apart), so that
track-uninit-elements gives flags only to the others; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.settle_written_tensors import settle_written_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "settle_written_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", settle_written_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", settle_written_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _made(body: str, items: str = "") -> dict:
    """The constructor each `let` of main is left with."""
    ran = run_front(f"{items}fn main() {{\n{body}\n}}\n", settle_written_tensors)
    main = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main")
    return {s.name: s.value.ctor for s in main.body.stmts
            if s._prod == "Let" and s.value._prod == "TensorNew"}


@pytest.mark.parametrize("body", [
    # a loop that may run short, a `while`, an `if` writing on one path only
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { if i == 1 { break; } t[i] = 1; }"
    "\nprint(t[0]);",
    "let mut t = Tensor<i32, [3]>::uninit();\nlet mut i = 0;\nwhile i < 3 { t[i] = 1; i += 1; }"
    "\nprint(t[0]);",
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { if i > 0 { t[i] = 1; } }"
    "\nprint(t[0]);",
    # a loop over less than the extent, or from 1, or writing another index than its own
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..2 { t[i] = 1; }\nprint(t[2]);",
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 1..3 { t[i] = 1; }\nprint(t[2]);",
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { t[0] = i; }\nprint(t[0]);",
    # a rank-2 tensor whose rows only a loop writes
    "let mut t = Tensor<i32, [2, 2]>::uninit();\nfor i in 0..2 { t[i][i] = 1; }\nprint(t[0][0]);",
    # read inside the loop that writes it, through a closure, a borrow
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { t[i] = 1; print(t[0]); }",
    "let t = Tensor<i32, [3]>::uninit();\nlet f = || t[0];\nprint(f());",
    "let t = Tensor<i32, [3]>::uninit();\nlet r = &t;\nprint(r[1]);",
])
def test_what_may_read_an_element_never_written_stays_uninit(body):
    assert _made(body) == {"t": "uninit"}


@pytest.mark.parametrize("body", [
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { t[i] = 1; }\nprint(t);",
    "let n = 3;\nlet mut t = Tensor<i32, [?]>::uninit([n]);\nfor i in 0..n { t[i] = i; }"
    "\nprint(t[2]);",
    "let mut t = Tensor<i32, [2, 3]>::uninit();\nfor c in 0..3 { for r in 0..2 { t[r][c] = 1; } }"
    "\nprint(t);",
    "let mut t = Tensor<i32, [3]>::uninit();\nt[0] = 1;\n{ let u = &mut t; for i in 0..3 { u[i] = 2; } }"
    "\nprint(t[1]);",
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { t[i] = 2; }\nlet u = t;\nprint(u[1]);",
    "let t = Tensor<i32, [3]>::uninit();\nprint(t.extent(0));",
])
def test_a_tensor_written_whole_before_it_is_read_or_never_read_is_new(body):
    assert _made(body) == {"t": "new"}


ITEMS = """fn put(t: &mut Tensor<i32, [3]>) {
    for i in 0..3 { t[i] = 1; }
}
fn first(t: &Tensor<i32, [3]>) -> i32 {
    t[0]
}
fn some(t: &mut Tensor<i32, [3]>, n: i32) {
    for i in 0..n { t[i] = 1; }
}
fn round(t: &mut Tensor<i32, [3]>, n: i32) {
    if n > 0 { round(t, n - 1); } else { put(t); }
}
"""


@pytest.mark.parametrize("body,ctor", [
    ("let mut t = Tensor<i32, [3]>::uninit();\nput(&mut t);\nprint(first(&t));", "new"),
    ("let mut t = Tensor<i32, [3]>::uninit();\nprint(first(&t));", "uninit"),
    # a function that writes some elements leaves the tensor as it was
    ("let mut t = Tensor<i32, [3]>::uninit();\nsome(&mut t, 3);", "new"),
    ("let mut t = Tensor<i32, [3]>::uninit();\nsome(&mut t, 3);\nprint(t[0]);", "uninit"),
    # recursion is not followed
    ("let mut t = Tensor<i32, [3]>::uninit();\nround(&mut t, 2);\nprint(t[0]);", "uninit"),
])
def test_a_function_given_a_tensor_unwritten_is_followed(body, ctor):
    assert _made(body, ITEMS) == {"t": ctor}


# Hand-written Lsplit: one tensor written whole by a loop before it is read, one written in
# part; only the first is settled.
WHOLE_AND_PART = """
    // IL: Lsplit
    fn main() {
        let mut whole: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::uninit();
        for i in 0..3 {
            whole[i] = i * 2;
        }
        let mut part: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::uninit();
        part[0] = 5;
        @print(whole[2] + part[0]);
    }
"""


def test_handwritten_a_tensor_written_whole_is_settled_one_written_in_part_is_not(run_pass):
    ran = run_pass("settle-written-tensors", WHOLE_AND_PART)
    assert ran.codes == []
    assert "let mut whole: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::new();" \
        in ran.dump
    assert "let mut part: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::uninit();" \
        in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "9\n"
