"""The tenstorrent backend: the files of a small program (snapshot), one kernel per schedule and
a host program for every reference program and target the compute API can compute, circular
buffers (tokens in whole tiles) and semaphores sized and set from the IR, the image of each
schedule op, its refusals, and the command line. No tt-metal toolchain is at hand: the text is
checked against the IR, not compiled (tests/spatial/test_tt_compute_api.py holds its compute-API
calls against the API's signatures)."""

from __future__ import annotations

import io
import re

import pytest

from choreographies import MULTICAST, MULTICAST_RELAYED, PIPE
import spatial_reference as reference
from nano_vx.cli import main
from nano_vx.spatial_backend import lower, LowerError
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial.program import Program
from nano_vx.spatial.shapes import token_shapes
from nano_vx.spatial_backend.tt_layout import TILE_BYTES, grid

# Slow (the whole suite's, not the inner loop's): the tenstorrent back end on every reference
# program.
pytestmark = pytest.mark.slow


def plan_shapes(graph) -> dict:
    return token_shapes(Program(graph))


def graph_dtype(graph, stream: str) -> str:
    return Program(graph).token_dtype(stream)


# MULTICAST_RELAYED in f32: the compute API has no int32 product or reduction.
RELAYED = MULTICAST_RELAYED.replace("i32", "f32")
# The reference programs in i32 whose products and sums the compute API cannot compute.
INTEGER = {"gemm": "mm_0_0", "row_sums": "total_0"}
# fabric's 32 KiB tiles hold no token padded to 32 x 32 tiles (test_padding_that_does_not_fit).
TT_CASES = [(p, t) for p, t in reference.LOWERED if p not in INTEGER and t != "fabric"]
TT_IDS = [f"{p}-{t}" for p, t in TT_CASES]


def files(graph, target) -> dict[str, str]:
    lowered = lower(graph, target, "tenstorrent")
    assert lowered.problems(graph) == []
    return lowered.files


def joined(files_: dict[str, str]) -> str:
    return "".join(f"// ---- {name} ----\n{text}" for name, text in files_.items())


def test_a_small_program_snapshot(snapshot_txt):
    assert joined(files(parse_spatial(RELAYED), load_target("wormhole"))) == snapshot_txt


@pytest.mark.parametrize("program", sorted(INTEGER))
def test_an_integer_product_or_reduction_is_refused(program):
    graph = reference.step(program, "wormhole", "schedule")[1]
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("wormhole"), "tenstorrent")
    what = "a product" if program == "gemm" else "a sum"
    assert (refused.value.code, refused.value.message) == (
        "E7041", f"stage '{INTEGER[program]}' cannot be written through tt-metal's compute "
                 f"API: {what} of i32: Wormhole's matrix unit takes floats only (an int32 "
                 f"product or reduction has no call)")


def test_the_attention_head_lowers_with_its_keys_transposed_by_the_unpacker():
    graph = reference.step("attention-f32", "wormhole", "schedule")[1]
    lowered = lower(graph, load_target("wormhole"), "tenstorrent")
    assert lowered.problems(graph) == []
    compute = [x.strip() for x in lowered.files["r0c0_compute.cpp"].splitlines()]
    fire = compute.index("// fire keys_0")
    assert compute[fire + 2:fire + 8] == [
        "transpose_wh_init(cb_k_0_in, cb_kt_0);",
        "for (uint32_t j = 0; j < 1u; ++j) {",
        "for (uint32_t t = 0; t < 1u; ++t) {",
        "tile_regs_acquire();",
        "transpose_wh_tile(cb_k_0_in, j * 1u + (t % 1u) * 1u + t / 1u, 0);",
        "tile_regs_commit();"]
    # The census counts the transpose with the moves (the unpacker's work, as copy_tile's),
    # one call site per core: the head is split over 8 cores by its rows of queries.
    calls = lowered.census.calls
    assert [calls[f"r0c{c}_compute.cpp"]["transpose_wh_tile"] for c in range(8)] == [1] * 8
    assert lowered.census.units("r0c0_compute.cpp")["move"] == 18


@pytest.mark.parametrize("program,target", TT_CASES, ids=TT_IDS)
def test_a_kernel_per_schedule_and_a_host_program(program, target):
    graph = reference.step(program, target, "schedule")[1]
    out = files(graph, load_target(target))
    names = [f"r{s.site[0]}c{s.site[1]}_{s.engine}.cpp" for s in graph.schedules]
    assert list(out) == names + ["host.cpp"]
    for s, name in zip(graph.schedules, names):
        entry = "void MAIN {" if s.engine == "compute" else "void kernel_main() {"
        assert entry in out[name].splitlines()
    host = out["host.cpp"]
    # Every circular buffer holds its depth in tokens, each token its whole tiles, a page a
    # tile of its format; it holds at least the IR's bytes. Every semaphore starts where the
    # IR says.
    for b in graph.buffers:
        found = re.search(rf"CBHandle cb_{b.stream} = CreateCircularBuffer\(program, "
                          rf"core_r{b.site[0]}c{b.site[1]}, CircularBufferConfig\((\d+), "
                          rf"\{{\{{(\d+), [\w:]+\}}\}}\)\.set_page_size\((\d+), (\d+)\)", host)
        assert found is not None, b.stream
        ht, wt = grid(plan_shapes(graph)[b.stream])
        tile = TILE_BYTES[graph_dtype(graph, b.stream)]
        assert (int(found[1]), int(found[4]), found[2]) == (b.depth * ht * wt * tile, tile,
                                                            found[3])
        assert int(found[1]) >= b.bytes
    for s in graph.semaphores:
        assert (f"uint32_t sem_{s.name} = CreateSemaphore(program, core_r{s.site[0]}c"
                f"{s.site[1]}, {s.initial});") in host


def test_each_op_of_a_multicast_program():
    out = files(parse_spatial(RELAYED), load_target("wormhole"))
    reader = [x.strip() for x in out["r0c0_reader.cpp"].splitlines()]
    body = reader[reader.index("for (uint32_t i0 = 0; i0 < 4u; ++i0) {"):]
    assert body[1:6] == [
        "// barrier g",
        "noc_semaphore_wait_min(sem_x0_credit, taken_x0_credit + 1u);",
        "taken_x0_credit += 1u;",
        "noc_semaphore_wait_min(sem_x1_credit, taken_x1_credit + 1u);",
        "taken_x1_credit += 1u;"]
    # Each row of the [2, 8] tile into its face row of the zeroed slot, the tile padded.
    assert body[body.index("// read ldX g") + 4:][:4] == [
        "for (uint32_t w = 0; w < 1024u; ++w) reinterpret_cast<volatile uint32_t*>(addr)[w] = 0;",
        "for (uint32_t row = 0; row < 2u; ++row)",
        "for (uint32_t col = 0; col < 8u; col += 16u) noc_async_read(get_noc_addr((org[0] + "
        "row % 2u), pages_X, (org[1] + col) * 4u), addr + (((row / 32u) * 1u + col / 32u) * "
        "1024u + ((row % 32u) / 16u) * 512u + ((col % 32u) / 16u) * 256u + (row % 16u) * 16u "
        "+ col % 16u) * 4u, (8u - col < 16u ? 8u - col : 16u) * 4u);",
        "noc_async_read_barrier();"]
    assert ("noc_async_write(src, get_noc_addr(noc_x_r0c1, noc_y_r0c1, ring_x0 + ((put_x0 + j) "
            "% 2u) * 4096u), 4096u);") in body
    assert ("noc_semaphore_inc(get_noc_addr(noc_x_r0c1, noc_y_r0c1, get_semaphore("
            "sem_id_x0_data)), 1);") in body
    writer = [x.strip() for x in out["r0c1_writer.cpp"].splitlines()]
    assert after(writer, "// wait_front y0 1") == "cb_wait_front(cb_y0, 1);"
    assert after(writer, "// pop y0 1") == "cb_pop_front(cb_y0, 1);"
    compute = [x.strip() for x in out["r0c1_compute.cpp"].splitlines()]
    assert after(compute, "// wait_front x0_in 1") == "cb_wait_front(cb_x0_in, 1);"
    assert after(compute, "// reserve y0 1") == "cb_reserve_back(cb_y0, 1);"
    assert after(compute, "// push y0 1") == "cb_push_back(cb_y0, 1);"
    assert after(compute, "// pop x0_in 1") == "cb_pop_front(cb_x0_in, 1);"
    assert "noc_" not in out["r0c1_compute.cpp"]
    relay = [x.strip() for x in out["r0c1_reader.cpp"].splitlines()]
    assert relay[relay.index("// wait x0_data 1") + 1:][:2] == [
        "noc_semaphore_wait_min(sem_x0_data, taken_x0_data + 1u);", "taken_x0_data += 1u;"]
    assert after(relay, "// reserve x0_in 1") == "cb_reserve_back(cb_x0_in, 1);"
    assert after(relay, "// signal x0_credit 1") == (
        "noc_semaphore_inc(get_noc_addr(noc_x_r0c0, noc_y_r0c0, get_semaphore("
        "sem_id_x0_credit)), 1);")


def test_a_compute_schedule_that_touches_a_semaphore_is_refused():
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(MULTICAST), small_target(2, 2), "tenstorrent")
    assert (refused.value.code, refused.value.message) == (
        "E7041", "the compute schedule of site (0, 1) has 'wait x0_data'; a tt-metal compute "
                 "kernel has no semaphore or NoC calls (a target whose semaphore_engines leave "
                 "out compute has relay-tokens relay such tokens through the reader and "
                 "writer)")


@pytest.mark.parametrize("program,target", TT_CASES, ids=TT_IDS)
def test_no_compute_kernel_of_the_reference_programs_touches_the_noc(program, target):
    out = files(reference.step(program, target, "schedule")[1], load_target(target))
    for name, text in out.items():
        if name.endswith("_compute.cpp"):
            assert "noc_" not in text and "semaphore" not in text, name


def after(lines: list[str], comment: str) -> str:
    """The first line of an op's image: the line after the op's comment."""
    return lines[lines.index(comment) + 1]


def test_a_group_filling_a_rectangle_of_cores_is_one_multicast():
    graph = reference.step("gemv", "wormhole", "schedule")[1]
    out = files(graph, load_target("wormhole"))
    assert ("noc_async_write_multicast_loopback_src(src, get_noc_multicast_addr(noc_x_r0c0, "
            "noc_y_r0c0, noc_x_r0c7, noc_y_r0c7, ring_load_x_0_group + ((put_xs_0 + j) % 2u) * "
            "32768u), 32768u, 8);") in out["r0c0_reader.cpp"]
    host = out["host.cpp"]
    assert ("CBHandle cb_xs_7 = CreateCircularBuffer(program, core_r0c7, CircularBufferConfig("
            "65536, {{0, tt::DataFormat::Float32}}).set_page_size(0, 4096)"
            ".set_globally_allocated_address(*l1_load_x_0_group));") in host


def test_padding_that_does_not_fit_a_core_is_refused():
    graph = reference.step("softmax", "fabric", "schedule")[1]
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("fabric"), "tenstorrent")
    assert (refused.value.code, refused.value.message) == (
        "E7041", "core (0, 0) needs 272,384 bytes of L1 for its circular buffers, their tokens "
                 "padded to whole tiles; it has 32,768")


def test_a_kernel_source_not_emitted_breaks_the_census():
    graph = parse_spatial(RELAYED)
    lowered = lower(graph, load_target("wormhole"), "tenstorrent")
    del lowered.files["r1c0_writer.cpp"]
    assert lowered.problems(graph) == ["kernel source r1c0_writer.cpp was not emitted"]


LINK = """\
spatial link: Schoreographed {
    tensor A: i32[8, 8] input
    tensor C: i32[8, 8] output
    stream a: i32
    load ldA A[i, 0] tile [2, 8] for i in 0..4 -> a
    store stC a -> C[i, 0] tile [2, 8] for i in 0..4
    place ldA (0, 0) reader
    place stC (0, 1) writer
    buffer a (0, 1) depth 2 bytes 128
    handshake a valid_ready
    schedule (0, 0) reader {
        repeat 4 {
            reserve a 1
            read ldA a
            send a 1
        }
    }
    schedule (0, 1) writer {
        repeat 4 {
            wait_front a 1
            write a stC
            pop a 1
        }
    }
}
"""


@pytest.mark.parametrize("text,kind", [(LINK, "valid_ready"),
                                       (PIPE.replace("DEPTH", "2"), "semaphore_pair")])
def test_a_send_between_cores_is_refused(text, kind):
    target = small_target(2, 2, links="fabric" if kind == "valid_ready" else "noc")
    buffer = "a" if kind == "valid_ready" else "x"
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(text), target, "tenstorrent")
    assert (refused.value.code, refused.value.message) == (
        "E7041", f"buffer '{buffer}' has a {kind} handshake between cores: tt-metal sends a "
                 f"token to another core from a circular buffer of the producer's, which the "
                 f"program does not have (only a multicast group stages its tokens apart)")


def test_the_same_program_on_one_core_is_lowered():
    one = (LINK.replace("place stC (0, 1)", "place stC (0, 0)")
           .replace("buffer a (0, 1)", "buffer a (0, 0)")
           .replace("valid_ready", "fifo").replace("send a 1", "push a 1")
           .replace("schedule (0, 1) writer", "schedule (0, 0) writer"))
    graph = parse_spatial(one)
    assert list(files(graph, small_target(2, 2, links="fabric"))) == [
        "r0c0_reader.cpp", "r0c0_writer.cpp", "host.cpp"]


def test_64_bit_elements_are_refused():
    wide = MULTICAST_RELAYED.replace("i32", "i64")
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(wide), small_target(2, 2), "tenstorrent")
    assert (refused.value.code, refused.value.message) == (
        "E7041", "buffer 'x0' holds i64; Wormhole has no 64-bit element types")


def test_the_command_line_writes_a_file_per_kernel(tmp_path):
    program = tmp_path / "bcast.sdf"
    program.write_text(RELAYED)
    where = tmp_path / "tt"
    out, err = io.StringIO(), io.StringIO()
    status = main(["spatial", str(program), "--target", "wormhole", "--lower", "tenstorrent",
                   "--lower-dir", str(where)], stdout=out, stderr=err)
    assert (status, err.getvalue()) == (0, "")
    expected = files(parse_spatial(RELAYED), load_target("wormhole"))
    lines = out.getvalue().splitlines()
    assert lines[0] == (f"lowered to tenstorrent in {where}: 8 files, census of 6 buffers, "
                        f"4 semaphores, 7 kernels, 1 group, 1 scaler (a bijection); "
                        f"compute-API calls: 1 matrix-unit, 1 vector-unit")
    assert lines[1:9] == [f"  wrote {where / name} ({text.count(chr(10))} lines)"
                          for name, text in expected.items()]
    for name, text in expected.items():
        assert (where / name).read_text() == text


def test_the_command_line_refuses_what_tt_metal_cannot_say(tmp_path):
    program = tmp_path / "link.sdf"
    program.write_text(LINK)
    out, err = io.StringIO(), io.StringIO()
    status = main(["spatial", str(program), "--target", "fabric", "--lower", "tenstorrent",
                   "--error-format=json"], stdout=out, stderr=err)
    assert status == 1
    assert '"code": "E7041"' in err.getvalue()
    assert out.getvalue() == ""
