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


def within_chain(n: int) -> str:
    """n spaces, each `within:` the one before; every third declares a capacity and every
    fifth a scope, so each one's size and scope are compared with an ancestor's."""
    lines = ["Memory S0 { within: Memory::GPU_HBM, capacity: 1 GiB, scope: sm }"]
    for i in range(1, n):
        fields = [f"within: Memory::S{i - 1}"]
        if i % 3 == 0:
            fields.append("capacity: 1 MiB")
        if i % 5 == 0:
            fields.append("scope: cta")
        lines.append(f"Memory S{i} {{ {', '.join(fields)} }}")
    return "\n".join(lines) + "\nfn main() { print(1); }\n"


class CountingSpaces(dict):
    """The model's spaces, counting every look-up: the work the check does."""

    lookups = 0

    def get(self, key, default=None):
        CountingSpaces.lookups += 1
        return super().get(key, default)

    def __getitem__(self, key):
        CountingSpaces.lookups += 1
        return super().__getitem__(key)


def _lookups(front, monkeypatch, n: int) -> int:
    import nano_vx.passes.check_memory_declarations as pass_module

    build = pass_module.build_model

    def counted(items, diagnostics):
        model = build(items, diagnostics)
        model.spaces = CountingSpaces(model.spaces)
        return model

    monkeypatch.setattr(pass_module, "build_model", counted)
    CountingSpaces.lookups = 0
    ran = front(within_chain(n), check_memory_declarations)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    return CountingSpaces.lookups


def test_a_long_within_chain_is_checked_in_linear_work(front, monkeypatch):
    # Each space's nearest sized ancestor and inherited scope are found once, not by a walk
    # up the whole chain per space: ten times the chain is about ten times the look-ups.
    small, large = _lookups(front, monkeypatch, 100), _lookups(front, monkeypatch, 1000)
    assert large <= 12 * small, (small, large)


def test_a_long_cycle_is_named_by_its_ends(front):
    text = within_chain(1000).replace("within: Memory::GPU_HBM", "within: Memory::S999")
    ran = front(text, check_memory_declarations)
    (d,) = ran.diagnostics.items
    assert d.message == ("memory space 'S0' is within itself: S0 -> S999 -> S998 -> S997 -> "
                         "(993 more) -> S3 -> S2 -> S1 -> S0")
    assert len(d.data["cycle"]) == 1001  # the JSON form keeps every space
