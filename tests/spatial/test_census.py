"""The census of a lowering (docs/spatial.md, "The census"): for every reference program on every shipped
target and both backends, a bijection between the circular buffers, semaphores, kernels and
group staging areas found in the emitted text and the program's buffers, semaphores,
schedules and groups; and the check's failures when an emitted object is dropped or doubled,
in the text or in the census. Also the refusals every backend shares (E7040, and E7041 for a
token staged before its slot is held)."""

from __future__ import annotations

import dataclasses

import pytest

from choreographies import MULTICAST, MULTICAST_RELAYED, PIPE
import spatial_reference as reference
from test_lower_tenstorrent import INTEGER, LINK, RELAYED
from nano_vx.spatial_backend import BACKENDS, lower, LowerError
from nano_vx.spatial_backend.census import Census, census_problems, required, scan
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target

# Slow (the whole suite's, not the inner loop's): every reference program lowered on every target
# by both backends.
pytestmark = pytest.mark.slow

# tenstorrent refuses the i32 products and sums (its compute API has none) and fabric's small
# cores (tokens padded to whole tiles do not fit): test_lower_tenstorrent.py.
CASES = [(p, t, b) for p, t in reference.LOWERED for b in BACKENDS
         if b == "cuda" or (p not in INTEGER and t != "fabric")]
IDS = [f"{p}-{t}-{b}" for p, t, b in CASES]


def scheduled(program: str, target: str):
    return reference.step(program, target, "schedule")[1]


@pytest.mark.parametrize("program,target,backend", CASES, ids=IDS)
def test_the_census_is_a_bijection(program, target, backend):
    graph = scheduled(program, target)
    lowered = lower(graph, load_target(target), backend)
    assert lowered.problems(graph) == []
    need = required(graph)
    found = scan(lowered.files, lowered.patterns)
    for kind, objects in need.items():
        assert sum(k == kind for k, _, _ in found) == len(objects), kind
        images = sorted(map(str, (e.image for e in lowered.census.entries if e.kind == kind)))
        assert images == sorted(map(str, objects)), kind


def test_what_must_be_emitted():
    graph = parse_spatial(MULTICAST)
    assert required(graph) == {
        "buffer": ["x0", "x1", "y0", "y1"],
        "semaphore": ["x0_credit", "x0_data", "x1_credit", "x1_data"],
        "kernel": [((0, 0), "reader"), ((0, 1), "compute"), ((0, 1), "writer"),
                   ((1, 0), "compute"), ((1, 0), "writer")],
        "group": ["g"],
    }


@pytest.fixture(params=BACKENDS)
def multicast(request):
    graph = parse_spatial(RELAYED)
    return graph, lower(graph, load_target("wormhole"), request.param)


def _declaration(lowered, kind: str, name: str) -> tuple[str, str]:
    """(file, line) of the declaration of one emitted object."""
    import re

    for file, text in lowered.files.items():
        for line in text.splitlines():
            m = re.match(lowered.patterns[kind], line)
            if m and m.group(1) == name:
                return file, line
    raise AssertionError(f"no {kind} {name}")


def test_a_doubled_declaration_breaks_the_bijection(multicast):
    graph, lowered = multicast
    file, line = _declaration(lowered, "buffer", "x1")
    lowered.files[file] = lowered.files[file].replace(line, f"{line}\n{line}", 1)
    assert lowered.problems(graph) == [
        f"buffer 'x1' in {file}: declared 2 times in the text, recorded 1 times in the census"]


def test_a_dropped_declaration_breaks_the_bijection(multicast):
    graph, lowered = multicast
    file, line = _declaration(lowered, "semaphore", "x0_data")
    lowered.files[file] = lowered.files[file].replace(line + "\n", "", 1)
    assert lowered.problems(graph) == [
        f"semaphore 'x0_data' in {file}: declared 0 times in the text, recorded 1 times in "
        f"the census"]


def test_a_dropped_object_breaks_the_bijection(multicast):
    """Neither the text nor the census has the kernel: the program's schedule has no image."""
    graph, lowered = multicast
    entry = next(e for e in lowered.census.entries if e.kind == "kernel")
    file, line = _declaration(lowered, "kernel", entry.name)
    lowered.files[file] = lowered.files[file].replace(line, "", 1)
    lowered.census.entries.remove(entry)
    assert lowered.problems(graph) == [
        "kernel ((0, 0), 'reader'): the image of 0 emitted objects"]


def test_two_objects_with_one_image_break_the_bijection(multicast):
    graph, lowered = multicast
    entry = next(e for e in lowered.census.entries if e.kind == "group")
    file, line = _declaration(lowered, "group", entry.name)
    twin = line.replace(f"stage_{entry.name}", f"stage_{entry.name}_twin")
    lowered.files[file] = lowered.files[file].replace(line, f"{line}\n{twin}", 1)
    lowered.census.record("group", f"{entry.name}_twin", entry.image, file)
    assert lowered.problems(graph) == ["group g: the image of 2 emitted objects"]


def test_an_object_of_no_program_object_breaks_the_bijection(multicast):
    graph, lowered = multicast
    entries = [dataclasses.replace(e, image="nothing") if e.name == "y1" else e
               for e in lowered.census.entries]
    census = Census(entries)
    assert census_problems(census, graph, lowered.files, lowered.patterns, lowered.extra) == [
        "buffer y1: the image of 0 emitted objects",
        "buffer nothing: emitted but not an object of the program"]


def test_the_census_text():
    graph = parse_spatial(RELAYED)
    lowered = lower(graph, load_target("wormhole"), "tenstorrent")
    lines = lowered.census.lines()
    assert lines[:2] == [
        "buffer    x0                           <- buffer x0  (host.cpp)",
        "buffer    x0_in                        <- buffer x0_in  (host.cpp)"]
    assert "kernel    r0c0_reader                  <- schedule (0, 0) reader  (host.cpp)" in lines
    assert "scaler    r1c0                         <- scaler r1c0  (host.cpp)" in lines
    # The compute kernels' calls per unit: the matrix unit's and the vector unit's apart.
    assert lines[-2:] == [
        "calls     r0c1_compute.cpp             0 matrix, 1 vector, 2 move, 8 sync, 5 init",
        "calls     r1c0_compute.cpp             1 matrix, 0 vector, 1 move, 11 sync, 3 init"]


def test_a_call_the_census_did_not_count_breaks_it():
    graph = parse_spatial(RELAYED)
    lowered = lower(graph, load_target("wormhole"), "tenstorrent")
    text = lowered.files["r1c0_compute.cpp"]
    lowered.files["r1c0_compute.cpp"] = text.replace("tile_regs_commit();",
                                                     "tile_regs_commit(); exp_tile(0);")
    assert lowered.problems(graph) == [
        "r1c0_compute.cpp: 1 calls of exp_tile in the text, 0 counted in the census"]


# -- refusals every backend shares ----------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_program_not_yet_scheduled_is_refused(backend):
    graph = reference.step("gemv", "wormhole", "schedule")[0]
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("wormhole"), backend)
    assert (refused.value.code, refused.value.message) == (
        "E7040", "the program is Shandshaked; lowering takes a Schoreographed program (run "
                 "the lane through `schedule`)")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_choreography_that_deadlocks_is_refused(backend):
    stuck = PIPE.replace("DEPTH", "2").replace("signal x_data 1", "signal x_credit 0")
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(stuck), small_target(2, 2), backend)
    assert refused.value.code == "E7040"
    assert refused.value.message.startswith("the choreography does not finish: deadlock")


def test_an_ill_formed_choreography_is_refused():
    off = MULTICAST.replace("place sm (1, 0) compute", "place sm (5, 0) compute")
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(off), small_target(2, 2), "cuda")
    assert refused.value.code == "E7040"
    assert refused.value.message.startswith("the program is not well formed: ")


# A fifo chain whose reader reads before it reserves: the token semantics allows it (the
# tile waits in staging), but both backends read the tile straight into its slot.
READ_FIRST = """\
spatial early: Schoreographed {
    tensor X: i32[8, 8] input
    tensor Y: i32[8, 8] output
    stream x: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x
    store stY x -> Y[i, 0] tile [2, 8] for i in 0..4
    place ldX (0, 0) reader
    place stY (0, 0) writer
    buffer x (0, 0) depth 2 bytes 128
    handshake x fifo
    schedule (0, 0) reader {
        repeat 4 {
            READER
        }
    }
    schedule (0, 0) writer {
        repeat 4 {
            wait_front x 1
            write x stY
            pop x 1
        }
    }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_token_staged_before_its_slot_is_held_is_refused(backend):
    early = READ_FIRST.replace("READER", "read ldX x\n            reserve x 1\n"
                                         "            push x 1")
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(early), small_target(1, 1), backend)
    assert (refused.value.code, refused.value.message) == (
        "E7041", f"the {backend} backend stages tokens in the slots they are put in, so a "
                 f"slot must be held first: reader of site (0, 0): `read ldX` stages a token "
                 f"into buffer 'x' before it holds a slot for it")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_token_staged_after_its_slot_is_held_is_lowered(backend):
    held = READ_FIRST.replace("READER", "reserve x 1\n            read ldX x\n"
                                        "            push x 1")
    graph = parse_spatial(held)
    assert lower(graph, small_target(1, 1), backend).problems(graph) == []


def _programs():
    """Hand-written choreographies and every IL of the reference lane, with their targets."""
    fabric = small_target(2, 2, links="fabric")
    yield "multicast", parse_spatial(MULTICAST), small_target(2, 2)
    yield "multicast-relayed", parse_spatial(RELAYED), load_target("wormhole")
    yield "multicast-relayed-i32", parse_spatial(MULTICAST_RELAYED), small_target(2, 2)
    for depth in (1, 2, 3):
        yield f"pipe-{depth}", parse_spatial(PIPE.replace("DEPTH", str(depth))), small_target(2, 2)
    yield "link", parse_spatial(LINK), fabric
    yield "read-first", parse_spatial(READ_FIRST.replace(
        "READER", "read ldX x\n            reserve x 1\n            push x 1")), small_target(1, 1)
    for name, (before, after) in reference.steps("softmax", "fabric").items():
        yield f"softmax-{name}", before, load_target("fabric")


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_program_is_lowered_with_a_bijection_or_refused_with_a_code(backend):
    outcomes = {}
    for name, graph, target in _programs():
        try:
            lowered = lower(graph, target, backend)
        except LowerError as refused:
            outcomes[name] = refused.code
        else:
            assert lowered.problems(graph) == [], name
            outcomes[name] = "lowered"
    # tt-metal's compute kernels touch no semaphore, send nothing to another core and have
    # no int32 product.
    sends = "E7041" if backend == "tenstorrent" else "lowered"
    assert outcomes == {
        "multicast": sends, "multicast-relayed": "lowered", "multicast-relayed-i32": sends,
        "pipe-1": sends, "pipe-2": sends, "pipe-3": sends,
        "link": sends, "read-first": "E7041",
        **{f"softmax-{p}": "E7040" for p in reference.steps("softmax", "fabric")}}
