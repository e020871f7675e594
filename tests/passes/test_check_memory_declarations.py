"""check-memory-declarations: the model is built and stored; E6006, E6007, E6008, E6011,
E6015 and E2001 for declarations that do not make sense, each with its repair."""

from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.parser import parse_text
from nano_vx.passes.check_memory_declarations import check_memory_declarations
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source

CASES = Path(__file__).parent / "cases" / "check_memory_declarations"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "e6006_cycle": ["E6006"],
    "e6007_larger": ["E6007"],
    "e6008_zero": ["E6008"] * 4,
    "e6011_scope": ["E6011"],
    "e6015_malformed": ["E6015"] * 9,
    "e2001_unknown_space": ["E2001"] * 2,
}


def run(case, front):
    return front(CASES / f"{case}.vx", check_memory_declarations)


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = run(case, front)
    assert ran.after is ran.before  # a check: the tree passes through unchanged
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-memory-declarations: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_diagnostics(case, front, snapshot_txt):
    ran = run(case, front)
    assert sorted(ran.diagnostics.codes()) == sorted(REFUSED.get(case, []))
    assert ran.diagnostics.render() == snapshot_txt


def test_a_cycle_names_its_space_and_the_loop(front):
    (d,) = run("e6006_cycle", front).diagnostics.items
    assert d.data["space"] == "A" and d.data["cycle"] == ["A", "B", "A"]


def test_a_larger_child_gives_both_sizes(front):
    (d,) = run("e6007_larger", front).diagnostics.items
    assert "67108864 bytes" in d.message and "41943040 bytes" in d.message
    assert (d.data["capacity"], d.data["parent_capacity"]) == (67108864, 41943040)


def test_a_wider_scope_gives_both_scopes(front):
    (d,) = run("e6011_scope", front).diagnostics.items
    assert (d.data["scope"], d.data["parent_scope"]) == ("sm", "cta")


def test_the_model_is_stored_for_later_passes():
    text = (CASES / "correlation_2.vx").read_text()
    tree, diagnostics = parse_text(text)
    ctx = Compilation(Source("correlation_2.vx", text), diagnostics)
    for p in PIPELINE.passes[1:PIPELINE.names().index("check-memory-declarations") + 1]:
        tree = p(tree, ctx)
    assert not diagnostics.items
    model = ctx.model
    assert model.builtin and not model.has_machine
    assert model.spaces["W"].capacity == 4 * 2**20 and model.ancestors("W") == ("NPU_HBM",)
    assert model.route("CPU_DRAM", "W").cost == 50
