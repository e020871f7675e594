"""from-vx on random kernels: an elementwise expression over random inputs (some broadcast
along an axis), its rows cut over an `unroll across` and loops over tiles at random. Whenever
the cut writes every row exactly once, the bridged graph computes what the interpreter
computes for the kernel; whenever it does not, the bridge refuses with E7061 and names a row
written twice or never."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.diagnostics import Diagnostics
from nano_vx.oracle.equivalence import corpus, evaluate
from nano_vx.source import Source
from nano_vx.spatial_driver.vx_source import bridge

# Slow (the whole suite's, not the inner loop's): random kernels through the bridge.
pytestmark = pytest.mark.slow

ROWS, COLS = 8, 4
INPUTS = ["P", "Q", "R"]


@st.composite
def expressions(draw, depth=0):
    """An elementwise expression as Vx text, reading the inputs it is given."""
    if depth >= 3 or draw(st.booleans()):
        choice = draw(st.integers(0, 3))
        if choice == 0:
            return str(draw(st.integers(-3, 3)))
        name = draw(st.sampled_from(INPUTS))
        return f"{name}[0][j]" if name == "R" else f"{name}[i][j]"
    op = draw(st.sampled_from(["+", "-", "*", "max", "min"]))
    left, right = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    if op in ("max", "min"):
        return f"{op}({left}, {right})"
    return f"({left} {op} {right})" if op != "-" or draw(st.booleans()) else f"-{left}"


@st.composite
def cuts(draw):
    """Per NPU of a mesh slice, the rows it writes: (first row, rows per tile, tiles), which
    may overlap another NPU's, leave rows out or run past the last."""
    npus = draw(st.integers(1, 4))
    return [(draw(st.integers(0, ROWS)), draw(st.integers(1, 4)), draw(st.integers(0, 3)))
            for _ in range(npus)]


def kernel(expr: str, cut) -> str:
    body = "".join(
        f"  spawn on(Topology::NPU[{k}]) {{\n"
        f"    for t in 0..{t} {{\n"
        f"      for i in {s} + t * {h}..{s} + (t + 1) * {h} {{\n"
        f"        for j in 0..{COLS} {{\n"
        f"          Y[i][j] = {expr};\n"
        f"        }}\n      }}\n    }}\n  }}\n"
        for k, (s, h, t) in enumerate(cut))
    return (f"fn k(P: Tensor<i32, [{ROWS}, {COLS}], Memory::NPU_HBM>, "
            f"Q: Tensor<i32, [{ROWS}, {COLS}], Memory::NPU_HBM>, "
            f"R: Tensor<i32, [1, {COLS}], Memory::NPU_HBM>, "
            f"Y: &mut Tensor<i32, [{ROWS}, {COLS}], Memory::NPU_HBM>) {{\n{body}}}\n")


def rows_written(cut) -> list[int]:
    rows = []
    for s, h, t in cut:
        for tile in range(t):
            rows += list(range(s + tile * h, s + (tile + 1) * h))
    return rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), cuts())
def test_a_random_kernel_is_bridged_exactly_when_its_cut_is_exact(expr, cut):
    text = kernel(expr, cut)
    diagnostics = Diagnostics()
    out = bridge(Source("k.vx", text), None, diagnostics)
    rows = rows_written(cut)
    in_range = all(0 <= r < ROWS for r in rows)
    exact = sorted(rows) == list(range(ROWS))
    reads = any(name in expr for name in INPUTS)
    if not reads:
        assert out is None and [d.code for d in diagnostics.items] == ["E7060"], text
        return
    if not in_range and rows:
        # The interpreter would stop at an index out of bounds; the bridge refuses first
        # (the front end cannot see it: the bounds are arithmetic on constants).
        assert out is None and [d.code for d in diagnostics.items] == ["E7061"], text
        return
    if not exact:
        assert out is None, text
        assert [d.code for d in diagnostics.items] == ["E7061"], (text, diagnostics.render())
        return
    assert out is not None, (text, diagnostics.render())
    graph, kernel_ = out
    inputs = corpus(graph, seed=len(text), count=1)
    outcomes = [evaluate(graph, given_) for given_ in inputs]
    assert kernel_.divergence(graph, outcomes, inputs) is None, text
