"""desugar-unroll-across: one `spawn on` per index, with constant bounds or E3050."""

import io
import tracemalloc
from pathlib import Path

import pytest

from nano_vx.cli import main as cli_main
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_unroll_across import desugar_unroll_across

CASES = Path(__file__).parent / "cases" / "desugar_unroll_across"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"not_constant"}  # the cases this pass reports errors on


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", desugar_unroll_across)
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-unroll-across: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [c for c in NAMES if c not in REFUSED])
def test_the_output_prints_what_the_input_printed(case, front):
    before, after = front(CASES / f"{case}.vx", desugar_unroll_across).prints()
    assert after == before


def _spawns(fn):
    return [s.expr for s in fn.body.stmts if s._prod == "ExprStmt" and s.expr._prod == "Spawn"]


def test_one_spawn_per_index_with_the_index_bound_first(front):
    ran = front(CASES / "literal_range.vx", desugar_unroll_across)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("UnrollAcross"))
    [main] = ran.after.items
    spawns = _spawns(main)
    assert [(s.topo.name, s.topo.index.value, s.topo.end) for s in spawns] == [
        ("NPU", 0, None), ("NPU", 1, None), ("NPU", 2, None)]
    for k, spawn in enumerate(spawns):
        let = spawn.body.stmts[0]
        assert (let.name, let.mutable, let.type, let.value.value) == ("i", False, None, k)
        assert spawn.span == ran.before.items[0].body.stmts[0].span
    # The statement after the unroll stays after it.
    assert main.body.stmts[-1] is ran.before.items[0].body.stmts[-1]
    # The copies share the body's (immutable) nodes rather than copy them.
    assert spawns[0].body.stmts[1] is spawns[1].body.stmts[1]


def test_const_items_and_arithmetic_fold_and_a_single_index(front):
    ran = front(CASES / "const_bounds.vx", desugar_unroll_across)
    assert not ran.diagnostics.items
    spawns = _spawns(ran.after.items[2])
    assert [(s.topo.name, s.topo.index.value) for s in spawns] == [
        ("NPU", 1), ("NPU", 2), ("AccCore", 2)]


def test_a_function_without_unroll_is_shared(front):
    ran = front("fn main() { unroll across(Topology::NPU[0..1]) { |i| print(i); } }\n"
                "fn other() { print(1); }\n", desugar_unroll_across)
    assert ran.after.items[1] is ran.before.items[1]


def _e3050(front, text, code="E3050"):
    ran = front(text, desugar_unroll_across)
    [diag] = ran.diagnostics.items
    assert diag.code == code
    assert not list(ran.nodes("Spawn"))  # the statement is dropped, the tree still valid
    return diag, diag.span.source.text[diag.span.start:diag.span.end]


def test_a_runtime_bound_is_e3050_naming_the_bound(front):
    diag, spanned = _e3050(front, (CASES / "not_constant.vx").read_text())
    assert diag.message == "the bound `n` of `unroll across` is not a compile-time integer constant"
    assert spanned == "n"
    assert diag.span.line == 3


def test_the_repaired_bound_is_accepted(front):
    text = (CASES / "not_constant.vx").read_text().replace("let n = 4;", "")
    ran = front("const n: i32 = 4;\n" + text, desugar_unroll_across)
    assert not ran.diagnostics.items
    assert len(_spawns(ran.after.items[1])) == 4


def test_a_local_hiding_a_const_item_is_not_constant(front):
    diag, spanned = _e3050(front, "const N: i32 = 4;\nfn main() { let N = 2; "
                                  "unroll across(Topology::NPU[0..N]) { |i| print(i); } }\n")
    assert spanned == "N"


def test_a_const_generic_bound_says_it_is_not_known_where_the_copies_are_made(front):
    diag, spanned = _e3050(front, "fn lanes<const N: i32>() -> i32 {\n"
                                  "  unroll across(Topology::NPU[0..N + 1]) { |i| print(i); }\n"
                                  "  N\n}\nfn main() { print(lanes<2>()); }\n")
    assert diag.message == ("the bound `N + 1` of `unroll across` names the const parameter "
                            "'N' of 'lanes', which is not known yet where the copies are made")
    assert spanned == "N + 1"
    assert diag.help == ["write the bounds with literals or `const` items, or write a `for` "
                         "loop around a `spawn on` (its unit is then 0, W1030)"]


def test_a_backwards_range_is_e3050(front):
    diag, spanned = _e3050(front, "fn main() { unroll across(Topology::NPU[3..1]) "
                                  "{ |i| print(i); } }\n")
    assert diag.message == "the range 3..1 of `unroll across` starts after it ends"
    assert spanned == "Topology::NPU[3..1]"


def test_a_topology_without_index_is_e3050(front):
    diag, _ = _e3050(front, "fn main() { unroll across(Topology::GPU) { |i| print(i); } }\n")
    assert "needs an index range" in diag.message


def test_a_huge_range_is_e3051_and_the_limit_itself_unrolls(front):
    diag, spanned = _e3050(front, "fn main() { unroll across(Topology::NPU[0..4097]) "
                                  "{ |i| print(i); } }\n", code="E3051")
    assert diag.message == ("`unroll across` over 0..4097 would make 4097 copies of its body, "
                            "more than the 4096 it unrolls")
    ran = front("fn main() { unroll across(Topology::NPU[1..4097]) { |i| } }\n",
                desugar_unroll_across)
    assert not ran.diagnostics.items
    assert len(ran.after.items[0].body.stmts) == 4096


NEST = """fn main() {
    unroll across(Topology::NPU[0..64]) {
        |i|
        unroll across(Topology::NPU[0..64]) {
            |j|
            unroll across(Topology::NPU[0..64]) {
                |k|
                print(k);
            }
        }
    }
}
"""


def test_a_nest_is_bounded_by_the_product_of_its_ranges(front):
    ran = front(NEST, desugar_unroll_across)
    [diag] = ran.diagnostics.items
    assert diag.code == "E3051"
    assert diag.message == ("nested `unroll across` over 0..64, 0..64 and 0..64 would make "
                            "262144 copies (64 x 64 x 64) of the innermost body, more than the "
                            "4096 a nest unrolls")
    assert diag.span.line == 6  # the range that crosses the bound
    assert diag.data["copies"] == 262144
    assert diag.data["ranges"] == [[0, 64], [0, 64], [0, 64]]


def test_a_nest_within_the_bound_unrolls_every_copy(front):
    ran = front(NEST.replace("NPU[0..64]) {\n                |k|", "NPU[0..1]) {\n"
                             "                |k|"), desugar_unroll_across)
    assert not ran.diagnostics.items
    assert sum(1 for _ in ran.nodes("Spawn")) == 64 + 64 * 64 + 64 * 64


def test_a_refused_nest_is_refused_in_little_memory(tmp_path):
    # 262,144 copies grew past 500 MiB in the passes after this one; refused before any copy
    # of the innermost body is made, the whole compilation stays small.
    source = tmp_path / "nest.vx"
    source.write_text(NEST)
    err = io.StringIO()
    tracemalloc.start()
    try:
        status = cli_main([str(source), "--action", "check"], io.StringIO(), err)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 1 and "error[E3051]" in err.getvalue()
    assert peak < 32 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_a_const_without_a_value_is_not_constant(front):
    # It made fold read the missing value (an AttributeError); check-constants refuses the
    # const itself later (E3044).
    diag, spanned = _e3050(front, "const N: i32;\nfn main() { "
                                  "unroll across(Topology::NPU[0..N]) { |i| print(i); } }\n")
    assert spanned == "N"


def test_handwritten_range_without_a_start(run_pass, snapshot_txt):
    # `Topology::NPU[..2]`: a TopoRef with an end and no index, which the parser never builds
    # (it reads `[a]` or `[a..b]`). No start is no range: E3050, and the statement goes.
    ran = run_pass("desugar-unroll-across", """
        // IL: Lpaths
        fn main() {
            unroll across(Topology::NPU[..2]) { |i|
                print(i);
            }
        }
    """)
    assert ran.codes == ["E3050"]
    assert ran.dump == snapshot_txt
