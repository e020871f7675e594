"""What every tool does first with a spatial program: load its target, read its text and
validate it, each failure reported as its diagnostic (E7004, E7001 at the place the parser
stopped, E7002 per problem) rather than raised. `nano-vx spatial` and the explorer both start
here."""

from __future__ import annotations

from ..source import Source, Span
from .parse import SpatialSyntaxError, parse_spatial
from .target import TargetError, load_target
from .validate import validate


def read_target(name: str, diagnostics):
    """The target named `name` (a file of machines/spatial/ or a path), or None, reported."""
    try:
        return load_target(name)
    except TargetError as err:
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
    """Whether the program is well formed for the target; each problem is reported."""
    problems = validate(graph, target)
    for problem in problems:
        diagnostics.error("E7002", None, problem)
    return not problems
