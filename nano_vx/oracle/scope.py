"""Where variables live while a function runs (and the mark a moved one holds), and how a
signal escapes a block used as an expression.

Each function body is compiled once; every `let`, parameter and loop variable gets a slot
number at compile time, so a run-time variable access is a list index, not a name lookup.
A frame is a Python list: slot 0 holds the frame of the enclosing function for a closure
(None for a top-level function), the other slots hold the variables.
"""

from __future__ import annotations

from ..values.stops import stop


class FnScope:
    """The compile-time view of one function's (or closure's) variables."""

    def __init__(self, parent: "FnScope | None" = None, ret: str | None = None):
        self.parent = parent
        self.blocks: list[dict[str, int]] = [{}]
        self.nslots = 1
        self.ret = ret  # the scalar type `return` converts to, for literal typing
        self.states: dict[int, object] = {}  # a slot a `LetState` declared -> the LetState
        # The struct or enum `Self` names, in a function of an impl block (and its closures).
        self.self_type = parent.self_type if parent is not None else None

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
        found = self._find(name)
        return None if found is None else found[1:]

    def bound_state(self, name: str):
        """The `LetState` that bound a visible variable, or None: reading it reads the parts
        the `LetState` names (typestates.py)."""
        found = self._find(name)
        return None if found is None else found[0].states.get(found[2])

    def _find(self, name: str):
        scope, depth = self, 0
        while scope is not None:
            for block in reversed(scope.blocks):
                if name in block:
                    return scope, depth, block[name]
            scope, depth = scope.parent, depth + 1
        return None


class Moved:
    """Left in a variable whose value `transfer` moved away: reading it stops the program."""

    __slots__ = ("name", "dest", "span")

    def __init__(self, name: str, dest: str, span):
        self.name, self.dest, self.span = name, dest, span


class Launcher:
    """Slot 0 of a kernel's frame (a top-level function's holds nothing else): the launching
    frame's variable each of its parameters was given, by the parameter's slot. A spawn's
    body ran in the launching frame, so a `transfer` of a parameter moves that variable too,
    where and when it moves the parameter; and a `transfer(*p)` of a parameter the launch
    lent `&mut v` (outline-kernels' way of giving a variable the body assigns) moves `v`."""

    __slots__ = ("places", "lent")

    def __init__(self, places: dict, lent: frozenset = frozenset()):
        self.places = places  # parameter slot -> (launching frame, its slot)
        self.lent = lent  # the slots of the parameters given `&mut` of a launcher's variable


def move(frame: list, slot: int, mark: Moved) -> None:
    """Leave `mark` in a variable `transfer` moved, and in the launcher's it was given."""
    frame[slot] = mark
    if type(frame[0]) is Launcher and slot in frame[0].places:
        move(*frame[0].places[slot], mark)


def lent_place(frame: list, slot: int):
    """The launching frame's variable, as (frame, slot), that the kernel parameter in `slot`
    of `frame` was lent `&mut` of; None for any other variable. `*p` of such a parameter is
    that variable, not a place a reference reached: Vx's `transfer(*p, ..)` copies, but a
    spawn body's `transfer(t, ..)` of a `t` it also assigns is the kernel's `transfer(*t, ..)`
    and moves the launcher's `t`."""
    launcher = frame[0]
    if type(launcher) is not Launcher or slot not in launcher.lent:
        return None
    ref = frame[slot]
    return ref.holder, ref.key


def moved_stop(m: Moved, span):
    where = f" at {m.span}" if m.span is not None else ""
    stop("E9004", span, f"use of '{m.name}' after it moved to Memory::{m.dest}{where}")


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


class Escape(Exception):
    """A break, continue or return inside a block used as an expression (a `spawn` or
    `comptime` body): statements hand signals back as values, expressions cannot."""

    def __init__(self, signal):
        super().__init__(signal)
        self.signal = signal


def stray(signal, span):
    stop("E9006", span, f"`{signal.what}` outside of a loop")
