"""drop-unreturned-arguments: a variable given a call that returns either its buffer or one it
made holds the old buffer first and drops it where the new one's address differs, and drops
its last before each `return`; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_unreturned_arguments import drop_unreturned_arguments
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_unreturned_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_unreturned_arguments)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_unreturned_arguments)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _made(case: str) -> dict:
    """Function -> its drops, each as (production, name)."""
    after = run_front(CASES / f"{case}.vx", drop_unreturned_arguments).after
    return {fn.name: [(s._prod, s.name) for b in fn.blocks for s in b.stmts
                      if s._prod in ("Drop", "DropApart")]
            for fn in after.items if fn._prod == "Fn"}


def test_the_old_buffer_is_dropped_apart_from_the_new_and_the_last_before_the_return():
    made = _made("field_assigned_in_an_if")
    assert made["main"] == [("DropApart", "held"), ("Drop", "h_t")]
    assert made["reset"] == []  # a parameter is the caller's


def test_a_tensor_lent_beside_at_a_parameter_never_returned_is_dropped_before_the_return():
    assert _made("one_field_of_two")["main"] == [("DropApart", "held"), ("Drop", "w_b"),
                                                 ("Drop", "w_a")]


def test_a_value_returned_reading_the_variable_is_computed_before_its_drop():
    after = run_front(CASES / "element_returned.vx", drop_unreturned_arguments).after
    run = next(i for i in after.items if i._prod == "Fn" and i.name == "run")
    end = next(b for b in run.blocks if b.exit._prod == "Return")
    assert [s._prod for s in end.stmts[-2:]] == ["Let", "Drop"]
    assert end.exit.value._prod == "Local" and end.exit.value.name == end.stmts[-2].name


def test_a_variable_that_may_be_given_another_locals_buffer_is_left():
    assert _made("another_parameter_returned")["main"] == []
    assert _made("row_read")["main"] == []


# Hand-written Ldrops: `keep` returns its parameter or a tensor it made; the variable is given
# its call twice in a loop, and a fresh tensor once (the one it held dropped first).
HANDED = """
    // IL: Ldrops
    fn keep(t: Tensor<i32, [2], Memory::CPU_DRAM>, k: i32) -> Tensor<i32, [2], Memory::CPU_DRAM> {
    bb0:
        branch k == 1i32, bb1, bb2;
    bb1:
        return Tensor<i32, [2]>::fill(k);
    bb2:
        return t;
    }

    fn main() -> void cells t {
    bb0:
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3i32);
        t = @keep(t, 0i32);
        t = @keep(t, 1i32);
        t = Tensor<i32, [2]>::fill(5i32);
        @print(t[0i32]);
        return;
    }
"""


def test_handwritten_a_variable_given_a_handing_call_and_a_fresh_tensor(run_pass, snapshot_txt):
    ran = run_pass("drop-unreturned-arguments", HANDED)
    assert ran.codes == []
    main = ran.tree.items[1]
    assert [s._prod for s in main.blocks[0].stmts] == [
        "Let", "Let", "Assign", "DropApart", "Let", "Assign", "DropApart", "Drop", "Assign",
        "ExprStmt", "Drop"]
    assert to_text(ran.tree) == snapshot_txt


# Hand-written Ldrops: `other` may return its first parameter or a tensor it made, never its
# second; o is lent at the second beside t, so it is dropped before the `return`; u, lent at
# the first of another call, may be v's buffer, and is left.
BESIDE = """
    // IL: Ldrops
    fn other(t: Tensor<i32, [2], Memory::CPU_DRAM>, o: Tensor<i32, [2], Memory::CPU_DRAM>, k: i32) -> Tensor<i32, [2], Memory::CPU_DRAM> {
    bb0:
        let first: i32 = o[0i32];
        branch k == 1i32, bb2, bb1;
    bb1:
        t[0i32] = first;
        return t;
    bb2:
        return Tensor<i32, [2]>::fill(k);
    }

    fn main() -> void cells t {
    bb0:
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3i32);
        let o: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2i32);
        t = @other(t, o, 1i32);
        let v: Tensor<i32, [2], Memory::CPU_DRAM> = @other(u, o, 0i32);
        @print(t[0i32] +[i32] v[1i32] +[i32] o[0i32]);
        return;
    }
"""


def test_handwritten_a_tensor_lent_beside_at_a_parameter_never_returned(run_pass, snapshot_txt):
    ran = run_pass("drop-unreturned-arguments", BESIDE)
    assert ran.codes == []
    end = ran.tree.items[1].blocks[0].stmts
    assert [(s._prod, s.name) for s in end if s._prod in ("Drop", "DropApart")] == [
        ("DropApart", "held"), ("Drop", "t"), ("Drop", "o")]
    assert to_text(ran.tree) == snapshot_txt
