"""The compile-time evaluator: runs `comptime` blocks while compiling (semantics §4)."""

from .errors import ComptimeError
from .evaluator import Evaluator
from .literals import to_literal
from .values import Unknown

__all__ = ["ComptimeError", "Evaluator", "Unknown", "to_literal"]
