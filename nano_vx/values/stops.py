"""A stop of the running program (E9001-E9006), raised by the operations on values and by
the interpreter.

The interpreter lets it reach run_program; the compile-time evaluator, which runs the same
operations on values, turns it into a compile-time error.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic


class RuntimeStop(Exception):
    """The program stopped at run time: `code` is one of E9001-E9006, `span` where it stopped."""

    def __init__(self, code: str, span, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.span = span
        self.message = message

    def to_diagnostic(self) -> Diagnostic:
        return Diagnostic("error", self.code, self.message, self.span)


# How many calls may be nested before a run stops: the interpreter's bound, and native code's.
MAX_CALL_DEPTH = 10_000


def too_deep(max_depth: int, callee: str) -> str:
    """The E9006 message of a call one level past `max_depth`."""
    return f"call depth exceeded {max_depth} nested calls (in '{callee}'): unbounded recursion?"


def stop(code: str, span, message: str):
    raise RuntimeStop(code, span, message)


def wrong_kind(span, message: str):
    """A value of the wrong kind reached an operator: the checker should have refused it."""
    raise RuntimeStop("E9006", span, message)
