"""check-declared-tiles: a parameter, result or struct field whose type is a tile larger than
its space (E6009), judged without a call."""

from pathlib import Path

import pytest

from nano_vx.passes.check_declared_tiles import check_declared_tiles
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_declared_tiles"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_declared_tiles)
    assert ran.after is ran.before
    assert ran.diagnostics.render() == snapshot_txt


def test_each_declaration_is_refused_with_its_granule_rounded_size():
    said = [d.message for d in run_front(CASES / "too_big.vx",
                                         check_declared_tiles).diagnostics.items]
    assert said == [
        "field 'big' of 'Holder' is a tensor of 4096 bytes, but memory space 'Tiny' has "
        "capacity 1024 bytes",
        "parameter 'x' is a tensor of 1536 bytes, but memory space 'Tiny' has capacity 1024 "
        "bytes",
        "the result of 'never_called' is a tensor of 8192 bytes, but memory space 'Tiny' has "
        "capacity 1024 bytes"]
    assert not run_front(CASES / "too_big_repaired.vx", check_declared_tiles).diagnostics.items


def test_refused_from_the_command_line(capsys):
    assert_refused_from_the_command_line(CASES / "too_big.vx", "E6009", capsys)


def test_the_repair_runs_the_same_after_the_check():
    assert_prints_the_same(CASES / "too_big_repaired.vx", check_declared_tiles)
