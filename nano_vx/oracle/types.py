"""Compiling the parts of a type that matter at run time: the scalar a value converts to
(a typed `let`, parameter or return types the literals under it), tensor extents, and
topology references."""

from __future__ import annotations

from ..nanopass import Handlers
from ..values.literals import TYPE_WRAPPERS
from ..values.numbers import (
    FLOAT_TYPES, INT_TYPES, Placed, TFloat, TInt, coerce, describe, to_index, truncating,
)
from ..values.places import Topo
from ..values.stops import wrong_kind
from ..values.tensors import Tensor
from .expressions import INTERPRETED

# The types a value is converted to at run time; any other asks for nothing.
CONFORMERS = Handlers("the interpreter's conversions to a type", INTERPRETED, "Type")
EXTENTS = Handlers("the interpreter's tensor extents", INTERPRETED, "Dim")


class TypeMixin:
    conformers = CONFORMERS
    extents = EXTENTS

    def conformer(self, ty, span):
        """A function converting a value to type `ty` where the context fixes it, or None
        when the type asks for nothing at run time (a generic `T`, no annotation)."""
        make = self.conformers.get(ty._prod) if ty is not None else None
        return make(self, ty, span) if make is not None else None

    @CONFORMERS.on("Scalar")
    def conform_scalar(self, ty, span):
        return scalar_conformer(ty.name, span)

    @CONFORMERS.on("TensorType")
    def conform_tensor(self, ty, span):
        def conform(v):
            if type(v) is not Tensor:
                wrong_kind(span, f"expected a tensor, found {describe(v)}")
            return v
        return conform

    @CONFORMERS.on("TupleType")
    def conform_tuple(self, ty, span):
        parts = [self.conformer(t, span) for t in ty.elems]

        def conform(v):
            if type(v) is not tuple or len(v) != len(parts):
                wrong_kind(span, f"expected a tuple of {len(parts)}, found {describe(v)}")
            return tuple(c(x) if c is not None else x for c, x in zip(parts, v))
        return conform

    @CONFORMERS.on(*TYPE_WRAPPERS)
    def conform_wrapped(self, ty, span):
        inner = self.conformer(ty.inner, span)
        if inner is None:
            return None

        def conform(v):  # keep the placement mark on a scalar that has one
            if type(v) is Placed:
                return Placed(inner(v.value), v.space, v.topo)
            return inner(v)
        return conform

    def conformed(self, value, name: str, span):
        """The closure `value` whose result is converted to scalar type `name`: an operand
        of a type the compiler decided (Lscalars on), computed at that type."""
        if name == "void":
            return value
        # The check inline for the types a value carries as a bare Python object, so an
        # operand of the right type costs one closure call.
        exact = {"i32": int, "f64": float, "bool": bool}.get(name)
        if exact is not None:
            def conformed(f):
                v = value(f)
                if type(v) is exact and (exact is not int or -2147483648 <= v <= 2147483647):
                    return v
                return coerce(v, name, span)
            return conformed
        t = INT_TYPES.get(name) or FLOAT_TYPES[name]
        boxed = TInt if name in INT_TYPES else TFloat

        def conformed_boxed(f):
            v = value(f)
            if type(v) is boxed and v.t is t:
                return v
            return coerce(v, name, span)
        return conformed_boxed

    def dim(self, d, sc):
        """A closure computing one tensor extent (`4`, `S`, `S*2`) as a Python int."""
        return self.extents[d._prod](self, d, sc)

    @EXTENTS.on("DimInt")
    def dim_int(self, d, sc):
        value = d.value
        return lambda f: value

    @EXTENTS.on("DimName")
    def dim_name(self, d, sc):
        read, span = self.name_value(d.name, sc, d.span), d.span
        return lambda f: to_index(read(f), span)

    @EXTENTS.on("DimBinary")
    def dim_binary(self, d, sc):
        left, right, op, span = self.dim(d.left, sc), self.dim(d.right, sc), d.op, d.span

        def binary(f):
            a, b = left(f), right(f)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if b == 0:
                wrong_kind(span, f"extent arithmetic {a} {op} 0 divides by zero")
            return truncating(op, a, b)
        if op not in ("+", "-", "*", "/", "%"):
            wrong_kind(span, f"'{op}' is not extent arithmetic")
        return binary

    def topo(self, node, sc):
        """A closure evaluating `Topology::N`, `N[i]` or `N[a..b]`; the bounds are evaluated
        in the calling scope (semantics §1.1 rule 6)."""
        name, span = node.name, node.span
        index = self.expr(node.index, sc) if node.index is not None else None
        end = self.expr(node.end, sc) if node.end is not None else None

        def make(f):
            i = to_index(index(f), span) if index is not None else None
            e = to_index(end(f), span) if end is not None else None
            return Topo(name, i, e)
        return make


def scalar_conformer(name: str, span):
    """A function converting a value to scalar type `name`; None for `void` (a function
    without a result, from Lscalars on), which converts nothing."""
    if name == "void":
        return None
    if name == "i32":
        def conform(v):
            if type(v) is int and -2147483648 <= v <= 2147483647:
                return v
            return coerce(v, "i32", span)
        return conform
    return lambda v: coerce(v, name, span)
