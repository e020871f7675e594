"""The tenstorrent backend's compute kernels through tt-metal's compute API: every call of every
emitted compute kernel is a function of the API's declared signatures (nano_vx/spatial_backend/
tt_api.py, written from the headers under tt_metal/include/compute_kernel_api/ it cites), with
an argument count the signature allows and arguments of the kinds it declares, and its header
included; each op's image (the matrix unit for products, reductions and narrow element-wise
ops, the vector unit for the rest); data formats and math fidelity in the host program; the
refusals; and snapshots of the kernels of examples/spatial/gemm.vx, softmax.vx and
row_sums.vx. Nothing here compiles against tt-metal or runs on a device (docs/spatial.md)."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

import pytest

import spatial_reference as reference
from test_from_vx import bridged
from test_lower_tenstorrent import RELAYED, TT_CASES
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.matrix import on_matrix
from nano_vx.spatial.elements import NARROW
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.shapes import token_shapes
from nano_vx.spatial.target import load_target
from nano_vx.spatial_backend import LowerError, lower
from nano_vx.spatial_backend.census import calls_in
from nano_vx.spatial_backend.tt_api import API, API_ROOT, DST_TILES
from nano_vx.spatial_backend.tt_layout import grid
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE

# Slow (the whole suite's, not the inner loop's): every kernel of every program the tenstorrent
# backend takes.
pytestmark = pytest.mark.slow

ARG_KINDS = {
    "ntiles": r"[1-9]\d*",
    "idst": "|".join(str(i) for i in range(DST_TILES)),
    "itile": r"[\w\s+*/%()]+",
    "bits": r"0x[0-9a-f]{8}u",
    "float": r"-?\d+\.\d*(e[+-]?\d+)?f|-?INFINITY|NAN",
    "flag": "0|1",
}
TEMPLATE_KINDS = {"bool": "true|false", "PoolType": r"PoolType::(SUM|MAX|AVG)",
                  "ReduceDim": r"ReduceDim::REDUCE_(ROW|COL|SCALAR)",
                  "BroadcastType": r"BroadcastType::(NONE|ROW|COL|SCALAR)"}
CALL = re.compile(r"\b(\w+)\s*(?:<([^<>()]*)>)?\(([^;{}]*)\);")


def through_lane(graph, target):
    ctx = SpatialContext(target)
    for p in SPATIAL_PIPELINE:
        graph = p(graph, ctx)
    return graph


def split(args: str) -> list[str]:
    """Top-level comma-separated arguments."""
    out, depth, cur = [], 0, ""
    for ch in args:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def call_problems(text: str) -> list[str]:
    """Why the calls of a compute kernel are not calls of the API as declared."""
    problems = []
    cbs = dict(re.findall(r"constexpr uint32_t (cb_\w+|scaler_cb) = (\d+);", text))
    headers = set(re.findall(r'#include "compute_kernel_api/([\w/]+\.h)"', text))
    body = text[text.index("void MAIN {"):]
    for m in CALL.finditer(body):
        name, template, args = m.group(1), m.group(2), split(m.group(3))
        if name == "for":
            continue
        sig = API.get(name)
        if sig is None:
            problems.append(f"{name}: not a function of the compute API")
            continue
        if sig.header not in headers:
            problems.append(f"{name}: {API_ROOT}{sig.header} is not included")
        if not sig.required <= len(args) <= len(sig.params):
            problems.append(f"{name}: {len(args)} arguments, the header declares "
                            f"{sig.required} to {len(sig.params)}")
        for arg, (param, kind) in zip(args, sig.params):
            ok = (arg in cbs and int(cbs[arg]) < 32 if kind == "cb"
                  else re.fullmatch(ARG_KINDS[kind], arg) is not None)
            if not ok:
                problems.append(f"{name}: {param} = {arg!r} is not a {kind}")
        given = split(template) if template else []
        if len(given) > len(sig.template):
            problems.append(f"{name}: {len(given)} template arguments, the header declares "
                            f"{len(sig.template)}")
        for arg, (param, kind) in zip(given, sig.template):
            if re.fullmatch(TEMPLATE_KINDS[kind], arg) is None:
                problems.append(f"{name}<{param} = {arg}> is not a {kind}")
    return problems


def compute_kernels(lowered) -> dict[str, str]:
    return {n: t for n, t in lowered.files.items() if n.endswith("_compute.cpp")}


def lowered_of(graph, target):
    out = lower(graph, target, "tenstorrent")
    assert out.problems(graph) == []
    return out


def sdf(program: str, dtype: str) -> str:
    return (reference.EXAMPLES / f"{program}.sdf").read_text().replace("i32", dtype)


# -- programs ---------------------------------------------------------------------------------

STAGES = """\
spatial stages {
    tensor A: T[32, 64] input
    tensor B: T[32, 64] input
    tensor R: T[32, 1] input
    tensor D: T[32, 64] output
    tensor F: T[1, 64] output
    stream a: T
    stream b: T
    stream r: T
    stream s: T
    stream m: T
    stream e: T
    stream x: T
    stream x2: T
    stream g: T
    load la A -> a
    load lb B -> b
    load lr R -> r
    compute add add(a, b) -> s
    compute scl scale 0.5 (s) -> m
    compute ex exp(m) -> e
    scalar sc(v: e, w: r) = max(v / w, 1.5) - recip(-(v)) * 2 -> x, x2
    compute col max axis 0 (x2) -> g
    store sD x -> D
    store sF g -> F
}
"""


def programs():
    """(name, a function that makes its scheduled graph and target): the reference programs
    tenstorrent takes, the f32 multicast choreography, every stage kind in f32 and bf16, the
    attention head in bf16, GEMMs in every narrow format and bf16 and f16 row sums. A graph is
    made when a test first asks for it, not as every worker collects the tests."""
    def scheduled(program, target):
        return lambda: (reference.step(program, target, "schedule")[1], load_target(target))

    def laned(text):
        def make():
            wormhole = load_target("wormhole")
            return through_lane(parse_spatial(text), wormhole), wormhole
        return make

    for program, target in TT_CASES:
        yield f"{program}-{target}", scheduled(program, target)
    yield "relayed", lambda: (parse_spatial(RELAYED), load_target("wormhole"))
    for dtype in ("f32", "bf16"):
        yield f"stages-{dtype}", laned(STAGES.replace("T[", f"{dtype}[").replace(": T",
                                                                               f": {dtype}"))
    yield "attention-bf16", scheduled("attention", "wormhole")
    for program, dtypes in (("gemm", NARROW), ("row_sums", ("bf16", "f16"))):
        for dtype in dtypes:
            yield f"{program}-{dtype}", laned(sdf(program, dtype))


MAKERS = dict(programs())


@functools.cache
def program(name: str):
    """The scheduled graph and the target of the program `name`."""
    return MAKERS[name]()


@pytest.mark.parametrize("name", MAKERS)
def test_every_call_is_one_the_api_declares(name):
    graph, target = program(name)
    kernels = compute_kernels(lowered_of(graph, target))
    assert kernels
    for file, text in kernels.items():
        assert call_problems(text) == [], file


def test_the_check_finds_a_wrong_call():
    text = compute_kernels(lowered_of(parse_spatial(RELAYED), load_target("wormhole")))[
        "r1c0_compute.cpp"]
    wrong = (text.replace("reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_x1_in, "
                          "scaler_cb, r * 1u + t * 1u + w, 0, 0);",
                          "reduce_tile<PoolType::SUM>(cb_x1_in, scaler_cb, 0, 9);")
             .replace("tile_regs_acquire();", "tile_regs_acquire(); exp_tile(cb_y1); "
                                              "mm_tiles(0);"))
    assert call_problems(wrong) == [
        "exp_tile: tt_metal/include/compute_kernel_api/eltwise_unary/exp.h is not included",
        "exp_tile: idst = 'cb_y1' is not a idst",
        "mm_tiles: not a function of the compute API",
        "reduce_tile: 4 arguments, the header declares 5 to 5"]


# -- the images of the ops -------------------------------------------------------------------


def kernel_of(name: str, file: str) -> str:
    graph, target = program(name)
    return lowered_of(graph, target).files[file]


def test_narrow_products_and_sums_are_on_the_matrix_unit():
    gemm = compute_kernels(lowered_of(*program("gemm-bf16")))
    text = next(iter(gemm.values()))
    assert "mm_init(" in text and "matmul_tiles(" in text and "_binary_tile(" not in text
    lines = [x.strip() for x in kernel_of("stages-bf16", "r0c0_compute.cpp").splitlines()]
    fire = lines.index("// fire add_0")
    assert lines[fire + 2:fire + 4] == ["binary_op_init_common(cb_a_0, cb_b_0, cb_s_0);",
                                        "add_tiles_init(cb_a_0, cb_b_0);"]
    assert "add_tiles(cb_a_0, cb_b_0, j * 1u + t, j * 1u + t, 0);" in lines


def test_f32_element_wise_ops_are_on_the_vector_unit():
    lowered = lowered_of(*program("stages-f32"))
    text = "".join(compute_kernels(lowered).values())
    assert "add_tiles(" not in text
    for call in ("add_binary_tile(", "mul_unary_tile(", "exp_tile(", "div_binary_tile(",
                 "binary_max_tile(", "recip_tile(", "negative_tile(", "fill_tile(",
                 "unary_bcast<BroadcastType::COL>(", "sub_binary_tile(",
                 "reduce_tile<PoolType::MAX, ReduceDim::REDUCE_COL>("):
        assert call in text, call
    units = lowered.census.units()
    assert units["vector"] > 0 and units["matrix"] > 0


def test_formats_and_fidelity_in_the_host_program():
    graph = program("gemm-bf16")[0]
    wormhole = load_target("wormhole")
    host = lowered_of(graph, wormhole).files["host.cpp"]
    assert "tt::DataFormat::Float16_b" in host
    assert ("ComputeConfig{.math_fidelity = MathFidelity::LoFi, .fp32_dest_acc_en = true, "
            ".unpack_to_dest_mode = unpack_r0c0_compute}") in host
    hifi4 = replace(wormhole, matrix=wormhole.matrix.at("hifi4"))
    assert "MathFidelity::HiFi4" in lowered_of(graph, hifi4).files["host.cpp"]
    f32 = lowered_of(*program("stages-f32"))
    # The 32-bit buffers the vector unit reads are unpacked straight to the destination.
    assert "UnpackToDestMode::UnpackToDestFp32;" in f32.files["host.cpp"]


def test_a_block_float_moves_whole_tiles_of_its_tile_layout():
    lowered = lowered_of(*program("gemm-bfp8"))
    assert ("    std::shared_ptr<Buffer> dram_A = CreateBuffer(InterleavedBufferConfig{.device = "
            "device, .size = 4352, .page_size = 1088, .buffer_type = BufferType::DRAM});") in (
        lowered.files["host.cpp"].splitlines())
    assert ("        for (uint32_t t = 0; t < 4u; ++t) noc_async_read(get_noc_addr((org[0] / 32u "
            "+ t / 2u) * 2u + org[1] / 32u + t % 2u, pages_A), addr + t * 1088u, 1088u);") in (
        lowered.files["r0c0_reader.cpp"].splitlines())


def test_a_block_float_tensor_not_of_whole_tiles_is_refused():
    graph = through_lane(parse_spatial(sdf("row_sums", "bfp8")), load_target("wormhole"))
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("wormhole"), "tenstorrent")
    assert (refused.value.code, refused.value.message) == (
        "E7041", "tensor 'R' is bfp8, which lives in DRAM in tt-metal's tile layout: it and the "
                 "tiles its loads and stores move must be whole 32 x 32 tiles of two "
                 "dimensions, not [64, 1] in [32, 1]")


@pytest.mark.parametrize("dtype", ["f32", "i32", "bf16"])
def test_a_transpose_takes_each_output_tile_from_the_input_tile_across_the_diagonal(dtype):
    # A token of 2 x 3 tiles becomes one of 3 x 2: output tile (i, j) of token n is
    # transpose_wh_tile of input tile (j, i) of token n, whatever the tiles' order in the
    # buffer. The index the kernel computes is evaluated here for every tile of two tokens.
    graph = one_stage("compute s transpose(a) -> c", dtype, "[64, 96]", "[96, 64]")
    shapes = token_shapes(Program(graph))
    (ht, wt), (ho, wo) = grid(shapes["a_0"]), grid(shapes["c_0"])
    assert (ho, wo) == (wt, ht) and ht * wt > 1
    text = lowered_of(graph, load_target("wormhole")).files["r0c0_compute.cpp"]
    [index] = re.findall(r"transpose_wh_tile\(cb_a_0, (.*), 0\);", text)
    source = index.replace("u", "").replace("/", "//")
    for n in range(2):
        for i in range(ho):
            for j in range(wo):
                got = eval(source, {"j": n, "t": i * wo + j})  # noqa: S307 - our own text
                assert got == n * ht * wt + j * wt + i
    assert "transpose_wh_init(cb_a_0, cb_c_0);" in text


# -- the units: the lowering's and the cost model's ------------------------------------------


def fire_units(text: str) -> dict[str, set[str]]:
    """Per `fire` of a compute kernel, the units of its compute-API calls that compute (the
    matrix and the vector unit; moves, synchronisation and configuration left out)."""
    parts = re.split(r"^\s*// fire (\w+)\n", text, flags=re.M)
    return {stage: {API[f].unit for f in calls_in(block.split("// ", 1)[0], API)}
            & {"matrix", "vector"} for stage, block in zip(parts[1::2], parts[2::2])}


def test_the_cost_model_puts_every_float_reduction_on_the_unit_the_kernel_reduces_on(
        snapshot_txt):
    # Each stage kind and type the tests lower on wormhole, with the units its fire calls
    # and the unit the cost model (matrix.on_matrix) charges it to. A float sum or max is
    # reduce_tile on the matrix unit in both; the rows that still differ are in the snapshot
    # and docs/spatial.md (The compute kernels, What is not).
    wormhole = load_target("wormhole")
    rows = set()
    for graph, target in map(program, MAKERS):
        if target != wormhole:
            continue
        p = Program(graph)
        for text in compute_kernels(lowered_of(graph, target)).values():
            for stage, units in fire_units(text).items():
                st = p.stages[stage]
                modelled = "matrix" if on_matrix(target, p, st) else "vector"
                rows.add((getattr(st, "op", "scalar"), p.stage_dtype(st),
                          " ".join(sorted(units)) or "(moves only)", modelled))
    reductions = [r for r in rows if r[0] in ("sum", "max")]
    assert reductions and all(r[2] == r[3] == "matrix" for r in reductions)
    assert "".join(f"{op:<10} {dtype:<5} kernel {units:<12} cost model {modelled}\n"
                   for op, dtype, units, modelled in sorted(rows)) == snapshot_txt


# -- refusals --------------------------------------------------------------------------------


def one_stage(stage: str, dtype: str, shape: str = "[32, 64]", out: str = "[32, 64]"):
    text = (f"spatial one {{\n    tensor A: {dtype}{shape} input\n    tensor C: {dtype}{out} "
            f"output\n    stream a: {dtype}\n    stream c: {dtype}\n    load la A -> a\n"
            f"    {stage}\n    store sc c -> C\n}}\n")
    return through_lane(parse_spatial(text), load_target("wormhole"))


@pytest.mark.parametrize("stage,dtype,shape,out,why", [
    ("compute s scale 3 (a) -> c", "i32", "[32, 64]", "[32, 64]",
     "int32 '*' has no call (only sums and differences)"),
    ("compute s exp(a) -> c", "i32", "[32, 64]", "[32, 64]", "int32 'exp' has no call"),
    ("compute s max axis 1 (a) -> c", "f32", "[32, 8]", "[32, 1]", None),
    ("scalar s(v: a) = v * (v * (v * (v * (v * v)))) -> c", "f32", "[32, 64]", "[32, 64]",
     "its expression needs more than the 4 tiles the destination register holds"),
])
def test_what_the_compute_api_cannot_compute_is_refused(stage, dtype, shape, out, why):
    graph = one_stage(stage, dtype, shape, out)
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("wormhole"), "tenstorrent")
    assert refused.value.code == "E7041"
    assert "cannot be written through tt-metal's compute API" in refused.value.message
    if why:
        assert refused.value.message.endswith(why)


def test_a_max_along_a_padded_axis_is_refused_and_a_sum_is_not():
    message = ("it combines the 8 elements of 'a_0' along an axis that does not fill whole "
               "32-element tiles, and the padding would enter the result")
    with pytest.raises(LowerError) as refused:
        lower(one_stage("compute s max axis 1 (a) -> c", "f32", "[32, 8]", "[32, 1]"),
              load_target("wormhole"), "tenstorrent")
    assert refused.value.message.endswith(message) or "padding" in refused.value.message
    summed = one_stage("compute s sum axis 1 (a) -> c", "f32", "[32, 8]", "[32, 1]")
    assert lowered_of(summed, load_target("wormhole")).files


# -- snapshots of the reference kernels ------------------------------------------------------


def vx_scheduled(name: str):
    return through_lane(bridged(name)[0], load_target("wormhole"))


def first_site(lowered) -> str:
    """The kernels of core (0, 0), joined."""
    return "".join(f"// ---- {n} ----\n{t}" for n, t in lowered.files.items()
                   if n.startswith("r0c0_"))


def test_softmax_vx_snapshot(snapshot_txt):
    graph = vx_scheduled("softmax")
    assert first_site(lowered_of(graph, load_target("wormhole"))) == snapshot_txt


def test_attention_head_bf16_snapshot(snapshot_txt):
    """The head's first core: its keys transposed, the scores, the softmax and the mix."""
    graph = reference.step("attention", "wormhole", "schedule")[1]
    assert first_site(lowered_of(graph, load_target("wormhole"))) == snapshot_txt


@pytest.mark.parametrize("name", ["gemm", "row_sums"])
def test_an_i32_vx_kernel_is_refused_and_its_bf16_twin_lowered_snapshot(name, snapshot_txt):
    with pytest.raises(LowerError) as refused:
        lower(vx_scheduled(name), load_target("wormhole"), "tenstorrent")
    twin = program(f"{name}-bf16")[0]
    text = (f"// {name}.vx: {refused.value.code} {refused.value.message}\n"
            + first_site(lowered_of(twin, load_target("wormhole"))))
    assert text == snapshot_txt


# -- a matmul summing its K-blocks -----------------------------------------------------------

def test_a_matmul_over_its_k_blocks_keeps_its_sum_in_the_destination_register():
    # gemv on wormhole: each core's [1, 16] of y is one tile, summed over two K-blocks.
    graph = reference.step("gemv", "wormhole", "schedule")[1]
    assert next(s.over for s in graph.stages if s.name == "mv_0") == 2
    kernel = lowered_of(graph, load_target("wormhole")).files["r0c0_compute.cpp"]
    body = [line.strip() for line in kernel.splitlines()]
    first = body.index("if (summed_mv_0 == 0u) {")
    assert body[first + 1] == "tile_regs_acquire();"
    last = body.index("if (++summed_mv_0 == 2u) {")
    assert body[last + 1:last + 4] == ["summed_mv_0 = 0;", "tile_regs_commit();",
                                       "tile_regs_wait();"]
    assert "matmul_tiles(cb_xs_0_in, cb_ws_0, r * 8u + 0u + k, r * 8u + k * 1u + 0u, 0, 0);" \
        in body


def test_a_matmul_summing_more_tiles_than_the_destination_holds_is_refused():
    # 1024^3 in bf16: each core's 128 x 128 block of C is 16 tiles, summed over K-blocks.
    text = sdf("gemm", "bf16").replace("[64, 64]", "[1024, 1024]")
    graph = through_lane(parse_spatial(text), load_target("wormhole"))
    with pytest.raises(LowerError) as refused:
        lower(graph, load_target("wormhole"), "tenstorrent")
    assert refused.value.code == "E7041"
    assert ("accumulates over 4 firings into an output of 16 tiles; the destination register "
            f"holds {DST_TILES}") in str(refused.value)
