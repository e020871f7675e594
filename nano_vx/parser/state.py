"""What the grammar's node builders need while one text is parsed: the Source for spans and
a collector for the diagnostics found inside the grammar (literals, recovered statements).

The grammar is built once at import and shared, so this lives in a thread-local rather than
in the elements themselves."""

from __future__ import annotations

import threading

from ..source import Source, Span

_local = threading.local()


class ParseState:
    def __init__(self, source: Source, skeleton: str):
        self.source = source
        # The text with strings and comments blanked: what recovery scans for `;` and `}`.
        self.skeleton = skeleton
        # Keyed by (code, offset): an alternative retried at the same place reports once.
        self.errors: dict[tuple[str, int], tuple[int, str, tuple[str, ...]]] = {}
        self.depth = 0  # of nested Dispatch elements (see limits.MAX_NESTING)
        self.links = 0  # `else if` links on the path being read (see statements.IfChain)
        self.ensures = False  # inside an `ensures` condition, `return` is a value (contracts)

    def error(self, code: str, start: int, end: int, message: str,
              help: tuple[str, ...] = ()) -> None:
        self.errors.setdefault((code, start), (end, message, help))


def begin(state: ParseState) -> None:
    _local.state = state


def end() -> None:
    _local.state = None


def current() -> ParseState:
    return _local.state


def span(start: int, end: int) -> Span:
    return Span(_local.state.source, start, end)


def error(code: str, start: int, end: int, message: str, help: tuple[str, ...] = ()) -> None:
    _local.state.error(code, start, end, message, help)
