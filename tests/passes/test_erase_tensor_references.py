"""erase-tensor-references: a reference to a tensor is the tensor's buffer (`&t`, `*p` and
`&Tensor<..>` go); a reference to a scalar variable stays."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.erase_tensor_references import erase_tensor_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_tensor_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", erase_tensor_references)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_tensor_references)


def test_only_the_references_to_scalars_stay():
    ran = run_front(CASES / "references.vx", erase_tensor_references)
    kept = [to_text(n).strip() for n in ran.nodes() if n._prod in ("Borrow", "Deref")]
    assert kept == ["*n", "&mut n", "&n", "*p"]
    assert [to_text(n).strip() for n in ran.nodes("BorrowType")] == ["&mut i64", "&i64"]


def test_a_row_lent_is_the_row_where_its_borrow_stood_and_runs_natively():
    ran = run_front(CASES / "lent_rows.vx", erase_tensor_references)
    assert not [n for n in ran.nodes() if n._prod in ("Borrow", "Deref")]
    spans = [n.span for n in ran.nodes("Index")]
    assert "&m[1]" in [s.source.text[s.start:s.end] for s in spans]
    assert_native_as_interpreted(CASES / "lent_rows.vx")


# Hand-written Lsafe: a reference to a reference to a tensor, read through twice, and a
# kernel's parameter that is a reference to a tensor.
DOUBLE_REFERENCE = """
    // IL: Lsafe
    fn total(t: &&Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
        (*(*t))[0] + (*(*t))[1]
    }

    fn main() {
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4);
        let r: ~&Tensor<i32, [2], Memory::CPU_DRAM> = &t;
        @print(@total(&r));
    }
"""


def test_handwritten_a_reference_to_a_reference_to_a_tensor(run_pass, snapshot_txt):
    ran = run_pass("erase-tensor-references", DOUBLE_REFERENCE)
    assert ran.codes == []
    assert "&" not in ran.text.split("\n", 1)[1] and "*" not in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "8\n"
    assert ran.dump == snapshot_txt
