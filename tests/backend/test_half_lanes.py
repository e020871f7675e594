"""Property: a vector of f16 or bf16 lanes computes each lane as the scalar operator computes
it, in native code as in the interpreter. For random lanes (subnormals, infinities, NaNs and
signed zeros among them), `a op b` of two vectors prints what the vector of the lanes' scalar
results prints, and native code prints all of it as the interpreter does."""

from __future__ import annotations

import io
import math
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.cli import main

pytestmark = pytest.mark.slow

OPS = ("+", "-", "*", "/")


def _bf16(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


# Every f16, and every bf16 (its bits the top half of an f32's).
VALUES = {"f16": st.floats(width=16),
          "bf16": st.integers(0, 0xFFFF).map(_bf16)}


def _literal(x: float) -> str:
    """x as Vx writes it in an expression of the lanes' type, which holds it exactly (a NaN
    and the infinities computed from `zero`, a variable the front end does not fold)."""
    if math.isnan(x):
        return "zero / zero"
    if math.isinf(x):
        return f"{'-' if x < 0 else ''}1.0 / zero"
    return repr(x)


@st.composite
def _programs(draw):
    t = draw(st.sampled_from(sorted(VALUES)))
    n = draw(st.integers(1, 8))
    a, b = ([_literal(draw(VALUES[t])) for _ in range(n)] for _ in range(2))
    lines = [f"    let zero: {t} = 0.0;",
             f"    let a = vec<{n} x {t}>({', '.join(a)});",
             f"    let b = vec<{n} x {t}>({', '.join(b)});"]
    for op in draw(st.lists(st.sampled_from(OPS), min_size=1, max_size=4, unique=True)):
        lanes = ", ".join(f"a[{k}] {op} b[{k}]" for k in range(n))
        lines += [f"    print(a {op} b);", f"    print(vec<{n} x {t}>({lanes}));"]
    return "fn main() {\n" + "\n".join(lines) + "\n}\n"


def _run(path, *args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main([str(path), *args], stdout=out, stderr=err), out.getvalue(), err.getvalue()


@settings(max_examples=30, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_programs())
def test_half_lanes_compute_as_their_scalars_natively_as_interpreted(tmp_path, text):
    path = tmp_path / "lanes.vx"
    path.write_text(text)
    native = _run(path)
    assert native == _run(path, "--action", "interpret"), text
    status, printed, err = native
    assert status == 0 and err == "", text
    vectors = printed.splitlines()
    assert vectors[0::2] == vectors[1::2], text
