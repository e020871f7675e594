"""erase-contracts: `requires`, `ensures` and `invariant` go; native code makes none."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.languages.lsrc import CONTRACTS
from nano_vx.passes.erase_contracts import erase_contracts
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_contracts"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", erase_contracts)
    assert not ran.diagnostics.items
    assert {n._prod for n in ran.nodes()} & CONTRACTS == set()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_contracts)


def test_a_program_without_contracts_comes_out_as_it_went_in():
    ran = run_front("fn main() { print(1); }\n", erase_contracts)
    assert ran.after is ran.before


# Hand-written Lwritten: contracts on a kernel after its assumes, and on a closure's loop.
KERNEL_CONTRACTS = """
    // IL: Lwritten
    fn main() {
        let f: ~_ = |n: i32| {
            let mut k: ~i32 = 0;
            for i in 0..n invariant k == i {
                k += 1;
            }
            k
        };
        @print(f(4));
    }

    fn run$kernel0(n: i32) on Topology::GPU requires n > 0 ensures true {
        assume(n > 0);
        @print(n);
    }
"""


def test_handwritten_contracts_in_a_kernel_and_a_closure(run_pass, snapshot_txt):
    ran = run_pass("erase-contracts", KERNEL_CONTRACTS)
    assert ran.codes == []
    assert "requires" not in ran.text and "invariant" not in ran.text
    assert "assume(n > 0);" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "4\n"
    assert ran.dump == snapshot_txt
