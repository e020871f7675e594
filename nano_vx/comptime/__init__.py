"""The compile-time evaluator: runs `comptime` blocks while compiling (semantics §4).

It computes with the interpreter's values and operations (nano_vx/values), adding unknown
values for what only the run knows.
"""

from .errors import ComptimeError
from .evaluator import Evaluator, recorded_types
from .literals import to_literal
from .values import Unknown

__all__ = ["ComptimeError", "Evaluator", "Unknown", "recorded_types", "to_literal"]
