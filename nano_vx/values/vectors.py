"""A vector value, `<N x T>`: N lanes of the scalar type T, which `+ - * /` combine lane by
lane, each lane computed as the scalar operator computes it (an integer lane wraps, a division
of one by zero stops the program)."""

from __future__ import annotations

from .numbers import Elementwise, arith, coerce, format_scalar, to_index, unplace
from .stops import stop, wrong_kind

LANEWISE = frozenset("+ - * /".split())


class Vector(Elementwise):
    __slots__ = ("lanes", "elem")

    def __init__(self, lanes: tuple, elem: str):
        self.lanes, self.elem = lanes, elem

    @property
    def kind(self) -> str:  # what `describe` names
        return f"<{len(self.lanes)} x {self.elem}>"

    @staticmethod
    def of(values, elem: str, span) -> Vector:
        """A vector of `values`, each converted to `elem` as a typed `let` converts it."""
        return Vector(tuple(coerce(v, elem, span) for v in values), elem)

    def arith(self, op: str, a, b, span):
        """`a op b` with a or b this vector: both vectors of one type."""
        a, b = unplace(a), unplace(b)
        if op not in LANEWISE or type(a) is not Vector or type(b) is not Vector \
                or a.kind != b.kind:
            wrong_kind(span, f"cannot apply '{op}' to {_kind(a)} and {_kind(b)}")
        return Vector(tuple(arith(op, x, y, span) for x, y in zip(a.lanes, b.lanes)), a.elem)

    def lane(self, index, span):
        i = to_index(index, span)
        if not 0 <= i < len(self.lanes):
            stop("E9003", span, f"lane {i} of a vector of {len(self.lanes)} lanes")
        return self.lanes[i]

    def text(self) -> str:
        """As `print` writes it: its lanes, as each prints, between angle brackets."""
        return "<" + ", ".join(format_scalar(x) for x in self.lanes) + ">"


def _kind(v) -> str:
    return v.kind if type(v) is Vector else type(v).__name__
