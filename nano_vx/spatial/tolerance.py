"""How far apart two runs of one spatial program may put a float output and still mean the
same (docs/spatial.md, "Equivalence"): the tolerance follows from the formats the program
stores in and the additions it reassociates.

Integers are compared exactly elsewhere. For a float output tensor:

- rtol = max(1e-4, 2 x R x u): u the unit roundoff of the coarsest float format the program
  stores a token in (2^-8 for bf16, 2^-11 for f16, 2^-7 and 2^-3 for bfp8 and bfp4, whose
  roundoff counts from the largest magnitude of a block), R the stages that compute and
  round (relays, which copy, do not). Each such rounding may land on either side of a
  boundary the other run's value fell on the other side of: a unit in the last place, 2u.
- atol = 1e-5 + K x u_acc x max |reference|: K the additions the program's reductions make
  (the inner extent of every matmul, the reduced extent of every sum), u_acc the unit
  roundoff they are made in (2^-24 in f32, the narrow floats included; 2^-53 when every
  float is f64). Reassociating K terms moves a sum by at most K x u_acc x the sum of their
  magnitudes, of which the output's largest magnitude stands in for the scale: a sum that
  cancels large terms is beyond it (E7020 says so).

An element passes when |a - b| <= atol + rtol x scale, scale its reference magnitude, or for
a block-float output the largest reference magnitude of its block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..values.block_floats import BLOCK
from .elements import ELEMENTS
from .program import Program, is_copy
from .shapes import token_shapes

BASE_RTOL, BASE_ATOL = 1e-4, 1e-5


@dataclass(frozen=True)
class Tolerance:
    rtol: float = BASE_RTOL
    atol: float = BASE_ATOL
    reassociated: float = 0.0  # K x u_acc: of the output's largest magnitude
    blocks: bool = False

    def close(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        a, b = before.astype(np.float64), after.astype(np.float64)
        # Infinities and NaNs set no scale: they must match exactly (below).
        magnitude = np.where(np.isfinite(a), np.abs(a), 0.0)
        scale = _block_max(magnitude) if self.blocks else magnitude
        largest = float(np.max(magnitude, initial=0.0))
        bound = self.atol + self.reassociated * largest + self.rtol * scale
        with np.errstate(invalid="ignore"):
            near = np.abs(a - b) <= bound
        return near | (a == b) | (np.isnan(a) & np.isnan(b))


def _block_max(magnitude: np.ndarray) -> np.ndarray:
    """Per element, the largest magnitude of its block of 16 along the last axis."""
    if magnitude.ndim == 0:
        return magnitude
    n = magnitude.shape[-1]
    pad = -n % BLOCK
    rows = np.pad(magnitude.reshape(-1, n), ((0, 0), (0, pad)))
    peak = np.max(rows.reshape(rows.shape[0], -1, BLOCK), axis=-1, initial=0.0)
    return np.repeat(peak, BLOCK, axis=-1)[:, :n].reshape(magnitude.shape)


def tolerances(graph) -> dict[str, Tolerance]:
    """Per float output tensor of the program, its tolerance."""
    p = Program(graph)
    types = {s.dtype for s in p.streams.values()} | {t.dtype for t in p.tensors.values()}
    floats = [ELEMENTS[t] for t in types if ELEMENTS[t].is_float]
    if not floats:
        return {}
    u = max(e.unit_roundoff for e in floats)
    rounding = sum(1 for st in p.stages.values()
                   if st._prod in ("Compute", "Scalar") and not is_copy(st))
    u_acc = 2.0 ** -53 if all(e.name == "f64" for e in floats) else 2.0 ** -24
    reassociated = _additions(p) * u_acc
    rtol = max(BASE_RTOL, 2 * rounding * u)
    return {t.name: Tolerance(rtol, BASE_ATOL, reassociated, ELEMENTS[t.dtype].block is not None)
            for t in p.tensors.values() if t.role == "output" and ELEMENTS[t.dtype].is_float}


def _additions(p: Program) -> int:
    shapes = token_shapes(p)
    total = 0
    for st in p.stages.values():
        op = getattr(st, "op", None)
        if op == "matmul_acc":
            port = st.ins[0]
            total += port.rate * shapes.get(port.stream, (0, 0))[-1]
        elif op == "sum":
            port = st.ins[0]
            shape = shapes.get(port.stream, ())
            total += port.rate * (shape[st.axis] if st.axis < len(shape) else 1)
    return total
