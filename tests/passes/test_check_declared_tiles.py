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


# Hand-written Ltyped: a parameter placed by device, `Topology::Tile`, which infer-placement
# always rewrites to the device's memory, and one whose extent still names a const, which
# fold-const-extents always folds. The first is judged in the device's space; the second has
# no size known here and is passed over; the result fills the space exactly and fits.
UNUSUAL_EXTENTS_AND_PLACES = """
    // IL: Ltyped
    Memory Scratch { capacity: 1 KiB }

    Topology Tile { memory: Memory::Scratch }

    const N: i32 = 4096;

    fn feed(a: Tensor<f32, [512], Topology::Tile>, b: Tensor<f32, [N], Memory::Scratch>) -> Tensor<f32, [256], Memory::Scratch> {
        return b;
    }

    fn main() {
        @print(1);
    }
"""


def test_handwritten_a_device_placed_tile_is_judged_an_unfolded_one_is_not(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("check-declared-tiles", UNUSUAL_EXTENTS_AND_PLACES)
    assert ran.codes == ["E6009"]
    assert ran.diagnostics.items[0].data == {"space": "Scratch", "required": 2048,
                                             "available": 1024, "margin": -1024}
    assert ran.dump == snapshot_txt
