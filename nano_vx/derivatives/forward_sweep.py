"""The forward sweep of an adjoint function (reverse_sweep.py writes the rest), from a
function in adjoint form (adjoint_form.py).

The forward sweep runs the function and saves, on a tape, what the reverse sweep needs and
the function overwrites: before each assignment (to a variable, or to an element of a
tensor) the old value; after each `if` the branch it took; after each loop its bounds (or,
for a `while`, the turns it made). Floats go on a tape of f64, integers and bools on one of
i64. It also counts what it saves: a number known while compiling sizes the tapes, else
`f$vjp$tape` runs it first, only counting (`counting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import descendants
from ..placement.typer import INT_LIT, value_type
from ..values.constants import int_value
from .code import FLOATS, Build, float_name
from .differentiation import FnInfo


@dataclass
class Tape:
    """The names of the tapes and their tops, shared by both sweeps of a function."""

    floats: str
    top: str
    ints: str
    itop: str


@dataclass
class Adjoints:
    """Where each differentiated local's adjoint is: a local of its own, or (a parameter
    after the first) behind the `&mut` parameter the caller passed."""

    names: dict = field(default_factory=dict)  # local -> its adjoint's name
    by_ref: set = field(default_factory=set)  # the locals whose adjoint is a `&mut` parameter

    def scalar(self, b: Build, name: str):
        place = b.local(self.names[name])
        return b.deref(place) if name in self.by_ref else place

    def tensor(self, b: Build, name: str):
        return b.local(self.names[name])

    def tensor_ref(self, b: Build, name: str):
        place = b.local(self.names[name])
        return place if name in self.by_ref else b.borrow(place, mutable=True)


def _add(x, y):
    if x is None or y is None:
        return None
    return (x[0] + y[0], x[1] + y[1])


def _max(x, y):
    if x is None or y is None:
        return None
    return (max(x[0], y[0]), max(x[1], y[1]))


@dataclass
class ForwardSweep:
    """The forward sweep of one function; `Sweeps` (reverse_sweep.py) adds the reverse."""

    info: FnInfo
    once: set
    tape: Tape
    counting: bool = False  # the forward sweep only counts what it would save
    hoisted: list = field(default_factory=list)  # its loops' bounds and counters
    used: list = field(default_factory=lambda: [False, False])  # each tape, pushed to
    ranges: dict = field(default_factory=dict)  # an enclosing loop's variable -> its range
    known: dict = field(default_factory=dict)  # an integer local bound once to a number

    def __post_init__(self):
        assigned = {n.target.name for n in descendants(self.info.fn.body)
                    if n._prod == "Assign" and n.target._prod == "Local"}
        for n in descendants(self.info.fn.body):
            if n._prod == "Let" and n.name not in assigned:
                value = int_value(n.value, self.info.program.consts, self.known)
                if value is not None:
                    self.known[n.name] = value

    # -- the tapes ---------------------------------------------------------------------

    def _push(self, b, value, ty: str) -> list:
        """Save `value`, of scalar type `ty`, on its tape (a float on the floats')."""
        floats = ty in FLOATS
        tape, top = (self.tape.floats, self.tape.top) if floats else \
            (self.tape.ints, self.tape.itop)
        self.used[0 if floats else 1] = True
        step = b.assign(b.local(top), b.bin("+", b.local(top), b.int(1)))
        if self.counting:
            return [step]
        if ty not in ("f64", "i64"):
            value = b.cast(value, "f64" if floats else "i64")
        return [b.assign(b.index(b.local(tape), [b.local(top)]), value), step]

    def _kind(self, target) -> str:
        """The scalar type a target holds: the tape and the conversion it needs."""
        info = self.info
        if target._prod == "Local":
            ty = info.types[target.name]
            if float_name(ty) is not None:
                return info.float_of(target.name)
        else:
            ty = info.of(target)
        ty = value_type(ty)
        if ty is INT_LIT:
            return "i32"
        name = float_name(ty) or ty.name
        return name

    # -- the forward sweep -------------------------------------------------------------

    def forward(self, stmts, depth: int = 0):
        """The forward sweep of `stmts`: its statements and how many values it saves on each
        tape, as (floats, ints), or None when that depends on the run."""
        out, count = [], (0, 0)
        for s in stmts:
            more, n = self._forward(s, depth)
            out += more
            count = _add(count, n)
        return out, count

    def _forward(self, s, depth):
        kind, b = s._prod, Build(s.span)
        if kind == "Assign":
            if id(s) in self.once:
                return [s], (0, 0)
            ty = self._kind(s.target)
            return self._push(b, s.target, ty) + [s], (1, 0) if ty in FLOATS else (0, 1)
        if kind == "If":
            then, a = self.forward(s.then.stmts, depth)
            orelse, c = self.forward(s.orelse.stmts if s.orelse else (), depth)
            then += self._push(b, b.int(1), "i64")
            orelse += self._push(b, b.int(0), "i64")
            return [b.if_(s.cond, then, orelse)], _add(_max(a, c), (0, 1))
        if kind == "For":
            ty = self._loop_type(s.var)
            lo, hi = self._temp(b, "lo", ty, s.start, depth), self._temp(b, "hi", ty, s.end, depth)
            a, z = self._range(s.start), self._range(s.end)
            if a is not None and z is not None:  # the tape's size bounds every turn
                self.ranges[s.var] = (a[0], z[1] - 1)
            body, n = self.forward(s.body.stmts, depth + 1)
            self.ranges.pop(s.var, None)
            loop = s.replace(start=b.local(lo[1]), end=b.local(hi[1]), body=b.block(body))
            saved = self._push(b, b.local(lo[1]), ty) + self._push(b, b.local(hi[1]), ty)
            turns = None if a is None or z is None else max(z[1] - a[0], 0)
            count = None if turns is None or n is None else \
                _add((n[0] * turns, n[1] * turns), (0, 2))
            return lo[0] + hi[0] + [loop] + saved, count
        if kind == "While":
            turns = self._temp(b, "turns", b.scalar("i64"), b.int(0), depth)
            body, _ = self.forward(s.body.stmts, depth + 1)
            step = b.assign(b.local(turns[1]), b.bin("+", b.local(turns[1]), b.int(1)))
            loop = s.replace(body=b.block(body + [step]))
            return turns[0] + [loop] + self._push(b, b.local(turns[1]), "i64"), None
        return [s], (0, 0)  # a `let` of the outermost block, an assert, a call

    def _range(self, e):
        """The least and the greatest value an integer expression can take, when they are
        known while compiling: from literals, constants, integer locals bound once to
        one, and the variables of the loops around it."""
        kind = e._prod
        if kind == "Local" and e.name in self.ranges:
            return self.ranges[e.name]
        if kind in ("Binary", "Unary") and e.op in ("+", "-", "*"):
            parts = [self._range(x) for x in ((e.left, e.right) if kind == "Binary"
                                                 else (e.operand,))]
            if None in parts:
                return None
            if kind == "Unary":
                return -parts[0][1], -parts[0][0]
            (a, b), (c, d) = parts
            if e.op == "+":
                return a + c, b + d
            if e.op == "-":
                return a - d, b - c
            ends = (a * c, a * d, b * c, b * d)
            return min(ends), max(ends)
        if kind == "Cast":
            return self._range(e.value)
        value = int_value(e, self.info.program.consts, self.known)
        return None if value is None else (value, value)

    def _loop_type(self, var: str) -> str:
        ty = value_type(self.info.types[var])
        return "i32" if ty is INT_LIT else ty.name

    def _temp(self, b, base: str, ty, value, depth):
        """A local the forward sweep keeps a value in: a `let` in the outermost block, else
        declared first and assigned."""
        if isinstance(ty, str):
            ty = b.scalar(ty)
        name = self.info.names.fresh(base)
        if depth == 0:
            return [b.let(name, ty, value)], name
        self.hoisted.append(b.let(name, ty, b.int(0)))
        return [b.assign(b.local(name), value)], name
