"""Floats that carry a derivative, for the interpreter's own `grad`, `vjp` and `jvp`
(derivatives.py): the function runs on them as on plain floats, every operation computing its
value as values/numbers.py does and, beside it, its partial derivatives with respect to its
operands. What happens to those partials is the trace's:

- `Tangents` (forward mode, dual numbers): a value's derivative is its tangent, the sum of
  each operand's tangent times the partial, computed at once;
- `Tape` (reverse mode): a value is a node of the tape, which records its operands and the
  partials; `sweep` then walks the tape backwards, accumulating adjoints.

Each derivative is computed in the type of the value it belongs to (an f32's is rounded to
f32 at every step, as the generated functions compute it). A value of one trace that meets a
value of another is a derivative taken inside a function being differentiated, which the
interpreter does not follow (differentiate-forward and -reverse refuse it, E3061).

The partials are those of the generated functions (passes/differentiate_forward.py,
derivatives/reverse_sweep.py), applied as they apply them, so a derivative rounds alike on
both sides wherever the sums come in the same order: a derivative is divided where they
divide (`d / b` for `a / b`, `d / (2 * sqrt(x))`), and where a function has a kink `abs` has
slope 1 at 0, `max` and `min` pass the derivative of the argument they pick (the first of two
equal ones, the number of a NaN and a number).
"""

from __future__ import annotations

import math

from ..values.math import apply
from ..values.numbers import TFloat, Traced, arith, cast, coerce, describe, negate
from ..values.stops import stop


def plain(v) -> float:
    """The Python float of a float value, traced or not."""
    if isinstance(v, Traced):
        v = v.v
    return v.v if type(v) is TFloat else v


class Active(Traced):
    """A float computed from the values being differentiated: `v` its value, `d` its
    tangent (Tangents) or its node on the tape (Tape)."""

    __slots__ = ("trace", "d")

    def __init__(self, v, trace, d):
        self.v, self.trace, self.d = v, trace, d

    # -- the operations values/numbers.py and values/math.py hand over ---------------------

    def arith(self, op, a, b, span):
        r = arith(op, _value(a), _value(b), span)
        if op == "+":
            return _derived(r, span, (a, ONE), (b, ONE))
        if op == "-":
            return _derived(r, span, (a, ONE), (b, MINUS))
        if op == "*":
            return _derived(r, span, (a, (("*", _value(b)),)), (b, (("*", _value(a)),)))
        if op == "/":  # d(a / b) = da / b - (db / b) * (a / b)
            by = ("/", _value(b))
            return _derived(r, span, (a, (by,)), (b, (by, ("*", r), ("*", -1.0))))
        # a % b is a - b * trunc(a / b): the quotient is constant where it is defined
        quotient = plain(a) / plain(b) if plain(b) != 0 else math.nan
        steps = float(math.trunc(quotient)) if math.isfinite(quotient) else math.nan
        return _derived(r, span, (a, ONE), (b, (("*", -steps),)))

    def negated(self, span):
        return _derived(negate(self.v, span), span, (self, MINUS))

    def cast(self, name, span):
        r = cast(self.v, name, span)
        if not _is_float(r):  # to an integer: a constant from here on
            return r
        return _derived(r, span, (self, ONE))

    def coerced(self, name, span):
        r = coerce(self.v, name, span)
        return self if r is self.v else _derived(r, span, (self, ONE))

    def math(self, name, args, span):
        values = [_value(a) for a in args]
        r = apply(name, values, span)
        if len(args) == 2:  # max, min: the derivative of the argument picked
            a, c = plain(values[0]), plain(values[1])
            first = a == a and not (c > a if name == "max" else c < a)
            return _derived(r, span, (args[0] if first else args[1], ONE))
        x = args[0]
        if name == "exp":
            return _derived(r, span, (x, (("*", r),)))
        if name == "log":
            return _derived(r, span, (x, (("/", values[0]),)))
        if name == "sqrt":
            return _derived(r, span, (x, (("/", arith("*", 2.0, r, span)),)))
        return _derived(r, span, (x, MINUS if plain(x) < 0 else ONE))  # abs


def _value(v):
    return v.v if isinstance(v, Traced) else v


def _is_float(v) -> bool:
    return type(v) is float or type(v) is TFloat


# How an operand's derivative d becomes its contribution to the result's: the steps applied
# to d in turn, `("*", p)` multiplying by p, `("/", q)` dividing by q (the partial is 1 / q).
# A derivative divided where the generated functions divide rounds as theirs does.
ONE = (("*", 1.0),)
MINUS = (("*", -1.0),)


def _derived(r, span, *parts):
    """The value `r` of an operation whose operands and the steps from their derivatives
    to its are `parts` (an operand that is no Active is a constant): traced if any is."""
    trace, links = None, []
    for operand, steps in parts:
        if type(operand) is not Active:
            continue
        if trace is None:
            trace = operand.trace
        elif operand.trace is not trace:
            nested(span)
        links.append((operand, steps))
    if trace is None:
        return r
    return trace.derive(r, links, span)


def nested(span):
    stop("E9006", span, "the reference interpreter does not differentiate a derivative "
                        "(`grad`, `vjp` or `jvp` inside a function being differentiated)")


def scaled(steps, derivative, like, span):
    """The contribution `steps` make of `derivative`, in the type of `like`."""
    for op, by in steps:
        derivative = arith(op, derivative, by, span)
    return cast(derivative, describe(like), span)


def add(total, term, span):
    return term if total is None else arith("+", total, term, span)


class Tangents:
    """Forward mode: each Active carries its tangent."""

    def leaf(self, v, tangent):
        return Active(v, self, tangent)

    def derive(self, r, links, span):
        tangent = None
        for operand, steps in links:
            tangent = add(tangent, scaled(steps, operand.d, r, span), span)
        return Active(r, self, tangent)


class Tape:
    """Reverse mode: each Active is a node of the tape, which records, per node, its value
    (whose type its adjoint takes) and its operands' nodes with the partials."""

    def __init__(self):
        self.values: list = []
        self.links: list[tuple] = []

    def leaf(self, v):
        return self._node(v, ())

    def derive(self, r, links, span):
        return self._node(r, tuple((operand.d, steps) for operand, steps in links))

    def _node(self, v, links):
        self.values.append(v)
        self.links.append(links)
        return Active(v, self, len(self.values) - 1)

    def sweep(self, seeds, span) -> list:
        """The adjoint of every node (None for one nothing reaches), given the adjoints
        `seeds` of some, as (node, adjoint) pairs (a node seeded twice adds both)."""
        adjoint = [None] * len(self.values)
        for node, seed in seeds:
            adjoint[node] = add(adjoint[node], seed, span)
        for node in range(len(self.values) - 1, -1, -1):
            a = adjoint[node]
            if a is None:
                continue
            for operand, steps in self.links[node]:
                term = scaled(steps, a, self.values[operand], span)
                adjoint[operand] = add(adjoint[operand], term, span)
        return adjoint
