"""The allocator's checked mode (NANO_VX_CHECK_FREES=1, docs/backend.md, Memory): a second
free, a free of an address it never gave, and a read or write of a buffer given back end the
run as the drop passes' bug, where the plain allocator lets them pass unseen; and every drop
pass's case program and every example, run natively in that mode, prints what the
interpreter prints, so no drop there frees a buffer too early or twice."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from lmlir_samples import Builder, L, main_program
from test_native import NOT_LOWERED, RUNS

from nano_vx.backend.errors import BackendBug
from nano_vx.backend.jit import run_native
from nano_vx.cli import main

# Slow (the whole suite's, not the inner loop's): a native run of every drop pass's case
# program and of every example.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent
# The passes that decide where a buffer is given back, or that change what those see.
DROPPING = ("insert_drops", "drop_replaced_buffers", "drop_flagged_takers",
            "drop_made_flagged_results", "find_owned_buffers", "bind_assigned_starts",
            "renew_taken_tensors", "flag_maybe_lent_tensors", "copy_out_tensors",
            "drop_last_buffers", "drop_unreturned_arguments", "drop_chosen_placeholders")
CHECKED = [(path, args) for path, args in RUNS if path not in NOT_LOWERED and (
    path.startswith("examples/") or Path(path).parent.name in DROPPING)]
GRID = "memref<4xi32>"


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setenv("NANO_VX_CHECK_FREES", "1")


def _given_back(b: Builder, *after) -> str:
    """main making a tensor, printing it and giving it back, then doing `after` to it."""
    grid = b.alloc(GRID)
    b.store(b.const(7, "i32"), grid, (b.index(1),), GRID)
    b.print_tensor(grid, GRID, "i32", (4,))
    b.emit(L["Dealloc"](grid, GRID))
    for step in after:
        step(b, grid)
    b.print_str("done")
    return main_program(b)


def _free_again(b: Builder, grid: str) -> None:
    b.emit(L["Dealloc"](grid, GRID))


def _read(b: Builder, grid: str) -> None:
    b.print_scalar(b.load(grid, (b.index(1),), GRID), "i32", "i32")


def _run(program) -> str:
    out = io.StringIO()
    run_native(program, out, 0)
    return out.getvalue()


def test_the_plain_allocator_lets_a_second_free_pass(child):
    assert _run(_given_back(Builder(), _free_again)) == "[0, 7, 0, 0]\ndone\n"


def test_a_second_free_is_the_drop_passes_bug_naming_the_buffer(child, checked):
    with pytest.raises(BackendBug, match=r"the drop passes freed wrongly: the buffer at "
                                         r"0x[0-9a-f]+ is given back but was freed twice"):
        _run(_given_back(Builder(), _free_again))


def test_a_free_of_a_buffer_never_allocated_is_the_drop_passes_bug(child, checked):
    b = Builder()
    cell = b.alloc(GRID, "Alloca")  # the stack's, not the allocator's
    b.emit(L["Dealloc"](cell, GRID))
    with pytest.raises(BackendBug, match=r"the drop passes freed wrongly: the buffer at "
                                         r"0x[0-9a-f]+ is given back but was never allocated"):
        _run(main_program(b))


@pytest.mark.parametrize("step", [_read, lambda b, grid: b.store(b.const(1, "i32"), grid,
                                                                (b.index(0),), GRID)],
                         ids=["read", "written"])
def test_a_buffer_used_after_its_free_faults_as_the_drop_passes_bug(child, checked, step):
    with pytest.raises(BackendBug, match=r"signal 11 \(SIGSEGV\) in the checked mode of frees: "
                                         r"a read or write of a buffer the drop passes gave "
                                         r"back"):
        _run(_given_back(Builder(), step))


def test_the_checked_mode_lets_a_buffer_freed_once_pass(child, checked):
    assert _run(_given_back(Builder())) == "[0, 7, 0, 0]\ndone\n"


def _cli(path: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([path, *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path,args", CHECKED, ids=[" ".join((p, *a)) for p, a in CHECKED])
def test_a_drop_pass_case_or_example_frees_rightly(path, args, monkeypatch, checked):
    monkeypatch.chdir(ROOT)
    native = _cli(path, *args)
    assert "W5001" not in native[2]  # it ran natively
    assert native == _cli(path, *args, "--action", "interpret")
