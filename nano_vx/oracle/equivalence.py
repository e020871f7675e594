"""`equivalent_under`: do two spatial programs mean the same on a corpus of inputs?

Structure is not consulted, since a pass's whole job is to change it: both programs run on
every input of the corpus (the dataflow evaluator before choreography, the token semantics
after) and the first way they part company is returned as a typed Divergence, or None.
Integer tensors must be equal; float tensors agree within a stated tolerance, because tiling
reassociates sums: one that follows from the program's formats and reductions
(`spatial/tolerance.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..spatial.elements import ELEMENTS
from ..spatial.tolerance import BASE_ATOL, BASE_RTOL, Tolerance, tolerances
from .dataflow import eval_dataflow
from .outcomes import Deadlock, Finished, Overflow, Underflow
from .fast import eval_choreography

RTOL, ATOL = BASE_RTOL, BASE_ATOL


def evaluate(graph, inputs: dict[str, np.ndarray]):
    """Run a program of any spatial IL on one input."""
    if hasattr(graph, "schedules"):
        return eval_choreography(graph, inputs)
    return eval_dataflow(graph, inputs)


def corpus(graph, seed: int = 0, count: int = 2) -> list[dict[str, np.ndarray]]:
    """Random inputs for every input tensor: small integers (so integer sums stay exact and
    far from overflow) or floats in [-1, 1), rounded to the tensor's format."""
    out = []
    for k in range(count):
        rng = np.random.default_rng([seed, k])
        inputs = {}
        for t in graph.tensors:
            if t.role != "input":
                continue
            elem = ELEMENTS[t.dtype]
            if not elem.is_float:
                inputs[t.name] = rng.integers(-4, 5, size=t.shape).astype(elem.storage)
            else:
                inputs[t.name] = elem.store(rng.uniform(-1, 1, size=t.shape))
        out.append(inputs)
    return out


@dataclass(frozen=True)
class OutputDiffers:
    input: int  # which input of the corpus
    tensor: str
    index: tuple[int, ...]
    before: object
    after: object

    def describe(self) -> str:
        return (f"on input {self.input}, tensor '{self.tensor}' differs first at "
                f"{list(self.index)}: {self.before} before, {self.after} after")


@dataclass(frozen=True)
class ShapeDiffers:
    input: int
    tensor: str
    before: tuple
    after: tuple

    def describe(self) -> str:
        return (f"on input {self.input}, tensor '{self.tensor}' has shape "
                f"{list(self.before)} before and {list(self.after)} after")


@dataclass(frozen=True)
class Deadlocks:
    side: str  # "before" or "after"
    input: int
    outcome: Deadlock

    def describe(self) -> str:
        return f"on input {self.input}, the program {self.side} deadlocks: {self.outcome.describe()}"


@dataclass(frozen=True)
class Overflows:
    side: str
    input: int
    outcome: Overflow | Underflow

    def describe(self) -> str:
        return f"on input {self.input}, the program {self.side} fails: {self.outcome.describe()}"


Divergence = OutputDiffers | ShapeDiffers | Deadlocks | Overflows


def equivalent_under(p, q, inputs: list[dict[str, np.ndarray]], *, reference=None,
                     seen: list | None = None):
    """None when `p` and `q` finish with the same outputs on every input, else the first
    Divergence. `reference` may hold `p`'s outcomes already computed (one per input); `q`'s
    are appended to `seen`, so a chain of rewrites evaluates each program once."""
    tolerance = tolerances(p if p is not None else q)
    for k, given in enumerate(inputs):
        before = reference[k] if reference is not None else evaluate(p, given)
        after = evaluate(q, given)
        if seen is not None:
            seen.append(after)
        for side, outcome in (("before", before), ("after", after)):
            if isinstance(outcome, Deadlock):
                return Deadlocks(side, k, outcome)
            if isinstance(outcome, (Overflow, Underflow)):
                return Overflows(side, k, outcome)
        found = compare_outputs(k, before, after, tolerance)
        if found is not None:
            return found
    return None


def compare_outputs(k: int, before: Finished, after: Finished, tolerance=None):
    """The first output that differs: integers exactly, floats within `tolerance[name]` (the
    base tolerance for a tensor it does not name)."""
    for name in sorted(set(before.outputs) | set(after.outputs)):
        a, b = before.outputs.get(name), after.outputs.get(name)
        if a is None or b is None or a.shape != b.shape:
            return ShapeDiffers(k, name, getattr(a, "shape", ()), getattr(b, "shape", ()))
        if np.issubdtype(a.dtype, np.integer):
            same = a == b
        else:
            same = (tolerance or {}).get(name, Tolerance()).close(a, b)
        if not same.all():
            index = tuple(int(i) for i in np.argwhere(~same)[0])
            return OutputDiffers(k, name, index, a[index].item(), b[index].item())
    return None
