"""name-made-tensors: a tensor made for a call or a transfer and bound to no local gets a
local of its own before its statement, when its taker cannot keep it and moving it first
changes no order; the program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_made_tensors import name_made_tensors
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_made_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_made_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_made_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _made(case: str) -> dict:
    """The values each `let made..` of main binds, as text."""
    ran = run_front(CASES / f"{case}.vx", name_made_tensors)
    main = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main")
    return {s.name: to_text(s.value).strip() for b in main.blocks for s in b.stmts
            if s._prod == "Let" and s.name.startswith("made")}


def test_only_a_tensor_whose_taker_cannot_keep_it_and_made_before_anything_seen_is_named():
    made = _made("temporaries")
    # the inner copy and what it copies, the copy `sum` reads, the tensor an element of which
    # is read; not `same`'s argument, the row printed, nor the one made after `said` prints
    assert len(made) == 4
    assert not any("5.0" in v or "8.0" in v or "6.0" in v for v in made.values())
    assert any("7.0" in v for v in made.values())


def test_a_tensor_a_statement_makes_and_discards_is_named_and_its_statement_gone():
    made = _made("discarded")
    assert sorted(made.values()) == ["@made(3.0f32)", "Tensor<f32, [4]>::fill(1.0f32)",
                                     "Tensor<f32, [8]>::new()",
                                     "transfer[sync, CPU_DRAM -> GPU_HBM (50), cost 50](made#2, "
                                     "Memory::GPU_HBM)"]
    ran = run_front(CASES / "discarded.vx", name_made_tensors)
    main = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "main")
    # `same` may return its argument's buffer: its result is not the call's own.
    assert [to_text(s.expr).strip() for b in main.blocks for s in b.stmts
            if s._prod == "ExprStmt"] == ["@same(u)", "@print(t[1i32])"]


def test_a_tensor_made_in_a_return_or_a_condition_is_named_before_the_exit():
    ran = run_front(CASES / "exits.vx", name_made_tensors)
    exits = [b.exit for f in ran.after.items if f._prod == "Fn" for b in f.blocks]
    made = [e for e in exits if "@first(made" in to_text(
        e.cond if e._prod == "Branch" else getattr(e, "value", None) or e)]
    assert sorted(e._prod for e in made) == ["Branch", "Branch", "Return"]


def test_a_tensor_made_from_the_variable_it_is_given_is_named_first():
    ran = run_front(CASES / "made_from_its_own.vx", name_made_tensors)
    text = to_text(ran.after)
    assert "let made: Tensor<i32, [4], Memory::CPU_DRAM> = @grown(t);\n    t = made;" in text
    assert "= @scaled(t, k + 2i32);\n    t = made#1;" in text
    # `same` may return its argument: u's old tensor may be its new one
    assert "u = @same(u);" in text
    assert "let made#2: Tensor<i32, [4], Memory::CPU_DRAM> = @grown(u);\n" \
        "    u = @grown(made#2);" in text


# Hand-written Lcells: the inner copy of a copy of a copy is named, and so is the tensor an
# element of which is read; the local `made` already has gets the next name, and a row read
# of a tensor (a view of its buffer) is not named.
COPIES = """
    // IL: Lcells
    fn main() -> void {
    bb0:
        let made: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1i32);
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = transfer[sync, GPU_HBM -> CPU_DRAM (50),
            cost 50](transfer[sync, CPU_DRAM -> GPU_HBM (50), cost 50](made, Memory::GPU_HBM),
            Memory::CPU_DRAM);
        @print(Tensor<i32, [2]>::fill(2i32)[1i32] +[i32] u[0i32]);
        @print(Tensor<i32, [2, 2]>::fill(3i32)[1i32]);
        return;
    }
"""


def test_handwritten_copies_and_rows(run_pass, snapshot_txt):
    ran = run_pass("name-made-tensors", COPIES)
    assert ran.codes == []
    stmts = ran.tree.items[0].blocks[0].stmts
    assert [s.name for s in stmts if s._prod == "Let"] == ["made", "made#1", "u", "made#2"]
    assert ran.dump == snapshot_txt


def test_a_tensor_asked_its_extent_is_named():
    made = _made("extents")
    assert sorted(made.values()) == ["@sized(i)",
                                     "Tensor<u8, [?, 4]>::fill(Tensor<i32, [2]>([s, 4i32]), 1u8)"]


def test_a_read_through_a_reference_before_a_call_making_a_tensor_is_held_first():
    ran = run_front(CASES / "read_through_a_reference.vx", name_made_tensors)
    text = to_text(ran.after)
    assert "let read: i32 = *r;\n    let made: Tensor<i32, [3], Memory::CPU_DRAM> = @make(r);\n" \
        "    @print(@first(read, made));" in text
