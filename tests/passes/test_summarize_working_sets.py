"""summarize-working-sets: the tiles of each function and how long each stays resident."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.nanopass import descendants
from nano_vx.passes.summarize_working_sets import (_hold, _through_loops, _working_sets,
                                                   summarize_working_sets)
from nano_vx.placement.working_sets import (CallSite, Tile, describe_call_sites,
                                            describe_working_sets)
from front import run_front

CASES = Path(__file__).parent / "cases" / "summarize_working_sets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def _sets(case):
    ran = run_front(CASES / f"{case}.vx", summarize_working_sets)
    assert ran.after is ran.before  # an analysis: the tree is unchanged
    assert not ran.diagnostics.items
    return ran


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ctx = _sets(case).ctx
    text = describe_working_sets(ctx.working_sets) + describe_call_sites(ctx.call_sites)
    assert text == snapshot_txt


def test_a_tile_read_inside_a_loop_it_was_placed_before_lives_to_the_loops_end():
    [ws] = _sets("loop_resident").ctx.working_sets
    big, step = ws.tiles
    assert (big.name, step.name) == ("big", "step")
    assert big.start < step.start <= step.last < big.last  # `big` outlives each `step`
    assert ws.resident == [big, step] and ws.peak == big.size + step.size


def test_a_temporary_lives_at_its_transfer_and_a_bound_tile_to_its_last_use():
    [ws] = _sets("bound_and_temporary").ctx.working_sets
    a, temp = ws.tiles
    assert (a.label, temp.label) == ("'a'", "a temporary")
    assert temp.start == temp.last and a.start < temp.start < a.last
    assert (a.footprint, temp.footprint, ws.peak) == (16384, 32768, 49152)


def test_each_function_and_each_unrolled_copy_has_its_own_tiles():
    sets = _sets("per_function").ctx.working_sets
    assert [(ws.function, ws.space, len(ws.tiles)) for ws in sets] == [
        ("stage", "Smem", 1), ("main", "Smem", 2)]
    copies = sets[1].tiles
    assert [t.name for t in copies] == ["t", "t#1"]
    assert copies[0].transfer is not copies[1].transfer  # two transfers, one shared value


def test_a_call_records_the_tiles_its_caller_holds_across_it():
    ctx = _sets("held_across_calls").ctx
    [first, second] = ctx.call_sites
    assert (first.caller, first.callee) == ("main", "stage")
    assert [t.name for t in first.held["W"]] == ["kept", "arg"]  # `arg` is read by the call
    assert first.live("W") == 2048 and second.held == {}  # everything died before it


def test_the_tiles_of_a_generic_instance_have_its_extents():
    [ws] = _sets("generic_instance").ctx.working_sets
    assert ws.function == "scale$8"
    assert [(t.name, t.size) for t in ws.tiles] == [("w", 32), ("fixed", 1024)]


@pytest.mark.parametrize("case", NAMES)
def test_a_tiles_ordinal_is_its_transfers_place_in_walk_order(case):
    """schedule-sub-spaces finds a tile by counting transfers as it rebuilds the tree, so
    the count must be the walk order: the n-th Transfer of a pre-order walk. A tile made in
    place or handed over by a call or a branch has no transfer of its own, and no ordinal."""
    ran = _sets(case)
    transfers = [n for n in descendants(ran.after) if n._prod == "Transfer"]
    for ws in ran.ctx.working_sets:
        for t in ws.tiles:
            if t.ordinal is None:
                assert t.transfer._prod != "Transfer"
            else:
                assert transfers[t.ordinal] is t.transfer


@pytest.mark.parametrize("case", ["tile_through_call", "tile_through_branch"])
def test_a_tile_handed_over_lives_from_where_it_is_bound(case):
    [ws] = _sets(case).ctx.working_sets
    *inner, a = ws.tiles
    assert a.name == "a" and a.ordinal is None and a.size == 60
    assert all(t.name is None and t.start == t.last < a.start for t in inner)
    assert ws.peak == 60


def test_a_tile_moved_out_in_a_loop_ends_at_the_move():
    [ws] = _sets("moved_in_loop").ctx.working_sets
    first, again = ws.tiles
    # `first` is not resident in the rest of the turn that moves it out, where `again` is
    # placed; after the loop, `a` holds it if the loop ran no turn.
    [(_, moved, _), (after, end, _)] = first.spans()
    assert moved < again.start <= again.last < after and end == first.last
    assert ws.peak == 60
    # `a`'s next tile is carried round the loop and may be `a`'s after it, but `first` is
    # resident over both stretches on the other paths and stands for it: the two are never
    # counted together.
    assert [(lo, hi, before) for lo, hi, before in again.again] == [
        (2, moved, first), (after, end, first)]


def test_a_tile_a_loop_carries_is_resident_to_its_end_and_again_up_to_the_read():
    [ws] = _sets("carried_round_loop").ctx.working_sets
    first, s, t, a, u = ws.tiles
    assert (first.name, a.name) == ("a", "a")
    assert a.start < u.start <= u.last < a.last  # `u`, placed after `a`'s tile, is beside it
    [(lo, hi, before)] = a.again
    assert lo < s.start < hi == first.last and before is first
    assert ws.peak == 60 + 30 and ws.resident == [first, s]  # `t` coexists with no `a`


def test_a_tile_an_arm_gives_its_local_is_resident_in_that_arm_only():
    [ws] = _sets("assigned_in_arms").ctx.working_sets
    first, new, t, s = ws.tiles
    # `first` is resident up to its move in the first arm, and again from the second, where
    # `s` is placed beside it, to the last use of `a`.
    [(_, moved, _), (kept, end, _)] = first.spans()
    assert moved < new.start <= t.start <= t.last <= new.last < kept == s.start
    assert end == first.last
    # After the `if`, `a` holds `new` on the path through the first arm: `first` stands for it.
    assert new.again == [(s.last + 2, first.last, first)]
    assert ws.peak == 110 and ws.resident == [new, t]


def test_a_carried_tile_nothing_stands_for_counts_on_the_next_turn():
    step, _ = _sets("carried_parameter").ctx.working_sets
    s, x = step.tiles
    [(lo, hi, before)] = x.again
    assert before is None and lo < s.start <= hi < x.start
    assert step.peak == 90 and step.resident == [s, x]


def test_two_turns_tiles_of_one_transfer_count_twice():
    run, _ = _sets("prefetched_in_loop").ctx.working_sets
    [nxt] = run.tiles
    [(lo, hi, before)] = nxt.again
    assert before is None and lo < nxt.start < hi  # fetched before the last one is read
    assert run.peak == 120 and run.resident == [nxt, nxt]


# -- properties ----------------------------------------------------------------------------

SIZES = st.lists(st.tuples(st.integers(1, 5000), st.booleans()), min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(SIZES)
def test_the_peak_is_the_largest_sum_of_tiles_resident_together(tiles):
    # Each tile is placed; when `keep` is false it is moved out at once, else it stays to
    # the final read.
    body, kept = [], []
    for i, (n, keep) in enumerate(tiles):
        body.append(f"let t{i} = transfer(Tensor<u8, [{n}]>::fill(1), Memory::W);")
        if keep:
            kept.append(i)
        else:
            body.append(f"let o{i} = transfer(t{i}, Memory::NPU_HBM);")
    body += [f"let k{i} = transfer(t{i}, Memory::NPU_HBM);" for i in kept]
    text = ("Memory W { within: Memory::NPU_HBM, capacity: 1 MiB }\nfn main() {\n"
            + "\n".join(body) + "\n}\n")
    [ws] = run_front(text, summarize_working_sets).ctx.working_sets
    # Kept tiles pile up; a dropped one coexists with the kept tiles placed before it.
    best = 0
    for i, (n, keep) in enumerate(tiles):
        best = max(best, n + sum(tiles[j][0] for j in kept if j < i))
    assert ws.peak == best


def test_a_reference_to_a_tile_keeps_it_resident_while_the_reference_is_used():
    [ws] = _sets("borrowed_tile").ctx.working_sets
    a, temp = ws.tiles
    assert (a.label, temp.label) == ("'a'", "a temporary")
    assert a.start < temp.start < a.last  # used through `view` after the temporary
    assert (len(ws.tiles), ws.peak) == (2, 16384 + 32768)  # the reference is no tile


# Hand-written Lrouted: a tile transferred into a space the model lacks, which check-locations
# refuses (E6025) before this pass: it belongs to no working set. Of the two tiles in the
# declared space, the one never read is resident only where it is placed.
UNDECLARED_SPACE = """
    // IL: Lrouted
    Memory Smem {
        within: Memory::NPU_HBM, capacity: 8 KiB, granule: 1 KiB, bandwidth: 128 B/cyc,
        managed: explicit
    }

    fn main() {
        let a: Tensor<u8, [1000], Memory::Ghost> =
            transfer[sync, NPU_HBM -> Ghost (10), cost 10](Tensor<u8, [1000]>::fill(1),
                                                           Memory::Ghost);
        let b: Tensor<u8, [3000], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [3000]>::fill(1),
                                                          Memory::Smem);
        let c: Tensor<u8, [100], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [100]>::fill(1),
                                                          Memory::Smem);
        @print(a[0] + b[0]);
    }
"""


def test_handwritten_a_tile_in_an_undeclared_space_is_in_no_working_set(run_pass):
    ran = run_pass("summarize-working-sets", UNDECLARED_SPACE)
    assert ran.codes == []
    assert ran.ctx.describe("working_sets") == (
        "fn main, space Smem: peak 4096 bytes, 2 of 2 tiles resident at the peak\n"
        "  * 'b': 3000 bytes, footprint 3072, transfer #1 at 12:9, points 2..5\n"
        "  * 'c': 100 bytes, footprint 1024, transfer #2 at 15:9, points 3..3\n")


# -- the sweeps against the definitions they compute -----------------------------------------


@st.composite
def _nest(draw):
    """Loops numbered as the walk numbers them (each takes a point as it starts, and nests in
    or follows the others), and the points met inside and between them."""
    point, open_, loops, points = 0, [], [], []
    for token in draw(st.lists(st.sampled_from("(()pp"), max_size=40)):
        if token == "(":
            point += 1
            open_.append(point)
        elif token == ")" and open_:
            loops.append((open_.pop(), point))
        elif token == "p":
            point += 1
            points.append(point)
    return loops + [(first, point) for first in reversed(open_)], points


@settings(max_examples=100, deadline=None)
@given(_nest(), st.data())
def test_a_use_keeps_its_tile_to_the_end_of_each_loop_that_holds_it_but_not_the_placement(
        nest, data):
    loops, points = nest
    uses = [(Tile("W", 1, 1, None, None, data.draw(st.integers(0, at - 1))), at)
            for at in points]
    for (tile, at), end in zip(uses, _through_loops(loops, uses)):
        assert end == max([at] + [last for first, last in loops if first <= at <= last
                                  and not first <= tile.start <= last])


# Each tile: its space, footprint, start and length, and maybe a stretch a loop carries it
# over on its next turn (its first point and length), with or without a tile standing for it.
TILES = st.lists(st.tuples(st.sampled_from("VW"), st.integers(1, 4), st.integers(0, 20),
                           st.integers(0, 6),
                           st.none() | st.tuples(st.integers(0, 20), st.integers(0, 6),
                                                 st.booleans())), max_size=12)


def _tiles(drawn):
    tiles = []
    for space, footprint, start, length, again in drawn:
        tiles.append(Tile(space, footprint, footprint, None, None, start))
        tiles[-1].last = start + length
        if again is not None:
            first, span, stood_for = again
            stand_in = Tile(space, footprint, footprint, None, None, first) if stood_for else None
            tiles[-1].again.append((first, first + span, stand_in))
    return tiles


def _counted(t, at) -> int:
    """How many of a tile's stretches count at a point: the stretch of the next turn only when
    no tile stands for it, twice where it meets the tile's own span."""
    return (t.start <= at <= t.last) + sum(lo <= at <= hi for lo, hi, before in t.again
                                           if before is None)


@settings(max_examples=100, deadline=None)
@given(TILES)
def test_the_peak_of_a_space_is_its_largest_resident_footprint_at_any_point(drawn):
    tiles = _tiles(drawn)
    for ws in _working_sets("f", tiles):
        mine = [t for t in tiles if t.space == ws.space]
        assert ws.tiles == mine
        best, resident = 0, []
        for at in range(40):  # every point: the sum only rises where a stretch starts
            live = [t for t in mine for _ in range(_counted(t, at))]
            if sum(t.footprint for t in live) > best:
                best, resident = sum(t.footprint for t in live), live
        assert (ws.peak, [id(t) for t in ws.resident]) == (best, [id(t) for t in resident])


@settings(max_examples=100, deadline=None)
@given(TILES, st.lists(st.integers(0, 28), max_size=8))
def test_a_call_holds_the_tiles_placed_before_it_and_resident_at_it(drawn, points):
    tiles = _tiles(drawn)
    sites = [CallSite("f", "g", None, p) for p in sorted(points)]
    _hold(sites, tiles)
    for site in sites:
        held = [t for t in tiles
                for _ in range(_counted(t, site.point) - (t.start == site.point))]
        assert {space: [id(t) for t in ts] for space, ts in site.held.items()} == {
            space: [id(t) for t in held if t.space == space] for space in {t.space for t in held}}


@st.composite
def _carrying_loop(draw):
    """A loop that moves `a`'s tile out (`h`) and gives `a` a new one, with tiles `s<k>`
    placed and moved out, and reads of `a` where it holds a tile, in any order: as the lines
    of one turn, each a function of the turn's suffix."""
    n = draw(st.integers(0, 3))
    sizes = draw(st.lists(st.integers(1, 60), min_size=n, max_size=n))
    events = draw(st.permutations(["h", "a"] + [f"p{k}" for k in range(n)]
                                  + [f"d{k}" for k in range(n)]))
    for first, then in [("h", "a")] + [(f"p{k}", f"d{k}") for k in range(n)]:
        i, j = sorted((events.index(first), events.index(then)))
        events[i], events[j] = first, then
    reads = draw(st.lists(st.integers(0, len(events)), max_size=2))
    for r, at in enumerate(sorted(reads, reverse=True)):
        if not events.index("h") < at <= events.index("a"):  # `a` holds a tile there
            events.insert(at, f"r{r}")
    lines = {"h": "let h{0} = transfer(a, Memory::CPU_DRAM);",
             "a": "a = transfer(h{0}, Memory::W);",
             "r0": "{{ let r = &a; }}", "r1": "{{ let r = &a; }}"}
    for k, size in enumerate(sizes):
        lines[f"p{k}"] = f"let s{k}{{0}} = transfer(Tensor<u8, [{size}]>::fill(1), Memory::W);"
        lines[f"d{k}"] = f"let o{k}{{0}} = transfer(s{k}{{0}}, Memory::CPU_DRAM);"
    return [lines[e] for e in events], draw(st.integers(1, 60)), draw(st.booleans())


def _carrying_peak(turns: list[list[str]], size: int, after: bool) -> int:
    body = "\n".join(line for turn in turns for line in turn)
    text = ("Memory W { within: Memory::NPU_HBM, capacity: 1 MiB }\nfn main() {\n"
            f"let mut a = transfer(Tensor<u8, [{size}]>::fill(1), Memory::W);\n{body}\n"
            + ("let last = transfer(a, Memory::CPU_DRAM);\n" if after else "") + "}\n")
    [ws] = run_front(text, summarize_working_sets).ctx.working_sets
    return ws.peak


@settings(max_examples=40, deadline=None)
@given(_carrying_loop())
def test_a_loop_peaks_at_least_as_high_as_its_turns_written_out(loop):
    """The loop's peak bounds every point of every turn: its turns written out one after the
    other, where each tile lives exactly from its transfer to its last use, peak no higher."""
    lines, size, after = loop
    looped = (["for i in 0..3 {"] + [line.format("") for line in lines] + ["}"])
    written = [[line.format(f"_{turn}") for line in lines] for turn in range(3)]
    assert _carrying_peak([looped], size, after) >= _carrying_peak(written, size, after)


@settings(max_examples=40, deadline=None)
@given(_carrying_loop(), st.data())
def test_a_read_added_to_a_loop_never_lowers_its_peak(loop, data):
    lines, size, after = loop
    lines = [line.format("") for line in lines]
    at = data.draw(st.integers(0, len(lines)))
    moved, given = (next(i for i, line in enumerate(lines) if line.startswith(start))
                    for start in ("let h", "a = "))
    if moved < at <= given:  # `a` holds no tile between its move and its new tile
        at = given + 1
    more = lines[:at] + ["{ let added = &a; }"] + lines[at:]
    peak = _carrying_peak([["for i in 0..3 {", *lines, "}"]], size, after)
    assert _carrying_peak([["for i in 0..3 {", *more, "}"]], size, after) >= peak


def test_a_new_name_of_a_tile_keeps_it_resident_while_the_name_is_used():
    [ws] = _sets("renamed_tile").ctx.working_sets
    a, b = ws.tiles
    assert a.name == "a" and a.start < b.start < a.last
    assert ws.resident == [a, b] and ws.peak == 120


def test_an_assigned_tile_ends_the_one_its_local_held_and_takes_its_uses():
    [ws] = _sets("reassigned_tile").ctx.working_sets
    first, second = ws.tiles
    assert (first.name, second.name) == ("a", "a")
    assert first.start < first.last < second.start < second.last
    assert ws.peak == 60



@st.composite
def _branching(draw):
    """Lines before, in and after a construct that runs one of its arms: `if`/`else`, `if`
    (an empty second arm), `match` or `while` (no turn, or one). Each part places tiles of W and moves
    them out (at once, or at the part's end), reads `a`, and an arm may give `a` a new tile
    (moving the old one out first, or not)."""
    count = iter(range(100))

    def part(arm: bool) -> list[str]:
        lines, last = [], []
        for kind in draw(st.lists(st.sampled_from("pra" if arm else "pr"), max_size=4)):
            k = next(count)
            if kind == "p":
                size = draw(st.integers(1, 60))
                lines.append(f"let s{k} = transfer(Tensor<u8, [{size}]>::fill(1), Memory::W);")
                (lines if draw(st.booleans()) else last).append(
                    f"let o{k} = transfer(s{k}, Memory::CPU_DRAM);")
            elif kind == "r":
                lines.append("{ let r = &a; }")
            elif draw(st.booleans()):
                lines += [f"let h{k} = transfer(a, Memory::CPU_DRAM);",
                          f"a = transfer(h{k}, Memory::W);"]
            else:
                lines.append(f"a = transfer(Tensor<u8, [{SIZE_A}]>::fill(2), Memory::W);")
        return lines + last

    construct = draw(st.sampled_from(["if-else", "if", "match", "while"]))
    return construct, part(False), part(True), part(True), part(False)


SIZE_A = 40


def _peak(lines: list[str]) -> int:
    text = ("Memory W { within: Memory::NPU_HBM, capacity: 1 MiB }\nfn main() {\n"
            f"let mut c = true;\nlet k = 2;\nlet mut a = transfer(Tensor<u8, [{SIZE_A}]>::fill(1), "
            "Memory::W);\n" + "\n".join(lines)
            + "\nlet last = transfer(a, Memory::CPU_DRAM);\nprint(last[0]);\n}\n")
    [ws] = run_front(text, summarize_working_sets).ctx.working_sets
    return ws.peak


@settings(max_examples=100, deadline=None)
@given(_branching())
def test_a_branch_peaks_at_least_as_high_as_each_path_through_it_written_out(program):
    """Whichever arm runs, what is resident then is resident in the straight-line program
    that runs that arm in the construct's place: the construct's peak bounds each of them."""
    construct, before, first, second, after = program
    if construct == "while":
        built = ["while c {", *first, "c = false;", "}"]
        paths = [[], first]
    elif construct == "match":
        built = ["match k {", "1 => {", *first, "}", "_ => {", *second, "}", "}"]
        paths = [first, second]
    else:
        second = second if construct == "if-else" else []
        built = ["if c {", *first, "}"] + (["else {", *second, "}"] if second else [])
        paths = [first, second]
    peak = _peak(before + built + after)
    for path in paths:
        assert peak >= _peak(before + ["{", *path, "}"] + after)


# How a tile of W is given to a call: placed in the argument, or a local's, by value or by
# reference.
GIVEN = {"transfer": ("transfer(Tensor<u8, [{n}]>::fill(1), Memory::W)", ""),
         "made": ("Tensor<u8, [{n}], Memory::W>::new()", ""),
         "local": ("t{i}", ""), "borrow": ("&t{i}", "&")}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(GIVEN)), st.integers(1, 100)), min_size=1,
                max_size=3), st.booleans())
def test_every_tile_given_to_a_call_is_held_across_it(args, nested):
    """The callee counts no parameter: its caller holds each tile it is given, placed before
    the call or in its arguments (in a call nested in another's arguments too), and they
    are all resident at once before it runs."""
    params = ", ".join(f"x{i}: {GIVEN[kind][1]}Tensor<u8, [{n}], Memory::W>"
                       for i, (kind, n) in enumerate(args))
    lets = "".join(f"let t{i} = transfer(Tensor<u8, [{n}]>::fill(1), Memory::W);\n"
                   for i, (kind, n) in enumerate(args) if kind in ("local", "borrow"))
    call = "g(" + ", ".join(GIVEN[kind][0].format(n=n, i=i)
                            for i, (kind, n) in enumerate(args)) + ")"
    text = ("Memory W { within: Memory::NPU_HBM, capacity: 1 MiB }\n"
            f"fn g({params}) -> i32 {{ 0 }}\nfn h(v: i32) -> i32 {{ v }}\n"
            f"fn main() {{\n{lets}print({f'h({call})' if nested else call});\n}}\n")
    ctx = run_front(text, summarize_working_sets).ctx
    [site] = [c for c in ctx.call_sites if c.callee == "g"]
    total = sum(n for _, n in args)
    assert site.live("W") == total
    [ws] = [w for w in ctx.working_sets if w.function == "main"]
    assert ws.peak == total
