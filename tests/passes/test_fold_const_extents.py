"""fold-const-extents: an extent naming an integer const is its number, so a tensor's size is
known to the capacity checks and to native code; the program prints what it printed. A
`spawn on` unit index not known while compiling is 0, with W1030."""

import textwrap
from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.resume.read import read_dump
from nano_vx.dump.text import to_text
from nano_vx.passes.fold_const_extents import fold_const_extents
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "fold_const_extents"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", fold_const_extents)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"fold-const-extents: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", fold_const_extents)


def test_extents_fold_through_consts_and_their_arithmetic():
    ran = run_front(CASES / "extents.vx", fold_const_extents)
    dims = {tuple(d.value for d in n.dims) for n in ran.nodes("TensorType")}
    assert dims == {(4,), (8, 5), (3,)}
    assert not list(ran.nodes("DimName")) and not list(ran.nodes("DimBinary"))


def test_a_local_of_the_same_name_is_not_the_const():
    ran = run_front("const n: i32 = 4;\nfn main() { let n = 2; let t = Tensor<i32, [n]>::new(); "
                    "print(t); }\n", fold_const_extents)
    assert [d.name for d in ran.nodes("DimName")] == ["n"]


def test_a_const_that_does_not_fold_to_a_positive_integer_stays_a_name():
    text = ("const Z: i32 = 1 - 1;\nconst F: f32 = 2.0;\nconst D: i32 = 4 / 0;\n"
            "fn main() { print(Z); }\n")
    ran = run_front(text, fold_const_extents)
    assert ran.after is ran.before or to_text(ran.after) == to_text(ran.before)


SPAWNS = """const K: i32 = 2;
fn on_unit<const N: i32>() -> i32 {
    let v = spawn on(Topology::NPU[N * K]) { 1 };
    return v;
}
fn main() {
    spawn on(Topology::AccCore[K * 2 - 1]) { print(7); };
    for j in 0..2 {
        let w = spawn on(Topology::NPU[j + 1]) { 6 * 7 };
        print(w);
    }
    print(on_unit<1>());
}
"""


def _spawn_indices(ran):
    return [n.topo.index for n in ran.nodes("Spawn")]


def test_w1030_a_spawn_index_not_known_while_compiling_is_0():
    ran = run_front(SPAWNS, fold_const_extents)
    (d,) = ran.diagnostics.items
    assert (d.severity, d.code) == ("warning", "W1030")
    assert d.message == ("the index `j + 1` of `spawn on(Topology::NPU[j + 1])` is not a "
                         "compile-time constant; index 0 is used")
    assert (d.span.line, d.data["index"], d.data["topology"]) == (9, "j + 1", "NPU")
    # The constant indices (a const's arithmetic, a const generic's) stay as written.
    indices = _spawn_indices(ran)
    assert sum(1 for i in indices if i._prod == "Int" and i.value == 0) == 1
    assert len(indices) == 3 and all(i._prod != "Local" for i in indices)


def test_w1030_repaired_constant_indices_are_kept_and_unrolled_copies_warn_once():
    repaired = SPAWNS.replace("Topology::NPU[j + 1]", "Topology::NPU[1]")
    ran = run_front(repaired, fold_const_extents)
    assert not ran.diagnostics.items
    unrolled = """fn main() {
    unroll across(Topology::NPU[0..3]) { |i|
        for j in 0..2 { spawn on(Topology::GPU[j]) { print(1); }; }
    }
}
"""
    assert run_front(unrolled, fold_const_extents).diagnostics.codes() == ["W1030"]


def test_w1030_the_block_runs_on_unit_0():
    ran = run_front("""fn main() {
    let i = 3;
    let v = spawn on(Topology::NPU[i]) { 1 };
    print(v.topology() == Some(Topology::NPU[0]));
}
""", fold_const_extents)
    assert ran.diagnostics.codes() == ["W1030"]
    assert ran.prints() == ("false\n", "true\n")  # before the pass, on unit 3


# Hand-written Lmono: consts that check-constants refuses before this pass runs, so no program
# that reaches it holds them: a cycle, a value outside its type, and arithmetic that folds to a
# zero extent. Each stays as written; the names inside a zero extent's arithmetic still fold.
REFUSED_CONSTS = """
    // IL: Lmono
    const A: i32 = B + 1;
    const B: i32 = A * 2;
    const BIG: i32 = 2147483647 * 4;
    const M: i32 = 4;
    fn main() {
        let t = Tensor<i32, [A, BIG]>::new();
        let u = Tensor<i32, [M - 4, M * M]>::new();
        @print(u);
    }
"""


def test_handwritten_consts_earlier_checks_refuse_stay_names(run_pass, snapshot_txt):
    ran = run_pass("fold-const-extents", REFUSED_CONSTS)
    assert ran.codes == []
    assert "Tensor<i32, [A, BIG]>" in ran.text
    assert "Tensor<i32, [4 - 4, 16]>" in ran.text
    assert ran.dump == snapshot_txt


# Hand-written Lmono: this pass's own output, which no program hands it (it runs once): the
# folded extents are numbers already and a second run changes nothing.
FOLDED_ONCE = """
    // IL: Lmono
    const N: i32 = 2;
    fn main() {
        let t = Tensor<i32, [N * 3, N]>::new();
        @print(t);
    }
"""


def test_handwritten_a_second_run_changes_nothing(run_pass):
    once = run_pass("fold-const-extents", FOLDED_ONCE)
    assert "Tensor<i32, [6, 2]>" in once.text
    twice = run_pass("fold-const-extents", once.text)
    assert (twice.text, twice.codes) == (once.text, [])
    assert _printed(twice.tree) == _prints(FOLDED_ONCE) \
        == "[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]\n"


def _prints(text: str) -> str:
    """What hand-written IL prints under the reference interpreter."""
    return _printed(read_dump(textwrap.dedent(text).lstrip())[1])


def test_a_const_a_comptime_block_computes_folds_and_one_that_cannot_finish_stays_a_name():
    ran = run_front(CASES / "comptime_consts.vx", fold_const_extents)
    dims = {tuple(d.value for d in n.dims) for n in ran.nodes("TensorType")}
    assert dims == {(6,), (12,), (2, 6)}
    stuck = ("const D: i32 = comptime { 1 / 0 };\n"
             "fn main() { let t = Tensor<i32, [D]>::new(); print(t); }\n")
    assert [d.name for d in run_front(stuck, fold_const_extents).nodes("DimName")] == ["D"]
