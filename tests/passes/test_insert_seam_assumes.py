"""insert-seam-assumes (--emit-seam-certs): a host assert that dominates a launch, over what the
kernel receives and cannot change, starts the kernel as an `assume`."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.insert_seam_assumes import insert_seam_assumes
from front import _printed, run_front

CASES = Path(__file__).parent / "cases" / "insert_seam_assumes"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def certified(case: str, **options):
    return run_front(CASES / f"{case}.vx", insert_seam_assumes, emit_seam_certs=True, **options)


def assumes(tree) -> dict:
    return {item.name: [to_text(s).strip() for s in item.body.stmts if s._prod == "Assume"]
            for item in tree.items if item._prod == "Fn"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = certified(case)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"insert-seam-assumes: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_program_prints_the_same_with_its_assumptions(case):
    ran = certified(case)
    before, after = ran.prints()
    assert after == before


def test_the_dominating_asserts_over_what_the_kernel_receives_are_assumed():
    found = assumes(certified("certificate").after)
    assert found["launch$kernel0"] == ["assume(kblk_start > qblk_end);",
                                       "assume(limit <= kblk_start && x == x);"]
    assert found["launch"] == [] and found["main"] == []


def test_a_requires_proved_at_every_call_is_carried_into_the_kernel():
    """The kernel is compiled against its caller's contract."""
    assert assumes(certified("contract").after)["launch$kernel0"] == ["assume(n > 0);",
                                                                     "assume(m >= n);"]


def test_a_requires_not_proved_is_not_carried():
    ran = certified("contract", verify_contracts=False)
    assert assumes(ran.after)["launch$kernel0"] == []


def test_asserts_the_kernel_cannot_rely_on_are_not_carried():
    assert assumes(certified("not_carried").after)["stage$kernel0"] == []


def test_without_the_flag_no_kernel_assumes_anything():
    ran = run_front(CASES / "certificate.vx", insert_seam_assumes)
    assert all(not a for a in assumes(ran.after).values())


def test_a_kernel_launched_twice_assumes_what_both_launches_prove():
    """A second launch of the kernel right after the first assert (a program written in
    Lkernels can launch one kernel twice): only `kblk_start > qblk_end` holds at both."""
    ran = certified("certificate")
    tree = ran.before
    host = next(i for i in tree.items if i._prod == "Fn" and i.name == "launch")
    launch = next(s for s in host.body.stmts
                  if s._prod == "ExprStmt" and s.expr._prod == "Launch")
    stmts = host.body.stmts
    twice = host.replace(body=host.body.replace(stmts=stmts[:1] + (launch,) + stmts[1:]))
    program = tree.replace(items=tuple(twice if i is host else i for i in tree.items))
    out = insert_seam_assumes(program, ran.ctx)
    assert assumes(out)["launch$kernel0"] == ["assume(kblk_start > qblk_end);"]


# Hand-written Lkernels: a launch whose arguments are not named as the kernel's parameters in
# their places (outline-kernels always names them alike), the first argument even named as
# another parameter. The host's proofs, an assert and a proved `requires`, reach the kernel
# in the names of its parameters.
ARGUMENTS_NAMED_OTHERWISE = """
    // IL: Lkernels
    fn main() {
        @run(4);
    }

    fn run(n: i32) requires n > 0 {
        let k: i32 = 3;
        assert(k < n);
        launch run$kernel0 on(Topology::GPU)(k, n);
    }

    fn run$kernel0(n: i32, m: i32) on Topology::GPU {
        @print(n + m);
    }
    // fact proved_requires: {"run": [0]}
"""


def test_handwritten_proofs_reach_the_kernel_in_its_parameters_names(run_pass, snapshot_txt):
    ran = run_pass("insert-seam-assumes", ARGUMENTS_NAMED_OTHERWISE, emit_seam_certs=True)
    assert ran.codes == []
    assert "    assume(m > 0);\n    assume(n < m);\n    @print(n + m);\n" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "7\n"
    assert ran.dump == snapshot_txt
