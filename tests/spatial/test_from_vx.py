"""from-vx, the bridge from Vx into the spatial lane: a Vx kernel written over a mesh slice
(`unroll across`), with loops over tiles and over elements, is read as the dataflow graph it
computes; that graph computes what the reference interpreter computes for the kernel, and the
lane takes it to a choreographed program on every target. What the bridge cannot read is
E7060, naming the construct; a tensor its loops do not write exactly once, E7061."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import numpy as np
import pytest

import spatial_reference
from nano_vx.cli import main
from nano_vx.diagnostics import Diagnostics
from nano_vx.oracle.equivalence import corpus, evaluate
from nano_vx.oracle.outcomes import Finished
from nano_vx.source import Source
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.text import to_spatial_text
from nano_vx.spatial_driver import vx_source
from nano_vx.spatial_driver.vx_reference import run_kernel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "spatial"
KERNELS = ["gemm", "gemv", "row_sums", "softmax", "scores", "attention", "mlp"]
# written in Vx and as .sdf, with one .npz
TWINS = ["gemm", "gemv", "row_sums", "softmax", "attention", "mlp"]
TARGETS = ["wormhole", "gpu-sm", "fabric"]


@functools.cache
def bridged(name: str):
    """(the graph, the VxKernel) of an example, made once per process: both are immutable."""
    path = EXAMPLES / f"{name}.vx"
    diagnostics = Diagnostics()
    out = vx_source.bridge(Source(str(path), path.read_text()), None, diagnostics)
    assert out is not None, diagnostics.render()
    return out


npz = spatial_reference.inputs


@pytest.mark.parametrize("name", KERNELS)
def test_the_graph_a_kernel_is(name, snapshot_txt):
    graph, _ = bridged(name)
    assert to_spatial_text(graph) == snapshot_txt


@pytest.mark.parametrize("name", KERNELS)
def test_the_graph_computes_what_the_interpreter_computes(name):
    graph, kernel = bridged(name)
    inputs = corpus(graph, seed=7, count=1)
    [outcome] = [evaluate(graph, given) for given in inputs]
    assert isinstance(outcome, Finished)
    assert kernel.divergence(graph, [outcome], inputs) is None
    # The interpreter gives back the kernel's `&mut` parameters (run_kernel): the graph's
    # outputs are those, which the run above compared element by element.
    [fn] = [item for item in kernel.tree.items if getattr(item, "name", None) == kernel.name]
    mutable = [p.name for p in fn.params if p.type._prod == "BorrowType"]
    assert sorted(mutable) == sorted(outcome.outputs)


@pytest.mark.parametrize("name", TWINS)
def test_a_kernel_and_its_spatial_text_compute_the_same(name):
    graph, _ = bridged(name)
    text = parse_spatial((EXAMPLES / f"{name}.sdf").read_text(), f"{name}.sdf")
    given = npz(name)
    ours, theirs = evaluate(graph, given), evaluate(text, given)
    assert sorted(ours.outputs) == sorted(theirs.outputs)
    for t, value in theirs.outputs.items():
        np.testing.assert_allclose(ours.outputs[t], value, rtol=1e-5)


def test_a_divergence_from_the_interpreter_is_found():
    # row_sums, whose interpretation takes a tenth of gemm's.
    graph, kernel = bridged("row_sums")
    given = npz("row_sums")
    wrong = {"X": given["X"][::-1].copy()}  # the graph run on other inputs
    outcome = evaluate(graph, wrong)
    said = kernel.divergence(graph, [outcome], [given])
    assert said is not None and said.startswith("on input 0, 'R' differs first at [")


def run(path: Path, *args: str) -> tuple[int, str, list[dict]]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["spatial", str(path), "--error-format=json", *args], stdout=out, stderr=err)
    return status, out.getvalue(), json.loads(err.getvalue())["diagnostics"]


@pytest.mark.slow
@pytest.mark.parametrize("name, target", [(n, t) for n in TWINS for t in TARGETS
                                          if n not in spatial_reference.NARROW
                                          or t == "wormhole"])
def test_a_kernel_runs_through_the_lane_as_its_spatial_text_does(name, target):
    status, printed, diagnostics = run(EXAMPLES / f"{name}.vx", "--target", target,
                                       "--corpus", "1")
    assert (status, diagnostics) == (0, [])
    assert printed.splitlines()[1].startswith("  from-vx ")
    assert "the interpreter agrees on 1 input in" in printed
    _, text, _ = run(EXAMPLES / f"{name}.sdf", "--target", target, "--corpus", "1")
    outputs = [line for line in printed.splitlines() if line.startswith(("outcome", "output"))]
    assert outputs == [line for line in text.splitlines()
                       if line.startswith(("outcome", "output"))]


def test_a_kernel_with_a_stream_of_its_own_runs_on_every_target(monkeypatch):
    # What the kernel computes does not depend on the target: the interpreter runs once for
    # each input, and each target's program is compared with what it gave.
    interpreted = {}

    def run_kernel_once(program, name, inputs):
        key = (name, *((k, v.dtype.str, v.shape, v.tobytes()) for k, v in sorted(inputs.items())))
        if key not in interpreted:
            interpreted[key] = run_kernel(program, name, inputs)
        return interpreted[key]

    monkeypatch.setattr(vx_source, "run_kernel", run_kernel_once)
    for target in TARGETS:
        status, printed, diagnostics = run(EXAMPLES / "scores.vx", "--target", target,
                                           "--corpus", "1")
        assert (status, diagnostics) == (0, []), target
        assert "output Y: float32[32, 32]" in printed


# -- what the bridge refuses ------------------------------------------------------------------

HEAD = "fn k(X: Tensor<i32, [8, 8], Memory::NPU_HBM>, Y: &mut Tensor<i32, [8, 8], Memory::NPU_HBM>"


# A bf16 kernel computes each step in f32 (`as f32`) and rounds its result once (`as bf16`).
NARROW_HEAD = ("fn k(X: Tensor<bf16, [8, 8], Memory::NPU_HBM>, "
               "Y: &mut Tensor<bf16, [8, 8], Memory::NPU_HBM>) {\n")


def kernel(body: str, params: str = "") -> str:
    return f"{HEAD}{params}) {{\n{body}}}\n"


def loop(inner: str, rows: str = "0..8") -> str:
    return f"  for i in {rows} {{\n    for j in 0..8 {{\n      {inner}\n    }}\n  }}\n"


REFUSED = {
    "an element assignment that reads no tensor": (
        kernel(loop("Y[i][j] = 2;")), "E7060",
        "an element assignment reads a tensor of the kernel",
        kernel(loop("Y[i][j] = X[i][j] * 0 + 2;"))),
    "a parameter that is no tensor": (
        kernel(loop("Y[i][j] = X[i][j] * n;"), ", n: i32"), "E7060",
        "a kernel's parameters are tensors (its inputs) and `&mut` tensors (its outputs): 'n' "
        "is neither",
        kernel(loop("Y[i][j] = X[i][j] * 3;"))),
    "a loop over tiles whose variable is read": (
        kernel("  for t in 0..2 {\n    for i in t * 4..(t + 1) * 4 {\n      for j in 0..8 {\n"
               "        Y[i][j] = X[i][j] * t;\n      }\n    }\n  }\n"), "E7060",
        "the loop over 't' is a loop over tiles (it indexes no axis of 'Y'), so its variable "
        "may appear only in the bounds of the loops inside it",
        kernel("  for t in 0..2 {\n    for i in t * 4..(t + 1) * 4 {\n      for j in 0..8 {\n"
               "        Y[i][j] = X[i][j] * 2;\n      }\n    }\n  }\n")),
    "a bound known only at run time": (
        kernel(loop("Y[i][j] = X[i][j];", rows="0..X[0][0]")), "E7060",
        "a loop bound must be known while compiling (numbers, constants, the index of an "
        "`unroll across`, and the variables of loops over tiles): this one is not",
        kernel(loop("Y[i][j] = X[i][j];"))),
    "a body that is none of the three": (
        kernel(loop("Y[i][j] = X[i][j];\n      Y[i][j] = 2;")), "E7060",
        "this loop nest computes nothing the bridge reads: its innermost body is not an "
        "element assignment, a matrix product or a sum (docs/spatial.md, From Vx)",
        kernel(loop("Y[i][j] = X[i][j] + 2;"))),
    "a min along an axis": (
        kernel("  for i in 0..8 {\n    let mut m = X[i][0];\n    for j in 0..8 {\n"
               "      m = min(m, X[i][j]);\n    }\n    R[i][0] = m;\n  }\n"
               + loop("Y[i][j] = X[i][j];"), ", R: &mut Tensor<i32, [8, 1], Memory::NPU_HBM>"),
        "E7060", "the spatial lane reduces along an axis by sum and by max, not by min",
        kernel("  for i in 0..8 {\n    let mut m = X[i][0];\n    for j in 0..8 {\n"
               "      m = max(m, X[i][j]);\n    }\n    R[i][0] = m;\n  }\n"
               + loop("Y[i][j] = X[i][j];"), ", R: &mut Tensor<i32, [8, 1], Memory::NPU_HBM>")),
    "a max from zero": (
        kernel("  for i in 0..8 {\n    let mut m = 0;\n    for j in 0..8 {\n"
               "      m = max(m, X[i][j]);\n    }\n    R[i][0] = m;\n  }\n"
               + loop("Y[i][j] = X[i][j];"), ", R: &mut Tensor<i32, [8, 1], Memory::NPU_HBM>"),
        "E7060", "a sum starts from 0; a max or a min from the first element it reduces",
        kernel("  for i in 0..8 {\n    let mut m = X[i][0];\n    for j in 0..8 {\n"
               "      m = max(m, X[i][j]);\n    }\n    R[i][0] = m;\n  }\n"
               + loop("Y[i][j] = X[i][j];"), ", R: &mut Tensor<i32, [8, 1], Memory::NPU_HBM>")),
    "a matrix product over part of its axis": (
        kernel(loop("let mut acc = 0;\n      for k in 0..4 {\n        acc += X[i][k] * X[k][j];"
                    "\n      }\n      Y[i][j] = acc;")), "E7060",
        "the inner loop of a matrix product runs over the whole axis: 0..8",
        kernel(loop("let mut acc = 0;\n      for k in 0..8 {\n        acc += X[i][k] * X[k][j];"
                    "\n      }\n      Y[i][j] = acc;"))),
    "a transposed read inside arithmetic": (
        kernel(loop("Y[i][j] = X[j][i] + 1;")), "E7060",
        "index 0 must be 'i' (or 0 where the input's extent is 1); a transpose is a nest of "
        "its own, `T[i][j] = X[j][i]`",
        kernel("  let mut T = Tensor<i32, [8, 8], Memory::NPU_HBM>::new();\n"
               + loop("T[i][j] = X[j][i];") + loop("Y[i][j] = T[i][j] + 1;"))),
    "a cast the lane does not compute": (
        NARROW_HEAD + loop("Y[i][j] = ((X[i][j] as f64) * 2.0) as bf16;") + "}\n", "E7060",
        "an elementwise body is arithmetic",
        NARROW_HEAD + loop("Y[i][j] = ((X[i][j] as f32) * 2.0) as bf16;") + "}\n"),
    "elements written twice": (
        kernel(loop("Y[i][j] = X[i][j];", rows="0..5") + loop("Y[i][j] = X[i][j];", rows="4..8")),
        "E7061", "'Y[4..5][0..8]' is written twice",
        kernel(loop("Y[i][j] = X[i][j];", rows="0..4") + loop("Y[i][j] = X[i][j];", rows="4..8"))),
    "two halves computed two ways": (
        kernel(loop("Y[i][j] = X[i][j];", rows="0..4")
               + loop("Y[i][j] = X[i][j] + 1;", rows="4..8")),
        "E7061", "'Y' is written by two different computations",
        kernel(loop("Y[i][j] = X[i][j] * 2;", rows="0..4")
               + loop("Y[i][j] = X[i][j] * 2;", rows="4..8"))),
    "a tensor read before it is complete": (
        kernel("  let mut S = Tensor<i32, [8, 8], Memory::NPU_HBM>::new();\n"
               + loop("S[i][j] = X[i][j] + 1;", rows="0..4") + loop("Y[i][j] = S[i][j] * 2;")
               + loop("S[i][j] = X[i][j] + 1;", rows="4..8")), "E7061",
        "'S' is read here before every element of it is written",
        kernel("  let mut S = Tensor<i32, [8, 8], Memory::NPU_HBM>::new();\n"
               + loop("S[i][j] = X[i][j] + 1;", rows="0..4")
               + loop("S[i][j] = X[i][j] + 1;", rows="4..8") + loop("Y[i][j] = S[i][j] * 2;"))),
    "an output never written": (
        kernel(loop("Y[i][j] = X[i][j];"), ", Z: &mut Tensor<i32, [8, 8], Memory::NPU_HBM>"),
        "E7061",
        "the output 'Z' is never written",
        kernel(loop("Y[i][j] = X[i][j];"))),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case, tmp_path):
    text, code, says, repaired = REFUSED[case]
    path = tmp_path / "kernel.vx"
    path.write_text(text)
    status, _, diagnostics = run(path, "--target", "wormhole", "--corpus", "1")
    assert status == 1
    assert [d["code"] for d in diagnostics] == [code], diagnostics
    assert says in diagnostics[0]["message"]
    path.write_text(repaired)
    status, _, diagnostics = run(path, "--target", "wormhole", "--corpus", "1")
    assert (status, diagnostics) == (0, [])


def test_a_program_with_two_kernels_names_one(tmp_path):
    body = loop("Y[i][j] = X[i][j];")
    path = tmp_path / "two.vx"
    path.write_text(kernel(body) + kernel(body).replace("fn k(", "fn other("))
    status, _, diagnostics = run(path, "--target", "wormhole", "--corpus", "1")
    assert status == 1 and diagnostics[0]["code"] == "E7060"
    assert diagnostics[0]["message"] == ("nano-vx spatial lowers one kernel, and this program "
                                         "has 2 functions with tensor parameters (k, other)")
    assert run(path, "--target", "wormhole", "--corpus", "1", "--kernel", "other")[0] == 0
    status, _, diagnostics = run(path, "--target", "wormhole", "--kernel", "nope")
    assert status == 1 and diagnostics[0]["message"] == "there is no function 'nope' to lower"


def test_what_the_front_end_refuses_is_refused_with_its_own_code(tmp_path):
    path = tmp_path / "bad.vx"
    path.write_text(kernel(loop("Y[i][j] = X[i][j] + undefined;")))
    status, _, diagnostics = run(path, "--target", "wormhole")
    assert status == 1 and [d["code"] for d in diagnostics] == ["E2001"]


def test_kernel_is_an_option_of_vx_programs_only():
    status, _, diagnostics = run(EXAMPLES / "gemm.sdf", "--target", "wormhole", "--kernel", "k")
    assert status == 1 and diagnostics[0]["code"] == "E7060"


@pytest.mark.parametrize("suffix, text", [
    ("sdf", "spatial big {\n    tensor X: f32[100000, 100000] input\n"
            "    tensor Y: f32[100000, 100000] output\n    stream x: f32\n"
            "    load l X -> x\n    store s x -> Y\n}\n"),
    ("vx", kernel(loop("Y[i][j] = X[i][j] * 2;", rows="0..3000000")).replace(
        "[8, 8]", "[3000000, 8]")),
])
def test_a_program_too_large_to_run_is_refused_before_anything_is_allocated(
        tmp_path, suffix, text):
    path = tmp_path / f"big.{suffix}"
    path.write_text(text)
    status, _, diagnostics = run(path, "--target", "wormhole")
    assert status == 1 and [d["code"] for d in diagnostics] == ["E7062"]
    assert diagnostics[0]["message"].startswith("the program's tensors take ")


def test_the_bridge_is_dumped_and_stopped_after_like_a_pass(tmp_path):
    status, printed, diagnostics = run(EXAMPLES / "row_sums.vx", "--target", "wormhole",
                                       "--dump-after=from-vx", "--stop-after=from-vx")
    assert (status, diagnostics) == (0, [])
    assert printed.startswith("*** IR Dump After from-vx (Lfolded -> Sdataflow) ***\n"
                              "spatial row_sums: Sdataflow {\n")
    assert "\n  tile " not in printed  # the lane stopped after the bridge
    run(EXAMPLES / "row_sums.vx", "--target", "wormhole", "--corpus", "1",
        "--dump-before=from-vx", "--dump-after=from-vx,tile", f"--dump-dir={tmp_path}")
    assert sorted(f.name for f in tmp_path.iterdir()) == [
        "01a-before-from-vx.txt", "01b-after-from-vx.txt", "02b-after-tile.txt"]
    # The dump names its IL in its first line, so that it reads back.
    assert (tmp_path / "01a-before-from-vx.txt").read_text().startswith(
        "// IL: Lfolded\nconst ROWS_PER_NPU: i32 = 16;")
    err = io.StringIO()
    status = main(["spatial", str(EXAMPLES / "row_sums.sdf"), "--target", "wormhole",
                   "--dump-after=from-vx"], stdout=io.StringIO(), stderr=err)
    # A spatial program has no from-vx: a usage error.
    assert (status, err.getvalue()) == (2, "nano-vx: error: no pass named from-vx (the passes, "
                                           "in order: tile, place, size-buffers, fuse-readers, "
                                           "relay-tokens, synthesize-handshakes, schedule; "
                                           "`nano-vx --list-passes` says what each does)\n")
