"""Narrow element types through the spatial lane: bf16, f16 and the block floats bfp8 and
bfp4 in tensors, streams and tiles, every pass checked by running (the lane's own check,
with the tolerances of nano_vx/spatial/tolerance.py); their bytes in buffers and DRAM
traffic; a stage whose operands disagree (E7002) and the same stage converting them (`via`);
`--inputs` of f32 arrays rounded to the format, and of bf16 arrays as they are."""

from __future__ import annotations

import io
import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from nano_vx.cli import main
from nano_vx.oracle.equivalence import corpus, evaluate
from nano_vx.oracle.outcomes import Finished
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.elements import ELEMENTS
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.target import load_target
from nano_vx.spatial.text import to_spatial_text
from nano_vx.spatial.tolerance import tolerances
from nano_vx.spatial.validate import validate
from nano_vx.spatial.work import work
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE

# Slow (the whole suite's, not the inner loop's): narrow formats through the spatial lane, every
# pass run.
pytestmark = pytest.mark.slow

GEMM = """\
spatial gemm {{
    tensor A: {a}[{m}, {k}] input
    tensor B: {b}[{k}, {n}] input
    tensor C: {c}[{m}, {n}] output
    stream a: {a}
    stream b: {b}
    stream c: {c}
    load load_a A -> a
    load load_b B -> b
    compute mm matmul_acc(a, b){via} -> c
    store store_c c -> C
}}
"""

# exp(x - rowmax) in the format: a scalar, a reduction and a broadcast.
SHIFTED_EXP = """\
spatial shifted {{
    tensor X: {t}[32, 64] input
    tensor Y: {t}[32, 64] output
    stream x: {t}
    stream x2: {t}
    stream m: {t}
    stream y: {t}
    load ld X -> x, x2
    compute mx max axis 1 (x) -> m
    scalar e(v: x2, w: m) = exp(v - w) -> y
    store st y -> Y
}}
"""


def gemm(a, b=None, c=None, via="", m=64, k=128, n=64) -> str:
    return GEMM.format(a=a, b=b or a, c=c or a, via=f" via {via}" if via else "", m=m, k=k,
                       n=n)


def through_lane(text: str, target: str = "wormhole"):
    """Every pass of the lane, each rewrite checked on a corpus: the final program."""
    graph = parse_spatial(text, "p.sdf")
    tgt = load_target(target)
    assert validate(graph, tgt) == []
    ctx = SpatialContext(tgt)
    for p in SPATIAL_PIPELINE:
        after = p(graph, ctx)
        problem = check_rewrite(graph, after, tgt)
        assert problem is None, f"{p.name}: {problem.describe()}"
        graph = after
    return graph


def _value(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


@pytest.mark.parametrize("fmt", ["bf16", "f16", "bfp8", "bfp4"])
def test_a_gemm_in_a_narrow_format_goes_through_the_lane(fmt):
    final = through_lane(gemm(fmt))
    given = corpus(final, seed=5, count=1)[0]
    outcome = evaluate(final, given)
    assert isinstance(outcome, Finished)
    got = outcome.outputs["C"]
    assert got.dtype == np.dtype(ELEMENTS[fmt].storage)
    # the same product of the format's values, in f32, rounded once to the format
    exact = ELEMENTS[fmt].store(given["A"].astype(np.float32) @ given["B"].astype(np.float32))
    assert tolerances(final)["C"].close(exact, got).all()
    assert np.array_equal(ELEMENTS[fmt].store(got), got)  # the values are the format's


@pytest.mark.parametrize("fmt", ["bf16", "bfp8"])
def test_a_reduction_and_a_broadcast_in_a_narrow_format(fmt):
    final = through_lane(SHIFTED_EXP.format(t=fmt))
    x = corpus(final, seed=1, count=1)[0]["X"]
    outcome = evaluate(final, {"X": x})
    v = x.astype(np.float32)
    want = ELEMENTS[fmt].store(np.exp(v - ELEMENTS[fmt].store(v.max(axis=1, keepdims=True))))
    assert np.array_equal(outcome.outputs["Y"], want)  # no sum: the same bits


def test_the_corpus_holds_values_of_the_format():
    graph = parse_spatial(gemm("bfp4"), "p.sdf")
    a = corpus(graph, count=1)[0]["A"]
    assert np.array_equal(ELEMENTS["bfp4"].store(a), a) and len(np.unique(a)) > 8


@pytest.mark.parametrize("fmt, c_bytes", [
    ("f32", 64 * 64 * 4), ("bf16", 64 * 64 * 2),
    ("bfp8", 64 * 4 * 17),  # per row of C, 4 blocks of 16 values, 17 bytes each
    ("bfp4", 64 * 4 * 9),
])
def test_bytes_drive_buffers_and_dram_traffic(fmt, c_bytes):
    final = through_lane(gemm(fmt))
    p = Program(final)
    stores = [st.name for st in final.stages if st._prod == "Store"]
    assert sum(work(final).dram_write[name] for name in stores) == c_bytes
    for st in final.stages:
        if st._prod == "Load":  # each buffer a load fills holds tokens of its tile's bytes
            per_token = ELEMENTS[fmt].nbytes(st.tile)
            for port in st.outs:
                b = p.buffers[port.stream]
                assert b.bytes == b.depth * per_token


def test_a_block_float_tile_keeps_its_blocks_whole():
    final = through_lane(gemm("bfp8"))
    for st in final.stages:
        if hasattr(st, "tile"):
            n = Program(final).tensors[st.tensor].shape[-1]
            assert st.tile[-1] == n or st.tile[-1] % 16 == 0


# -- operands of two types: E7002, and the stage that says how it converts ----------------

def spatial(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["spatial", *map(str, args)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.sdf"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_stage_given_operands_of_two_types_is_e7002(tmp_path):
    program = write(tmp_path, gemm("f32", "i32", "f32"))
    code, _, err = spatial(program, "--target", "wormhole", "--error-format=json")
    [found] = json.loads(err)["diagnostics"]
    assert code == 1 and found["code"] == "E7002"
    assert "stage 'mm' (matmul_acc) takes operands of different element types " \
           "('a' f32, 'b' i32)" in found["message"]


def test_the_stage_that_says_via_is_accepted_and_converts(tmp_path):
    program = write(tmp_path, gemm("f32", "i32", "f32", via="f32"))
    code, out, err = spatial(program, "--target", "wormhole")
    assert (code, err) == (0, "") and "outcome: finished" in out


def test_mixed_bf16_and_bfp8_operands_meet_via_bf16():
    final = through_lane(gemm("bf16", "bfp8", "bf16", via="bf16"))
    given = corpus(final, seed=2, count=1)[0]
    got = evaluate(final, given).outputs["C"]
    a, b = (given[n].astype(np.float32) for n in "AB")
    assert tolerances(final)["C"].close(ELEMENTS["bf16"].store(a @ b), got).all()


def test_via_round_trips_through_the_text():
    text = gemm("bf16", "bfp8", "f32", via="bf16")
    graph = parse_spatial(text, "p.sdf")
    assert graph.stages[2].via == "bf16"
    assert parse_spatial(to_spatial_text(graph), "q.sdf") == graph


# -- --inputs -------------------------------------------------------------------------------

def _inputs(tmp_path: Path, **arrays) -> Path:
    path = tmp_path / "in.npz"
    np.savez(path, **arrays)
    return path


def test_inputs_of_f32_are_rounded_to_the_format(tmp_path):
    program = write(tmp_path, gemm("bf16"))
    rng = np.random.default_rng(0)
    a, b = rng.uniform(-1, 1, (64, 128)), rng.uniform(-1, 1, (128, 64))
    given = _inputs(tmp_path, A=a.astype(np.float32), B=b.astype(np.float32))
    code, out, err = spatial(program, "--target", "wormhole", "--inputs", given)
    assert (code, err) == (0, "")
    ra, rb = (x.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
              for x in (a, b))
    total = ELEMENTS["bf16"].store(ra @ rb).astype(np.float64).sum()
    line = next(x for x in out.splitlines() if x.startswith("output C"))
    assert line.startswith("output C: bf16[64, 64], sum ")
    assert float(line.rsplit(" ", 1)[1]) == pytest.approx(total, rel=1e-2, abs=0.5)


def test_inputs_of_bf16_are_taken_as_they_are(tmp_path):
    program = write(tmp_path, gemm("bf16"))
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (64, 128)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (128, 64)).astype(ml_dtypes.bfloat16)
    code, out, err = spatial(program, "--target", "wormhole",
                             "--inputs", _inputs(tmp_path, A=a, B=b))
    assert (code, err) == (0, "") and "outcome: finished" in out


def test_inputs_of_another_type_are_e7002(tmp_path):
    program = write(tmp_path, gemm("bfp8"))
    given = _inputs(tmp_path, A=np.zeros((64, 128)), B=np.zeros((128, 64)))
    code, _, err = spatial(program, "--target", "wormhole", "--inputs", given,
                           "--error-format=json")
    [found] = json.loads(err)["diagnostics"]
    assert code == 1 and found["code"] == "E7002"
    assert "is float64[64, 128]; the program declares bfp8[64, 128]" in found["message"]


# The tenstorrent backend writes narrow formats (tests/spatial/test_tt_compute_api.py).
@pytest.mark.parametrize("backend, words", [
    ("cuda", "the program holds bf16; the cuda lowering writes i32, i64, f32 and f64 only"),
])
def test_a_backend_that_cannot_write_a_narrow_format_says_so(tmp_path, backend, words):
    program = write(tmp_path, gemm("bf16"))
    code, _, err = spatial(program, "--target", "wormhole", "--lower", backend,
                           "--lower-dir", tmp_path / "out", "--error-format=json")
    [found] = json.loads(err)["diagnostics"]
    assert code == 1 and found["code"] == "E7041" and words in found["message"]


def test_an_infinity_sets_no_scale_for_its_neighbours():
    tolerance = tolerances(parse_spatial(gemm("bfp8"), "p.sdf"))["C"]
    before = np.array([[np.inf, 1.0, 2.0]], dtype=np.float32)
    assert tolerance.close(before, before).all()
    after = np.array([[np.inf, 1.5, 2.0]], dtype=np.float32)
    assert tolerance.close(before, after).tolist() == [[True, False, True]]


@pytest.mark.parametrize("fmt, rtol", [("f32", 1e-4), ("bf16", 2 * 2 ** -8),
                                       ("f16", 2 * 2 ** -11), ("bfp8", 2 * 2 ** -7),
                                       ("bfp4", 2 * 2 ** -3)])
def test_the_tolerance_follows_from_the_format_and_the_reduction(fmt, rtol):
    """One rounding stage (the product), K = 128 additions in f32."""
    tolerance = tolerances(parse_spatial(gemm(fmt), "p.sdf"))["C"]
    assert tolerance.rtol == max(1e-4, rtol)
    assert tolerance.reassociated == 128 * 2 ** -24
    assert tolerance.blocks == fmt.startswith("bfp")
