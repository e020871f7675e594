"""desugar-transfer-methods: the four transfer methods become marked `Transfer` nodes."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.desugar_transfer_methods import desugar_transfer_methods

CASES = Path(__file__).parent / "cases" / "desugar_transfer_methods"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = set()  # the cases this pass reports errors on


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", desugar_transfer_methods)
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-transfer-methods: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [c for c in NAMES if c not in REFUSED])
def test_the_output_prints_what_the_input_printed(case, front):
    before, after = front(CASES / f"{case}.vx", desugar_transfer_methods).prints()
    assert after == before


def test_each_method_becomes_a_marked_transfer(front):
    ran = front(CASES / "methods.vx", desugar_transfer_methods)
    assert not ran.diagnostics.items
    lets = {s.name: s.value for s in ran.after.items[0].body.stmts if s._prod == "Let"}
    moves = {name: (v.value.name, v.dest.name, v.mark)
             for name, v in lets.items() if v._prod == "Transfer"}
    assert moves == {
        "a": ("x", "NPU_HBM", "sync"),
        "b": ("a", "GPU_HBM", "relaxed"),
        "c": ("b", "GPU_HBM", "sync"),
        "d": ("c", "NPU_HBM", "relaxed"),
        "e": ("d", "CPU_DRAM", "sync"),
    }
    before = {s.name: s.value for s in ran.before.items[0].body.stmts if s._prod == "Let"}
    assert lets["a"].span == before["a"].span


def test_other_methods_and_calls_with_arguments_stay_method_calls(front):
    ran = front("fn main() { let t = Tensor<f32, [4]>::new(); let u = t.to_device(1); "
                "let p = t.try_pin(Topology::GPU); }\n", desugar_transfer_methods)
    assert sorted(call.method for call in ran.nodes("MethodCall")) == ["to_device", "try_pin"]
    assert not list(ran.nodes("Transfer"))


def test_a_function_without_transfers_is_shared(front):
    ran = front("fn main() { let t = Tensor<f32, [4]>::new(); let u = t.to_gpu(); }\n"
                "fn other(x: i32) -> i32 { return x.abs(); }\n", desugar_transfer_methods)
    assert ran.after.items[1] is ran.before.items[1]


def test_handwritten_methods_around_a_transfer(run_pass, snapshot_txt):
    # Three moves in one expression, as no program writes them: a method with an argument
    # (a MethodCall) on a `transfer(..)` (still unmarked) of a method's result. Only the
    # calls without arguments are moves; the unmarked one becomes "sync".
    ran = run_pass("desugar-transfer-methods", """
        // IL: Lunrolled
        fn main() {
            let x = Tensor<f32, [2]>::fill(1.0);
            let y = transfer(x.to_gpu_relaxed(), Memory::NPU_HBM).to_device(1);
        }
    """)
    assert ran.codes == []
    assert [(t.mark, t.dest.name) for t in _transfers(ran.tree)] == [
        ("sync", "NPU_HBM"), ("relaxed", "GPU_HBM")]
    assert ran.dump == snapshot_txt


def _transfers(tree):
    return [n for n in descendants(tree) if n._prod == "Transfer"]
