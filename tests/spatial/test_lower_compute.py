"""The loops both backends write for `fire` (nano_vx/spatial/lower/compute.py) mean what
nano_vx/spatial/ops.py means: each stage below fires once on random tokens, in numpy and in
the emitted loops compiled with the host's C++ compiler, and the outputs agree (exactly for
integers, including wrap-around and division by zero; to float rounding for floats)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from nano_vx.spatial_backend.compute import C_TYPES, HELPERS, fire_lines
from nano_vx.spatial.ops import NUMPY_DTYPES, fire
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program, ins
from nano_vx.spatial.shapes import token_shapes

# Slow (the whole suite's, not the inner loop's): C++ compiled with the host's compiler.
pytestmark = pytest.mark.slow

CXX = shutil.which("g++") or shutil.which("c++")

# name -> (tensor declarations, the stage, the element type of its output)
STAGES = {
    "matmul-i32-wraps": ("A: i32[4, 6], B: i32[6, 5]", "compute s matmul_acc(a x2, b x2) -> c",
                         "i32"),
    "matmul-f32": ("A: f32[3, 8], B: f32[8, 2]", "compute s matmul_acc(a, b) -> c", "f32"),
    "add-broadcast": ("A: i32[4, 6], B: i32[4, 1]", "compute s add(a x2, b x2) -> c", "i32"),
    "mul-f64": ("A: f64[1, 6], B: f64[3, 6]", "compute s mul(a, b) -> c", "f64"),
    "sub-row-f32": ("A: f32[4, 6], B: f32[1, 6]", "compute s sub(a, b) -> c", "f32"),
    "div-int-column": ("A: i32[4, 6], B: i32[4, 1]", "compute s div(a x2, b x2) -> c", "i32"),
    "div-f32-column": ("A: f32[4, 6], B: f32[4, 1]", "compute s div(a, b) -> c", "f32"),
    "transpose-i32": ("A: i32[3, 5]", "compute s transpose(a x2) -> c", "i32"),
    "scale-int": ("A: i32[2, 5]", "compute s scale 3 (a) -> c", "i32"),
    "scale-float-truncates": ("A: i32[2, 5]", "compute s scale 2.5 (a) -> c", "i32"),
    "exp-f32": ("A: f32[2, 3]", "compute s exp(a) -> c", "f32"),
    "sum-axis0": ("A: i32[5, 3]", "compute s sum axis 0 (a x3) -> c", "i32"),
    "sum-axis1-f32": ("A: f32[2, 7]", "compute s sum axis 1 (a x2) -> c", "f32"),
    "max-axis1": ("A: i64[3, 4]", "compute s max axis 1 (a x2) -> c", "i64"),
    "scalar-int-division": ("A: i32[3, 4], B: i32[3, 1]",
                            "scalar s(v: a, w: b) = max(v / w, -(7)) - min(v, w) * 2 -> c",
                            "i32"),
    "scalar-float": ("A: f32[2, 4], B: f32[2, 1]",
                     "scalar s(v: a, t: b) = exp(v - t) * recip(max(t, 1.5e-07)) / -(2) -> c",
                     "f32"),
}


def program(tensors: str, stage: str, out: str):
    """A graph of one stage `s` whose inputs a, b, ... are loads of the tensors A, B, ..."""
    decls = _split(tensors)
    names = [d.split(": ")[0] for d in decls]
    kinds = [d.split(": ")[1] for d in decls]
    lines = [f"    tensor {n}: {k} input" for n, k in zip(names, kinds)]
    lines.append(f"    tensor C: {out}[1, 1] output")
    lines += [f"    stream {n.lower()}: {k.split('[')[0]}" for n, k in zip(names, kinds)]
    lines.append(f"    stream c: {out}")
    lines += [f"    load l{n.lower()} {n} -> {n.lower()}" for n in names]
    lines += [f"    {stage}", "    store st c -> C"]
    return parse_spatial("spatial t {\n" + "\n".join(lines) + "\n}\n")


def _split(tensors: str) -> list[str]:
    """'A: i32[4, 6], B: ...' -> ['A: i32[4, 6]', 'B: ...']."""
    parts, depth, cur = [], 0, ""
    for ch in tensors:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return parts + [cur.strip()]


def _tokens(rng, dtype: str, shape, count: int, small: bool) -> list[np.ndarray]:
    np_type = NUMPY_DTYPES[dtype]
    if dtype.startswith("i"):
        high = 4 if small else 2 ** 30
        return [rng.integers(-high, high, size=shape).astype(np_type) for _ in range(count)]
    return [rng.uniform(-2, 2, size=shape).astype(np_type) for _ in range(count)]


def _literal(a: np.ndarray) -> str:
    return ", ".join(repr(float(x)) if a.dtype.kind == "f" else f"{int(x)}LL"
                     for x in a.ravel())


@pytest.mark.skipif(CXX is None, reason="no C++ compiler on PATH: the loops are not run")
@pytest.mark.parametrize("name", list(STAGES))
def test_one_firing_agrees_with_numpy(name, tmp_path):
    tensors, stage_text, out = STAGES[name]
    graph = program(tensors, stage_text, out)
    p = Program(graph)
    shapes = token_shapes(p)
    stage = p.stages["s"]
    rng = np.random.default_rng(len(name))
    taken = [_tokens(rng, p.token_dtype(port.stream), shapes[port.stream], port.rate,
                     small=("division" in name and i == 1) or "truncates" in name)
             for i, port in enumerate(ins(stage))]
    if "wraps" in name:  # products past 2^31, sums past 2^63 / 2^32
        taken[0][0].flat[0] = 2 ** 31 - 1
    if "division" in name:  # x / 0 is 0; a negative quotient truncates toward zero
        taken[1][0].flat[:2] = (0, -3)
    expected = fire(stage, taken, p.stage_dtype(stage))
    source = ["#include <cstdint>", "#include <cmath>", "#include <cstdio>",
              "#define NVX_FN inline", HELPERS]
    for i, tokens in enumerate(taken):
        t = C_TYPES[p.token_dtype(ins(stage)[i].stream)]
        size = tokens[0].size
        source.append(f"static const {t} in{i}[{len(tokens)}][{size}] = {{"
                      + ", ".join("{" + _literal(x) + "}" for x in tokens) + "};")
    size = expected[0].size
    t_out = C_TYPES[out]
    source.append(f"static {t_out} out0[{len(expected)}][{size}];")
    readers = [lambda j, e, i=i: f"in{i}[{j}][{e}]" for i in range(len(taken))]
    writers = [lambda j, e: f"out0[{j}][{e}]"]
    source += ["int main() {"] + fire_lines(p, stage, shapes, readers, writers, "0u", "1u")
    fmt = '"%.17g\\n", (double)' if out.startswith("f") else '"%lld\\n", (long long)'
    source += [f"    for (unsigned j = 0; j < {len(expected)}u; ++j)",
               f"        for (unsigned e = 0; e < {size}u; ++e) printf({fmt}out0[j][e]);",
               "    return 0;", "}"]
    (tmp_path / "fire.cpp").write_text("\n".join(source) + "\n")
    built = subprocess.run([CXX, "-O1", "-o", str(tmp_path / "fire"), str(tmp_path / "fire.cpp")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    ran = subprocess.run([str(tmp_path / "fire")], capture_output=True, text=True, check=True)
    got = np.array([float(x) if out.startswith("f") else int(x) for x in ran.stdout.split()])
    want = np.concatenate([x.ravel() for x in expected])
    if out.startswith("f"):
        np.testing.assert_allclose(got, want.astype(np.float64), rtol=1e-5, atol=1e-6)
    else:
        assert got.tolist() == want.tolist()
