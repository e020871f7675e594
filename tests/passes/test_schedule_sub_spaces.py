"""schedule-sub-spaces: each tile in a granule'd space gets an offset and a slot count."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.schedule_sub_spaces import schedule_sub_spaces
from front import _printed, run_front

CASES = Path(__file__).parent / "cases" / "schedule_sub_spaces"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", schedule_sub_spaces)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"schedule-sub-spaces: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    before, after = run_front(CASES / f"{case}.vx", schedule_sub_spaces).prints()
    assert after == before


def test_tiles_are_bumped_above_resident_ones_and_reuse_freed_space():
    ran = run_front(CASES / "bump.vx", schedule_sub_spaces)
    slots = [(t.dest.name, t.slot and (t.slot.offset, t.slot.slots)) for t in ran.nodes("Transfer")]
    assert slots == [("Smem", (0, 1)), ("Smem", (16384, 2)), ("NPU_HBM", None),
                     ("NPU_HBM", None), ("Smem", (0, 1)), ("NPU_HBM", None),
                     ("CPU_DRAM", None)]
    desc = next(ran.nodes("SubSpace"))
    assert (desc.name, desc.capacity, desc.granule, desc.within, desc.scope) == (
        "Smem", 65536, 16384, "NPU_HBM", "sm")


def test_a_tile_a_loop_carries_is_kept_apart_from_the_tiles_of_its_next_turn():
    ran = run_front(CASES / "carried_tile.vx", schedule_sub_spaces)
    first, s, v, carried = [t.slot.offset for t in ran.nodes("Transfer") if t.slot is not None]
    assert (first, s, v) == (0, 16384, 0)  # `s` beside `a`'s first tile, `v` after both left
    assert carried not in (s, v)  # beside `v` where it is placed, beside `s` on the next turn


def test_tiles_of_two_arms_of_a_branch_may_share_a_slot():
    ran = run_front(CASES / "branch_arms.vx", schedule_sub_spaces)
    first, again, t, s = [t.slot.offset for t in ran.nodes("Transfer") if t.slot is not None]
    assert first == again != t == s  # `a`'s two tiles share one; `s` keeps apart from `a`'s


SIZES = st.lists(st.tuples(st.integers(1, 40000), st.booleans()), min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(SIZES)
def test_resident_tiles_never_overlap_and_each_takes_whole_granules(tiles):
    # Each tile is placed; when `keep` is false it is moved out at once, else it stays.
    lines, outs = [], []
    for i, (size, keep) in enumerate(tiles):
        lines.append(f"let t{i} = transfer(Tensor<u8, [{size}]>::new(), Memory::Smem);")
        (outs if keep else lines).append(f"let o{i} = transfer(t{i}, Memory::NPU_HBM);")
    text = ("Memory Smem { within: Memory::NPU_HBM, granule: 4 KiB }\nfn main() {\n"
            + "\n".join(lines + outs) + "\n}\n")
    ran = run_front(text, schedule_sub_spaces)
    placed = [t for t in ran.nodes("Transfer") if t.slot is not None]
    assert len(placed) == len(tiles)
    live = []
    for (size, keep), t in zip(tiles, placed):
        start, end = t.slot.offset, t.slot.offset + t.slot.slots * 4096
        assert t.slot.slots * 4096 >= size and start % 4096 == 0
        assert all(end <= a or start >= b for a, b in live)  # no overlap with a resident tile
        if keep:
            live.append((start, end))


# Hand-written Lrouted: a tile in a space the model lacks (check-locations refuses it), which
# still counts among the transfers, and a tile over its space's capacity (check-capacity
# refuses it): the slots follow the working sets all the same, the second tile past the end.
UNCHECKED_TILES = """
    // IL: Lrouted
    Memory Smem {
        within: Memory::NPU_HBM, capacity: 2 KiB, granule: 1 KiB, bandwidth: 128 B/cyc,
        managed: explicit
    }

    fn main() {
        let a: Tensor<u8, [1000], Memory::Ghost> =
            transfer[sync, NPU_HBM -> Ghost (10), cost 10](Tensor<u8, [1000]>::fill(1),
                                                           Memory::Ghost);
        let b: Tensor<u8, [3000], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [3000]>::fill(2),
                                                          Memory::Smem);
        let c: Tensor<u8, [100], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [100]>::fill(3),
                                                          Memory::Smem);
        @print(b[0] + c[0]);
    }
"""


def test_handwritten_tiles_earlier_checks_refuse_are_scheduled(run_pass, snapshot_txt):
    ran = run_pass("schedule-sub-spaces", UNCHECKED_TILES)
    assert ran.codes == []
    assert "cost 10](Tensor<u8, [1000]>" in ran.text
    assert "slot Smem+0 (3 x 1024 B of 2048 B, within NPU_HBM)" in ran.text
    assert "slot Smem+3072 (1 x 1024 B of 2048 B, within NPU_HBM)" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "5\n"
    assert ran.dump == snapshot_txt
