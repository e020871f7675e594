"""split-chosen-tensor-references: a reference to a tensor (or a row) an `if` chooses, that
assign-chosen-tensors found no place to start at, is bound in each arm, followed by the rest
of its block; the program prints what it printed, and native code runs it as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.split_chosen_tensor_references import split_chosen_tensor_references
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "split_chosen_tensor_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
FIVE = CASES / "e5010_five_references_chosen_between_calls_given_other_sums.vx"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_chosen_tensor_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_chosen_tensor_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_if_chooses_a_reference_to_a_tensor_or_a_row_for_a_let_any_more():
    for case in NAMES:
        after = run_front(CASES / f"{case}.vx", split_chosen_tensor_references).after
        assert not [n for n in descendants(after) if n._prod == "Let"
                    and n.value._prod == "IfExpr"
                    and n.type._prod in ("BorrowType", "TensorType")], case


def test_an_arm_that_returns_is_left_as_it_is():
    pick = to_text(run_front(CASES / "chosen_by_an_else_if_chain_an_arm_returning.vx",
                             split_chosen_tensor_references).after.items[1])
    assert "        } else {\n            return 0 - 1;\n        }\n" in pick


def test_a_function_with_more_than_four_is_left_for_type_scalars_to_refuse():
    ran = run_front(FIVE, split_chosen_tensor_references)
    assert ran.after is ran.before
    status, printed, err = run_cli(FIVE)
    assert "does not lower an `if` choosing a reference to a tensor none of whose arms names " \
        "a variable nothing assigns" in " ".join(err.split())
    assert (status, printed) == run_cli(FIVE, "--action", "interpret")[:2]
    assert_native_as_interpreted(FIVE.with_name(FIVE.stem + "_repaired.vx"))


# A reference assign-chosen-tensors started at a variable nothing assigns (b), `let mut` or
# not, is left as it is.
@pytest.mark.parametrize("let", ["let mut r", "let r"])
def test_a_reference_started_is_left_as_it_is(let):
    ran = run_front("fn first(p: &mut Tensor<i32, [2]>, q: &mut Tensor<i32, [2]>) -> "
                    "&mut Tensor<i32, [2]> { p }\nfn main() {\n"
                    "  let mut a = Tensor<i32, [2]>::fill(1);\n"
                    "  let mut b = Tensor<i32, [2]>::fill(2);\n  let c = a[0] < b[0];\n"
                    f"  {{\n    {let} = if c {{ first(&mut a, &mut b) }} else "
                    "{ first(&mut b, &mut a) };\n    r[0] = 3;\n  }\n"
                    "  a = Tensor<i32, [2]>::fill(4);\n  print(a);\n}\n",
                    split_chosen_tensor_references)
    assert ran.after is ran.before


# Hand-written Lsplit: a block with a value (here a function's body) makes the `if` its
# value, each arm ending in the block's value (the second's copy reading its own locals).
VALUED = """
// IL: Lsplit
fn first(p: &Tensor<i32, [2], Memory::CPU_DRAM>, q: &Tensor<i32, [2], Memory::CPU_DRAM>) -> &Tensor<i32, [2], Memory::CPU_DRAM> {
    p
}

fn pick(c: bool, a: &Tensor<i32, [2], Memory::CPU_DRAM>, b: &Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
    let r: &Tensor<i32, [2], Memory::CPU_DRAM> = if c {
        @first(a, b)
    } else {
        @first(b, a)
    };
    let k: i32 = r[0] + 1;
    k
}

fn main() {
    let a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1);
    let b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2);
    @print(@pick(true, &a, &b));
    @print(@pick(false, &a, &b));
}
"""


def test_handwritten_a_block_with_a_value_makes_the_if_its_value(run_pass, snapshot_txt):
    ran = run_pass("split-chosen-tensor-references", VALUED)
    assert ran.codes == []
    assert "let r#1: &Tensor<i32, [2], Memory::CPU_DRAM> = @first(b, a);\n" \
           "        let k#2: i32 = r#1[0] + 1;\n        k#2\n    }\n}" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n3\n"
    assert ran.dump == snapshot_txt
