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


def stop(code: str, span, message: str):
    raise RuntimeStop(code, span, message)


def wrong_kind(span, message: str):
    """A value of the wrong kind reached an operator: the checker should have refused it."""
    raise RuntimeStop("E9006", span, message)
