"""Running a program through a lane and keeping, for every pass, what the explorer shows: the
tree before and after, the time, the diagnostics the pass reported and the facts it left.

The explorer walks the pipeline table itself rather than through the driver's dump options:
it needs the trees, not their printed banners. As the driver does, it stops after the first
pass that reported an error, and an exception escaping a pass is an InternalError.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Diagnostics
from ..driver import internal_errors, paused_collector
from ..source import Source


@dataclass
class Step:
    """One pass of the table; `ran` False for a pass after the one that stopped the lane."""

    name: str
    kind: str  # rewrite or analysis
    input: str  # the input IL's name ("text" before parse)
    output: str
    doc: str
    ran: bool = False
    before: object = None
    after: object = None
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    facts: dict[str, str] = field(default_factory=dict)
    input_language: object = None
    output_language: object = None


@dataclass
class Recording:
    lane: str  # "vx" or "spatial"
    source: Source
    steps: list[Step]
    diagnostics: list[Diagnostic]  # all of them, those reported before any pass included
    stopped_at: str | None = None


def _step(p) -> Step:
    from ..nanopass import Analysis

    return Step(p.name, "analysis" if isinstance(p, Analysis) else "rewrite",
                p.input.name if p.input is not None else "text", p.output.name,
                p.doc, input_language=p.input, output_language=p.output)


def record_vx(source: Source, diagnostics: Diagnostics, machine=None, host=None,
              verify: bool = True) -> Recording:
    """The front end and the back end (down to Lmlir) over `source`."""
    from ..context import Compilation
    from ..deep import run_deep
    from ..pipeline import NATIVE

    ctx = Compilation(source, diagnostics, machine=machine, host=host)
    steps = [_step(p) for p in NATIVE]
    stopped = run_deep(_walk, NATIVE, steps, source, ctx, verify)
    return Recording("vx", source, steps, list(diagnostics.items), stopped)


def _walk(pipeline, steps: list[Step], tree, ctx, verify: bool) -> str | None:
    with paused_collector():
        for p, step in zip(pipeline, steps):
            seen = len(ctx.diagnostics.items)
            start = time.perf_counter()
            with internal_errors(p, tree):
                out = p(tree, ctx, check=verify)
            step.seconds = time.perf_counter() - start
            step.ran, step.before, step.after = True, tree, out
            step.diagnostics = ctx.diagnostics.items[seen:]
            step.facts = {fact: ctx.describe(fact) for fact in p.provides}
            tree = out
            if ctx.diagnostics.has_errors:
                return p.name
    return None


def record_spatial(source: Source, target_name: str, verify: bool = True) -> Recording:
    """The spatial lane over a spatial program (`.sdf`), from the IL it is written in. The
    explorer shows what each pass makes; validating the rewrites on inputs is
    `nano-vx spatial`'s work, not repeated here."""
    from ..source import Span
    from ..spatial.context import SpatialContext
    from ..spatial_pipeline import passes_from
    from ..spatial.parse import SpatialSyntaxError, parse_spatial
    from ..spatial.reject import SpatialReject
    from ..spatial.target import TargetError, load_target
    from ..spatial.text import language_of
    from ..spatial.validate import validate

    diagnostics = Diagnostics()
    recording = Recording("spatial", source, [], diagnostics.items)
    try:
        target = load_target(target_name)
    except TargetError as err:
        diagnostics.error("E7004", None, str(err))
        return recording
    try:
        graph = parse_spatial(source.text, source.name)
    except SpatialSyntaxError as err:
        line = min(err.line, len(source.line_starts))
        at = source.line_starts[line - 1] + err.column - 1
        diagnostics.error("E7001", Span(source, at, at + 1), err.message)
        return recording
    for problem in validate(graph, target):
        diagnostics.error("E7002", None, problem)
    if diagnostics.has_errors:
        return recording
    passes = passes_from(language_of(graph).name)
    recording.steps = [_step(p) for p in passes]
    ctx = SpatialContext(target)
    for p, step in zip(passes, recording.steps):
        start = time.perf_counter()
        try:
            with internal_errors(p, graph, expected=(SpatialReject,)):
                after = p(graph, ctx, check=verify)
        except SpatialReject as reject:
            step.diagnostics = [diagnostics.error(reject.code, None,
                                                  f"{p.name} cannot apply: {reject.message}")]
            step.ran, step.before, step.after = True, graph, graph
            recording.stopped_at = p.name
            break
        step.seconds = time.perf_counter() - start
        step.ran, step.before, step.after = True, graph, after
        graph = after
    return recording
