"""decide-placement-queries: a variable's `.topology()` compared with `Some(Topology::X)` or
`None` is the `bool` its type decides, also through a variable a `let` binds to it, and so
is one of a local a closure's call gives whose body sends a tensor by `transfer`; a query
used otherwise stays for the gate to refuse."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.decide_placement_queries import decide_placement_queries
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "decide_placement_queries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", decide_placement_queries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", decide_placement_queries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", ["queries_compared", "query_bound_by_let"])
def test_no_query_is_left(case):
    after = to_text(run_front(CASES / f"{case}.vx", decide_placement_queries).after)
    assert ".topology()" not in after


HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let t: Tensor<f32, [2], Memory::GPU_HBM> = Tensor<f32, [2]>::new();
        let s: Pinned<i32, Topology::NPU[1]> = 5;
        @print(t.topology() == Some(Topology::GPU));
        @print(None != t.topology());
        @print(s.topology() == Some(Topology::NPU[0]));
        @print(s.topology() == Some(Topology::NPU[1]));
        @print(s.topology());
        let p: _ = t.topology();
        @print(p != None);
        let q: _ = s.topology();
        @print(q);
    }
"""


def test_handwritten_each_comparison_is_what_the_type_decides(run_pass, snapshot_txt):
    ran = run_pass("decide-placement-queries", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(true);\n    @print(true);\n    @print(false);\n    @print(true);" in ran.dump
    assert "@print(s.topology());" in ran.dump
    assert "let p" not in ran.dump and "let q: _ = s.topology();\n    @print(q);" in ran.dump
    assert ran.dump == snapshot_txt
