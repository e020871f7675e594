"""The spatial lane's back end: what it makes of a verified program. Its certificate
(`certify.py`), its measured and predicted periods (`periods.py`), and here `lower`: a
verified Schoreographed program and its target to the source text a vendor toolchain takes,
and the census of what was emitted (docs/spatial.md "Lowering"). Each backend is a pure
function `emit(plan, target) -> Lowered`:

- `tenstorrent`: tt-metal reader, compute and writer kernels per site and a host program;
- `cuda`: one persistent CUDA kernel, a thread block per site and a warp per engine, with its
  host launch code.

A program the lowering cannot take is refused with a coded diagnostic: E7040 when it is not a
verified choreography, E7041 when it holds a construct the backend cannot express.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .census import Census, call_problems, census_problems

BACKENDS = ("tenstorrent", "cuda")


class LowerError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Lowered:
    backend: str
    files: dict  # file name -> text, in the order written
    census: Census
    patterns: dict  # kind -> the regex that finds its declarations in the text
    extra: dict = field(default_factory=dict)  # kind -> images of the backend's own objects

    def problems(self, graph) -> list[str]:
        problems = census_problems(self.census, graph, self.files, self.patterns, self.extra)
        problems += call_problems(self.census, self.files)
        if "source" in self.patterns:  # a kernel built from a file of its own: it is there
            for text in self.files.values():
                for m in re.finditer(self.patterns["source"], text, flags=re.M):
                    if m.group(1) not in self.files:
                        problems.append(f"kernel source {m.group(1)} was not emitted")
        return problems


def lower(graph, target, backend: str) -> Lowered:
    from .plan import Plan

    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}")
    verify(graph, target)
    plan = Plan(graph)
    if plan.faults:
        raise LowerError("E7041", f"the {backend} backend stages tokens in the slots they are "
                                  f"put in, so a slot must be held first: "
                                  + "; ".join(plan.faults))
    if backend == "tenstorrent":
        from .tenstorrent import emit
    else:
        from .cuda import emit
    return emit(plan, target)


def verify(graph, target) -> None:
    """Refuse (E7040) what is not a choreography that is well formed on `target` and
    finishes: only such a program has a meaning the emitted code can keep."""
    from ..oracle.equivalence import corpus
    from ..oracle.outcomes import Finished
    from ..oracle.fast import eval_choreography
    from ..spatial.text import language_of
    from ..spatial.validate import validate

    il = language_of(graph).name
    if il != "Schoreographed":
        raise LowerError("E7040", f"the program is {il}; lowering takes a Schoreographed "
                                  f"program (run the lane through `schedule`)")
    problems = validate(graph, target)
    if problems:
        raise LowerError("E7040", "the program is not well formed: " + "; ".join(problems[:4]))
    outcome = eval_choreography(graph, corpus(graph, 0, 1)[0])
    if not isinstance(outcome, Finished):
        raise LowerError("E7040", f"the choreography does not finish: {outcome.describe()}")
