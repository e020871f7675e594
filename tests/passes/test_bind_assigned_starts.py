"""bind-assigned-starts: a tensor local started at a new tensor that its block assigns before
anything names it is bound by a `let` of the value assigned, so no start is made; native code
runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass.verify import descendants
from nano_vx.passes.bind_assigned_starts import bind_assigned_starts
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_assigned_starts"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_assigned_starts)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_assigned_starts)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _starts(tree) -> dict:
    """Function -> the tensor locals its `let`s start at `::new()`."""
    return {fn.name: sorted(n.name for n in descendants(fn) if n._prod == "Let"
                            and n.value._prod == "TensorNew" and n.value.ctor == "new")
            for fn in tree.items if fn._prod == "Fn"}


def test_the_call_a_field_assigned_beside_a_result_comes_back_from_is_bound_by_a_let():
    ran = run_front(CASES / "field_assigned_beside_a_result.vx", bind_assigned_starts)
    assert _starts(ran.before)["main"] == ["returned_1", "returned_1#2"]
    assert _starts(ran.after)["main"] == []
    # the function's own result, stored at its end, too
    assert _starts(ran.before)["reset"] == ["ret_1"] and _starts(ran.after)["reset"] == []
    lets = {n.name: n.value for n in descendants(ran.after) if n._prod == "Let"}
    assert lets["returned_1"]._prod == "Call" and lets["returned_1"].callee.name == "reset"


def test_a_variable_given_a_value_again_is_assigned_as_before():
    ran = run_front(CASES / "tensor_returned_beside_a_scalar.vx", bind_assigned_starts)
    main = next(fn for fn in ran.after.items if fn._prod == "Fn" and fn.name == "main")
    assigned = [n.target.name for n in descendants(main) if n._prod == "Assign"
                and n.target._prod == "Local" and n.value._prod == "Call"]
    assert assigned == ["p_data"]  # `p = sized(4);`, after `let p = sized(3);` bound it


HANDWRITTEN = """
    // IL: Lsplit
    fn made(k: i32, ret_1: &mut i32) -> Tensor<i32, [2]> {
        let t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(k);
        *ret_1 = k;
        t
    }

    fn main() {
        let mut n: i32 = 0;
        let mut a: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        let mut b: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        let mut c: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(3);
        @print(n);
        a = @made(1, &mut n);
        b[0] = 5;
        b = @made(b[0], &mut n);
        if n > 0 {
            c = @made(2, &mut n);
        }
        let mut d: Tensor<i32, [2]> = Tensor<i32, [2]>::new();
        d = if n > 1 { a } else { b };
        @print(a[0] + b[1] + c[0] + d[1]);
    }
"""


def test_handwritten_only_a_start_of_new_assigned_first_in_its_block_is_bound(
        run_pass, snapshot_txt):
    # a: assigned first, after a statement naming another local; b: its element written
    # first; c: started at a tensor of elements, and assigned in a nested block; d: given
    # the tensor an `if` chooses
    ran = run_pass("bind-assigned-starts", HANDWRITTEN)
    assert ran.codes == []
    assert "let mut a: Tensor<i32, [2]> = @made(1, &mut n);" in ran.dump
    assert "let mut b: Tensor<i32, [2]> = Tensor<i32, [2]>::new();" in ran.dump
    assert "let mut c: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(3);" in ran.dump
    assert "let mut d: Tensor<i32, [2]> = Tensor<i32, [2]>::new();" in ran.dump
    assert ran.dump == snapshot_txt


def test_a_start_too_large_to_address_stays_where_it_stops_the_run():
    ran = run_front("const N: i64 = 10000000;\nfn main() {\n"
                    "    let mut t: Tensor<u8, [N, N, N]> = Tensor<u8, [N, N, N]>::new();\n"
                    "    print(1);\n    t = Tensor<u8, [N, N, N]>::new();\n"
                    "    print(t[0][0][0]);\n}\n", bind_assigned_starts)
    assert ran.after is ran.before
