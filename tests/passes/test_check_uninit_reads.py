"""check-uninit-reads: a tensor made by `::uninit()` that may be read before it is written is
refused natively with E5010 (the default action then runs the program in the interpreter,
which stops with E9005 where it reads an element never written); one written whole first, or
never read, runs natively. The tree is unchanged."""

from pathlib import Path

import pytest

from front import (assert_judged, assert_native_as_interpreted, assert_refused_then_repaired,
                   run_cli, run_front)
from nano_vx.passes.check_uninit_reads import check_uninit_reads

CASES = Path(__file__).parent / "cases" / "check_uninit_reads"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {case: ("E5010",) for case in NAMES if case.startswith("e5010_")
           and not case.endswith("_repaired")}
SAYS = ("native code does not lower a read of a tensor made by ::uninit() before every "
        "element is known to be written")


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_uninit_reads, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_read_maybe_unwritten_is_refused_and_its_repair_admitted(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_uninit_reads, "E5010", SAYS)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_default_action_stops_with_e9005_as_the_interpreter_does(case):
    status, printed, err = run_cli(CASES / f"{case}.vx")
    interpreted = run_cli(CASES / f"{case}.vx", "--action", "interpret")
    assert "warning[W5001]" in err and "error[E9005]" in interpreted[2]
    assert (status, printed, err[err.index("error[E9005]"):]) == \
        (interpreted[0], interpreted[1], interpreted[2])


@pytest.mark.parametrize("case", [c for c in NAMES if c not in REFUSED])
def test_a_tensor_written_whole_first_runs_natively_as_interpreted(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _judged(body: str, items: str = "") -> list:
    ran = run_front(f"{items}fn main() {{\n{body}\n}}\n", check_uninit_reads)
    assert ran.after is ran.before
    return ran.diagnostics.codes()


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
    # read inside the loop that writes it, through a closure, a borrow, an unnamed tensor
    "let mut t = Tensor<i32, [3]>::uninit();\nfor i in 0..3 { t[i] = 1; print(t[0]); }",
    "let t = Tensor<i32, [3]>::uninit();\nlet f = || t[0];\nprint(f());",
    "let t = Tensor<i32, [3]>::uninit();\nlet r = &t;\nprint(r[1]);",
    "print(Tensor<i32, [3]>::uninit()[0]);",
])
def test_what_may_read_an_element_never_written_is_refused(body):
    assert _judged(body) == ["E5010"]


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
def test_a_tensor_written_whole_before_it_is_read_or_never_read_is_admitted(body):
    assert _judged(body) == []


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


@pytest.mark.parametrize("body,codes", [
    ("let mut t = Tensor<i32, [3]>::uninit();\nput(&mut t);\nprint(first(&t));", []),
    ("let mut t = Tensor<i32, [3]>::uninit();\nprint(first(&t));", ["E5010"]),
    # a function that writes some elements leaves the tensor as it was
    ("let mut t = Tensor<i32, [3]>::uninit();\nsome(&mut t, 3);", []),
    ("let mut t = Tensor<i32, [3]>::uninit();\nsome(&mut t, 3);\nprint(t[0]);", ["E5010"]),
    # recursion is not followed
    ("let mut t = Tensor<i32, [3]>::uninit();\nround(&mut t, 2);\nprint(t[0]);", ["E5010"]),
])
def test_a_function_given_a_tensor_unwritten_is_followed(body, codes):
    assert _judged(body, ITEMS) == codes
