"""Running a program through a lane and keeping, for every pass, what the explorer shows: the
tree before and after, the time, the diagnostics the pass reported and the facts it left.

The explorer runs the passes through the one pass runner (`driver.run_passes`) with a watch
that keeps the trees rather than printing them: so it stops where a compilation stops, after
the first pass that reported an error, and an exception escaping a pass is an InternalError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Diagnostics
from ..driver import Ran, Watch, run_passes
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
    keeper = _Keeper(NATIVE, ctx)
    outcome = run_deep(run_passes, NATIVE, source, ctx, verify=verify, watch=(keeper,))
    return Recording("vx", source, keeper.steps, list(diagnostics.items), outcome.stopped_at)


class _Keeper(Watch):
    """A Step for every pass of the table, filled in as each runs."""

    def __init__(self, passes, ctx=None):
        self.steps = [_step(p) for p in passes]
        self.by_name = {step.name: step for step in self.steps}
        self.ctx = ctx
        self.going_in = None  # the tree the pass running now was given

    def before(self, index: int, p, tree) -> None:
        self.going_in = tree

    def after(self, ran: Ran) -> None:
        step = self.by_name[ran.p.name]
        step.ran, step.before, step.after = True, ran.before, ran.after
        step.seconds, step.diagnostics = ran.seconds, ran.reported
        if self.ctx is not None:
            step.facts = {fact: self.ctx.describe(fact) for fact in ran.p.provides}


def record_spatial(source: Source, target_name: str, verify: bool = True) -> Recording:
    """The spatial lane over a spatial program (`.sdf`), from the IL it is written in. The
    explorer shows what each pass makes; validating the rewrites on inputs is
    `nano-vx spatial`'s work, not repeated here."""
    from ..spatial.context import SpatialContext
    from ..spatial.load import check_program, read_program, read_target
    from ..spatial.reject import SpatialReject
    from ..spatial.text import language_of
    from ..spatial_pipeline import passes_from

    diagnostics = Diagnostics()
    recording = Recording("spatial", source, [], diagnostics.items)
    target = read_target(target_name, diagnostics)
    graph = read_program(source, diagnostics) if target is not None else None
    if graph is None or not check_program(graph, target, diagnostics):
        return recording
    passes = passes_from(language_of(graph).name)
    keeper = _Keeper(passes)
    recording.steps = keeper.steps
    try:
        run_passes(passes, graph, SpatialContext(target), verify=verify, watch=(keeper,),
                   refusals=(SpatialReject,))
    except SpatialReject as reject:
        step = next(step for step in keeper.steps if not step.ran)
        step.diagnostics = [diagnostics.error(reject.code, None,
                                              f"{step.name} cannot apply: {reject.message}")]
        step.ran, step.before, step.after = True, keeper.going_in, keeper.going_in
        recording.stopped_at = step.name
    return recording
