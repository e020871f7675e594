"""What every tool does first with a spatial program: load its target, read its text and
validate it and bound the work it asks for, each failure reported as its diagnostic (E7004,
E7001 at the place the parser stopped, E7002 per problem (E7005 for a broadcast or a
transpose whose tokens do not fit), E7063) rather than raised.
`nano-vx spatial` and the explorer both start here."""

from __future__ import annotations

from dataclasses import replace

from ..source import Source, Span
from .bounds import ELEMENT_LIMIT, STEP_LIMIT, asked, too_much
from .matrix import MatrixError
from .parse import SpatialSyntaxError, parse_spatial
from .target import TargetError, load_target
from .validate import code_of, validate


def read_target(name: str, diagnostics, fidelity: str | None = None):
    """The target named `name` (a file of machines/spatial/ or a path), its matrix unit at
    `fidelity` when one is given, or None, reported."""
    try:
        target = load_target(name)
        if fidelity is None:
            return target
        if target.matrix is None:
            raise TargetError(f"{target.name}: --math-fidelity {fidelity}, but the target has "
                              f"no matrix unit (no [matrix] table)")
        return replace(target, matrix=target.matrix.at(fidelity))
    except (TargetError, MatrixError) as err:
        diagnostics.error("E7004", None, str(err))
        return None


def read_program(source: Source, diagnostics):
    """The program `source` holds, in whichever spatial IL its header names, or None,
    reported where the text stops reading."""
    try:
        return parse_spatial(source.text, source.name)
    except SpatialSyntaxError as err:
        line = min(max(err.line, 1), len(source.line_starts))
        start = min(source.line_starts[line - 1] + max(err.column, 1) - 1, len(source.text))
        diagnostics.error("E7001", Span(source, start, min(start + 1, len(source.text))),
                          err.message)
        return None


def check_program(graph, target, diagnostics) -> bool:
    """Whether the program is well formed for the target and asks for no more work than the
    evaluators may do; each problem is reported."""
    problems = validate(graph, target)
    for problem in problems:
        diagnostics.error(code_of(problem), None, problem)
    return not problems and check_work(graph, diagnostics)


def check_work(graph, diagnostics, *, after: str | None = None) -> bool:
    """Whether one run of the well-formed `graph` stays within the work limits (counted,
    never run); E7063 with the figures if not. `after` names the pass that made it."""
    work = asked(graph)
    refusal = too_much(work) if work is not None else None
    if refusal is None:
        return True
    where = {} if after is None else {"pass": after}
    fix = ("lower the rates, loop counts or repeat counts that multiply into the firings, or "
           "run the program at a smaller size: the lane's decisions are of the same kind at "
           "any size") if after is None else (
           f"the program as given is within the limits, {after}'s output is not: run the "
           f"program at a smaller size, or on a target whose sites hold larger tiles (fewer "
           f"tiles, fewer firings)")
    diagnostics.error("E7063", None, refusal if after is None else f"after {after}, {refusal}",
                      help=[fix], steps=work.total_steps, elements=work.total_elements,
                      step_limit=STEP_LIMIT, element_limit=ELEMENT_LIMIT, **where)
    return False
