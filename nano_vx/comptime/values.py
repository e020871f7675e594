"""Values the evaluator has that the interpreter does not: unknowns, and callables.

Everything else is the representation the interpreter uses too (nano_vx/values: numbers,
tensors, places), so the two agree on what a value is.
"""

from __future__ import annotations


class Why:
    """Why a value is unknown while compiling: it was computed from a run-time read
    (`text` is the variable as written) or from an integer result outside its type."""

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str):
        self.kind, self.text = kind, text


class Unknown:
    """A value not known while compiling. Anything computed from it is unknown for the
    same reason; it is an error only when a block's value, a check or an effect needs it."""

    __slots__ = ("why",)
    kind = "unknown"

    def __init__(self, why: Why):
        self.why = why


def runtime(name: str) -> Unknown:
    return Unknown(Why("runtime", name))


def overflow(text: str) -> Unknown:
    return Unknown(Why("overflow", text))


class Function:
    """A top-level function, called while compiling."""

    __slots__ = ("node",)
    kind = "function"

    def __init__(self, node):
        self.node = node


class Closure:
    """A closure and the frame it captured."""

    __slots__ = ("node", "frame")
    kind = "closure"

    def __init__(self, node, frame):
        self.node, self.frame = node, frame


class Print:
    """The `print` builtin: a run-time effect, which a block that disappears cannot have."""

    __slots__ = ()
    kind = "builtin function"


PRINT = Print()


class Math:
    """A math built-in (`exp`, `max`, ..): computed while compiling as when running."""

    __slots__ = ("name",)
    kind = "builtin function"

    def __init__(self, name: str):
        self.name = name
