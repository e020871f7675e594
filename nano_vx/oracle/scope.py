"""Where variables live while a function runs, and how control leaves a block.

Each function body is compiled once; every `let`, parameter and loop variable gets a slot
number at compile time, so a run-time variable access is a list index, not a name lookup.
A frame is a Python list: slot 0 holds the frame of the enclosing function for a closure
(None for a top-level function), the other slots hold the variables.
"""

from __future__ import annotations

from .errors import stop
from .places import Moved, moved_stop


class FnScope:
    """The compile-time view of one function's (or closure's) variables."""

    def __init__(self, parent: "FnScope | None" = None, ret: str | None = None):
        self.parent = parent
        self.blocks: list[dict[str, int]] = [{}]
        self.nslots = 1
        self.ret = ret  # the scalar type `return` converts to, for literal typing

    def push(self):
        self.blocks.append({})

    def pop(self):
        self.blocks.pop()

    def declare(self, name: str) -> int:
        slot = self.nslots
        self.nslots += 1
        self.blocks[-1][name] = slot
        return slot

    def lookup(self, name: str):
        """(depth, slot) of a visible variable, depth counting enclosing functions; or None."""
        scope, depth = self, 0
        while scope is not None:
            for block in reversed(scope.blocks):
                if name in block:
                    return depth, block[name]
            scope, depth = scope.parent, depth + 1
        return None


def display_name(name: str) -> str:
    """A name as the programmer wrote it: resolve-names' `x#1` is the user's `x`."""
    return name.split("#", 1)[0]


def reader(depth: int, slot: int, span):
    """A closure reading a variable, stopping on one that `transfer` moved away."""
    if depth == 0:
        def read(f):
            v = f[slot]
            if type(v) is Moved:
                moved_stop(v, span)
            return v
    else:
        def read(f):
            for _ in range(depth):
                f = f[0]
            v = f[slot]
            if type(v) is Moved:
                moved_stop(v, span)
            return v
    return read


def frame_getter(depth: int):
    """A closure giving the frame that holds a variable `depth` functions out."""
    if depth == 0:
        return lambda f: f

    def outer(f):
        for _ in range(depth):
            f = f[0]
        return f
    return outer


# -- leaving a block early -----------------------------------------------------------------


class Signal:
    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what


BREAK = Signal("break")
CONTINUE = Signal("continue")


class Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Escape(Exception):
    """A break, continue or return inside a block used as an expression (a `spawn` or
    `comptime` body): statements hand signals back as values, expressions cannot."""

    def __init__(self, signal):
        super().__init__(signal)
        self.signal = signal


def stray(signal, span):
    stop("E9006", span, f"`{signal.what}` outside of a loop")
